import { linearRegExp } from "./linear-regex.js";
import type { MatcherMemo } from "./matcher-memo.js";
import type { LinearRegExp } from "./linear-regex.js";
import { InvalidInputError, JudgeRequiredError } from "../core/errors.js";
import { didYouMean } from "../core/suggest.js";
import {
  childPath,
  DEFAULT_MAX_DEPTH,
  isCleanJson,
  isJsonObject,
  jsonEquals,
  jsonTypeOf,
  toJsonValue,
} from "../core/json.js";
import type { JsonType, JsonValue } from "../core/json.js";

const brand = Symbol.for("toolscore.matcher");

/**
 * An asymmetric matcher: a stand-in for an expected value that accepts a set of actual values
 * (any string, a regex, a number within a tolerance, ...). `describe` says in words what it
 * accepts, for explanations. `test` receives `undefined` when the argument is absent.
 */
export interface ValueMatcher {
  readonly [brand]: true;
  readonly kind: string;
  readonly describe: string;
  test(value: JsonValue | undefined): boolean;
  /**
   * `test` with every string compared after `normalize` (a rule's `strings`), for matchers that
   * hold values: `oneOf`, `optional`.
   */
  testNormalized?(value: JsonValue | undefined, normalize: (text: string) => string): boolean;
  /** The JSON form, for datasets and reports (`{"$match": "regex", ...}`); undefined for `custom`. */
  toJSON(): JsonValue;
  /** What a judge decides, for `judged` matchers: the criterion a value must meet. */
  readonly criterion?: string;
  /** The expected values a matcher holds (`oneOf`'s alternatives, `optional`'s value). */
  readonly children?: readonly ExpectedValue[];
  /** The same matcher holding `children` instead (what binding judged matchers rebuilds). */
  rebuild?(children: readonly ExpectedValue[]): ValueMatcher;
  /** Why a value fails, when the matcher can say more than `describe` (a judge's why). */
  explain?(value: JsonValue | undefined): string | undefined;
}

/** True for a value made by one of the `match.*` functions (from any copy of toolscore). */
export function isValueMatcher(value: unknown): value is ValueMatcher {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

/** A matcher that holds expected values, rebuilt around others by `rebuild`. */
function withChildren(
  children: readonly ExpectedValue[],
  rebuild: (children: readonly ExpectedValue[]) => ValueMatcher,
  base: ValueMatcher,
): ValueMatcher {
  return { ...base, children, rebuild };
}

/** A matcher with its test under a rule's string normalization. */
function withNormalized(
  base: ValueMatcher,
  testNormalized: (value: JsonValue | undefined, normalize: (text: string) => string) => boolean,
): ValueMatcher {
  return { ...base, testNormalized };
}

function matcher(
  kind: string,
  describe: string,
  test: (value: JsonValue | undefined) => boolean,
  json: JsonValue | undefined,
): ValueMatcher {
  return {
    [brand]: true,
    kind,
    describe,
    test,
    toJSON: () => json ?? { $match: kind, description: describe },
  };
}

type AnyType = Exclude<JsonType, "null"> | "null";

/** How strings are normalized before they compare (`match.text`, rule-level `strings`). */
export interface TextOptions {
  /** Compare in lower case. */
  readonly ignoreCase?: boolean;
  /** Characters removed from both sides before comparing (`" ,./-_*^"`). */
  readonly ignoreCharacters?: string;
  /** Strip whitespace at both ends. */
  readonly trim?: boolean;
}

/** What a normalization does, in words (`ignoring case, ignoring ","`); empty when nothing. */
export function describeTextOptions(options: TextOptions): string {
  return [
    options.ignoreCase === true ? "ignoring case" : "",
    options.ignoreCharacters ? `ignoring ${JSON.stringify(options.ignoreCharacters)}` : "",
    options.trim === true ? "trimmed" : "",
  ]
    .filter((part) => part !== "")
    .join(", ");
}

/** The normalization `options` describe, as a function on strings. */
export function textNormalizer(options: TextOptions): (text: string) => string {
  const characters = options.ignoreCharacters ?? "";
  // One character class of the ignored characters, each escaped (code points, with the u flag).
  const ignored =
    characters === ""
      ? undefined
      : new RegExp(`[${characters.replace(/[\\\]^-]/g, "\\$&")}]`, "gu");
  return (text) => {
    let out = options.trim === true ? text.trim() : text;
    if (ignored !== undefined) out = out.replace(ignored, "");
    return options.ignoreCase === true ? out.toLowerCase() : out;
  };
}

export interface CloseToOptions {
  /** Largest accepted absolute difference. */
  absolute?: number;
  /** Largest accepted difference relative to the expected value (0.01 = 1%). */
  relative?: number;
}

export interface RangeOptions {
  min?: number;
  max?: number;
  /** Exclude the bounds themselves. Default false (inclusive). */
  exclusive?: boolean;
}

/** A pattern from data on the linear-time engine; one it cannot run is named as written. */
function regexOf(pattern: string, flags: string | undefined): LinearRegExp {
  try {
    return linearRegExp(pattern, flags);
  } catch (error) {
    return misuse(
      "match.regex",
      `match.regex(${JSON.stringify(pattern)}${flags === undefined ? "" : `, ${JSON.stringify(flags)}`}): ${(error as Error).message}`,
    );
  }
}

/** A matcher written in code that cannot work: a typed error naming the matcher. */
function misuse(field: string, message: string): never {
  throw new InvalidInputError({ field, message });
}

function finite(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    misuse(name, `${name} must be a finite number, got ${String(value)}`);
  }
  return value;
}

/**
 * Asymmetric matchers to write inside expected arguments and outputs.
 *
 * @example
 * expected: [{ name: "book", inputParameters: {
 *   date: match.regex(/^2026-05-/), seats: match.range({ min: 1, max: 4 }), note: match.absent() } }]
 */
export const match = {
  /** Any value (of `type`, when given); the argument must be present. */
  any(type?: AnyType): ValueMatcher {
    if (type === undefined)
      return matcher("any", "any value", (v) => v !== undefined, { $match: "any" });
    return matcher("any", `any ${type}`, (v) => v !== undefined && jsonTypeOf(v) === type, {
      $match: "any",
      type,
    });
  },
  anyString(): ValueMatcher {
    return match.any("string");
  },
  anyNumber(): ValueMatcher {
    return match.any("number");
  },
  /**
   * A string matching a regular expression. A `RegExp` runs on JavaScript's engine; a pattern
   * given as a string (as every dataset gives it) on a linear-time one (RE2 syntax: no
   * lookarounds or backreferences), so that no value can make it run for long.
   */
  regex(pattern: RegExp | string, flags?: string): ValueMatcher {
    const regex =
      typeof pattern === "string"
        ? regexOf(pattern, flags)
        : { source: pattern.source, flags: pattern.flags };
    // A global or sticky regex keeps state between tests; a fresh copy without them does not.
    const stateless =
      typeof pattern === "string"
        ? (regex as LinearRegExp)
        : new RegExp(regex.source, regex.flags.replace(/[gy]/g, ""));
    return matcher(
      "regex",
      `a string matching /${regex.source}/${stateless.flags}`,
      (v) => typeof v === "string" && stateless.test(v),
      {
        $match: "regex",
        pattern: regex.source,
        ...(stateless.flags ? { flags: stateless.flags } : {}),
      },
    );
  },
  /** A string containing `text`. */
  contains(text: string, options: { ignoreCase?: boolean } = {}): ValueMatcher {
    if (typeof text !== "string") misuse("match.contains", "match.contains needs a string");
    const ignoreCase = options.ignoreCase === true;
    const needle = ignoreCase ? text.toLowerCase() : text;
    return matcher(
      "contains",
      `a string containing ${JSON.stringify(text)}${ignoreCase ? " (any case)" : ""}`,
      (v) => typeof v === "string" && (ignoreCase ? v.toLowerCase() : v).includes(needle),
      { $match: "contains", value: text, ...(ignoreCase ? { ignoreCase } : {}) },
    );
  },
  /** A number within an absolute and/or relative tolerance of `value`. */
  closeTo(value: number, options: CloseToOptions): ValueMatcher {
    const target = finite("match.closeTo value", value);
    const absolute =
      options.absolute === undefined ? undefined : finite("absolute", options.absolute);
    const relative =
      options.relative === undefined ? undefined : finite("relative", options.relative);
    if (absolute === undefined && relative === undefined) {
      misuse("match.closeTo", "match.closeTo needs an absolute or a relative tolerance");
    }
    const parts = [
      ...(absolute === undefined ? [] : [`±${absolute}`]),
      ...(relative === undefined ? [] : [`±${relative * 100}%`]),
    ];
    return matcher(
      "closeTo",
      `a number within ${parts.join(" or ")} of ${target}`,
      (v) => {
        if (typeof v !== "number") return false;
        const difference = Math.abs(v - target);
        return (
          (absolute !== undefined && difference <= absolute) ||
          (relative !== undefined && difference <= relative * Math.abs(target))
        );
      },
      {
        $match: "closeTo",
        value: target,
        ...(absolute === undefined ? {} : { absolute }),
        ...(relative === undefined ? {} : { relative }),
      },
    );
  },
  /**
   * One of several alternatives: a value (JSON equality), a matcher (`match.absent()`,
   * `match.regex(...)`, ...), or an object or array holding matchers (matched exactly, with the
   * matchers where they are). `match.oneOf([match.absent(), "units"])`: absent, or "units".
   */
  oneOf(values: readonly unknown[]): ValueMatcher {
    if (!Array.isArray(values) || values.length === 0)
      misuse("match.oneOf", "match.oneOf needs a non-empty array");
    const alternatives = values.map((v, i) => toExpectedValue(v, { field: `oneOf[${i}]` }) ?? null);
    const json = alternatives.map(expectedJson);
    return withChildren(
      alternatives,
      (children) => match.oneOf(children),
      withNormalized(
        matcher(
          "oneOf",
          alternatives.every((alternative) => !hasMatchers(alternative))
            ? `one of ${json.map((value) => JSON.stringify(value)).join(", ")}`
            : `one of ${alternatives.map((a) => (isValueMatcher(a) ? a.describe : JSON.stringify(expectedJson(a)))).join(", ")}`,
          (v) => alternatives.some((alternative) => satisfies(alternative, v)),
          { $match: "oneOf", values: json },
        ),
        (v, normalize) => alternatives.some((alternative) => satisfies(alternative, v, normalize)),
      ),
    );
  },
  /** A number within bounds (inclusive unless `exclusive`). */
  range(options: RangeOptions): ValueMatcher {
    const min = options.min === undefined ? undefined : finite("min", options.min);
    const max = options.max === undefined ? undefined : finite("max", options.max);
    if (min === undefined && max === undefined)
      misuse("match.range", "match.range needs min and/or max");
    const exclusive = options.exclusive === true;
    const bounds = [
      ...(min === undefined ? [] : [`${exclusive ? ">" : ">="} ${min}`]),
      ...(max === undefined ? [] : [`${exclusive ? "<" : "<="} ${max}`]),
    ];
    return matcher(
      "range",
      `a number ${bounds.join(" and ")}`,
      (v) =>
        typeof v === "number" &&
        (min === undefined || (exclusive ? v > min : v >= min)) &&
        (max === undefined || (exclusive ? v < max : v <= max)),
      {
        $match: "range",
        ...(min === undefined ? {} : { min }),
        ...(max === undefined ? {} : { max }),
        ...(exclusive ? { exclusive } : {}),
      },
    );
  },
  /** The argument is there, whatever its value. */
  present(): ValueMatcher {
    return matcher("present", "present", (v) => v !== undefined, { $match: "present" });
  },
  /** The argument is not there. */
  absent(): ValueMatcher {
    return matcher("absent", "absent", (v) => v === undefined, { $match: "absent" });
  },
  /**
   * The argument is absent, or equals (or satisfies) `value`: a value, a matcher, or an object or
   * array holding matchers. `match.optional("metric")`: left out, or "metric".
   */
  optional(value: unknown): ValueMatcher {
    const expected = toExpectedValue(value, { field: "optional" }) ?? null;
    return withChildren(
      [expected],
      ([child]) => match.optional(child),
      withNormalized(
        matcher(
          "optional",
          `absent, or ${isValueMatcher(expected) ? expected.describe : JSON.stringify(expectedJson(expected))}`,
          (v) => v === undefined || satisfies(expected, v),
          { $match: "optional", value: expectedJson(expected) },
        ),
        (v, normalize) => v === undefined || satisfies(expected, v, normalize),
      ),
    );
  },
  /**
   * A string equal to `value` once both are normalized: `trim` strips whitespace at the ends,
   * `ignoreCharacters` removes every one of those characters, `ignoreCase` compares in lower
   * case. `match.text("Python tutorials", { ignoreCase: true, ignoreCharacters: " ,./-_*^" })`.
   */
  text(value: string, options: TextOptions = {}): ValueMatcher {
    if (typeof value !== "string") misuse("match.text", "match.text needs a string");
    const normalize = textNormalizer(options);
    const target = normalize(value);
    const shown = describeTextOptions(options);
    return matcher(
      "text",
      `the text ${JSON.stringify(value)}${shown === "" ? "" : ` (${shown})`}`,
      (v) => typeof v === "string" && normalize(v) === target,
      {
        $match: "text",
        value,
        ...(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase }),
        ...(options.ignoreCharacters === undefined
          ? {}
          : { ignoreCharacters: options.ignoreCharacters }),
        ...(options.trim === undefined ? {} : { trim: options.trim }),
      },
    );
  },
  /**
   * A value an LLM judge decides against `criterion` ("a polite email that names the refund
   * amount"), everything around it matched as ever. Scoring binds it to the run's judge; unbound
   * (no judge) its test is a `JUDGE_REQUIRED` error, never a pass or a fail.
   */
  judged(criterion: string): ValueMatcher {
    if (typeof criterion !== "string" || criterion.trim() === "")
      misuse("match.judged", "match.judged needs a criterion: what the value must be, in words");
    return {
      ...matcher(
        "judged",
        `a value judged to meet ${JSON.stringify(criterion)}`,
        () => {
          throw new JudgeRequiredError({
            option: "judge",
            message: `a judged matcher ("${criterion}") needs a judge: give one (--judge provider/model, or createMetric's { judge })`,
          });
        },
        { $match: "judged", criterion },
      ),
      criterion,
    };
  },
  /** Your own predicate; `description` says what it accepts. Not expressible in JSON datasets. */
  custom(
    test: (value: JsonValue | undefined) => boolean,
    description = "a custom condition",
  ): ValueMatcher {
    if (typeof test !== "function") misuse("match.custom", "match.custom needs a function");
    return matcher("custom", description, (v) => test(v), undefined);
  },
} as const;

const jsonTypes: readonly AnyType[] = ["string", "number", "boolean", "object", "array", "null"];

function fail(field: string, message: string): never {
  throw new InvalidInputError({ field, message: `${field}: ${message}` });
}

function field<T>(
  record: Record<string, unknown>,
  key: string,
  path: string,
  check: (v: unknown) => v is T,
  expected: string,
): T {
  const value = record[key];
  if (!check(value))
    fail(
      childPath(path, key),
      `must be ${expected}, got ${value === undefined ? "nothing" : JSON.stringify(value)}`,
    );
  return value;
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === "string";
const optionalNumber = (v: unknown): v is number | undefined => v === undefined || isNumber(v);

/** Builds the matcher a JSON dataset describes as `{"$match": kind, ...}`. */
function fromJson(record: Record<string, unknown>, path: string): ValueMatcher {
  const kind = record.$match;
  const allowed: Record<string, readonly string[]> = {
    any: ["type"],
    regex: ["pattern", "flags"],
    contains: ["value", "ignoreCase"],
    closeTo: ["value", "absolute", "relative"],
    oneOf: ["values"],
    range: ["min", "max", "exclusive"],
    present: [],
    optional: ["value"],
    text: ["value", "ignoreCase", "ignoreCharacters", "trim"],
    absent: [],
    judged: ["criterion"],
  };
  // Own keys only: "toString" or "constructor" are on every object's prototype, not matchers.
  if (typeof kind !== "string" || !Object.hasOwn(allowed, kind)) {
    const guess = typeof kind === "string" ? didYouMean(kind, Object.keys(allowed)) : "";
    fail(
      path,
      `unknown matcher ${JSON.stringify(kind)}${guess}; use one of ${Object.keys(allowed).join(", ")}`,
    );
  }
  for (const key of Object.keys(record)) {
    if (key !== "$match" && !allowed[kind].includes(key)) {
      fail(
        childPath(path, key),
        `is not a field of the ${kind} matcher (fields: ${allowed[kind].join(", ") || "none"})`,
      );
    }
  }
  try {
    switch (kind) {
      case "any": {
        const type = record.type;
        if (type !== undefined && !jsonTypes.includes(type as AnyType)) {
          fail(childPath(path, "type"), `must be one of ${jsonTypes.join(", ")}`);
        }
        return match.any(type as AnyType | undefined);
      }
      case "regex": {
        const pattern = field(
          record,
          "pattern",
          path,
          isString,
          "a regular expression as a string",
        );
        const flags = record.flags;
        if (flags !== undefined && typeof flags !== "string")
          fail(childPath(path, "flags"), 'must be a string such as "i"');
        try {
          return match.regex(pattern, flags);
        } catch (error) {
          return fail(
            childPath(path, "pattern"),
            `is not a valid regular expression (${(error as Error).message})`,
          );
        }
      }
      case "contains":
        return match.contains(field(record, "value", path, isString, "a string"), {
          ignoreCase: record.ignoreCase === true,
        });
      case "closeTo": {
        const absolute = field(record, "absolute", path, optionalNumber, "a number");
        const relative = field(record, "relative", path, optionalNumber, "a number");
        if (absolute === undefined && relative === undefined)
          fail(path, "needs absolute or relative");
        return match.closeTo(field(record, "value", path, isNumber, "a number"), {
          ...(absolute === undefined ? {} : { absolute }),
          ...(relative === undefined ? {} : { relative }),
        });
      }
      case "oneOf": {
        const values = field(record, "values", path, Array.isArray, "a non-empty array");
        if (values.length === 0) fail(childPath(path, "values"), "must not be empty");
        // Alternatives may be matchers, or hold them, in JSON too.
        return match.oneOf(
          values.map(
            (value, at) =>
              toExpectedValue(value, { field: childPath(childPath(path, "values"), at) }) ?? null,
          ),
        );
      }
      case "range": {
        const min = field(record, "min", path, optionalNumber, "a number");
        const max = field(record, "max", path, optionalNumber, "a number");
        if (min === undefined && max === undefined) fail(path, "needs min and/or max");
        return match.range({
          ...(min === undefined ? {} : { min }),
          ...(max === undefined ? {} : { max }),
          exclusive: record.exclusive === true,
        });
      }
      case "present":
        return match.present();
      case "judged":
        return match.judged(
          field(record, "criterion", path, isString, "what the value must be, in words"),
        );
      case "optional":
        if (!Object.hasOwn(record, "value")) fail(path, "needs a value (or a matcher)");
        return match.optional(
          toExpectedValue(record.value, { field: childPath(path, "value") }) ?? null,
        );
      case "text": {
        const value = field(record, "value", path, isString, "a string");
        for (const flag of ["ignoreCase", "trim"]) {
          if (record[flag] !== undefined && typeof record[flag] !== "boolean")
            fail(childPath(path, flag), "must be true or false");
        }
        if (record.ignoreCharacters !== undefined && typeof record.ignoreCharacters !== "string")
          fail(childPath(path, "ignoreCharacters"), "must be a string of characters");
        return match.text(value, {
          ...(record.ignoreCase === undefined ? {} : { ignoreCase: record.ignoreCase as boolean }),
          ...(record.trim === undefined ? {} : { trim: record.trim as boolean }),
          ...(record.ignoreCharacters === undefined
            ? {}
            : { ignoreCharacters: record.ignoreCharacters }),
        });
      }
      default:
        return match.absent();
    }
  } catch (error) {
    if (InvalidInputError.isInstance(error)) throw error;
    return fail(path, (error as Error).message);
  }
}

const hasMatcherKey = (record: object): boolean =>
  Object.hasOwn(record, "$match") || Object.hasOwn(record, "$literal");

/** Whether an expected value is plain JSON without matchers, usable as given. Allocates nothing. */
export function isPlainExpectedValue(value: unknown): value is JsonValue {
  return value !== undefined && isCleanJson(value, DEFAULT_MAX_DEPTH, hasMatcherKey);
}

/** An expected value: JSON where any node may be a matcher. */
export type ExpectedValue =
  JsonValue | ValueMatcher | { [key: string]: ExpectedValue } | ExpectedValue[];

/**
 * Reads an expected value: keeps code matchers, turns `{"$match": ...}` objects into matchers
 * (validated, errors name the path; made once per text with a `memo`), unwraps
 * `{"$literal": value}` (for data that really has a `$match` key), and validates the rest as JSON.
 */
export function toExpectedValue(
  value: unknown,
  options: { readonly field: string; readonly memo?: MatcherMemo | undefined },
): ExpectedValue | undefined {
  // Plain JSON without matchers (the common case) is used as given.
  if (isPlainExpectedValue(value)) return value;
  const visit = (v: unknown, path: string, depth: number): ExpectedValue | undefined => {
    if (isValueMatcher(v)) return v;
    if (depth > 1000)
      throw new InvalidInputError({
        field: options.field,
        message: `${options.field} is nested more than 1000 levels deep`,
      });
    if (Array.isArray(v))
      return v.map((item, i) => visit(item, childPath(path, i), depth + 1) ?? null);
    if (isJsonObject(v)) {
      const record = v as Record<string, unknown>;
      if (Object.hasOwn(record, "$match")) {
        const { memo } = options;
        return memo === undefined
          ? fromJson(record, path)
          : memo.of(record, () => fromJson(record, path));
      }
      if (Object.hasOwn(record, "$literal"))
        return toJsonValue(record.$literal, { field: childPath(path, "$literal") }) ?? null;
      const copy: Record<string, ExpectedValue> = {};
      for (const key of Object.keys(record)) {
        const item = visit(record[key], childPath(path, key), depth + 1);
        if (item !== undefined) copy[key] = item;
      }
      return copy;
    }
    return toJsonValue(v, { field: path });
  };
  return visit(value, options.field, 0);
}

/** Whether an expected value contains a matcher anywhere. */
export function hasMatchers(value: ExpectedValue | undefined): boolean {
  if (isValueMatcher(value)) return true;
  if (Array.isArray(value)) return value.some(hasMatchers);
  if (typeof value === "object" && value !== null) return Object.values(value).some(hasMatchers);
  return false;
}

/** An expected value as JSON: matchers as their `{"$match": ...}` form. */
export function expectedJson(value: ExpectedValue): JsonValue {
  if (isValueMatcher(value)) return value.toJSON();
  if (Array.isArray(value)) return value.map(expectedJson);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value)) out[key] = expectedJson(value[key]);
    return out;
  }
  return value;
}

/**
 * Whether `actual` is exactly `expected`, matchers standing for the values they accept, at any
 * depth: arrays element by element, objects key by key (a key absent from `actual` is given to
 * its matcher as `undefined`; a key `expected` does not have is a difference).
 */
export function satisfies(
  expected: ExpectedValue,
  actual: JsonValue | undefined,
  normalize?: (text: string) => string,
): boolean {
  if (isValueMatcher(expected)) {
    return normalize !== undefined && expected.testNormalized !== undefined
      ? expected.testNormalized(actual, normalize)
      : expected.test(actual);
  }
  if (actual === undefined) return false;
  if (normalize !== undefined && typeof expected === "string" && typeof actual === "string") {
    return normalize(expected) === normalize(actual);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((item, at) => satisfies(item, actual[at], normalize));
  }
  if (typeof expected === "object" && expected !== null) {
    if (!isJsonObject(actual)) return false;
    for (const key of Object.keys(actual)) if (!Object.hasOwn(expected, key)) return false;
    return Object.keys(expected).every((key) =>
      satisfies(
        (expected as Record<string, ExpectedValue>)[key],
        Object.hasOwn(actual, key) ? actual[key] : undefined,
        normalize,
      ),
    );
  }
  return jsonEquals(expected, actual);
}

/**
 * JSON expected values with each matcher (`{ "$match": ... }`) given its `description` ("any
 * string", "one of \"1C\", \"2C\""), for reports that show matchers as what they mean. A
 * matcher that does not read is left as it is (the run reported it).
 */
export function describeMatchers(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(describeMatchers);
  if (!isJsonObject(value)) return value;
  if (typeof value.$match === "string") {
    try {
      const read = toExpectedValue(value, { field: "$" });
      return isValueMatcher(read) ? { ...value, description: read.describe } : value;
    } catch {
      return value;
    }
  }
  const described: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) described[key] = describeMatchers(item);
  return described;
}
