import { ErrorCode, InvalidOptionError, ToolscoreError } from "../core/errors.js";
import type { JudgeRunSummary } from "../core/judge.js";
import { checkedMetricResult, resolveMetric } from "../core/metric.js";
import type { ConvertsToMetric, Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import type { CaseResult } from "../core/case-result.js";
import type { RunEvent } from "../evaluate/evaluate.js";
import { caseContentOf } from "../evaluate/record.js";
import type { EvaluationSummary } from "../core/summary.js";
import { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
import { toolCallsOf } from "./export.js";
import { captureTrace } from "./observe.js";
import type { Span, Trace } from "./span.js";

/** What the application is run on: an input, and what is expected of it. */
export interface Golden extends TestCase {
  readonly id?: string;
}

export interface EvaluateObservedOptions {
  /** The application: called once per golden with its input, inside a trace of its own. */
  observedCallback: (input: Golden["input"], golden: Golden) => unknown;
  goldens: readonly Golden[];
  /**
   * End-to-end metrics, scored on the trace's test case: the one set with `updateCurrentTrace`,
   * else the golden with the application's answer (when it returned text) and the tool calls the
   * trace recorded as `toolsCalled`. Optional when components carry metrics of their own.
   */
  metrics?: readonly (Metric | ConvertsToMetric)[];
  /** Goldens run at once. Default 4. */
  concurrency?: number;
  /** Stops starting goldens; finished ones are kept (and written, with `out`). */
  signal?: AbortSignal;
  /** Called as each golden finishes, in completion order. */
  onResult?: (result: ObservedResult) => void;
  /** Called for each of the runner's lifecycle events (progress bars, reporters). */
  onEvent?: (event: RunEvent) => void;
  /** Keep every golden's result (with its trace) for the returned `results`. Default true. */
  keepResults?: boolean;
  /**
   * A results file (JSON lines, as `toolscore eval` writes): one line per golden as it finishes,
   * so `toolscore report` renders HTML, JUnit and Markdown from it and a stopped run resumes.
   */
  out?: string;
  /** With `out`: skip the goldens the file already holds (same goldens and metrics required). */
  resume?: boolean;
  /** With `resume`: run again the goldens that ended in an error. */
  retryErrors?: boolean;
  /** With `out`: start over even when the file holds an unfinished run. */
  overwrite?: boolean;
  /** What the results file and reports call the goldens. Default "goldens". */
  name?: string;
  /** The judge session the metrics share, whose calls, tokens and cost the summary reports. */
  judge?: { summary(): JudgeRunSummary };
}

/** The scores of one observed component (a span with metrics and a test case). */
export interface ComponentResult {
  readonly spanId: string;
  readonly name: string;
  readonly type: Span["type"];
  /** Under the component's metric names; `results` of the golden files them as `name › metric`. */
  readonly results: readonly MetricResult[];
}

/**
 * One golden's outcome: a case result whose `results` are the end-to-end metrics' and then every
 * component's, named `component › metric` (`component [2] › metric` for its second run in the
 * same golden), with the same results split by where they came from, and the trace.
 */
export interface ObservedResult extends CaseResult {
  readonly endToEnd: readonly MetricResult[];
  readonly components: readonly ComponentResult[];
  readonly trace: Trace;
}

export interface ObservedEvaluation {
  /** The goldens run by this call, in the goldens' order (empty with `keepResults: false`). */
  readonly results: readonly ObservedResult[];
  /**
   * Over every golden (those a resumed run carried over too): one metric summary per end-to-end
   * metric, then one per `component › metric`.
   */
  readonly summary: EvaluationSummary;
}

async function score(metrics: readonly Metric[], testCase: TestCase, signal?: AbortSignal) {
  return Promise.all(
    metrics.map(async (metric): Promise<MetricResult> => {
      try {
        const result = checkedMetricResult(
          metric.name,
          await metric.measure(testCase, signal === undefined ? {} : { signal }),
        );
        return result.metric === metric.name ? result : { ...result, metric: metric.name };
      } catch (error) {
        if (signal?.aborted === true) throw error;
        return toErroredResult(metric.name, error);
      }
    }),
  );
}

/** The scores of every span that carries metrics, under their spans' names. */
async function scoreComponents(trace: Trace, signal?: AbortSignal): Promise<ComponentResult[]> {
  const components: ComponentResult[] = [];
  for (const span of trace.spans) {
    if (span.metrics === undefined || span.metrics.length === 0) continue;
    let results: MetricResult[];
    if (span.testCase === undefined) {
      results = span.metrics.map((metric) => ({
        status: "skipped" as const,
        metric: metric.name,
        reason: "the component set no test case (updateCurrentSpan({ testCase }))",
      }));
    } else {
      const testCase: TestCase =
        span.testCase.toolsCalled === undefined
          ? { ...span.testCase, toolsCalled: toolCallsOf(span) }
          : span.testCase;
      results = await score(span.metrics, testCase, signal);
    }
    components.push({ spanId: span.id, name: span.name, type: span.type, results });
  }
  return components;
}

/** Component results filed under `component › metric`, numbered when a component ran twice. */
function flatten(components: readonly ComponentResult[]): MetricResult[] {
  const seen = new Map<string, number>();
  return components.flatMap((component) => {
    const count = (seen.get(component.name) ?? 0) + 1;
    seen.set(component.name, count);
    const label = count === 1 ? component.name : `${component.name} [${count}]`;
    return component.results.map((result) => ({
      ...result,
      metric: `${label} › ${result.metric}`,
    }));
  });
}

function emptyTrace(): Trace {
  return { id: "", roots: [], spans: [], startTime: Date.now() };
}

function checkOptions(options: EvaluateObservedOptions): void {
  const { observedCallback, goldens } = options;
  if (typeof observedCallback !== "function") {
    throw new InvalidOptionError({
      option: "observedCallback",
      value: observedCallback,
      message: "observedCallback must be the function that runs the application",
    });
  }
  const givenGoldens: unknown = goldens;
  if (!Array.isArray(givenGoldens)) {
    throw new InvalidOptionError({
      option: "goldens",
      value: goldens,
      message: "goldens must be a list of test cases (at least an input each)",
    });
  }
  for (const option of ["resume", "retryErrors", "overwrite"] as const) {
    if (options[option] === true && options.out === undefined) {
      throw new InvalidOptionError({
        option,
        value: true,
        message: `${option} applies to a results file: set out as well`,
      });
    }
  }
  if (options.resume === true && options.overwrite === true) {
    throw new InvalidOptionError({
      option: "overwrite",
      value: true,
      message: "resume and overwrite contradict each other; choose one",
    });
  }
}

/**
 * Runs an application over goldens, each in its own trace, through the runner (its concurrency,
 * abort, events and summary), and scores every observed component that carries metrics and a
 * test case (`observe(fn, { metrics })` + `updateCurrentSpan`), and the whole run with `metrics`
 * (end to end). A component's test case without `toolsCalled` gets the tool calls recorded
 * under its span; the end-to-end one gets the trace's. With `out`, each golden's result is
 * written as it finishes, and `resume` continues a stopped run.
 *
 * @example
 * const { summary } = await evaluateObserved({
 *   observedCallback: (input) => agent(String(input)),
 *   goldens: [{ input: "Book a flight to Oslo", expectedTools: [...] }],
 *   metrics: [toolCallAccuracy()],
 *   out: "results/agent.jsonl",
 * });
 */
export async function evaluateObserved(
  options: EvaluateObservedOptions,
): Promise<ObservedEvaluation> {
  checkOptions(options);
  const { observedCallback, goldens, signal } = options;
  const metrics = (options.metrics ?? []).map((metric, at) =>
    resolveMetric(metric, `metrics[${at}]`),
  );
  const keepResults = options.keepResults ?? true;

  // What each golden in flight produced besides its scores, until its result is put together.
  const observed = new Map<
    number,
    { trace: Trace; endToEnd: MetricResult[]; components: ComponentResult[]; testCase: TestCase }
  >();
  const kept: ObservedResult[] = [];
  const { summary } = await evaluateToFile<Golden>({
    testCases: goldens,
    metrics,
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    ...(options.overwrite === undefined ? {} : { overwrite: options.overwrite }),
    ...(options.retryErrors === undefined ? {} : { retryErrors: options.retryErrors }),
    name: options.name ?? "goldens",
    concurrency: options.concurrency ?? 4,
    ...(signal === undefined ? {} : { signal }),
    ...(options.judge === undefined
      ? {}
      : { judgeSummary: () => (options.judge as { summary(): JudgeRunSummary }).summary() }),
    describe: (golden, position) => {
      const id = (golden as Golden).id;
      return {
        index: position,
        id: typeof id === "string" && id !== "" ? id : `golden-${position + 1}`,
      };
    },
    scoreCase: async (golden, { position }) => {
      let trace: Trace;
      let output: unknown;
      try {
        const captured = await captureTrace(() => observedCallback(golden.input, golden), {
          name: position.id,
        });
        trace = captured.trace;
        output = captured.result;
      } catch (thrown) {
        trace = (thrown as { trace?: Trace }).trace ?? emptyTrace();
        observed.set(position.index, { trace, endToEnd: [], components: [], testCase: golden });
        throw new ToolscoreError(ErrorCode.CALLBACK_FAILED, {
          message: `the application threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
          cause: thrown,
        });
      }
      const set = trace.testCase;
      const testCase: TestCase = {
        ...golden,
        ...set,
        ...(set?.actualOutput === undefined && typeof output === "string"
          ? { actualOutput: output }
          : {}),
        ...(set?.toolsCalled === undefined ? { toolsCalled: toolCallsOf(trace) } : {}),
      };
      const endToEnd = await score(metrics, testCase, signal);
      const components = await scoreComponents(trace, signal);
      observed.set(position.index, { trace, endToEnd, components, testCase });
      return [...endToEnd, ...flatten(components)];
    },
    // The record shows the case the metrics scored: the golden with what the run observed.
    recordContent: (result) =>
      caseContentOf(observed.get(result.index)?.testCase ?? goldens[result.index]),
    onResult: (result) => {
      const extra = observed.get(result.index);
      observed.delete(result.index);
      const full: ObservedResult = {
        ...result,
        endToEnd: extra?.endToEnd ?? [],
        components: extra?.components ?? [],
        trace: extra?.trace ?? emptyTrace(),
      };
      if (keepResults) kept.push(full);
      options.onResult?.(full);
    },
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  kept.sort((a, b) => a.index - b.index);
  return { results: kept, summary };
}
