import { InvalidInputError } from "../core/errors.js";
import { childPath, isJsonObject } from "../core/json.js";
import { isValueMatcher, toExpectedValue } from "../matchers/value-matchers.js";
import type { ExpectedValue } from "../matchers/value-matchers.js";

/**
 * An expected call as the caller writes it: a name, arguments that may hold matchers
 * (`match.regex(...)`, or `{"$match": "regex", ...}` in JSON), optionally an output, and, for a
 * partial order, an `id` and the ids it must come `after`.
 */
export interface ExpectedToolCallInput {
  name: string;
  inputParameters?: unknown;
  arguments?: unknown;
  args?: unknown;
  input_parameters?: unknown;
  /** When given, the call's output is compared (under the output rules); `null` expects null. */
  output?: unknown;
  /** A name for this expected call, for other calls' `after`. */
  id?: string;
  /** Ids of expected calls that must be made before this one. */
  after?: readonly string[];
}

/**
 * Expected calls: a list (ordered or not, by `options.order`), or a list of groups (`[[a, b],
 * [c]]`: `a` and `b` in any order, both before `c`).
 */
export type ExpectedCallsInput =
  readonly ExpectedToolCallInput[] | readonly (readonly ExpectedToolCallInput[])[];

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
}

const argumentKeys = ["inputParameters", "arguments", "args", "input_parameters"] as const;

function readCall(
  value: unknown,
  field: string,
  predecessors: number[],
): ExpectedCall & { after: readonly string[] } {
  if (
    !isJsonObject(value) &&
    !(typeof value === "object" && value !== null && !Array.isArray(value))
  ) {
    throw new InvalidInputError({
      field,
      message: `${field} must be an expected call object like { name: "search" }`,
    });
  }
  const record = value as Record<string, unknown>;
  if (typeof record.name !== "string") {
    throw new InvalidInputError({
      field: `${field}.name`,
      message: `${field}.name must be a string (the tool's name)`,
    });
  }
  const given = argumentKeys.filter((key) => record[key] !== undefined);
  if (given.length > 1) {
    throw new InvalidInputError({
      field,
      message: `${field} gives its arguments twice (${given.join(" and ")}); keep one`,
    });
  }
  const key = given.at(0);
  let args: ExpectedValue = {};
  if (key !== undefined && record[key] !== null) {
    const argumentsField = childPath(field, key);
    const parsed = toExpectedValue(record[key], { field: argumentsField });
    if (!isValueMatcher(parsed) && !isJsonObject(parsed)) {
      throw new InvalidInputError({
        field: argumentsField,
        message: `${argumentsField} must be an object of named arguments (or a matcher), got ${Array.isArray(parsed) ? "an array" : typeof parsed}`,
      });
    }
    args = parsed;
  }
  const output = Object.hasOwn(record, "output")
    ? (toExpectedValue(record.output, { field: childPath(field, "output") }) ?? null)
    : undefined;
  const id = record.id;
  if (id !== undefined && typeof id !== "string") {
    throw new InvalidInputError({ field: `${field}.id`, message: `${field}.id must be a string` });
  }
  const after = record.after ?? [];
  if (!Array.isArray(after) || !after.every((item): item is string => typeof item === "string")) {
    throw new InvalidInputError({
      field: `${field}.after`,
      message: `${field}.after must be a list of expected call ids`,
    });
  }
  return { name: record.name, type: "FUNCTION", arguments: args, output, id, predecessors, after };
}

/** Validates expected calls and works out their partial order, naming the field of any problem. */
export function toExpectedCalls(input: unknown, field = "expected"): ExpectedCalls {
  if (!Array.isArray(input)) {
    throw new InvalidInputError({
      field,
      message: `${field} must be a list of expected calls, or a list of groups of them`,
    });
  }
  const grouped = input.length > 0 && input.every((item) => Array.isArray(item));
  if (!grouped && input.some((item) => Array.isArray(item))) {
    throw new InvalidInputError({
      field,
      message: `${field} mixes calls and groups; give either a list of calls or a list of groups (lists)`,
    });
  }
  const calls: (ExpectedCall & { after: readonly string[]; predecessors: number[] })[] = [];
  if (grouped) {
    let previousGroup: number[] = [];
    (input as unknown[][]).forEach((group, g) => {
      const members: number[] = [];
      group.forEach((item, i) => {
        members.push(calls.length);
        calls.push(
          readCall(item, `${field}[${g}][${i}]`, [...previousGroup]) as ExpectedCall & {
            after: readonly string[];
            predecessors: number[];
          },
        );
      });
      // An empty group imposes nothing: the next group follows the last non-empty one.
      if (members.length > 0) previousGroup = members;
    });
  } else {
    input.forEach((item, i) =>
      calls.push(
        readCall(item, `${field}[${i}]`, []) as ExpectedCall & {
          after: readonly string[];
          predecessors: number[];
        },
      ),
    );
  }

  const byId = new Map<string, number>();
  calls.forEach((call, index) => {
    if (call.id === undefined) return;
    if (byId.has(call.id)) {
      throw new InvalidInputError({
        field: `${field}[${index}].id`,
        message: `expected call id ${JSON.stringify(call.id)} is used twice`,
      });
    }
    byId.set(call.id, index);
  });
  let hasAfter = false;
  calls.forEach((call, index) => {
    for (const id of call.after) {
      hasAfter = true;
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
  // A cycle would make the order unsatisfiable; name one call on it.
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
  return {
    calls: calls.map((call) => {
      const copy = { ...call };
      Reflect.deleteProperty(copy, "after");
      return copy;
    }),
    partial: grouped || hasAfter,
  };
}
