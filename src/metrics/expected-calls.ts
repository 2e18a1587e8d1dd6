import { isGroupList, parseArgumentsText, readCallFields } from "../core/call-fields.js";
import { InvalidInputError } from "../core/errors.js";
import { childPath, isJsonObject } from "../core/json.js";
import {
  isPlainExpectedValue,
  isValueMatcher,
  match,
  toExpectedValue,
} from "../matchers/value-matchers.js";
import type { ExpectedValue } from "../matchers/value-matchers.js";
import type { MatcherMemo } from "../matchers/matcher-memo.js";

/**
 * An expected call as the caller writes it: a name, arguments that may hold matchers
 * (`match.regex(...)`, or `{"$match": "regex", ...}` in JSON), optionally an output, and, for a
 * partial order, an `id` and the ids it must come `after`.
 */
export interface ExpectedToolCallInput {
  name: string;
  /**
   * The expected arguments, in any one of these spellings. Left out (or `null`), any arguments
   * are accepted; `{}` expects a call without arguments.
   */
  inputParameters?: unknown;
  arguments?: unknown;
  args?: unknown;
  input_parameters?: unknown;
  input?: unknown;
  /** Free text; never compared. */
  description?: string;
  reasoning?: string;
  type?: "FUNCTION" | "MCP";
  /** When given, the call's output is compared (under the output rules); `null` expects null. */
  output?: unknown;
  /** A name for this expected call, for other calls' `after`. */
  id?: string;
  /** Ids of expected calls that must be made before this one. */
  after?: readonly string[];
}

/**
 * Expected calls: a list (ordered or not, by `options.order`), a list of groups (`[[a, b],
 * [c]]`: `a` and `b` in any order, both before `c`), or a reference transcript as
 * `parseTrajectory` gives it (its calls).
 */
export type ExpectedCallsInput =
  | readonly ExpectedToolCallInput[]
  | readonly (readonly ExpectedToolCallInput[])[]
  | { readonly calls: readonly ExpectedToolCallInput[] };

/** An expected call, validated, with its place in the partial order. */
export interface ExpectedCall {
  readonly name: string;
  readonly type: "FUNCTION";
  readonly arguments: ExpectedValue;
  /** Undefined when the output is not compared for this call. */
  readonly output: ExpectedValue | undefined;
  readonly id: string | undefined;
  /** Indices of the expected calls that must come before this one. */
  readonly predecessors: readonly number[];
}

export interface ExpectedCalls {
  readonly calls: readonly ExpectedCall[];
  /** Whether the input described a partial order (groups or `after`). */
  readonly partial: boolean;
  /**
   * The step of each expected call, when the input gave steps: a list of groups (one step each),
   * or a reference transcript's own steps. For `order: "steps"`.
   */
  readonly steps?: readonly number[];
  /** Whether every call's arguments and output are plain JSON, without matchers. */
  readonly plain?: boolean;
}

interface ReadCall {
  readonly call: ExpectedCall & { predecessors: number[] };
  readonly after: readonly string[] | undefined;
  /** Whether its arguments and output are plain JSON, without matchers. */
  readonly plain: boolean;
}

/** What an expected call that leaves out its arguments expects: any (an object). */
export const anyArguments = match.any("object");

/** `parent[index]` or `parent[group][index]`: built only for error messages. */
function fieldName(parent: string, group: number, index: number): string {
  return group < 0 ? `${parent}[${index}]` : `${parent}[${group}][${index}]`;
}

function readCall(
  value: unknown,
  parent: string,
  group: number,
  index: number,
  predecessors: number[],
  memo: MatcherMemo | undefined,
): ReadCall {
  const where = () => fieldName(parent, group, index);
  const { record, argumentsKey: key } = readCallFields(value, "expected", where);
  let raw = key === undefined ? undefined : record[key];
  // A name only (or null arguments) accepts any arguments; `arguments: {}` expects none.
  let args: ExpectedValue = raw === undefined || raw === null ? anyArguments : {};
  let plain = args !== anyArguments;
  if (typeof raw === "string" && key === "arguments") {
    // JSON text, as OpenAI writes arguments.
    const parsed = parseArgumentsText(raw);
    if (parsed === undefined) {
      const argumentsField = childPath(where(), key);
      throw new InvalidInputError({
        field: argumentsField,
        message: `${argumentsField} is text that is not JSON; expected arguments must be an object (or its JSON text)`,
      });
    }
    raw = parsed.value;
  }
  if (isJsonObject(raw) && isPlainExpectedValue(raw)) {
    // Plain arguments without matchers, the common case: used as given.
    args = raw;
  } else if (key !== undefined && raw !== null && raw !== undefined) {
    const argumentsField = childPath(where(), key);
    const parsed = toExpectedValue(raw, { field: argumentsField, memo });
    if (!isValueMatcher(parsed) && !isJsonObject(parsed)) {
      throw new InvalidInputError({
        field: argumentsField,
        message: `${argumentsField} must be an object of named arguments (or a matcher), got ${Array.isArray(parsed) ? "an array" : typeof parsed}`,
      });
    }
    args = parsed;
    plain = false;
  }
  let output: ExpectedValue | undefined;
  if (Object.hasOwn(record, "output")) {
    const rawOutput = record.output;
    if (typeof rawOutput === "string" || rawOutput === null) output = rawOutput;
    else {
      output =
        toExpectedValue(rawOutput, {
          field: childPath(fieldName(parent, group, index), "output"),
          memo,
        }) ?? null;
      if (output !== rawOutput) plain = false;
    }
  }
  const id = record.id;
  if (id !== undefined && typeof id !== "string") {
    const field = fieldName(parent, group, index);
    throw new InvalidInputError({ field: `${field}.id`, message: `${field}.id must be a string` });
  }
  const after = record.after;
  if (
    after !== undefined &&
    (!Array.isArray(after) || !after.every((item): item is string => typeof item === "string"))
  ) {
    const field = fieldName(parent, group, index);
    throw new InvalidInputError({
      field: `${field}.after`,
      message: `${field}.after must be a list of expected call ids`,
    });
  }
  return {
    call: {
      name: record.name as string,
      type: "FUNCTION",
      arguments: args,
      output,
      id,
      predecessors,
    },
    after: after,
    plain,
  };
}

/**
 * Validates expected calls and works out their partial order, naming the field of any problem. A
 * reference transcript's steps are read only when `withSteps` (`order: "steps"` needs them).
 */
export function toExpectedCalls(
  input: unknown,
  field = "expected",
  withSteps = true,
  /** The run's matchers by their text, when it keeps them (see `MatcherMemo`). */
  memo?: MatcherMemo,
): ExpectedCalls {
  if (isJsonObject(input) && Array.isArray(input.calls)) {
    // A parsed reference transcript: its calls, in order, and its steps when it has them.
    const read = toExpectedCalls(input.calls, `${field}.calls`, true, memo);
    const steps = withSteps ? stepsOf(input.steps, read.calls.length) : undefined;
    return steps === undefined ? read : { ...read, steps };
  }
  if (!Array.isArray(input)) {
    throw new InvalidInputError({
      field,
      message: `${field} must be a list of expected calls, a list of groups of them, or a parsed transcript ({ calls })`,
    });
  }
  const grouped = isGroupList(input, field);
  const read: ReadCall[] = [];
  const groupOf: number[] = [];
  if (grouped) {
    let previousGroup: number[] = [];
    for (let g = 0; g < input.length; g++) {
      const group = input[g] as unknown[];
      const members: number[] = [];
      for (let i = 0; i < group.length; i++) {
        members.push(read.length);
        groupOf.push(g);
        read.push(readCall(group[i], field, g, i, [...previousGroup], memo));
      }
      // An empty group imposes nothing: the next group follows the last non-empty one.
      if (members.length > 0) previousGroup = members;
    }
  } else {
    for (let i = 0; i < input.length; i++) read.push(readCall(input[i], field, -1, i, [], memo));
  }
  const calls = read.map((item) => item.call);
  const hasAfter = read.some((item) => item.after !== undefined && item.after.length > 0);
  // Ids matter only as what `after` refers to. Without any `after` they are not read: a
  // reference transcript may reuse a provider's call id (parseTrajectory warns and keeps both).
  if (hasAfter) {
    linkIds(read, field);
    rejectCycles(calls, field);
  }
  const plain = read.every((item) => item.plain);
  return grouped
    ? { calls, partial: true, steps: groupOf, plain }
    : { calls, partial: hasAfter, plain };
}

/**
 * The step of each call from a transcript's `steps` (`[{ calls: [0, 1] }, { calls: [2] }]`), when
 * they cover every call exactly once; undefined otherwise.
 */
export function stepsOf(value: unknown, count: number): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const steps = new Array<number>(count).fill(-1);
  for (const [at, step] of value.entries()) {
    const members = isJsonObject(step) ? step.calls : undefined;
    if (!Array.isArray(members)) return undefined;
    for (const member of members) {
      if (typeof member !== "number" || !(member >= 0 && member < count) || steps[member] !== -1)
        return undefined;
      steps[member] = at;
    }
  }
  return steps.includes(-1) ? undefined : steps;
}

/** Checks ids are unique (an `after` must name one call) and turns `after` ids into indices. */
function linkIds(read: readonly ReadCall[], field: string): void {
  const byId = new Map<string, number>();
  read.forEach(({ call }, index) => {
    if (call.id === undefined) return;
    if (byId.has(call.id)) {
      throw new InvalidInputError({
        field: `${field}[${index}].id`,
        message: `expected call id ${JSON.stringify(call.id)} is used twice`,
      });
    }
    byId.set(call.id, index);
  });
  read.forEach(({ call, after }, index) => {
    for (const id of after ?? []) {
      const before = byId.get(id);
      if (before === undefined) {
        throw new InvalidInputError({
          field: `${field}[${index}].after`,
          message: `${field}[${index}].after names ${JSON.stringify(id)}, which no expected call has as its id`,
        });
      }
      call.predecessors.push(before);
    }
  });
}

/** A cycle would make the order unsatisfiable; names one call on it. */
function rejectCycles(calls: readonly ExpectedCall[], field: string): void {
  const state = new Uint8Array(calls.length);
  const visit = (index: number): void => {
    if (state[index] === 2) return;
    if (state[index] === 1) {
      throw new InvalidInputError({
        field: `${field}[${index}].after`,
        message: `the order of expected calls has a cycle through ${field}[${index}] (${calls[index]?.name ?? ""})`,
      });
    }
    state[index] = 1;
    for (const before of calls[index]?.predecessors ?? []) visit(before);
    state[index] = 2;
  };
  calls.forEach((_, index) => {
    visit(index);
  });
}
