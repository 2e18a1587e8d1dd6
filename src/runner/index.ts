export { evaluate } from "./evaluate.js";
export type { CasePosition, Evaluation, EvaluateOptions, RunEvent } from "./evaluate.js";
export { caseStatusOf } from "./case-result.js";
export type { CaseError, CaseResult, CaseStatus } from "./case-result.js";
export { createSummaryBuilder, maxListedFailures } from "./summary.js";
export type { EvaluationSummary, MetricSummary, SummaryBuilder } from "./summary.js";
export { caseContentOf, metricResultsOf, toCaseRecord } from "./record.js";
export type {
  CaseContent,
  CaseRecord,
  CaseRecordOptions,
  MetricEntry,
  RecordedCall,
} from "./record.js";
export { createCaseScorer, defaultDescribe } from "./score-case.js";
export type { CaseScorer } from "./score-case.js";
