/**
 * Conversations scored turn by turn: the case of one user turn, and how the turns' results make
 * the conversation's (one rule for every metric, and for `matchToolCallsByTurn`).
 */
import { InvalidOptionError, LimitExceededError } from "./errors.js";
import type { MetricEntry } from "./case-record.js";
import type { JsonObject } from "./json.js";
import type { MetricResult } from "./metric-result.js";
import { contentText } from "./test-case.js";
import type { CaseTurn, Content, TestCase } from "./test-case.js";
import { plural } from "./words.js";

/** How turns' scores make the conversation's: their mean, their minimum, or 1 only if all pass. */
export type TurnAggregate = "mean" | "min" | "all";

export const turnAggregates: readonly TurnAggregate[] = ["mean", "min", "all"];

/** Reads a turn aggregate; an `InvalidOptionError` naming `option` otherwise. */
export function readTurnAggregate(value: unknown, option: string): TurnAggregate {
  if (turnAggregates.includes(value as TurnAggregate)) return value as TurnAggregate;
  throw new InvalidOptionError({
    option,
    value,
    message: `${option} must be ${turnAggregates.join(", ")}, got ${JSON.stringify(value)}`,
  });
}

/**
 * The conversation's score from its turns': the mean (default), the minimum, or 1 when every turn
 * passed and 0 otherwise. It passes when every turn passed (`all`), else when the score reaches
 * `threshold`. No turns score 1.
 */
export function aggregateTurns(
  turns: readonly { readonly score: number; readonly success: boolean }[],
  aggregate: TurnAggregate,
  threshold: number,
): { readonly score: number; readonly success: boolean } {
  if (turns.length === 0) return { score: 1, success: true };
  if (aggregate === "all") {
    const success = turns.every((turn) => turn.success);
    return { score: success ? 1 : 0, success };
  }
  const score =
    aggregate === "min"
      ? Math.min(...turns.map((turn) => turn.score))
      : turns.reduce((sum, turn) => sum + turn.score, 0) / turns.length;
  // A mean of several floats lands a hair under the threshold it equals (0.7999… for 0.8).
  return { score, success: score >= threshold - 1e-9 };
}

/** One turn's outcome under a metric, as a conversation's result holds it (1-based `turn`). */
export type TurnOutcome = { readonly turn: number } & MetricEntry;

/** A call made at one turn and expected at another (1-based turns, indices within the turns). */
export interface MisplacedCall {
  readonly name: string;
  readonly madeAt: number;
  readonly expectedAt: number;
  readonly calledIndex: number;
  readonly expectedIndex: number;
}

/** The details of a conversation's result under one metric: each turn's, and how they combine. */
export interface TurnsDetails {
  readonly aggregate: TurnAggregate;
  readonly turns: readonly TurnOutcome[];
  /** Calls made at one turn and expected at another, when the metric matches calls. */
  readonly misplaced?: readonly MisplacedCall[];
}

/** Whether a result's details are a conversation's, turn by turn. */
export function isTurnsDetails(details: unknown): details is TurnsDetails {
  return (
    typeof details === "object" &&
    details !== null &&
    Array.isArray((details as { turns?: unknown }).turns) &&
    typeof (details as { aggregate?: unknown }).aggregate === "string"
  );
}

/** A turn's result, as the conversation's details hold it. */
export function turnOutcomeOf(result: MetricResult, turn: number): TurnOutcome {
  switch (result.status) {
    case "scored": {
      const { score, threshold, success, reason, details } = result;
      return {
        turn,
        status: "scored",
        score,
        threshold,
        success,
        ...(reason === undefined ? {} : { reason }),
        ...(details === undefined || details === null ? {} : { details }),
      };
    }
    case "error":
      return { turn, status: "error", error: result.error };
    case "skipped":
      return { turn, status: "skipped", reason: result.reason };
    default:
      return {
        turn,
        status: "not-evaluable",
        reason: result.reason,
        ...(result.details === undefined ? {} : { details: result.details }),
      };
  }
}

/** What a turn's match left over: calls it did not expect, expected calls it did not get. */
export interface TurnLeftovers {
  readonly unexpected: readonly {
    readonly calledIndex: number;
    readonly name: string;
    readonly allowed?: boolean;
  }[];
  readonly missing: readonly {
    readonly expectedIndex: number;
    readonly name: string;
    readonly allowed?: boolean;
  }[];
}

/** Checks of a call against an expected call of another turn at most, by default. */
export const defaultMaxMisplacedChecks = 100_000;

/** The turns that missed expected calls of one tool, in turn order, and which are still free. */
interface MissingOfTool {
  readonly turns: { readonly at: number; readonly expected: number[] }[];
  /** Union-find links to the nearest turn (right, left) whose expected calls are not all taken. */
  readonly right: Int32Array;
  readonly left: Int32Array;
}

function missingByTool(turns: readonly TurnLeftovers[]): Map<string, MissingOfTool> {
  const lists = new Map<string, { at: number; expected: number[] }[]>();
  turns.forEach((turn, at) => {
    for (const missing of turn.missing) {
      if (missing.allowed === true) continue;
      let list = lists.get(missing.name);
      if (list === undefined) lists.set(missing.name, (list = []));
      const last = list.at(-1);
      if (last?.at === at) last.expected.push(missing.expectedIndex);
      else list.push({ at, expected: [missing.expectedIndex] });
    }
  });
  const byTool = new Map<string, MissingOfTool>();
  for (const [name, list] of lists) {
    // right[i] (i in 0..n) leads to the first turn >= i with a free call (n: none); left[i + 1]
    // to the last turn <= i with one, shifted by one (0: none).
    const right = new Int32Array(list.length + 1).map((_, i) => i);
    const left = new Int32Array(list.length + 1).map((_, i) => i);
    byTool.set(name, { turns: list, right, left });
  }
  return byTool;
}

/** The root of `i` in a union-find array, the path halved on the way. */
function rootOf(links: Int32Array, i: number): number {
  let at = i;
  while (links[at] !== at) {
    links[at] = links[links[at]];
    at = links[at];
  }
  return at;
}

/**
 * The calls made at one turn and expected at another: each call a turn did not expect, tried
 * (by `matches`, under the other turn's rules) against the expected calls of the same tool the
 * other turns missed, nearest turn first (the earlier of two as near); each expected call taken
 * once. Linear in the turns but for the checks, which stop at `maxChecks` with a
 * `LimitExceededError` (limits.maxMisplacedChecks).
 */
export function findMisplacedCalls(
  turns: readonly TurnLeftovers[],
  matches: (
    madeAt: number,
    calledIndex: number,
    expectedAt: number,
    expectedIndex: number,
  ) => boolean,
  options: { readonly maxChecks?: number } = {},
): MisplacedCall[] {
  const maxChecks = options.maxChecks ?? defaultMaxMisplacedChecks;
  const misplaced: MisplacedCall[] = [];
  if (!turns.some((turn) => turn.unexpected.length > 0)) return misplaced;
  const byTool = missingByTool(turns);
  let checks = 0;
  /** Tries the free expected calls of one turn; true when one was taken. */
  const tryTurn = (
    tool: MissingOfTool,
    group: number,
    made: number,
    extra: TurnLeftovers["unexpected"][number],
  ): boolean => {
    const { at, expected } = tool.turns[group];
    for (let i = 0; i < expected.length; i++) {
      if (++checks > maxChecks) {
        throw new LimitExceededError({
          limit: "maxMisplacedChecks",
          maximum: maxChecks,
          message: `looking for calls made at the wrong turn took more than ${maxChecks} checks of a call against an expected call of another turn (limits.maxMisplacedChecks; see docs/reference/limits.md)`,
        });
      }
      if (!matches(made, extra.calledIndex, at, expected[i])) continue;
      misplaced.push({
        name: extra.name,
        madeAt: made + 1,
        expectedAt: at + 1,
        calledIndex: extra.calledIndex,
        expectedIndex: expected[i],
      });
      expected.splice(i, 1);
      if (expected.length === 0) {
        tool.right[group] = group + 1;
        tool.left[group + 1] = group;
      }
      return true;
    }
    return false;
  };
  turns.forEach((turn, made) => {
    for (const extra of turn.unexpected) {
      if (extra.allowed === true) continue;
      const tool = byTool.get(extra.name);
      if (tool === undefined) continue;
      const list = tool.turns;
      // The first turn at or after this one, by binary search.
      let low = 0;
      let high = list.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (list[middle].at < made) low = middle + 1;
        else high = middle;
      }
      let right = rootOf(tool.right, low);
      if (right < list.length && list[right].at === made) right = rootOf(tool.right, right + 1);
      let left = rootOf(tool.left, low) - 1;
      for (;;) {
        const hasLeft = left >= 0;
        const hasRight = right < list.length;
        if (!hasLeft && !hasRight) break;
        const goLeft = hasLeft && (!hasRight || made - list[left].at <= list[right].at - made);
        if (goLeft) {
          if (tryTurn(tool, left, made, extra)) break;
          left = rootOf(tool.left, left) - 1;
        } else {
          if (tryTurn(tool, right, made, extra)) break;
          right = rootOf(tool.right, right + 1);
        }
      }
    }
  });
  return misplaced;
}

/** Characters of a user's message quoted in a reason. */
const QUOTED = 60;

/**
 * The misplaced calls, each named by the turn it was made at, for a reason; with the turns'
 * requests (`inputs`, by turn), what the user said at the turn the call was expected at.
 */
export function misplacedReasons(
  misplaced: readonly MisplacedCall[],
  inputs: readonly (Content | undefined)[] = [],
): string[] {
  return misplaced.map((call) => {
    const early = call.madeAt < call.expectedAt;
    const given = inputs[call.expectedAt - 1];
    const said = given === undefined ? "" : contentText(given).replace(/\s+/g, " ").trim();
    const quoted = said.length > QUOTED ? `${said.slice(0, QUOTED - 1)}…` : said;
    const when =
      quoted === ""
        ? ""
        : `, ${early ? "before" : "after"} the user said ${JSON.stringify(quoted)}`;
    return `turn ${call.madeAt}: ${call.name} made ${early ? "too early" : "too late"}${when} (expected at turn ${call.expectedAt}).`;
  });
}

/**
 * The conversation's result under one metric from its turns' results: an error when a turn's
 * was one (named by the turn); skipped when every turn was skipped; not evaluable when a turn
 * could not be told and none failed; else the turns' scores (skipped turns left out) by
 * `aggregate`, the reason naming the failing turns first.
 */
export function combineTurnResults(input: {
  readonly metric: string;
  readonly results: readonly MetricResult[];
  readonly aggregate: TurnAggregate;
  /** The conversation's threshold: the metric's. */
  readonly threshold: number;
  readonly misplaced?: readonly MisplacedCall[];
  /** Each turn's request, to quote in the reason of a misplaced call. */
  readonly inputs?: readonly (Content | undefined)[];
}): MetricResult<TurnsDetails> {
  const { metric, results, aggregate, threshold, misplaced = [], inputs } = input;
  const details: TurnsDetails = {
    aggregate,
    turns: results.map((result, at) => turnOutcomeOf(result, at + 1)),
    ...(misplaced.length === 0 ? {} : { misplaced }),
  };
  const errored = results.findIndex((result) => result.status === "error");
  if (errored !== -1) {
    const { error } = results[errored] as Extract<MetricResult, { status: "error" }>;
    return {
      status: "error",
      metric,
      error: { ...error, message: `turn ${errored + 1}: ${error.message}` },
    };
  }
  const scored = results.flatMap((result, at) =>
    result.status === "scored" ? [{ result, turn: at + 1 }] : [],
  );
  const failed = scored.filter(({ result }) => !result.success);
  const unsure = results.flatMap((result, at) =>
    result.status === "not-evaluable" ? [`turn ${at + 1}: ${result.reason}`] : [],
  );
  if (scored.length === 0) {
    if (unsure.length > 0) {
      return { status: "not-evaluable", metric, reason: unsure.join(" "), details };
    }
    const first = results.find((result) => result.status === "skipped");
    return {
      status: "skipped",
      metric,
      reason: `skipped at every turn${first === undefined ? "" : `: ${first.reason}`}`,
    };
  }
  if (failed.length === 0 && unsure.length > 0) {
    return { status: "not-evaluable", metric, reason: unsure.join(" "), details };
  }
  const { score, success } = aggregateTurns(
    scored.map(({ result }) => result),
    aggregate,
    threshold,
  );
  const lines = misplacedReasons(misplaced, inputs);
  for (const { result, turn } of failed) {
    lines.push(`turn ${turn}: ${result.reason ?? `scored ${result.score}`}`);
  }
  lines.push(...unsure);
  const passed = scored.length - failed.length;
  lines.push(
    `${passed} of ${plural(scored.length, "turn")} passed (${aggregate === "all" ? "all must pass" : aggregate}).`,
  );
  // A line each: the first names what went wrong first (a console shows it alone).
  return {
    status: "scored",
    metric,
    score,
    threshold,
    success: success && misplaced.length === 0,
    reason: lines.join("\n"),
    details,
  };
}

/** Options by metric id or name: the turn's laid over the case's, metric by metric. */
function mergedOptions(
  own: Readonly<Record<string, JsonObject>> | undefined,
  turn: Readonly<Record<string, JsonObject>> | undefined,
): Readonly<Record<string, JsonObject>> | undefined {
  if (turn === undefined) return own;
  if (own === undefined) return turn;
  const merged: Record<string, JsonObject> = { ...own };
  for (const [key, value] of Object.entries(turn)) merged[key] = { ...own[key], ...value };
  return merged;
}

/**
 * The case one user turn is scored as: the turn's request, calls, replies and expectations, with
 * the conversation's tools, contexts and options (the turn's laid over them), and its place in
 * the conversation (`conversation`: the turns, shared, and this one's index).
 */
export function turnCaseOf(testCase: TestCase, at: number): TestCase {
  const turns = testCase.turns ?? [];
  const turn: CaseTurn = turns[at] ?? {};
  const built: { -readonly [K in keyof TestCase]: TestCase[K] } = {};
  if (testCase.id !== undefined) built.id = `${testCase.id} turn ${at + 1}`;
  if (testCase.availableTools !== undefined) built.availableTools = testCase.availableTools;
  if (testCase.retrievedContexts !== undefined) {
    built.retrievedContexts = testCase.retrievedContexts;
  }
  const options = mergedOptions(testCase.metricOptions, turn.metricOptions);
  Object.assign(built, turn);
  if (options === undefined) delete built.metricOptions;
  else built.metricOptions = options;
  if (built.expectedTools === undefined) built.expectedTools = [];
  if (at > 0) built.conversation = { turns, at };
  return built;
}
