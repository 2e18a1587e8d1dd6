export { askJudge, unitScore } from "./ask-judge.js";
export type { AskJudgeOptions, JudgeAnswer } from "./ask-judge.js";
export { judgeToolSelection, readToolSelection, toolSelectionRequest } from "./tool-selection.js";
export type { SelectedCall, ToolSelectionInput, ToolSelectionVerdict } from "./tool-selection.js";
export {
  toolSelectionInstructions,
  toolSelectionPromptVersion,
  toolSelectionSchema,
} from "./prompts/tool-selection.js";
export { agreementStats } from "./calibration/agreement.js";
export type { AgreementStats, LabelledScore } from "./calibration/agreement.js";
export { calibrateToolSelectionJudge } from "./calibration/calibrate.js";
export type {
  CalibrationCaseResult,
  CalibrationOptions,
  CalibrationReport,
} from "./calibration/calibrate.js";
export { toolSelectionCalibrationSet } from "./calibration/tool-selection-cases.js";
export type { LabelledToolSelectionCase } from "./calibration/tool-selection-cases.js";
export {
  claimsRequest,
  claimsScore,
  contextParts,
  faithfulnessRequest,
  judgeClaims,
  judgeFaithfulness,
  judgeRelevance,
  readClaims,
  relevanceRequest,
  unjudgeableContexts,
} from "./faithfulness.js";
export type { BinaryVerdict, ClaimVerdict, ContextReference } from "./faithfulness.js";
export {
  claimsInstructions,
  claimsSchema,
  faithfulnessInstructions,
  faithfulnessPromptVersion,
  faithfulnessSchema,
  relevanceInstructions,
  relevanceSchema,
} from "./prompts/faithfulness.js";
