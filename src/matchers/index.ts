export { sequenceMatcherRatio } from "./sequence-matcher.js";
export { deepevalCompareParams } from "./deepeval-compare-params.js";
export { axionFuzzyScore, axionSubsetMatch, axionValueSimilarity } from "./axion-parameters.js";
export { diffArguments } from "./diff-arguments.js";
export type { DiffArgumentsOptions } from "./diff-arguments.js";
export { isValueMatcher, match, toExpectedValue } from "./value-matchers.js";
export type {
  CloseToOptions,
  TextOptions,
  ExpectedValue,
  RangeOptions,
  ValueMatcher,
} from "./value-matchers.js";
export { compareArguments } from "./compare-arguments.js";
export type {
  ArgumentMode,
  ArgumentRule,
  CompareOptions,
  CompiledRules,
} from "./compare-arguments.js";
export { compilePathPattern } from "./path-rules.js";
export type { PathPattern } from "./path-rules.js";
export { SchemaValidator } from "./schema-validation.js";
export type { SchemaViolation } from "./schema-validation.js";
