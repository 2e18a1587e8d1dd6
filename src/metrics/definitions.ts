import {
  InvalidInputError,
  InvalidOptionError,
  JudgeRequiredError,
  MissingParamsError,
} from "../core/errors.js";
import type { ToolCallMatchDetails } from "../core/explanation.js";
import type { JsonObject } from "../core/json.js";
import { keepsDetails, measureBySync, measureKeepingDetails } from "../core/metric.js";
import type {
  KeptDetails,
  MeasuresKeepingDetails,
  Metric,
  MetricDefinition,
  ResolvedMetricContext,
} from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import {
  resolveAxionToolCorrectnessOptions,
  scoreAxionToolCorrectness,
} from "./axion-tool-correctness.js";
import {
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "./deepeval-tool-correctness.js";
import {
  camelKeys,
  caseOptions,
  nameOption,
  optionsObject,
  rejectUnknownOptions,
} from "../core/options.js";
import type { ResolvedRagasToolCallOptions } from "./ragas-tool-call.js";
import {
  resolveRagasToolCallAccuracyOptions,
  resolveRagasToolCallF1Options,
  scoreRagasToolCallAccuracy,
  scoreRagasToolCallF1,
} from "./ragas-tool-call.js";
import { responseContains, responseContainsCaseOptions } from "./response-contains.js";
import { recovery, recoveryCaseOptions } from "./recovery.js";
import { efficiency, efficiencyCaseOptions } from "./efficiency.js";
import { toolSafety, toolSafetyCaseOptions } from "./tool-safety.js";
import { knownMatchOptions, matchCaseOptions } from "./match-options.js";
import { toolCallAccuracy } from "./tool-call-accuracy.js";
import { describedMetric } from "../core/metric-catalog.js";
import type { MetricId } from "../core/metric-catalog.js";

/** Case fields every tool-call metric reads, with the names the metric's errors use. */
function callLists(
  metric: string,
  testCase: TestCase,
): { called: ToolCall[]; expected: ToolCall[] } {
  const given: unknown = testCase;
  if (typeof given !== "object" || given === null) {
    throw new InvalidInputError({ field: "testCase", message: `${metric} measures a test case` });
  }
  const missing = (["toolsCalled", "expectedTools"] as const).filter(
    (field) => (testCase[field] as unknown) === undefined || (testCase[field] as unknown) === null,
  );
  if (missing.length > 0) {
    throw new MissingParamsError({
      fields: missing,
      message: `${metric} needs ${missing.join(" and ")} on the test case (an empty list means no calls)`,
    });
  }
  return {
    called: toToolCalls(testCase.toolsCalled, { field: "toolsCalled" }),
    expected: toToolCalls(testCase.expectedTools, { field: "expectedTools" }),
  };
}

/** A metric that scores synchronously, as `syncMetric` makes it (its options aside). */
interface SyncMetricSpec<TResolved> {
  readonly id: Extract<
    MetricId,
    | "deepeval-tool-correctness"
    | "axion-tool-correctness"
    | "ragas-tool-call-accuracy"
    | "ragas-tool-call-f1"
  >;
  readonly defaultName: string;
  readonly resolve: (options: JsonObject) => TResolved;
  /** What a case's `metricOptions` may set (see `caseOptions`). */
  readonly caseOptions: readonly string[];
  /** What only the run may set besides these and `name`. */
  readonly runOptions?: readonly string[];
  /** The case's numbers and reason; `explain` gives its details, which may cost more. */
  readonly score: (
    testCase: TestCase,
    resolved: TResolved,
    name: string,
  ) => Omit<MetricResult & { status: "scored" }, "status" | "metric" | "details"> & {
    readonly explain: () => ToolCallMatchDetails;
  };
}

/** The definition of a metric `syncMetric` makes: its catalog entry, what a case may set, its maker. */
function syncDefinition<TResolved>(spec: SyncMetricSpec<TResolved>): MetricDefinition {
  return {
    ...describedMetric(spec.id),
    caseOptions: spec.caseOptions,
    create: (options) => syncMetric({ ...spec, options }),
  };
}

/**
 * Builds a metric that scores synchronously from its options as given (either case of keys, an
 * unknown one refused), with `withOptions` re-resolving merged options.
 */
function syncMetric<TResolved>(
  input: SyncMetricSpec<TResolved> & { readonly options: JsonObject },
): Metric<TestCase, ToolCallMatchDetails> & MeasuresKeepingDetails<TestCase> {
  const { id, defaultName } = input;
  const options = camelKeys(optionsObject(id, input.options) as JsonObject);
  const name = nameOption(id, options.name, defaultName);
  const { name: _name, ...rest } = options;
  rejectUnknownOptions(id, rest, [...input.caseOptions, "name", ...(input.runOptions ?? [])]);
  const resolved = input.resolve(rest);
  /** The result, with its details unless `keep` leaves them out. */
  const measureKeeping = (
    testCase: TestCase,
    keep: KeptDetails | "all",
  ): MetricResult<ToolCallMatchDetails | null> => {
    try {
      const scored = input.score(testCase, resolved, name);
      const result: {
        -readonly [K in keyof ScoredResult]: ScoredResult[K];
      } = {
        status: "scored",
        metric: name,
        score: scored.score,
        threshold: scored.threshold,
        success: scored.success,
        details: null,
      };
      if (scored.reason !== undefined) result.reason = scored.reason;
      // Set last, so that the details stay the last key, as they always were.
      if (keep === "all" || keepsDetails(scored, keep)) result.details = scored.explain();
      return result;
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  const measureSync = (testCase: TestCase) =>
    measureKeeping(testCase, "all") as MetricResult<ToolCallMatchDetails>;
  return {
    id,
    name,
    measure: measureBySync(measureSync),
    measureSync,
    [measureKeepingDetails]: measureKeeping,
    withOptions(overrides: JsonObject) {
      return syncMetric({
        ...input,
        options: { ...options, ...caseOptions(id, overrides, input.caseOptions) },
      });
    },
  };
}

type ScoredResult = MetricResult<ToolCallMatchDetails | null> & { status: "scored" };

/** What a case may set of deepeval's options: matching rules and the threshold. */
export const deepevalCaseOptions = [
  "threshold",
  "evaluationParams",
  "includeReason",
  "strictMode",
  "shouldConsiderOrdering",
  "shouldExactMatch",
  "matching",
];

/** What a case may set of axion's options: matching rules and the threshold. */
const axionCaseOptions = [
  "threshold",
  "checkParameters",
  "strictOrder",
  "parameterMatchingStrategy",
  "fuzzyThreshold",
  "scoring",
];

/** What a case may set of ragas' options. */
const ragasAccuracyCaseOptions = ["threshold", "strictOrder"];
const ragasF1CaseOptions = ["threshold"];

/** One of ragas' two tool-call metrics, by id (the registry's, and `toolscore/ragas`' classes'). */
export function ragasMetric(
  id: "ragas-tool-call-accuracy" | "ragas-tool-call-f1",
  options: JsonObject,
): Metric {
  return syncMetric({ ...ragasSpec(id), options });
}

function ragasSpec(
  id: "ragas-tool-call-accuracy" | "ragas-tool-call-f1",
): SyncMetricSpec<ResolvedRagasToolCallOptions> {
  const accuracy = id === "ragas-tool-call-accuracy";
  return {
    id,
    defaultName: accuracy ? "Tool Call Accuracy (ragas)" : "Tool Call F1 (ragas)",
    caseOptions: accuracy ? ragasAccuracyCaseOptions : ragasF1CaseOptions,
    resolve: accuracy ? resolveRagasToolCallAccuracyOptions : resolveRagasToolCallF1Options,
    score: (testCase, resolved, name) => {
      const lists = callLists(name, testCase);
      const result = accuracy
        ? scoreRagasToolCallAccuracy(lists, resolved)
        : scoreRagasToolCallF1(lists);
      return passing(result.score, resolved.threshold, result.reason, result.details);
    },
  };
}

/** A score with its threshold, verdict, reason and details, as `syncMetric` takes it. */
function passing(score: number, threshold: number, reason: string, details: ToolCallMatchDetails) {
  return { score, threshold, success: score >= threshold, reason, explain: () => details };
}

/** The deterministic metrics, by id. */
export const deterministicMetrics: readonly MetricDefinition[] = [
  {
    // The pack's own, without the registry's judged values.
    ...describedMetric("tool-call-accuracy"),
    judge: "none",
    caseOptions: matchCaseOptions,
    create(options) {
      const given = camelKeys(optionsObject("tool-call-accuracy", options) as JsonObject);
      // A typo is named with the metric id the user wrote.
      rejectUnknownOptions("tool-call-accuracy", given, [...knownMatchOptions, "name", "safety"]);
      return toolCallAccuracy(given);
    },
  },
  syncDefinition({
    id: "deepeval-tool-correctness",
    defaultName: "Tool Correctness",
    caseOptions: deepevalCaseOptions,
    runOptions: ["limits"],
    resolve: resolveDeepevalToolCorrectnessOptions,
    score: (testCase, resolved, name) => {
      const result = scoreDeepevalToolCorrectness(callLists(name, testCase), resolved);
      const final = finalizeDeepevalScore({
        score: result.score,
        strictMode: resolved.strictMode,
        threshold: resolved.threshold,
      });
      return {
        score: final.score,
        threshold: final.threshold,
        success: final.success,
        ...(result.reason === undefined ? {} : { reason: result.reason }),
        // A quick score builds its details only when they are read.
        explain: () => result.details,
      };
    },
  }),
  syncDefinition({
    id: "axion-tool-correctness",
    defaultName: "Tool Correctness (axion)",
    caseOptions: axionCaseOptions,
    runOptions: ["limits"],
    resolve: resolveAxionToolCorrectnessOptions,
    score: (testCase, resolved, name) => {
      const result = scoreAxionToolCorrectness(callLists(name, testCase), resolved);
      return passing(result.score, resolved.threshold, result.explanation, result.details);
    },
  }),
  syncDefinition(ragasSpec("ragas-tool-call-accuracy")),
  syncDefinition(ragasSpec("ragas-tool-call-f1")),
  {
    ...describedMetric("response-contains"),
    caseOptions: responseContainsCaseOptions,
    create(options) {
      return responseContains(options);
    },
  },
  {
    ...describedMetric("recovery"),
    caseOptions: recoveryCaseOptions,
    create(options) {
      return recovery(options);
    },
  },
  {
    ...describedMetric("efficiency"),
    caseOptions: efficiencyCaseOptions,
    create(options) {
      return efficiency(options);
    },
  },
  {
    ...describedMetric("tool-safety"),
    caseOptions: toolSafetyCaseOptions,
    create(options) {
      return toolSafety(options);
    },
  },
];

/** The context deterministic metrics are made with: they never ask a judge or read a file. */
const withoutJudge: ResolvedMetricContext = {
  hasJudge: false,
  imageLoading: { baseDirectory: ".", allowedRoots: [] },
  judge: () => {
    throw new JudgeRequiredError({
      option: "judge",
      message: "a deterministic metric asked for a judge",
    });
  },
  loadContexts: () => Promise.reject(new Error("a deterministic metric asked to load contexts")),
};

/**
 * The deterministic metric `id` names, made from `options` as `createMetric` makes it; undefined
 * for any other id. For code that runs only these (worker threads), without loading the judged
 * metrics' code.
 */
export function createDeterministicMetric(id: string, options: JsonObject): Metric | undefined {
  const definition = deterministicMetrics.find((entry) => entry.id === id);
  if (definition === undefined) return undefined;
  const metric = definition.create(options, withoutJudge);
  return metric.id === id ? metric : { ...metric, id };
}

/** A metric of a run as a config names it: its registry id and its options. */
export interface RunMetricConfig {
  readonly metric: string;
  readonly options: JsonObject;
}

/**
 * A run's metric as `createMetric` and the run's `metrics` take it, its options beside its id; an
 * option named `metric` (which would stand for the id) is refused.
 */
export function metricEntry(config: RunMetricConfig): {
  readonly metric: string;
  readonly [option: string]: unknown;
} {
  if (Object.hasOwn(config.options, "metric")) {
    throw new InvalidOptionError({
      option: `${config.metric}.metric`,
      value: config.options.metric,
      message: `${config.metric} has no option "metric": a metric's id is not one of its options`,
    });
  }
  return { ...config.options, metric: config.metric };
}

/** A config's options with the run's threshold filled in where the metric sets none. */
export function withThreshold(config: RunMetricConfig, threshold?: number): RunMetricConfig {
  return threshold === undefined || "threshold" in config.options
    ? config
    : { metric: config.metric, options: { ...config.options, threshold } };
}
