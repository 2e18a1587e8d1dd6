/**
 * ragas-compatible multimodal metrics: `MultiModalFaithfulness` and `MultiModalRelevance` with
 * ragas' collections API (`ascore`) and legacy API (`SingleTurnSample`, `singleTurnAscore`),
 * judged by any toolscore judge, with images loaded safely; and `multimodalFaithfulness`, a
 * graded claim-by-claim version.
 */
export {
  MultiModalFaithfulness,
  MultiModalRelevance,
  SingleTurnSample,
  defaultVisionModel,
  multimodalFaithfulness,
} from "./multimodal.js";
export type {
  ContextStatus,
  MultiModalMetricOptions,
  MultiModalResult,
  MultimodalFaithfulnessCase,
  MultimodalFaithfulnessDetails,
  MultimodalFaithfulnessOptions,
} from "./multimodal.js";
export type { ClaimVerdict, ContextReference } from "../../judges/faithfulness.js";
export { InvalidInputError, MediaLoadError, ToolscoreError } from "../../core/errors.js";
