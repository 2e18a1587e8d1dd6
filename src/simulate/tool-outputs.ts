/**
 * What simulated tools answer, as a case's `toolOutputs` or an outputs file gives it: entries
 * that each pick some calls (a tool, the arguments it answers, which of the tool's calls, a seeded
 * share of them, the state they need) and answer them with an output or a fault.
 */
import { InvalidInputError } from "../core/errors.js";
import { readSpelledKeys } from "./spelled-keys.js";
import { childPath, isJsonObject, toJsonValue } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { toExpectedValue } from "../matchers/value-matchers.js";
import type { ExpectedValue } from "../matchers/value-matchers.js";

/**
 * How a simulated call fails: `error` (the tool says it failed; nothing happened), `timeout` (no
 * answer in time; the call may have gone through), `rate-limit` (refused, to be retried later),
 * `malformed` (an answer cut short, that does not parse; it went through) and `latency` (the
 * answer comes late: the entries after it still answer the call).
 */
export const faultKinds = ["error", "timeout", "rate-limit", "malformed", "latency"] as const;
export type FaultKind = (typeof faultKinds)[number];

/** One entry of the simulated tools' fixtures. */
export interface ToolFixture {
  /** The tool it answers, or `*` for every tool. */
  readonly tool: string;
  /** The arguments it answers: each key it gives must match (matchers allowed); others are not read. */
  readonly arguments?: { readonly [key: string]: ExpectedValue };
  /** Which calls of the tool in the run it answers, from 1; every call when absent. */
  readonly calls?: readonly number[];
  /** The share of the calls it matches that it answers, drawn from the run's seed. */
  readonly share?: number;
  /** The state it needs: each key's value as the run's state holds it (`null` for unset). */
  readonly when?: JsonObject;
  /** The state it sets once it answers (for a fault, once the call went through). */
  readonly sets?: JsonObject;
  readonly answer:
    | { readonly kind: "output"; readonly output: JsonValue }
    | {
        readonly kind: "fault";
        readonly fault: FaultKind;
        readonly message?: string;
        /** Whether the call's effect happened despite the fault (the state the output sets). */
        readonly applied?: boolean;
        readonly retryAfterMs?: number;
      };
  /** How long the answer takes, in milliseconds. */
  readonly latencyMs?: number;
  /** Where the entry was given (`outputs.jsonl:3`, `toolOutputs[1]`), for logs and messages. */
  readonly source: string;
}

const keys = [
  "tool",
  "arguments",
  "output",
  "fault",
  "message",
  "calls",
  "share",
  "when",
  "sets",
  "latencyMs",
  "applied",
  "retryAfterMs",
] as const;
type Key = (typeof keys)[number];
/** Each key an entry may spell, and the field it is; a map, so that `toString` is no field. */
const spellings: ReadonlyMap<string, Key> = new Map<string, Key>([
  ...keys.map((key): [string, Key] => [key, key]),
  ["latency_ms", "latencyMs"],
  ["retry_after_ms", "retryAfterMs"],
  ["args", "arguments"],
]);

/**
 * Reads fixtures: `items` as a case or a file gives them, `sourceOf(i)` naming where item `i` sits
 * in messages. Throws `InvalidInputError` naming the entry and its field when one cannot be read.
 */
export function readToolFixtures(
  items: readonly unknown[],
  sourceOf: (index: number) => string,
): ToolFixture[] {
  return items.map((item, index) => readFixture(item, sourceOf(index)));
}

function readFixture(item: unknown, source: string): ToolFixture {
  const fail = (message: string, field?: string): never => {
    throw new InvalidInputError({
      field: field === undefined ? source : childPath(source, field),
      message: `${source}${field === undefined ? "" : `.${field}`}: ${message}`,
    });
  };
  if (!isJsonObject(item)) {
    return fail(
      'must be an object { "tool": ..., "output": ... } or { "tool": ..., "fault": ... }',
    );
  }
  const given = readSpelledKeys(item, spellings, keys, fail);
  const tool = given.tool;
  if (typeof tool !== "string" || tool === "")
    return fail("must name the tool (or * for all)", "tool");
  const hasOutput = Object.hasOwn(item, "output");
  const fault = given.fault;
  if (hasOutput === (fault !== undefined) && fault !== "latency") {
    fail("give an output or a fault (one of them)");
  }
  if (fault !== undefined && !faultKinds.includes(fault as FaultKind)) {
    fail(`must be one of ${faultKinds.join(", ")}`, "fault");
  }
  const fixture: {
    -readonly [K in keyof ToolFixture]: ToolFixture[K];
  } = {
    tool,
    source,
    answer:
      fault === undefined
        ? { kind: "output", output: toJsonValue(given.output, { field: "output" }) ?? null }
        : { kind: "fault", fault: fault as FaultKind },
  };
  if (fault === undefined) {
    for (const field of ["message", "applied", "retryAfterMs"] as const) {
      if (given[field] !== undefined) fail("is read only with a fault", field);
    }
  } else {
    const answer: { -readonly [K in keyof FaultAnswer]: FaultAnswer[K] } = {
      kind: "fault",
      fault: fault as FaultKind,
    };
    if (given.message !== undefined) {
      if (typeof given.message !== "string") fail("must be text", "message");
      answer.message = given.message as string;
    }
    if (given.applied !== undefined) {
      if (typeof given.applied !== "boolean") fail("must be true or false", "applied");
      answer.applied = given.applied as boolean;
    }
    if (given.retryAfterMs !== undefined) {
      answer.retryAfterMs = milliseconds(given.retryAfterMs, "retryAfterMs", fail);
    }
    fixture.answer = answer;
  }
  if (fault === "latency" && given.latencyMs === undefined) {
    fail("a latency fault says how long: latencyMs", "latencyMs");
  }
  if (given.latencyMs !== undefined)
    fixture.latencyMs = milliseconds(given.latencyMs, "latencyMs", fail);
  if (given.arguments !== undefined) {
    if (!isJsonObject(given.arguments))
      fail("must be an object of the arguments it answers", "arguments");
    const read = toExpectedValue(given.arguments, { field: childPath(source, "arguments") });
    fixture.arguments = read as { readonly [key: string]: ExpectedValue };
  }
  if (given.calls !== undefined) {
    const calls = Array.isArray(given.calls) ? (given.calls as unknown[]) : [given.calls];
    if (calls.length === 0 || !calls.every((n) => Number.isInteger(n) && (n as number) >= 1)) {
      fail("must be a call number from 1, or a list of them", "calls");
    }
    fixture.calls = calls as number[];
  }
  if (given.share !== undefined) {
    const share = given.share;
    if (typeof share !== "number" || !(share >= 0 && share <= 1)) {
      fail("must be a share from 0 to 1", "share");
    }
    fixture.share = share as number;
  }
  for (const field of ["when", "sets"] as const) {
    const value = given[field];
    if (value === undefined) continue;
    if (!isJsonObject(value)) fail("must be an object of state keys and values", field);
    fixture[field] = toJsonValue(value, { field }) as JsonObject;
  }
  return fixture;
}

type FaultAnswer = Extract<ToolFixture["answer"], { kind: "fault" }>;

function milliseconds(
  value: unknown,
  field: string,
  fail: (m: string, f: string) => never,
): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  return fail("must be a number of milliseconds, 0 or more", field);
}

/**
 * Entries that answer calls as a recorded run's were answered: each call's output (a tool error
 * as an `error` fault with its text) for the same tool and arguments, at the same call number of
 * the tool, then, for any other call of those arguments, the last output they got. A replay of
 * the same calls gets the same answers; a run that parts from it still finds what it looked up.
 */
export function fixturesOfCalls(
  calls: readonly {
    readonly name: string;
    readonly inputParameters: JsonObject;
    readonly output: JsonValue;
    readonly isError?: boolean;
    /** The fault that answered it, when a simulator's log says (a transcript may not). */
    readonly fault?: Exclude<FaultKind, "latency">;
  }[],
  source: string,
): ToolFixture[] {
  const counts = new Map<string, number>();
  const exact: ToolFixture[] = [];
  const last = new Map<string, ToolFixture>();
  for (const [at, call] of calls.entries()) {
    const number = (counts.get(call.name) ?? 0) + 1;
    counts.set(call.name, number);
    const text = typeof call.output === "string" ? call.output : JSON.stringify(call.output);
    const answer: ToolFixture["answer"] =
      call.fault !== undefined || call.isError === true
        ? { kind: "fault", fault: call.fault ?? "error", message: text }
        : { kind: "output", output: call.output };
    const entry = {
      tool: call.name,
      // As JSON, never read for matchers: a recorded argument is data.
      arguments: call.inputParameters,
      answer,
      source: `${source}[${at}]`,
    };
    exact.push({ ...entry, calls: [number] });
    last.set(`${call.name}\u0000${JSON.stringify(call.inputParameters)}`, entry);
  }
  return [...exact, ...last.values()];
}
