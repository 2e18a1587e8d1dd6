export { askJudge, unitScore } from "./ask-judge.js";
export type { AskJudgeOptions, JudgeAnswer } from "./ask-judge.js";
export { judgeToolSelection, readToolSelection, toolSelectionRequest } from "./tool-selection.js";
export type { SelectedCall, ToolSelectionInput, ToolSelectionVerdict } from "./tool-selection.js";
export {
  toolSelectionInstructions,
  toolSelectionPromptVersion,
  toolSelectionSchema,
} from "./prompts/tool-selection.js";
