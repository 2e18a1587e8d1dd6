import { ErrorCode, InvalidOptionError } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { PreparedContext } from "./context.js";
import type { JudgeModel } from "./judge.js";
import type { MetricResult } from "./metric-result.js";
import type { ImageSource, TestCase } from "./test-case.js";
import type { MisplacedCall } from "./turns.js";

/** What a metric's `measure` may be asked to honour. */
export interface MeasureOptions {
  /** Stops work as soon as possible; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * The contract every toolscore metric meets: a stable name, and `measure`, which scores one case
 * and resolves to a result (a score, or an error recorded for that case); it rejects only when
 * aborted.
 */
export interface Metric<TCase = TestCase, TDetails = unknown> {
  readonly name: string;
  /** The registry id the metric was made from (`"tool-call-accuracy"`), when it was. */
  readonly id?: string;
  measure(testCase: TCase, options?: MeasureOptions): Promise<MetricResult<TDetails>>;
  /**
   * The same as `measure`, synchronously, for metrics that need no I/O (the deterministic ones).
   * Runners use it to score without a promise per metric, and in worker threads.
   */
  measureSync?(testCase: TCase): MetricResult<TDetails>;
  /**
   * The same metric with some options replaced, for a case that brings its own
   * (`TestCase.metricOptions`). Throws `InvalidOptionError` for options it does not take.
   */
  withOptions?(overrides: JsonObject): Metric<TCase, TDetails>;
  /**
   * For a metric that matches calls, scoring a conversation turn by turn: the calls made at one
   * turn and expected at another, from each turn's case, result and metric (the one its options
   * made). Without it, a conversation's turns are only scored one by one.
   */
  misplacedCalls?(turns: readonly TurnScore<TCase>[]): readonly MisplacedCall[];
  /**
   * Whether the metric scores a conversation as one run (all its calls, what it spent), not turn
   * by turn: its turns are then each skipped with a reason that says so.
   */
  readonly scoresWholeRun?: boolean;
}

/** One turn of a conversation as a metric scored it. */
export interface TurnScore<TCase = TestCase> {
  readonly case: TCase;
  readonly result: MetricResult;
  readonly metric: Metric<TCase>;
}

/**
 * `measure` for a metric that scores synchronously: `measureSync`'s result as a promise, or the
 * signal's reason when it is already aborted.
 */
export function measureBySync<TCase, TDetails>(
  measureSync: (testCase: TCase) => MetricResult<TDetails>,
): (testCase: TCase, options?: MeasureOptions) => Promise<MetricResult<TDetails>> {
  return (testCase, options = {}) => {
    const signal = options.signal;
    if (signal?.aborted === true) {
      return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    }
    return Promise.resolve(measureSync(testCase));
  };
}

/** A metric that can score synchronously (see `Metric.measureSync`). */
export type SyncMetric<TCase = TestCase, TDetails = unknown> = Metric<TCase, TDetails> & {
  measureSync(testCase: TCase): MetricResult<TDetails>;
};

/**
 * Which results' details a caller keeps: none, or the failed ones' (`toolscore eval --details`,
 * writing a dataset it can read again: reports compute the others' again from the case).
 */
export type KeptDetails = "none" | "failed";

/** Whether `keep` keeps the details of `result`. */
export function keepsDetails(result: { readonly success: boolean }, keep: KeptDetails): boolean {
  return keep === "failed" && !result.success;
}

/**
 * Internal, not exported from the package: how a deterministic metric scores a case for a caller
 * that keeps only some results' details (see {@link KeptDetails}). A result whose details are
 * not kept may come with `details: null`, which saves building them; the rest is as
 * `measureSync` gives it.
 */
export const measureKeepingDetails: unique symbol = Symbol("toolscore.measureKeepingDetails");

/** A metric that can leave out the details a caller does not keep (see the symbol). */
export interface MeasuresKeepingDetails<TCase> {
  [measureKeepingDetails](testCase: TCase, keep: KeptDetails): MetricResult;
}

/** Whether `metric` can leave out the details a caller does not keep. */
export function measuresKeepingDetails<TCase>(
  metric: object,
): metric is MeasuresKeepingDetails<TCase> {
  return (
    typeof (metric as Partial<MeasuresKeepingDetails<TCase>>)[measureKeepingDetails] === "function"
  );
}

/**
 * How an object that is not itself a toolscore metric, a compatible class such as deepeval's
 * `ToolCorrectnessMetric`, axion's `ToolCorrectness` or ragas' `MultiModalFaithfulness`, gives
 * the toolscore metric that scores exactly as its own `measure` / `execute` / `ascore` does, so
 * that `evaluate` and the CLI run it like any other. Registered globally, so that two copies of
 * toolscore (ESM and CommonJS) agree.
 */
export const toMetric: unique symbol = Symbol.for("toolscore.toMetric") as never;

/** An object that stands for a toolscore metric (see {@link toMetric}). */
export interface ConvertsToMetric<TCase = TestCase> {
  [toMetric](): Metric<TCase>;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "Object" ? `a ${name}` : "an object";
}

/**
 * The toolscore metric `value` is, or stands for; an `InvalidOptionError` naming `option` (and
 * what is missing) when it is neither, so that a metric that cannot run fails when the run is
 * set up, never as a result without a score.
 */
export function resolveMetric<TCase = TestCase>(value: unknown, option: string): Metric<TCase> {
  if (typeof value === "object" && value !== null) {
    const convert = (value as Partial<ConvertsToMetric<TCase>>)[toMetric];
    if (typeof convert === "function") {
      return resolveMetric<TCase>(convert.call(value), option);
    }
    const candidate = value as Partial<Metric<TCase>>;
    if (typeof candidate.name === "string" && typeof candidate.measure === "function") {
      return value as Metric<TCase>;
    }
  }
  throw new InvalidOptionError({
    option,
    value,
    message: `${option} is ${describeValue(value)}, not a metric: a metric has a name and a measure(testCase) that resolves to a MetricResult (toolscore's metrics and the classes of toolscore/deepeval, toolscore/axion and toolscore/ragas all do)`,
  });
}

/**
 * A run's metrics, checked before any case runs: a list (empty only with `allowEmpty`), each
 * item the metric `make` gives for it (by default the one it is or stands for), no two with one
 * name.
 */
export function resolveMetricList<TCase = TestCase>(
  given: unknown,
  options: {
    readonly allowEmpty: boolean;
    /** What the list may hold, as its error says: `metrics`, `metrics or metric configs`. */
    readonly holds: string;
    /** The metric of the item at `at`. */
    readonly make?: (item: unknown, at: number) => Metric<TCase>;
  },
): Metric<TCase>[] {
  if (!Array.isArray(given) || (given.length === 0 && !options.allowEmpty)) {
    throw new InvalidOptionError({
      option: "metrics",
      value: given,
      message: `metrics must be a non-empty list of ${options.holds}`,
    });
  }
  const make =
    options.make ?? ((item: unknown, at: number) => resolveMetric<TCase>(item, `metrics[${at}]`));
  const metrics = (given as readonly unknown[]).map((item, at) => make(item, at));
  const names = metrics.map((metric) => metric.name);
  const duplicate = names.find((name, at) => names.indexOf(name) !== at);
  if (duplicate !== undefined) {
    throw new InvalidOptionError({
      option: "metrics",
      value: duplicate,
      message: `two metrics are named ${JSON.stringify(duplicate)}; give one of them another name (a metric config's name option)`,
    });
  }
  return metrics;
}

const statuses: ReadonlySet<string> = new Set(["scored", "error", "skipped", "not-evaluable"]);

/**
 * `result` when it is a `MetricResult`; else an error result saying what `metric` gave instead
 * (a number, say, from a metric written for another library), never a result without a score.
 */
export function checkedMetricResult(metric: string, result: unknown): MetricResult {
  if (
    typeof result === "object" &&
    result !== null &&
    statuses.has((result as { status?: unknown }).status as string) &&
    ((result as { status: string }).status !== "scored" ||
      typeof (result as { score?: unknown }).score === "number")
  ) {
    return result as MetricResult;
  }
  let shown: string;
  try {
    // undefined for a function or a symbol, whatever the declared type says.
    const text = JSON.stringify(result) as string | undefined;
    shown = text ?? String(result);
  } catch {
    shown = String(result);
  }
  return {
    status: "error",
    metric,
    error: {
      code: ErrorCode.METRIC_FAILED,
      message: `${metric}'s measure gave ${shown.length > 80 ? `${shown.slice(0, 80)}...` : shown}, not a MetricResult ({ status: "scored", score, threshold, success, ... })`,
    },
  };
}

/** What a metric's definition is given to make it: the judge, made on first need. */
export interface ResolvedMetricContext {
  readonly judge: () => JudgeModel;
  /** Whether a judge was given (for metrics that ask one only for some cases). */
  readonly hasJudge: boolean;
  /** Where relative image paths are read from, and the only folders they may be read from. */
  readonly imageLoading: { readonly baseDirectory: string; readonly allowedRoots: string[] };
  /**
   * Reads contexts for a judge of `provider` as `imageLoading` allows: each a text or an image,
   * in order, an image that did not load marked failed (files and the network arrive as this).
   */
  readonly loadContexts: (
    values: readonly (string | ImageSource)[],
    options: { readonly provider: string; readonly signal?: AbortSignal | undefined },
  ) => Promise<PreparedContext[]>;
}

/** What every metric definition has, whatever it asks of a judge. */
interface MetricDefinitionBase {
  /** Stable, kebab-case: `tool-call-accuracy`. */
  readonly id: string;
  /** One line for `--help` and error messages. */
  readonly description: string;
  /**
   * The options a case's `metricOptions` may set: matching rules and thresholds, never a judge,
   * endpoint, key, policy or limit (a dataset may come from a stranger's pull request).
   */
  readonly caseOptions: readonly string[];
  /** Makes the metric; throws `InvalidOptionError` naming a bad option. */
  create(options: JsonObject, context: ResolvedMetricContext): Metric;
}

/**
 * One metric toolscore makes by id, in code (`createMetric`) and in a config or on the command
 * line alike. `judge` says whether it asks an LLM judge: never, always (it needs one), or for some
 * options or cases (`asksJudge` says when, in words for `--help`, and whether, from its options).
 */
export type MetricDefinition = MetricDefinitionBase &
  (
    | { readonly judge: "none" }
    | { readonly judge: "required" }
    | {
        readonly judge: "optional";
        readonly asksJudge: {
          readonly when: string;
          asks(options: JsonObject, judgeGiven: boolean): boolean;
        };
      }
  );

/** Whether a metric made from `options` asks the judge, in a run with one or without. */
export function asksJudge(
  definition: MetricDefinition,
  options: JsonObject,
  judgeGiven: boolean,
): boolean {
  if (definition.judge === "optional") return definition.asksJudge.asks(options, judgeGiven);
  return definition.judge === "required";
}
