/**
 * ragas-compatible metrics: `ToolCallAccuracy` and `ToolCallF1` with ragas' multi-turn samples
 * (`MultiTurnSample`, `AIMessage`, `ToolCall`, `multiTurnAscore`); and the multimodal metrics: `MultiModalFaithfulness` and `MultiModalRelevance` with
 * ragas' collections API (`ascore`) and legacy API (`SingleTurnSample`, `singleTurnAscore`),
 * judged by any toolscore judge, with images loaded safely; and `gradedMultimodalFaithfulness`, a
 * toolscore metric that grades claim by claim (not a ragas class).
 */
import { gradedMultimodalFaithfulness } from "./multimodal.js";
import type { GradedMultimodalFaithfulnessOptions } from "./multimodal.js";
import type {
  GradedMultimodalFaithfulnessCase,
  GradedMultimodalFaithfulnessDetails,
} from "../../judges/graded-faithfulness.js";

export {
  MultiModalFaithfulness,
  MultiModalRelevance,
  SingleTurnSample,
  defaultVisionModel,
} from "./multimodal.js";
export { gradedMultimodalFaithfulness };
export {
  AIMessage,
  HumanMessage,
  MultiTurnSample,
  ToolCall,
  ToolCallAccuracy,
  ToolCallF1,
  ToolMessage,
} from "./tool-calls.js";
export type {
  RagasToolCallAccuracyOptions,
  RagasToolCallF1Options,
  RagasToolCallScore,
} from "../../metrics/ragas-tool-call.js";
export type { MultiModalMetricOptions, MultiModalResult } from "./multimodal.js";
export type { ContextStatus } from "../../judges/graded-faithfulness.js";
export type {
  GradedMultimodalFaithfulnessCase,
  GradedMultimodalFaithfulnessDetails,
  GradedMultimodalFaithfulnessOptions,
};
export type { ClaimVerdict, ContextReference } from "../../judges/faithfulness.js";
export {
  InvalidInputError,
  MediaLoadError,
  MissingParamsError,
  ToolscoreError,
} from "../../core/errors.js";
