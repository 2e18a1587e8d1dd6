export { sequenceMatcherRatio } from "./sequence-matcher.js";
export { deepevalCompareParams } from "./deepeval-compare-params.js";
export { axionFuzzyScore, axionSubsetMatch, axionValueSimilarity } from "./axion-parameters.js";
export { diffArguments } from "./diff-arguments.js";
export type { DiffArgumentsOptions } from "./diff-arguments.js";
