import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { callDiffLines, formatToolCall } from "../core/call-diff.js";
import type { DiffCall } from "../core/call-diff.js";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import type { Metric } from "../core/metric.js";
import type { ToolSpec } from "../core/test-case.js";
import { readCallFields } from "../core/call-fields.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { userTurnsOf } from "../core/trajectory.js";
import { anyArguments, toExpectedCalls } from "../metrics/expected-calls.js";
import type { ExpectedCallsInput } from "../metrics/expected-calls.js";
import type { MatchOptions } from "../metrics/match-options.js";
import type { MatchResult } from "../metrics/match-result.js";
import { matchToolCalls } from "../metrics/match-tool-calls.js";
import { matchToolCallsByTurn } from "../metrics/match-by-turn.js";
import type { MatchByTurnOptions } from "../metrics/match-by-turn.js";

/** What a matcher gets from the test runner (vitest's and jest's `this`). */
export interface MatcherContext {
  readonly isNot: boolean;
}

export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly actual?: unknown;
  readonly expected?: unknown;
}

/** An expected call for the matchers: a name, or a name with (some of) its arguments. */
export type ExpectedToolCall =
  string | { readonly name: string; readonly arguments?: Readonly<Record<string, unknown>> };

function isTrajectory(value: unknown): value is { calls: readonly ToolCall[] } {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { calls?: unknown }).calls) &&
    typeof (value as { format?: unknown }).format === "string"
  );
}

/** Whether every item is a call the one call reader takes (plain or a provider's call item). */
function looksLikeCalls(value: readonly unknown[]): boolean {
  return value.every((item) => {
    try {
      readCallFields(item, "called", () => "received");
      return true;
    } catch {
      return false;
    }
  });
}

/** What a test holds, JSON text read as its value. */
function fromText(received: unknown): unknown {
  if (typeof received !== "string") return received;
  try {
    return JSON.parse(received) as unknown;
  } catch {
    throw new InvalidInputError({
      field: "received",
      message: "expected tool calls, a trajectory or a transcript; got text that is not JSON",
    });
  }
}

/**
 * The calls in what a test holds: a list of calls, a parsed trajectory, or a transcript in any
 * format `parseTrajectory` reads (OpenAI, Anthropic, Gemini, Bedrock, OpenTelemetry spans, ...),
 * also as JSON text.
 */
export function callsOf(received: unknown): ToolCall[] {
  const value = fromText(received);
  if (isTrajectory(value)) return [...value.calls];
  if (Array.isArray(value) && (value.length === 0 || looksLikeCalls(value))) {
    return toToolCalls(value, { field: "received" });
  }
  return [...parseTrajectory(value).calls];
}

/** Expected calls from names or `{ name, arguments? }`; a name alone accepts any arguments. */
function expectedInput(expected: readonly ExpectedToolCall[]): ExpectedCallsInput {
  return expected.map((item) =>
    typeof item === "string"
      ? { name: item }
      : item.arguments === undefined
        ? { name: item.name }
        : { name: item.name, arguments: item.arguments },
  );
}

function diffCallsOf(input: ExpectedCallsInput): DiffCall[] {
  // A call expected by name only is shown as `name(…)`: any arguments will do.
  return toExpectedCalls(input, "expected").calls.map((call) =>
    call.arguments === anyArguments
      ? { name: call.name }
      : { name: call.name, arguments: call.arguments },
  );
}

function made(calls: readonly ToolCall[]): string {
  if (calls.length === 0) return "  (no tool calls)";
  return calls
    .map(
      (call, index) =>
        `  ${index + 1}. ${formatToolCall({ name: call.name, arguments: call.inputParameters })}`,
    )
    .join("\n");
}

function diff(
  expected: ExpectedCallsInput,
  calls: readonly ToolCall[],
  result: MatchResult,
  unexpected = true,
) {
  return callDiffLines(
    {
      expected: diffCallsOf(expected),
      called: calls.map((call) => ({ name: call.name, arguments: call.inputParameters })),
      details: result,
    },
    { unexpected },
  )
    .map((line) => `  ${line}`)
    .join("\n");
}

/**
 * `expect(calls).toHaveCalledTool(name, args?)`: some call of `name` was made whose arguments
 * include `args` (extra arguments are fine; values may be matchers such as `match.regex`).
 */
export function toHaveCalledTool(
  this: MatcherContext,
  received: unknown,
  name: string,
  args?: Readonly<Record<string, unknown>>,
): MatcherResult {
  const calls = callsOf(received);
  const expected = expectedInput([{ name, ...(args === undefined ? {} : { arguments: args }) }]);
  // Whether such a call was made: the others, whatever they change, are not its concern.
  const result = matchToolCalls(calls, expected, {
    order: "all-expected",
    arguments: args === undefined ? "ignore" : "subset",
    score: "recall",
    sideEffects: { undeclared: "read-only" },
  });
  const pass = result.score >= 1;
  const wanted = formatToolCall({ name, ...(args === undefined ? {} : { arguments: args }) });
  return {
    pass,
    message: () =>
      pass
        ? `expected no call of ${wanted}, but it was made:\n${made(calls)}`
        : `expected a call of ${wanted}\n${diff(expected, calls, result, false)}\ncalls made:\n${made(calls)}`,
  };
}

/**
 * `expect(calls).toHaveCalledToolsInOrder([...])`: the calls named (or described with some
 * arguments) were made in this order; other calls may come between them.
 */
export function toHaveCalledToolsInOrder(
  this: MatcherContext,
  received: unknown,
  expectedCalls: readonly ExpectedToolCall[],
): MatcherResult {
  const calls = callsOf(received);
  const expected = expectedInput(expectedCalls);
  const withArguments = expectedCalls.some(
    (item) => typeof item !== "string" && item.arguments !== undefined,
  );
  const result = matchToolCalls(calls, expected, {
    order: "in-order",
    arguments: withArguments ? "subset" : "ignore",
    score: "recall",
    sideEffects: { undeclared: "read-only" },
  });
  const pass = result.score >= 1;
  const names = expectedCalls.map((item) => (typeof item === "string" ? item : item.name));
  return {
    pass,
    message: () =>
      pass
        ? `expected the calls not to include ${names.join(" → ")} in order, but they do:\n${made(calls)}`
        : `expected calls in order: ${names.join(" → ")}\n${diff(expected, calls, result, false)}\ncalls made:\n${made(calls)}`,
  };
}

/**
 * `expect(calls).toMatchToolCalls(expected, options)`: the engine's full comparison (order
 * modes, argument rules and matchers, outputs, constraints). Passes on a perfect score, or at
 * `options.threshold` when one is given.
 */
export function toMatchToolCalls(
  this: MatcherContext,
  received: unknown,
  expected: ExpectedCallsInput,
  options: MatchOptions = {},
): MatcherResult {
  const calls = callsOf(received);
  return matchVerdict(calls, expected, matchToolCalls(calls, expected, options), options.threshold);
}

/** A match's verdict: perfect, or at `threshold` when one is given, with the diff when not. */
function matchVerdict(
  calls: readonly ToolCall[],
  expected: ExpectedCallsInput,
  result: MatchResult,
  threshold: number | undefined,
): MatcherResult {
  const pass = threshold === undefined ? result.score >= 1 : result.success;
  return {
    pass,
    message: () =>
      pass
        ? `expected the calls not to match (score ${result.score}), but they do:\n${made(calls)}`
        : `expected the calls to match${threshold === undefined ? "" : ` at ${threshold}`}: score ${result.score} (${result.scoreKind}, order ${result.order})\n${diff(expected, calls, result)}\n${result.reason}`,
  };
}

/**
 * `await expect(testCase).toPassMetric(metric, threshold?)`: the metric scores the case at or
 * above `threshold` (default: the metric's own verdict).
 */
export async function toPassMetric(
  this: MatcherContext,
  received: unknown,
  metric: Metric<never>,
  threshold?: number,
): Promise<MatcherResult> {
  const result = await (metric as unknown as Metric<unknown>).measure(received);
  if (result.status !== "scored") {
    const why =
      result.status === "error"
        ? `${result.error.code}: ${result.error.message}`
        : `${result.status === "skipped" ? "skipped" : "not evaluable"}: ${result.reason}`;
    // No score is neither a pass nor a fail: `.not` must not turn an error into a pass.
    throw new Error(`${metric.name} could not score the case (${why})`);
  }
  const pass = threshold === undefined ? result.success : result.score >= threshold;
  const bar = threshold ?? result.threshold;
  const details = result.details as {
    pairs?: unknown;
    missing?: unknown;
    unexpected?: unknown;
  } | null;
  const testCase = received as { toolsCalled?: unknown; expectedTools?: unknown };
  let lines = "";
  if (
    details !== null &&
    Array.isArray(details.pairs) &&
    Array.isArray(testCase.toolsCalled) &&
    Array.isArray(testCase.expectedTools)
  ) {
    try {
      lines = `\n${diff(testCase.expectedTools as ExpectedCallsInput, callsOf(testCase.toolsCalled), details as MatchResult)}`;
    } catch {
      lines = "";
    }
  }
  return {
    pass,
    message: () =>
      pass
        ? `expected ${metric.name} to fail the case, but it scored ${result.score} (threshold ${bar})`
        : `expected ${metric.name} to pass the case: score ${result.score} is below ${bar}${result.reason === undefined ? "" : `\n${result.reason}`}${lines}`,
  };
}

/** `toMatchToolCallsWithJudge`'s options: the engine's, the judge, and what it is shown. */
export interface JudgedMatchOptions extends MatchOptions {
  /** The judge of the judged values (`match.judged`): a model string or a `JudgeModel`. */
  readonly judge: string | JudgeModel;
  /** The user's request, shown to the judge with each value. */
  readonly input?: string;
  /** The tools the agent had, shown to the judge with their descriptions and schemas. */
  readonly availableTools?: readonly ToolSpec[];
  /** Answers per judged value, their majority deciding (see the judges guide). Default 1. */
  readonly samples?: number;
}

/**
 * `await expect(calls).toMatchToolCallsWithJudge(expected, { judge, input })`: as
 * `toMatchToolCalls`, with the judged values of `expected` (`match.judged`) decided by the judge
 * first, as `tool-call-accuracy` decides them in a run. A match that hangs on a value the judge
 * could not tell, or an error (no key, a provider failure), throws: no verdict either way.
 */
export async function toMatchToolCallsWithJudge(
  this: MatcherContext,
  received: unknown,
  expected: ExpectedCallsInput,
  options: JudgedMatchOptions,
): Promise<MatcherResult> {
  const { judge, input, availableTools, ...matchOptions } = options;
  const calls = callsOf(received);
  // The registry is loaded only by tests that judge: the other matchers stay light.
  const { createMetric } = await import("../registry/metric-registry.js");
  const metric = createMetric(
    { metric: "tool-call-accuracy", ...(matchOptions as Record<string, never>) },
    { judge },
  );
  const result = await metric.measure({
    toolsCalled: calls,
    expectedTools: expected as never,
    ...(input === undefined ? {} : { input }),
    ...(availableTools === undefined ? {} : { availableTools }),
  });
  // No verdict is neither a pass nor a fail, whichever way the test asks: it throws.
  if (result.status === "error") {
    throw Object.assign(new Error(`${result.error.code}: ${result.error.message}`), {
      code: result.error.code,
    });
  }
  if (result.status !== "scored") {
    throw new Error(
      `${result.status === "skipped" ? "skipped" : "not evaluable"}: ${result.reason}`,
    );
  }
  // The metric's details are the match, its reason the judged values' verdicts included.
  return matchVerdict(calls, expected, result.details as MatchResult, options.threshold);
}

/** The calls of each user turn: a transcript's turns, or lists of calls given turn by turn. */
export function callsByTurn(received: unknown): ToolCall[][] {
  const value = fromText(received);
  if (Array.isArray(value) && value.length > 0 && value.every((turn) => Array.isArray(turn))) {
    return value.map((turn: unknown[]) => toToolCalls(turn, { field: "received" }));
  }
  const trajectory = isTrajectory(value)
    ? (value as {
        calls: readonly ToolCall[];
        turns?: readonly { input?: string; calls: readonly number[] }[];
      })
    : parseTrajectory(value);
  const turns = trajectory.turns ?? [{ calls: trajectory.calls.map((_, index) => index) }];
  return userTurnsOf(turns).map((turn) => turn.calls.map((index) => trajectory.calls[index]));
}

/**
 * `expect(messages).toHaveCalledToolsByTurn([[...], [...]], options?)`: each user turn made its
 * expected calls (a transcript's turns, split at the user's messages, or lists of calls given turn
 * by turn), as `matchToolCallsByTurn` decides: every turn matched, and no call made at the wrong
 * turn. The failure names the misplaced calls first (`turn 1: refund_order made too early
 * (expected at turn 2)`), then the turns that failed.
 */
export function toHaveCalledToolsByTurn(
  this: MatcherContext,
  received: unknown,
  expected: readonly ExpectedCallsInput[],
  options: MatchByTurnOptions = {},
): MatcherResult {
  const turns = callsByTurn(received);
  if (turns.length !== expected.length) {
    throw new InvalidInputError({
      field: "expected",
      message: `the conversation has ${turns.length} user turn${turns.length === 1 ? "" : "s"}, the expected calls ${expected.length}: give one list of expected calls per turn`,
    });
  }
  const result = matchToolCallsByTurn(
    turns.map((called, at) => ({ called, expected: expected[at] })),
    options,
  );
  const pass = result.success;
  return {
    pass,
    message: () =>
      pass
        ? `expected the turns not to make their calls, but each did:\n${turns.map((calls, at) => `turn ${at + 1}:\n${made(calls)}`).join("\n")}`
        : `expected each turn's calls: ${result.reason}`,
  };
}

/** The matchers, for `expect.extend` (vitest or jest). */
export const toolscoreMatchers = {
  toHaveCalledTool,
  toHaveCalledToolsInOrder,
  toHaveCalledToolsByTurn,
  toMatchToolCalls,
  toMatchToolCallsWithJudge,
  toPassMetric,
};

/** The matchers' types, for `declare module "vitest" { interface Assertion<T> ... }`. */
export interface ToolscoreMatchers<R = unknown> {
  toHaveCalledTool(name: string, args?: Readonly<Record<string, unknown>>): R;
  toHaveCalledToolsInOrder(expected: readonly ExpectedToolCall[]): R;
  toHaveCalledToolsByTurn(expected: readonly ExpectedCallsInput[], options?: MatchByTurnOptions): R;
  toMatchToolCalls(expected: ExpectedCallsInput, options?: MatchOptions): R;
  toMatchToolCallsWithJudge(expected: ExpectedCallsInput, options: JudgedMatchOptions): Promise<R>;
  toPassMetric(metric: Metric<never>, threshold?: number): Promise<R>;
}
