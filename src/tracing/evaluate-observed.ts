import pLimit from "p-limit";
import { ErrorCode, InvalidOptionError } from "../core/errors.js";
import type { Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import { caseStatusOf } from "../runner/case-result.js";
import type { CaseError, CaseStatus } from "../runner/case-result.js";
import { createSummaryBuilder } from "../runner/summary.js";
import type { EvaluationSummary, SummaryBuilder } from "../runner/summary.js";
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
   * trace recorded as `toolsCalled`.
   */
  metrics?: readonly Metric[];
  /** Goldens run at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called as each golden finishes, in completion order. */
  onResult?: (result: ObservedResult) => void;
}

/** The scores of one observed component (a span with metrics and a test case). */
export interface ComponentResult {
  readonly spanId: string;
  readonly name: string;
  readonly type: Span["type"];
  readonly results: readonly MetricResult[];
}

export interface ObservedResult {
  readonly index: number;
  readonly id: string;
  /** Error when the application threw or a metric could not score; failed below threshold. */
  readonly status: CaseStatus;
  readonly endToEnd: readonly MetricResult[];
  readonly components: readonly ComponentResult[];
  /** Set when the application threw for this golden. */
  readonly error?: CaseError;
  readonly trace: Trace;
  readonly durationMs: number;
}

export interface ObservedEvaluation {
  /** One result per golden, in the goldens' order. */
  readonly results: readonly ObservedResult[];
  readonly summary: {
    readonly endToEnd: EvaluationSummary;
    /** By component (span) name. */
    readonly components: Readonly<Record<string, EvaluationSummary>>;
  };
}

async function score(metrics: readonly Metric[], testCase: TestCase, signal?: AbortSignal) {
  return Promise.all(
    metrics.map(async (metric): Promise<MetricResult> => {
      try {
        const result = await metric.measure(testCase, signal === undefined ? {} : { signal });
        return result.metric === metric.name ? result : { ...result, metric: metric.name };
      } catch (error) {
        if (signal?.aborted === true) throw error;
        return toErroredResult(metric.name, error);
      }
    }),
  );
}

/**
 * Runs an application over goldens, each in its own trace, and scores every observed component
 * that carries metrics and a test case (`observe(fn, { metrics })` + `updateCurrentSpan`), and
 * the whole run with `metrics` (end to end). A component's test case without `toolsCalled` gets
 * the tool calls recorded under its span; the end-to-end one gets the trace's.
 *
 * @example
 * const { summary } = await evaluateObserved({
 *   observedCallback: (input) => agent(String(input)),
 *   goldens: [{ input: "Book a flight to Oslo", expectedTools: [...] }],
 *   metrics: [toolCallAccuracy()],
 * });
 */
export async function evaluateObserved(
  options: EvaluateObservedOptions,
): Promise<ObservedEvaluation> {
  const { observedCallback, goldens, signal } = options;
  const metrics = options.metrics ?? [];
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
  const limit = pLimit(options.concurrency ?? 4);
  const endToEnd = createSummaryBuilder(metrics.map((metric) => metric.name));
  const components = new Map<string, SummaryBuilder>();
  const started = performance.now();

  const runOne = async (golden: Golden, index: number): Promise<ObservedResult> => {
    const id = golden.id ?? `golden-${index + 1}`;
    const begin = performance.now();
    let trace: Trace;
    let output: unknown;
    let error: CaseError | undefined;
    try {
      const captured = await captureTrace(() => observedCallback(golden.input, golden), {
        name: id,
      });
      trace = captured.trace;
      output = captured.result;
    } catch (thrown) {
      trace = (thrown as { trace?: Trace }).trace ?? {
        id: "",
        roots: [],
        spans: [],
        startTime: Date.now(),
      };
      error = {
        code: ErrorCode.CALLBACK_FAILED,
        message: `the application threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
      };
    }
    const set = trace.testCase;
    const caseOf: TestCase = {
      ...golden,
      ...set,
      ...(set?.actualOutput === undefined && typeof output === "string"
        ? { actualOutput: output }
        : {}),
      ...(set?.toolsCalled === undefined ? { toolsCalled: toolCallsOf(trace) } : {}),
    };
    const endResults = error === undefined ? await score(metrics, caseOf, signal) : [];
    const componentResults: ComponentResult[] = [];
    for (const span of trace.spans) {
      if (span.metrics === undefined || span.metrics.length === 0) continue;
      if (span.testCase === undefined) {
        componentResults.push({
          spanId: span.id,
          name: span.name,
          type: span.type,
          results: span.metrics.map((metric) => ({
            status: "skipped" as const,
            metric: metric.name,
            reason: "the component set no test case (updateCurrentSpan({ testCase }))",
          })),
        });
        continue;
      }
      const testCase: TestCase =
        span.testCase.toolsCalled === undefined
          ? { ...span.testCase, toolsCalled: toolCallsOf(span) }
          : span.testCase;
      componentResults.push({
        spanId: span.id,
        name: span.name,
        type: span.type,
        results: await score(span.metrics, testCase, signal),
      });
    }
    const all = [...endResults, ...componentResults.flatMap((component) => component.results)];
    const status: CaseStatus = error !== undefined ? "error" : caseStatusOf(all);
    endToEnd.add({
      id,
      status: error !== undefined ? "error" : caseStatusOf(endResults),
      results: endResults,
    });
    for (const component of componentResults) {
      let builder = components.get(component.name);
      if (builder === undefined) {
        builder = createSummaryBuilder(component.results.map((result) => result.metric));
        components.set(component.name, builder);
      }
      builder.add({ id, status: caseStatusOf(component.results), results: component.results });
    }
    const result: ObservedResult = {
      index,
      id,
      status,
      endToEnd: endResults,
      components: componentResults,
      ...(error === undefined ? {} : { error }),
      trace,
      durationMs: performance.now() - begin,
    };
    options.onResult?.(result);
    return result;
  };

  const results = await Promise.all(
    goldens.map((golden, index) =>
      limit(() => {
        if (signal?.aborted === true)
          throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
        return runOne(golden, index);
      }),
    ),
  );
  const durationMs = performance.now() - started;
  return {
    results,
    summary: {
      endToEnd: endToEnd.summary({ durationMs }),
      components: Object.fromEntries(
        [...components].map(([name, builder]) => [name, builder.summary({ durationMs })]),
      ),
    },
  };
}
