import type {
  ArgumentVerdict,
  Mismatch,
  PairDetail,
  ToolCallMatchDetails,
} from "../core/explanation.js";
import { canonicalJson, childPath, jsonEquals } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { booleanOption, shareOption } from "../core/options.js";
import { precisionRecallF1, pushMismatches } from "./match-details.js";
import { comparePythonStrings, pythonRound, pythonStr } from "./python-text.js";

/**
 * ragas' `ToolCallAccuracy` and `ToolCallF1` (`docs/reference/semantics.md` §5): the calls' names
 * in sequence gate the score, arguments compare as Python's `str()` of each value; F1 over the
 * sets of (name, arguments).
 */

export interface RagasToolCallAccuracyOptions {
  /** The names must come in the reference's order; false sorts both lists first. Default true. */
  strictOrder?: boolean;
  /** Minimum passing score. Default 1. */
  threshold?: number;
}

export interface RagasToolCallF1Options {
  /** Minimum passing score. Default 1. */
  threshold?: number;
}

export interface ResolvedRagasToolCallOptions {
  readonly strictOrder: boolean;
  readonly threshold: number;
}

export function resolveRagasToolCallAccuracyOptions(
  options: RagasToolCallAccuracyOptions = {},
): ResolvedRagasToolCallOptions {
  return {
    strictOrder: booleanOption("strictOrder", options.strictOrder, true),
    threshold: shareOption("threshold", options.threshold, 1),
  };
}

export function resolveRagasToolCallF1Options(
  options: RagasToolCallF1Options = {},
): ResolvedRagasToolCallOptions {
  return {
    strictOrder: false,
    threshold: shareOption("threshold", options.threshold, 1),
  };
}

export interface RagasToolCallScore {
  readonly score: number;
  readonly reason: string;
  readonly details: ToolCallMatchDetails;
}

interface Indexed {
  readonly call: ToolCall;
  readonly index: number;
}

/** ragas' sort key: the name, then each argument's name and `str()` value, names sorted. */
function sortKey(call: ToolCall): string[] {
  const args = call.inputParameters;
  const key = [call.name];
  for (const name of Object.keys(args).sort(comparePythonStrings))
    key.push(name, pythonStr(args[name]));
  return key;
}

/** Python's tuple order on the keys: element by element, a prefix first. */
function compareKeys(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let at = 0; at < n; at++) {
    const order = comparePythonStrings(a[at], b[at]);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** ragas' argument score of one pair, with a verdict on each expected argument. */
function argumentScore(
  expected: JsonObject,
  called: JsonObject,
): { score: number; verdicts: ArgumentVerdict[] } {
  const keys = Object.keys(expected);
  if (keys.length === 0) {
    if (Object.keys(called).length === 0) return { score: 1, verdicts: [] };
    // ragas: arguments passed where the reference has none score 0.
    const verdicts = Object.keys(called).map((key): ArgumentVerdict => ({
      path: childPath("$", key),
      verdict: "unexpected",
      actual: called[key],
    }));
    return { score: 0, verdicts };
  }
  let sum = 0;
  const verdicts: ArgumentVerdict[] = [];
  for (const key of keys) {
    const path = childPath("$", key);
    if (!Object.hasOwn(called, key)) {
      verdicts.push({ path, verdict: "missing", expected: expected[key] });
      continue;
    }
    const same = pythonStr(called[key]) === pythonStr(expected[key]);
    if (same) sum += 1;
    verdicts.push({
      path,
      verdict: same ? "match" : "mismatch",
      expected: expected[key],
      actual: called[key],
      ...(same && !jsonEquals(called[key], expected[key])
        ? { note: `equal as Python's str(): ${JSON.stringify(pythonStr(called[key]))}` }
        : {}),
    });
  }
  return { score: sum / keys.length, verdicts };
}

const names = (calls: readonly Indexed[]): string =>
  `[${calls.map(({ call }) => JSON.stringify(call.name)).join(", ")}]`;

/** ragas' ToolCallAccuracy of one case, with the pairs it compared and a reason. */
export function scoreRagasToolCallAccuracy(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedRagasToolCallOptions,
): RagasToolCallScore {
  let refs: Indexed[] = input.expected.map((call, index) => ({ call, index }));
  let preds: Indexed[] = input.called.map((call, index) => ({ call, index }));
  const order = options.strictOrder ? "strict order" : "any order";
  if (!options.strictOrder) {
    // Sorted by the same key on both sides; a stable sort, as Python's.
    const bySortKey = (a: Indexed, b: Indexed) => compareKeys(sortKey(a.call), sortKey(b.call));
    refs = [...refs].sort(bySortKey);
    preds = [...preds].sort(bySortKey);
  }
  const pairs: PairDetail[] = [];
  const mismatches: Mismatch[] = [];
  const compared = Math.min(refs.length, preds.length);
  let total = 0;
  const paired = new Set<number>();
  const pairedCalls = new Set<number>();
  for (let at = 0; at < compared; at++) {
    const ref = refs[at];
    const pred = preds[at];
    if (ref.call.name !== pred.call.name) continue;
    const { score, verdicts } = argumentScore(ref.call.inputParameters, pred.call.inputParameters);
    total += score;
    paired.add(ref.index);
    pairedCalls.add(pred.index);
    pairs.push({
      expectedIndex: ref.index,
      calledIndex: pred.index,
      name: ref.call.name,
      score,
      arguments: verdicts,
    });
    pushMismatches(mismatches, { arguments: verdicts }, ref.index, pred.index);
  }
  const missing = refs
    .filter(({ index }) => !paired.has(index))
    .map(({ call, index }) => ({ expectedIndex: index, name: call.name }))
    .sort((a, b) => a.expectedIndex - b.expectedIndex);
  const unexpected = preds
    .filter(({ index }) => !pairedCalls.has(index))
    .map(({ call, index }) => ({ calledIndex: index, name: call.name }))
    .sort((a, b) => a.calledIndex - b.calledIndex);
  for (const m of missing) mismatches.push({ kind: "missing-call", ...m });
  for (const u of unexpected) mismatches.push({ kind: "unexpected-call", ...u });
  pairs.sort((a, b) => a.expectedIndex - b.expectedIndex);
  const counts = precisionRecallF1(total, refs.length, preds.length);
  const details: ToolCallMatchDetails = {
    algorithm: "ragas-sequence",
    pairs,
    missing,
    unexpected,
    outOfOrder: [],
    mismatches,
    ...counts,
  };

  if (refs.length === 0 && preds.length === 0)
    return { score: 1, reason: "No calls were expected and none were made (score 1).", details };
  if (preds.length === 0)
    return {
      score: 0,
      reason: `No calls were made; ${refs.length} expected ${names(refs)} (score 0).`,
      details,
    };
  if (refs.length === 0)
    return {
      score: 0,
      reason: `No calls were expected; ${preds.length} made ${names(preds)} (ragas scores 0).`,
      details,
    };

  const predNames = preds.map(({ call }) => call.name);
  const aligned =
    predNames.length === refs.length && refs.every(({ call }, at) => call.name === predNames[at]);
  let score = total / refs.length;
  if (compared < refs.length) score *= compared / refs.length;
  if (!aligned) {
    return {
      score: 0,
      reason: `The names called ${names(preds)} are not the expected ${names(refs)} in ${order} (score 0).`,
      details,
    };
  }
  const differing = pairs
    .filter((pair) => pair.score < 1)
    .map((pair) => {
      const what = pair.arguments
        .filter((v) => v.verdict !== "match")
        .map((v) =>
          v.verdict === "missing"
            ? `${v.path} missing`
            : v.verdict === "unexpected"
              ? `${v.path} passed where none were expected`
              : `${v.path} is ${JSON.stringify(v.actual)}, expected ${JSON.stringify(v.expected)}`,
        );
      return `called[${pair.calledIndex}] ${pair.name}: ${what.join(", ")} (score ${pythonRound(pair.score, 4)})`;
    });
  const head = `The names match the expected ones in ${order}`;
  return {
    score,
    reason:
      differing.length === 0
        ? `${head}, with every argument as expected (score 1).`
        : `${differing.join("; ")}. ${head}; the arguments score ${pythonRound(score, 4)}.`,
    details,
  };
}

/** A call's identity under ToolCallF1: its name and its arguments as a set of (key, value). */
const callKey = (call: ToolCall): string => canonicalJson([call.name, call.inputParameters]);

/** ragas' ToolCallF1 of one case: F1 of the sets of calls, rounded to 4 digits as ragas does. */
export function scoreRagasToolCallF1(input: {
  readonly expected: readonly ToolCall[];
  readonly called: readonly ToolCall[];
}): RagasToolCallScore {
  const { expected, called } = input;
  const firstExpected = new Map<string, number>();
  expected.forEach((call, index) => {
    const key = callKey(call);
    if (!firstExpected.has(key)) firstExpected.set(key, index);
  });
  const firstCalled = new Map<string, number>();
  const pairs: PairDetail[] = [];
  const unexpected: { calledIndex: number; name: string; allowed?: true }[] = [];
  const mismatches: Mismatch[] = [];
  called.forEach((call, index) => {
    const key = callKey(call);
    if (firstCalled.has(key)) {
      // A set holds it once: a repeat counts neither for nor against.
      unexpected.push({ calledIndex: index, name: call.name, allowed: true });
      return;
    }
    firstCalled.set(key, index);
    const expectedIndex = firstExpected.get(key);
    if (expectedIndex === undefined) {
      unexpected.push({ calledIndex: index, name: call.name });
      mismatches.push({ kind: "unexpected-call", calledIndex: index, name: call.name });
    } else {
      pairs.push({ expectedIndex, calledIndex: index, name: call.name, score: 1, arguments: [] });
    }
  });
  const missing: { expectedIndex: number; name: string; allowed?: true }[] = [];
  expected.forEach((call, index) => {
    const key = callKey(call);
    if (firstExpected.get(key) !== index) {
      missing.push({ expectedIndex: index, name: call.name, allowed: true });
    } else if (!firstCalled.has(key)) {
      missing.push({ expectedIndex: index, name: call.name });
      mismatches.push({ kind: "missing-call", expectedIndex: index, name: call.name });
    }
  });
  pairs.sort((a, b) => a.expectedIndex - b.expectedIndex);
  const tp = pairs.length;
  const fp = firstCalled.size - tp;
  const fn = firstExpected.size - tp;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const score = pythonRound(f1, 4);
  const details: ToolCallMatchDetails = {
    algorithm: "ragas-set",
    pairs,
    missing,
    unexpected,
    outOfOrder: [],
    mismatches,
    precision,
    recall,
    f1,
  };
  const parts: string[] = [];
  for (const m of missing)
    if (m.allowed !== true) parts.push(`expected[${m.expectedIndex}] ${m.name} not made`);
  for (const u of unexpected)
    if (u.allowed !== true) parts.push(`called[${u.calledIndex}] ${u.name} not expected`);
  const repeats =
    unexpected.filter((u) => u.allowed === true).length +
    missing.filter((m) => m.allowed === true).length;
  if (repeats > 0)
    parts.push(
      `${repeats} repeated call${repeats === 1 ? "" : "s"} counted once, as a set holds it`,
    );
  const numbers = `${tp} of ${firstExpected.size} distinct expected calls made, ${fp} not expected (F1 ${score})`;
  if (expected.length === 0 && called.length === 0) {
    // ragas divides 0 by 0 into F1 0 here; nothing expected and nothing made is right.
    return {
      score: 1,
      reason: "No calls were expected and none were made (score 1; ragas gives 0).",
      details: { ...details, precision: 1, recall: 1, f1: 1 },
    };
  }
  const reason =
    parts.length === 0
      ? `Every distinct expected call was made and none other (${numbers}).`
      : `${parts.join("; ")}. ${numbers}.`;
  return { score, reason, details };
}
