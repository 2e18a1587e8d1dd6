import { LimitExceededError } from "../core/errors.js";
import type { ArgumentVerdict } from "../core/explanation.js";
import { childPath, isJsonObject, jsonEquals, objectPrototypeHasKeys } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { axionValueSimilarity } from "./axion-parameters.js";
import type { PathPattern } from "./path-rules.js";
import { itemSchema, optionalDefault, propertySchema, readAsDeclared } from "./schema-guide.js";
import { isValueMatcher } from "./value-matchers.js";
import type { ExpectedValue, ValueMatcher } from "./value-matchers.js";

/**
 * How expected and actual values compare:
 * - `exact`: every key on either side must match;
 * - `subset`: the expected keys must be there and match; extra actual keys are fine;
 * - `superset`: every actual key must be expected and match; expected keys may be left out
 *   (matcher-valued ones too);
 * - `ignore`: not compared;
 * - `{ fuzzy: t }`: strings and numbers match when their similarity reaches `t` (0..1); extra
 *   actual keys are fine, missing expected ones are not.
 */
export type ArgumentMode = "exact" | "subset" | "superset" | "ignore" | { readonly fuzzy: number };

/** A mode, or a matcher that the value at a path must satisfy whatever was expected. */
export type ArgumentRule = ArgumentMode | ValueMatcher | NormalizedRule;

/** A path rule that normalizes every string compared under it (and may set the mode there). */
export interface NormalizedRule {
  readonly mode?: ArgumentMode;
  readonly normalize: (text: string) => string;
}

function isNormalizedRule(rule: ArgumentRule): rule is NormalizedRule {
  return typeof rule === "object" && "normalize" in rule;
}

/** Rules ready for comparison: a default mode and path rules, the first matching one winning. */
export interface CompiledRules {
  readonly mode: ArgumentMode;
  readonly paths: readonly { readonly pattern: PathPattern; readonly rule: ArgumentRule }[];
  /** Normalizes every string compared (case, characters, trimming), when the rules say so. */
  readonly normalize?: ((text: string) => string) | undefined;
}

export interface CompareOptions {
  readonly rules: CompiledRules;
  /** The JSON Schema of the compared value (a tool's `parameters`), to compare by meaning. */
  readonly schema?: JsonObject | undefined;
  /** When given, every check is explained here, with its JSON path. */
  readonly verdicts?: ArgumentVerdict[] | undefined;
  /**
   * Whether the schema may read a value as the type it declares (`"10"` as 10 for an integer,
   * `"true"` as true, an enum's spelling in another case, a date-time's offset). Default true.
   */
  readonly coerceTypes?: boolean | undefined;
  /**
   * Whether a key left out on one side matches the other side's value when it equals the schema's
   * `default` for that optional property. Default true; false compares it as any other key.
   */
  readonly schemaDefaults?: boolean | undefined;
}

type Path = (string | number)[];

interface Walk {
  readonly paths: CompiledRules["paths"];
  readonly root: JsonObject;
  readonly verdicts: ArgumentVerdict[] | undefined;
  /** The keys from the root to the value compared now. */
  readonly path: Path;
  /** The JSON path of each prefix of `path` (`$`, `$.a`, `$.a[0]`), kept only for verdicts. */
  readonly texts: string[];
  /** Whether the schema reads values as their declared types (see `coerceTypes`). */
  readonly coerce: boolean;
  /** Whether a schema default stands for a key left out (see `schemaDefaults`). */
  readonly defaults: boolean;
  /** How strings compare under the rule in force here, when they are normalized. */
  normalize: ((text: string) => string) | undefined;
}

const emptyRoot: JsonObject = {};
// Stands for the path and path texts of walks that do not track them (never written to).
const untracked: never[] = [];

/** The walk of a comparison without path rules, schema or verdicts. */
const untrackedWalk: Walk = {
  paths: [],
  root: emptyRoot,
  verdicts: undefined,
  path: untracked,
  texts: untracked,
  coerce: true,
  defaults: true,
  normalize: undefined,
};

function enter(walk: Walk, key: string | number): void {
  // The keys are needed only to match path rules.
  if (walk.paths.length > 0) walk.path.push(key);
  if (walk.verdicts) walk.texts.push(childPath(walk.texts[walk.texts.length - 1], key));
}

function leave(walk: Walk): void {
  if (walk.paths.length > 0) walk.path.pop();
  if (walk.verdicts) walk.texts.pop();
}

/**
 * How strings compare at a path (keys from the arguments' root) under `rules`: the normalizing
 * rule nearest above it or at it, as a comparison would meet them, else the rules' own.
 */
export function normalizerAt(
  rules: CompiledRules,
  path: readonly (string | number)[],
): ((text: string) => string) | undefined {
  let normalize = rules.normalize;
  for (let length = 1; length <= path.length; length++) {
    const prefix = path.slice(0, length);
    const found = rules.paths.find(({ pattern }) => pattern.matches(prefix));
    if (found !== undefined && isNormalizedRule(found.rule)) normalize = found.rule.normalize;
  }
  return normalize;
}

function ruleAt(walk: Walk): ArgumentRule | undefined {
  for (const { pattern, rule } of walk.paths) if (pattern.matches(walk.path)) return rule;
  return undefined;
}

/** Records a verdict at the current path, when verdicts are wanted. */
function record(
  walk: Walk,
  verdict: ArgumentVerdict["verdict"],
  expected: ExpectedValue | undefined,
  actual: JsonValue | undefined,
  note?: string,
  similarity?: number,
): void {
  if (!walk.verdicts) return;
  const entry: { -readonly [K in keyof ArgumentVerdict]: ArgumentVerdict[K] } = {
    path: walk.texts[walk.texts.length - 1],
    verdict,
  };
  if (expected !== undefined) {
    entry.expected = isValueMatcher(expected) ? expected.toJSON() : (expected as JsonValue);
  }
  if (actual !== undefined) entry.actual = actual;
  if (similarity !== undefined) entry.similarity = similarity;
  if (note !== undefined) entry.note = note;
  walk.verdicts.push(entry);
}

/** `record` for a key of the current object, without entering it. */
function recordAt(
  walk: Walk,
  key: string,
  verdict: ArgumentVerdict["verdict"],
  expected: JsonValue,
  actual: JsonValue,
): void {
  enter(walk, key);
  record(walk, verdict, expected, actual);
  leave(walk);
}

function testMatcher(walk: Walk, matcher: ValueMatcher, actual: JsonValue | undefined): number {
  const ok =
    walk.normalize !== undefined && matcher.testNormalized !== undefined
      ? matcher.testNormalized(actual, walk.normalize)
      : matcher.test(actual);
  if (walk.verdicts) {
    const verdict = ok ? "match" : actual === undefined ? "missing" : "mismatch";
    const note = ok
      ? `matched ${matcher.describe}`
      : (matcher.explain?.(actual) ?? `expected ${matcher.describe}`);
    record(walk, verdict, matcher, actual, note);
  }
  return ok ? 1 : 0;
}

function isFuzzy(mode: ArgumentMode): mode is { readonly fuzzy: number } {
  return typeof mode === "object";
}

/** Compares one value; undefined when nothing was compared (ignored). */
function compareNode(
  walk: Walk,
  expected: ExpectedValue,
  actual: JsonValue,
  mode: ArgumentMode,
  schema: JsonObject | undefined,
): number | undefined {
  if (isValueMatcher(expected)) return testMatcher(walk, expected, actual);
  let e = expected as JsonValue;
  let a = actual;
  let note: string | undefined;
  if (schema && walk.coerce) {
    const readE = readAsDeclared(e, schema, walk.root);
    const readA = readAsDeclared(a, schema, walk.root);
    e = readE.value;
    a = readA.value;
    note = readA.note ?? readE.note;
  }
  if (isJsonObject(e) && isJsonObject(a)) return compareObjects(walk, e, a, mode, schema);
  if (Array.isArray(e) && Array.isArray(a)) return compareArrays(walk, e, a, mode, schema);
  if (isFuzzy(mode) && !jsonEquals(e, a)) {
    const similarity = axionValueSimilarity(a, e);
    const ok = similarity >= mode.fuzzy;
    record(walk, ok ? "match" : "mismatch", e, a, note, similarity);
    return ok ? 1 : 0;
  }
  const normalize = walk.normalize;
  const ok =
    normalize !== undefined && typeof e === "string" && typeof a === "string"
      ? normalize(e) === normalize(a)
      : jsonEquals(e, a);
  record(walk, ok ? "match" : "mismatch", expected, actual, note);
  return ok ? 1 : 0;
}

/** A key present on one side only: allowed by the mode, equal to the schema's default, or wrong. */
function oneSided(
  walk: Walk,
  present: JsonValue | ExpectedValue,
  side: "expected" | "actual",
  mode: ArgumentMode,
  parentSchema: JsonObject | undefined,
  key: string,
): number | undefined {
  // Superset leaves expected keys out, matcher-valued ones like plain ones.
  if (side === "expected" && mode === "superset") return undefined;
  if (side === "expected" && isValueMatcher(present)) return testMatcher(walk, present, undefined);
  if (side === "actual" && (mode === "subset" || isFuzzy(mode))) return undefined;
  const childSchema = parentSchema ? propertySchema(parentSchema, key, walk.root) : undefined;
  const fallback = walk.defaults ? optionalDefault(parentSchema, key, childSchema) : undefined;
  if (fallback !== undefined && !isValueMatcher(present)) {
    const read = (item: JsonValue) =>
      walk.coerce ? readAsDeclared(item, childSchema, walk.root).value : item;
    if (jsonEquals(read(present as JsonValue), read(fallback))) {
      record(
        walk,
        "match",
        side === "expected" ? present : fallback,
        side === "actual" ? (present as JsonValue) : fallback,
        walk.verdicts &&
          `left out on one side; equals the schema default ${JSON.stringify(fallback)}`,
      );
      return 1;
    }
  }
  if (side === "expected") record(walk, "missing", present, undefined);
  else record(walk, "unexpected", undefined, present as JsonValue);
  return 0;
}

/** The two objects compared at one level, with the mode and schema there. */
interface ObjectPair {
  readonly expected: Record<string, ExpectedValue>;
  readonly actual: JsonObject;
  readonly mode: ArgumentMode;
  readonly schema: JsonObject | undefined;
}

function compareObjects(
  walk: Walk,
  expected: Record<string, ExpectedValue>,
  actual: JsonObject,
  mode: ArgumentMode,
  schema: JsonObject | undefined,
): number {
  const pair: ObjectPair = { expected, actual, mode, schema };
  let sum = 0;
  let counted = 0;
  // Without path rules, a schema or fuzziness, two primitives compare by equality right here.
  const direct =
    walk.paths.length === 0 &&
    schema === undefined &&
    typeof mode === "string" &&
    walk.normalize === undefined;
  // Own keys by `for...in` (it allocates nothing); inherited ones exist only if someone gave
  // Object.prototype enumerable keys.
  const inherited = objectPrototypeHasKeys();
  let present = 0;
  for (const key in expected) {
    if (inherited && !Object.hasOwn(expected, key)) continue;
    const e = expected[key];
    const inActual = Object.hasOwn(actual, key);
    if (inActual) present++;
    if (direct && inActual && typeof e !== "object") {
      const a = actual[key];
      if (typeof a !== "object") {
        if (mode === "ignore") continue;
        const ok = e === a;
        if (walk.verdicts) recordAt(walk, key, ok ? "match" : "mismatch", e, a);
        sum += ok ? 1 : 0;
        counted++;
        continue;
      }
    }
    const score = compareKey(walk, pair, key, true, inActual);
    if (score !== undefined) {
      sum += score;
      counted++;
    }
  }
  let actualKeys = 0;
  for (const key in actual) if (!inherited || Object.hasOwn(actual, key)) actualKeys++;
  // Keys only the call has; none when every one of its keys was expected.
  if (actualKeys > present) {
    for (const key in actual) {
      if ((inherited && !Object.hasOwn(actual, key)) || Object.hasOwn(expected, key)) continue;
      const score = compareKey(walk, pair, key, false, true);
      if (score !== undefined) {
        sum += score;
        counted++;
      }
    }
  }
  return counted === 0 ? 1 : sum / counted;
}

/** One key of an object comparison, under the first path rule that applies to it. */
function compareKey(
  walk: Walk,
  pair: ObjectPair,
  key: string,
  inExpected: boolean,
  inActual: boolean,
): number | undefined {
  const { expected, actual, mode, schema } = pair;
  enter(walk, key);
  const rule = walk.paths.length > 0 ? ruleAt(walk) : undefined;
  const childSchema = schema ? propertySchema(schema, key, walk.root) : undefined;
  let score: number | undefined;
  // A normalizing rule applies to everything under this key.
  const outer = walk.normalize;
  let own: ArgumentMode | ValueMatcher | undefined;
  if (rule !== undefined && isNormalizedRule(rule)) {
    walk.normalize = rule.normalize;
    own = rule.mode;
  } else own = rule;
  if (own !== undefined && isValueMatcher(own)) {
    score = testMatcher(walk, own, inActual ? actual[key] : undefined);
  } else {
    const childMode = own ?? mode;
    if (childMode !== "ignore") {
      if (inExpected && inActual) {
        score = compareNode(walk, expected[key], actual[key], childMode, childSchema);
      } else if (inExpected) {
        // The key's own rule decides whether it may be left out or added (`"filters.*": "subset"`).
        score = oneSided(walk, expected[key], "expected", childMode, schema, key);
      } else {
        score = oneSided(walk, actual[key], "actual", childMode, schema, key);
      }
    }
  }
  walk.normalize = outer;
  leave(walk);
  return score;
}

/**
 * How well one element matches another (for subset and superset arrays), without verdicts, at
 * the element's place in the call (`actualIndex`), so that path rules apply as they would.
 */
function elementScore(
  walk: Walk,
  expected: ExpectedValue,
  actual: JsonValue,
  actualIndex: number,
  mode: "subset" | "superset",
  schema: JsonObject | undefined,
): number {
  const quiet: Walk = {
    paths: walk.paths,
    root: walk.root,
    verdicts: undefined,
    path: walk.path,
    texts: walk.texts,
    coerce: walk.coerce,
    defaults: walk.defaults,
    normalize: walk.normalize,
  };
  enter(quiet, actualIndex);
  // Not compared (an ignored path) counts as matching, as in objects.
  const score = compareNode(quiet, expected, actual, mode, schema) ?? 1;
  leave(quiet);
  return score;
}

/**
 * Subset and superset arrays: membership, whatever the order (subset needs every expected
 * element, superset every actual one). Each needed element pairs with the element that matches
 * it best, partial matches scored in part, never below pairing them by position as `exact`
 * does; a partly matching pair is explained at its deepest differing path.
 */
/** Most element pairs a subset or superset comparison of two arrays may score. */
const maxMemberPairs = 4_000_000;

function compareMembers(
  walk: Walk,
  expected: ExpectedValue[],
  actual: JsonValue[],
  mode: "subset" | "superset",
  schema: JsonObject | undefined,
): number {
  const needles: readonly unknown[] = mode === "subset" ? expected : actual;
  const haystack: readonly unknown[] = mode === "subset" ? actual : expected;
  if (needles.length === 0) {
    record(walk, "match", expected, actual);
    return 1;
  }
  // Membership compares every element with every other: past this, the work (and the list of
  // pair scores) would grow without bound on long arrays.
  if (needles.length * haystack.length > maxMemberPairs) {
    throw new LimitExceededError({
      limit: "maxMemberPairs",
      maximum: maxMemberPairs,
      message: `arrays of ${expected.length} and ${actual.length} elements are too long to compare by membership (${mode}): over ${maxMemberPairs.toLocaleString("en-US")} element pairs; compare them by position (exact), or split them`,
    });
  }
  /** The score of needle `i` against haystack element `j`. */
  const scoreOf = (i: number, j: number): number => {
    const actualIndex = mode === "subset" ? j : i;
    const e = (mode === "subset" ? needles[i] : haystack[j]) as ExpectedValue;
    const a = (mode === "subset" ? haystack[j] : needles[i]) as JsonValue;
    return elementScore(walk, e, a, actualIndex, mode, itemSchema(schema, actualIndex, walk.root));
  };
  // Best first: whole matches, then the best partial ones, each element used once.
  const scores: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < needles.length; i++) {
    for (let j = 0; j < haystack.length; j++) {
      const score = scoreOf(i, j);
      if (score > 0) scores.push({ i, j, score });
    }
  }
  scores.sort((x, y) => y.score - x.score || x.i - y.i || x.j - y.j);
  const greedy = new Int32Array(needles.length).fill(-1);
  const used = new Uint8Array(haystack.length);
  let greedyTotal = 0;
  for (const { i, j, score } of scores) {
    if (greedy[i] !== -1 || used[j] === 1) continue;
    greedy[i] = j;
    used[j] = 1;
    greedyTotal += score;
  }
  // By position, as exact pairs them: the floor the membership pairing never goes under.
  let positionalTotal = 0;
  const positional = new Int32Array(needles.length).fill(-1);
  for (let i = 0; i < Math.min(needles.length, haystack.length); i++) {
    const score = scoreOf(i, i);
    if (score > 0) {
      positional[i] = i;
      positionalTotal += score;
    }
  }
  const pairing = positionalTotal > greedyTotal ? positional : greedy;
  const total = positionalTotal > greedyTotal ? positionalTotal : greedyTotal;
  const score = total / needles.length;
  if (walk.verdicts) {
    let whole = 0;
    pairing.forEach((j, i) => {
      const actualIndex = mode === "subset" ? j : i;
      if (j === -1) {
        enter(walk, i);
        if (mode === "subset")
          record(
            walk,
            "missing",
            needles[i] as ExpectedValue,
            undefined,
            "no element of the call matches it",
          );
        else
          record(
            walk,
            "unexpected",
            undefined,
            needles[i] as JsonValue,
            "no expected element matches it",
          );
        leave(walk);
        return;
      }
      const e = (mode === "subset" ? needles[i] : haystack[j]) as ExpectedValue;
      const a = (mode === "subset" ? haystack[j] : needles[i]) as JsonValue;
      if (scoreOf(i, j) === 1) {
        whole++;
        return;
      }
      // A partly matching pair: its differences at their own paths.
      enter(walk, actualIndex);
      compareNode(walk, e, a, mode, itemSchema(schema, actualIndex, walk.root));
      leave(walk);
    });
    record(
      walk,
      score === 1 ? "match" : "mismatch",
      expected,
      actual,
      `${whole} of ${needles.length} ${mode === "subset" ? "expected elements found" : "elements were expected"}`,
    );
  }
  return score;
}

function compareArrays(
  walk: Walk,
  expected: ExpectedValue[],
  actual: JsonValue[],
  mode: ArgumentMode,
  schema: JsonObject | undefined,
): number {
  if (mode === "subset" || mode === "superset") {
    return compareMembers(walk, expected, actual, mode, schema);
  }
  const length = Math.max(expected.length, actual.length);
  if (length === 0) {
    record(walk, "match", expected, actual);
    return 1;
  }
  let sum = 0;
  let counted = 0;
  for (let index = 0; index < length; index++) {
    enter(walk, index);
    let score: number | undefined;
    if (index >= actual.length) {
      record(walk, "missing", expected[index], undefined);
      score = 0;
    } else if (index >= expected.length) {
      record(walk, "unexpected", undefined, actual[index]);
      score = 0;
    } else {
      score = compareNode(
        walk,
        expected[index],
        actual[index],
        mode,
        itemSchema(schema, index, walk.root),
      );
    }
    leave(walk);
    if (score !== undefined) {
      sum += score;
      counted++;
    }
  }
  return counted === 0 ? 1 : sum / counted;
}

/**
 * How well actual arguments (or outputs) match the expected ones, in [0, 1]: the mean over the
 * compared keys of each key's score (1 or 0 for a value, the same mean, recursively, for an
 * object). Rules decide what is compared and how; a schema makes the comparison follow the
 * declared types, defaults, enum spellings and date formats. With `verdicts`, every check is
 * recorded with its JSON path and, when a rule or the schema decided it, a note saying how.
 */
export function compareArguments(
  expected: ExpectedValue,
  actual: JsonValue,
  options: CompareOptions,
): number {
  if (options.rules.mode === "ignore") return 1;
  const quiet =
    options.rules.paths.length === 0 &&
    !options.verdicts &&
    !options.schema &&
    options.rules.normalize === undefined;
  // (Without a schema nothing is coerced: the shared walk serves whatever coerceTypes says.)
  // Without path rules or a schema, JSON matches itself in every mode (a property test holds the
  // walk to it): the same object on both sides, as calls read together share, is a match.
  if (quiet && expected === actual) return 1;
  // Most comparisons track nothing: they share one walk, which such walks never change.
  const walk: Walk = quiet
    ? untrackedWalk
    : {
        paths: options.rules.paths,
        root: options.schema ?? emptyRoot,
        verdicts: options.verdicts,
        path: options.rules.paths.length > 0 ? [] : untracked,
        texts: options.verdicts ? ["$"] : untracked,
        coerce: options.coerceTypes !== false,
        defaults: options.schemaDefaults !== false,
        normalize: options.rules.normalize,
      };
  return compareNode(walk, expected, actual, options.rules.mode, options.schema) ?? 1;
}
