export { candidatesOf, denseScoreMatrix, fillRowScores } from "./score-matrix.js";
export type { Pair, ScoreMatrix } from "./score-matrix.js";
export { axionFirstFitPairs, deepevalGreedyPairs } from "./greedy.js";
export type { DeepevalGreedyOptions } from "./greedy.js";
export { weightedLcs } from "./weighted-lcs.js";
export type { WeightedLcsOptions, WeightedLcsResult } from "./weighted-lcs.js";
export { positionalPairs } from "./positional.js";
export { assignmentWork, maxWeightFlow, optimalAssignment } from "./optimal-assignment.js";
export type { Flow, MaxWeightFlowOptions } from "./optimal-assignment.js";
