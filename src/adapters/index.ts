export {
  parseTrajectories,
  parseTrajectory,
  normalizeTrajectoryNames,
} from "./parse-trajectory.js";
export type { ParseTrajectoryOptions } from "./parse-trajectory.js";
export { detectFormat } from "./detect-format.js";
export type { FormatDetection } from "./detect-format.js";
export { createNameNormalizer, normalizeToolName } from "./normalize-tool-name.js";
export type { NameNormalizationOptions } from "./normalize-tool-name.js";
export { readToolList, readToolSpecs } from "./tool-spec.js";
