import { unparsedArgumentsNote } from "./explanation.js";
import type { ArgumentVerdict, Mismatch, ToolCallMatchDetails } from "./explanation.js";

/** A call as the diff shows it: a name and its arguments (any JSON, matchers in their JSON form). */
export interface DiffCall {
  readonly name: string;
  readonly arguments?: unknown;
}

export interface CallDiffOptions {
  /** Longest rendering of one call's arguments before it is cut with "…". Default 120. */
  readonly maxArgumentsLength?: number;
  /** Longest rendering of one value in a mismatch line. Default 80. */
  readonly maxValueLength?: number;
  /** List the calls made that were not expected (`+` lines). Default true. */
  readonly unexpected?: boolean;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** A value as JSON on one line, cut with "…" past `max` characters. */
export function render(value: unknown, max: number): string {
  let text: string;
  try {
    // undefined for functions and symbols, whatever the typings say.
    const json: unknown = JSON.stringify(value);
    text = typeof json === "string" ? json : String(value);
  } catch {
    text = String(value);
  }
  return clip(text, max);
}

/**
 * One call on one line: `get_weather({"city":"Paris"})`, long arguments cut with "…"; an expected
 * call that leaves its arguments out (any are accepted) is `send_email(…)`, one without any `f()`.
 */
export function formatToolCall(call: DiffCall, options: CallDiffOptions = {}): string {
  const args = call.arguments;
  if (args === undefined || args === null) return `${call.name}(…)`;
  const shown = render(args, options.maxArgumentsLength ?? 120);
  return `${call.name}(${shown === "{}" ? "" : shown})`;
}

/** One mismatch in plain words: `$.date: expected "2026-05-03", got "2026-06-01"`. */
export function describeMismatch(mismatch: Mismatch, options: CallDiffOptions = {}): string {
  const max = options.maxValueLength ?? 80;
  switch (mismatch.kind) {
    case "missing-call":
      return `expected[${mismatch.expectedIndex}] ${mismatch.name} was not called`;
    case "unexpected-call":
      return `called[${mismatch.calledIndex}] ${mismatch.name} was not expected`;
    case "out-of-order":
      return `expected[${mismatch.expectedIndex}] ${mismatch.name} was called out of order`;
    case "count-mismatch":
      return `expected ${mismatch.expected} calls, got ${mismatch.actual}`;
    case "name-mismatch":
      return `called[${mismatch.calledIndex}] is ${mismatch.actual}, expected ${mismatch.expected}`;
    case "type-mismatch":
      return `called[${mismatch.calledIndex}] is a ${mismatch.actual} call, expected ${mismatch.expected}`;
    case "args-mismatch":
      return `${mismatch.path}: expected ${render(mismatch.expected, max)}, got ${render(mismatch.actual, max)}`;
    case "args-missing":
      return `${mismatch.path}: expected ${render(mismatch.expected, max)}, not passed`;
    case "args-unexpected":
      return `${mismatch.path}: ${render(mismatch.actual, max)} passed, not expected`;
    case "output-mismatch":
      return `output: expected ${render(mismatch.expected, max)}, got ${render(mismatch.actual, max)}`;
  }
}

/** One argument verdict in the words of {@link describeMismatch}. */
function describeVerdict(verdict: ArgumentVerdict, options: CallDiffOptions): string {
  const max = options.maxValueLength ?? 80;
  const expected = render(verdict.expected, max);
  const actual = render(verdict.actual, max);
  if (verdict.note === unparsedArgumentsNote) return `${unparsedArgumentsNote}: ${actual}`;
  switch (verdict.verdict) {
    case "missing":
      return `${verdict.path}: expected ${expected}, not passed`;
    case "unexpected":
      return `${verdict.path}: ${actual} passed, not expected`;
    default:
      return `${verdict.path}: expected ${expected}, got ${actual}`;
  }
}

/**
 * The expected calls and the calls made, side by side in reading order, one line each, marked
 * `✓` (matched), `~` (paired, with differences listed below it), `-` (missing, with the nearest
 * call of the same tool and what kept them apart), `↕` (out of order) and `+` (made but not
 * expected). Reporters and test matchers print it.
 */
export function callDiffLines(
  input: {
    readonly expected: readonly DiffCall[];
    readonly called: readonly DiffCall[];
    readonly details: ToolCallMatchDetails;
  },
  options: CallDiffOptions = {},
): string[] {
  const { expected, called, details } = input;
  const show = (call: DiffCall | undefined, fallback: string) =>
    call === undefined ? fallback : formatToolCall(call, options);
  const pairOf = new Map(details.pairs.map((pair) => [pair.expectedIndex, pair]));
  const outOfOrder = new Set(details.outOfOrder.map((item) => item.expectedIndex));
  const missingByIndex = new Map(details.missing.map((item) => [item.expectedIndex, item]));
  const byPair = new Map<string, Mismatch[]>();
  for (const mismatch of details.mismatches) {
    if (!("calledIndex" in mismatch) || !("expectedIndex" in mismatch)) continue;
    const key = `${mismatch.expectedIndex}:${mismatch.calledIndex}`;
    const list = byPair.get(key);
    if (list === undefined) byPair.set(key, [mismatch]);
    else list.push(mismatch);
  }
  const lines: string[] = [];
  const expectedCount = Math.max(
    expected.length,
    ...details.pairs.map((pair) => pair.expectedIndex + 1),
    ...details.missing.map((item) => item.expectedIndex + 1),
  );
  for (let index = 0; index < expectedCount; index++) {
    const call = show(expected[index], "?");
    const pair = pairOf.get(index);
    if (pair !== undefined) {
      const differences = byPair.get(`${index}:${pair.calledIndex}`) ?? [];
      const made = show(called[pair.calledIndex], pair.name);
      if (differences.length === 0 && pair.score >= 1) {
        lines.push(`✓ expected[${index}] ${call} = called[${pair.calledIndex}]`);
      } else {
        lines.push(`~ expected[${index}] ${call}`);
        lines.push(`    called[${pair.calledIndex}] ${made} (score ${round(pair.score)})`);
        for (const difference of differences)
          lines.push(`      ${describeMismatch(difference, options)}`);
      }
    } else if (outOfOrder.has(index)) {
      lines.push(`↕ expected[${index}] ${call}: made, but out of order`);
    } else if (missingByIndex.get(index)?.allowed === true) {
      lines.push(`  expected[${index}] ${call}: not called, which the order allows`);
    } else {
      lines.push(`- expected[${index}] ${call}: not called`);
      const nearest = missingByIndex.get(index)?.nearest;
      if (nearest !== undefined) {
        lines.push(
          `    nearest: called[${nearest.calledIndex}] ${show(called[nearest.calledIndex], "?")}`,
        );
        for (const verdict of nearest.arguments) {
          if (verdict.verdict === "match") continue;
          lines.push(`      ${describeVerdict(verdict, options)}`);
        }
      }
    }
  }
  if (options.unexpected === false) return lines;
  for (const item of details.unexpected) {
    const made = show(called[item.calledIndex], item.name);
    lines.push(
      item.allowed === true
        ? `  called[${item.calledIndex}] ${made}: besides the expected calls, which the order allows`
        : `+ called[${item.calledIndex}] ${made}: not expected`,
    );
  }
  return lines;
}

function round(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
