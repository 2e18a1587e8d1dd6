/**
 * Differential tests: the optimized engine (name groups, class deduplication, caches, checkpointed
 * tables) against naive transcriptions of docs/reference/semantics.md §1 and §4, on thousands of
 * random cases.
 * The transcriptions are deliberately simple: full DP tables, linear scans, no caching.
 */
import { describe, expect, it } from "vitest";
import { ToolCorrectness } from "../src/compat/axion/index.js";
import {
  MultimodalToolCorrectnessMetric,
  ToolCorrectnessMetric,
} from "../src/compat/deepeval/index.js";
import { isJsonObject, jsonEquals, sequenceMatcherRatio } from "../src/entries/engine.js";
import type { JsonObject, JsonValue } from "../src/entries/index.js";

interface Call {
  name: string;
  type?: "MCP";
  inputParameters: JsonObject;
  output: JsonValue;
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const valuePool: JsonValue[] = [
  0,
  1,
  1.5,
  -2,
  true,
  false,
  null,
  "a",
  "ab",
  "abc",
  "weather in paris",
  [1, 2],
  [2, 1],
  [],
  {},
];

function randomValue(next: () => number, depth: number): JsonValue {
  if (depth < 2 && next() < 0.2) return randomObject(next, depth + 1);
  return valuePool[Math.floor(next() * valuePool.length)];
}

function randomObject(next: () => number, depth: number): JsonObject {
  const keys = ["q", "x", "y", "opts"];
  const object: JsonObject = {};
  for (const key of keys) if (next() < 0.45) object[key] = randomValue(next, depth);
  return object;
}

function randomCalls(next: () => number, max: number): Call[] {
  const length = Math.floor(next() * (max + 1));
  return Array.from({ length }, () => ({
    name: ["A", "B", "C"][Math.floor(next() * 3)],
    ...(next() < 0.05 ? { type: "MCP" as const } : {}),
    inputParameters: randomObject(next, 0),
    output: next() < 0.5 ? null : valuePool[Math.floor(next() * 4)],
  }));
}

/** Calls of one or two tools differing in one key: many pairs tie at partial scores. */
function nearDuplicates(next: () => number, max: number): Call[] {
  const length = Math.floor(next() * (max + 1));
  return Array.from({ length }, () => ({
    name: next() < 0.8 ? "A" : "B",
    inputParameters: {
      x: 1,
      y: Math.floor(next() * 3),
      ...(next() < 0.3 ? { z: { w: Math.floor(next() * 2) } } : {}),
    },
    output: null,
  }));
}

/** Mutates some calls of `base` a little, so that pairs partly match. */
function perturb(next: () => number, base: Call[]): Call[] {
  const calls = base
    .filter(() => next() < 0.8)
    .map((call) => {
      if (next() < 0.3) return { ...call, inputParameters: randomObject(next, 0) };
      if (next() < 0.1) return { ...call, output: "changed" };
      return call;
    });
  for (let i = calls.length - 1; i > 0; i--) {
    if (next() < 0.3) {
      const j = Math.floor(next() * (i + 1));
      [calls[i], calls[j]] = [calls[j], calls[i]];
    }
  }
  return [...calls, ...randomCalls(next, 2)];
}

// docs/reference/semantics.md §1 ---------------------------------------------------------------

function compareParams(a: JsonObject, b: JsonObject): number {
  if (jsonEquals(a, b)) return 1;
  const union = new Set([...Object.keys(a), ...Object.keys(b)]).size;
  let score = 0;
  for (const key of Object.keys(a)) {
    if (!(key in b)) continue;
    const x = a[key];
    const y = b[key];
    if (jsonEquals(x, y)) score += 1 / union;
    else if (isJsonObject(x) && isJsonObject(y)) score += compareParams(x, y) / union;
  }
  return score;
}

interface DeepevalOptions {
  params: boolean;
  output: boolean;
  ordering: boolean;
  exact: boolean;
}

function pairScore(e: Call, c: Call, o: DeepevalOptions): number {
  if (e.name !== c.name || e.type !== c.type) return 0;
  let score = 1;
  if (o.params) score *= compareParams(e.inputParameters, c.inputParameters);
  if (o.output && !jsonEquals(e.output, c.output)) score = 0;
  return score;
}

function deepevalReference(expected: Call[], called: Call[], o: DeepevalOptions): number {
  if (o.exact) {
    if (expected.length !== called.length) return 0;
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i];
      const c = called[i];
      if (e.name !== c.name || e.type !== c.type) return 0;
      if (o.params && !jsonEquals(e.inputParameters, c.inputParameters)) return 0;
      if (o.output && !jsonEquals(e.output, c.output)) return 0;
    }
    return 1;
  }
  if (expected.length === 0) return called.length === 0 ? 1 : 0;
  let total = 0;
  if (o.ordering) {
    const m = expected.length;
    const n = called.length;
    const dp = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
    for (let i = 1; i <= m; i++) {
      for (let j = 1; j <= n; j++) {
        const s = pairScore(expected[i - 1], called[j - 1], o);
        const row = dp[i];
        const up = dp[i - 1][j];
        row[j] = Math.max(up, row[j - 1], s > 0 ? dp[i - 1][j - 1] + s : 0);
      }
    }
    let i = m;
    let j = n;
    while (i > 0 && j > 0) {
      const here = dp[i][j];
      if (here === dp[i - 1][j]) i--;
      else if (here === dp[i][j - 1]) j--;
      else {
        total += here - dp[i - 1][j - 1];
        i--;
        j--;
      }
    }
  } else {
    const used = new Array<boolean>(called.length).fill(false);
    for (const e of expected) {
      let best = 0;
      let bestIndex = -1;
      called.forEach((c, j) => {
        if (used[j]) return;
        const s = pairScore(e, c, o);
        if (s > best) {
          best = s;
          bestIndex = j;
        }
      });
      if (best > 0) {
        total += best;
        used[bestIndex] = true;
      }
    }
  }
  return total / expected.length;
}

// docs/reference/semantics.md §4 ---------------------------------------------------------------

interface AxionOptions {
  checkParameters: boolean;
  strictOrder: boolean;
  parameterMatchingStrategy: "exact" | "subset" | "fuzzy";
  fuzzyThreshold: number;
  scoring: "recall" | "precision" | "f1";
}

function jsonType(v: JsonValue): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function sim(called: JsonValue, expected: JsonValue): number {
  if (jsonEquals(called, expected)) return 1;
  if (jsonType(called) !== jsonType(expected)) return 0;
  if (typeof called === "string") return sequenceMatcherRatio(called, expected as string);
  if (typeof called === "number") {
    const b = expected as number;
    if (called === 0 || b === 0) return 0;
    return Math.max(0, 1 - Math.abs(called - b) / Math.max(Math.abs(called), Math.abs(b)));
  }
  if (isJsonObject(called) && isJsonObject(expected)) {
    const shared = Object.keys(expected).filter((k) => k in called);
    const all = new Set([...Object.keys(called), ...Object.keys(expected)]).size;
    let sum = 0;
    for (const k of shared) sum += sim(called[k], expected[k]);
    return (shared.length / all + (shared.length ? sum / shared.length : 0)) / 2;
  }
  return 0;
}

function subset(expected: JsonObject, called: JsonObject): boolean {
  return Object.keys(expected).every((k) => {
    if (!(k in called)) return false;
    const e = expected[k];
    const c = called[k];
    return isJsonObject(e) && isJsonObject(c) ? subset(e, c) : jsonEquals(e, c);
  });
}

function axionMatch(e: Call, c: Call, o: AxionOptions): boolean {
  if (e.name !== c.name || e.type !== c.type) return false;
  if (!o.checkParameters) return true;
  const ea = e.inputParameters;
  const ca = c.inputParameters;
  if (o.parameterMatchingStrategy === "exact") return jsonEquals(ea, ca);
  if (o.parameterMatchingStrategy === "subset") return subset(ea, ca);
  const keys = Object.keys(ea);
  if (keys.length === 0) return true;
  let sum = 0;
  for (const k of keys) sum += k in ca ? sim(ca[k], ea[k]) : 0;
  return sum / keys.length >= o.fuzzyThreshold;
}

const quote = (items: string[]) => `[${items.map((i) => `'${i}'`).join(", ")}]`;

function axionReference(
  expected: Call[],
  called: Call[],
  o: AxionOptions,
): { score: number; explanation: string } {
  if (expected.length === 0) {
    return called.length === 0
      ? { score: 1, explanation: "Correct: No tools were expected and none were called." }
      : {
          score: 0,
          explanation: `Incorrect: No tools were expected, but ${called.length} were called.`,
        };
  }
  if (o.strictOrder) {
    if (expected.length !== called.length) {
      return {
        score: 0,
        explanation: `Tool count mismatch: expected ${expected.length}, got ${called.length}`,
      };
    }
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i];
      const c = called[i];
      if (!axionMatch(e, c, o)) {
        const args = o.checkParameters ? ` with args ${JSON.stringify(c.inputParameters)}` : "";
        return {
          score: 0,
          explanation: `Tool mismatch at position ${i}: expected '${e.name}', got '${c.name}'${args}`,
        };
      }
    }
    return { score: 1, explanation: `All ${expected.length} tools called correctly in order.` };
  }
  const used = new Array<boolean>(called.length).fill(false);
  const matched: string[] = [];
  const missing: string[] = [];
  for (const e of expected) {
    const j = called.findIndex((c, index) => !used[index] && axionMatch(e, c, o));
    if (j >= 0) {
      used[j] = true;
      matched.push(e.name);
    } else {
      missing.push(o.checkParameters ? `${e.name}(${JSON.stringify(e.inputParameters)})` : e.name);
    }
  }
  const unexpected = called.filter((_, j) => !used[j]).map((c) => c.name);
  const recall = matched.length / expected.length;
  const precision = called.length === 0 ? 0 : matched.length / called.length;
  const f1 = precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const parts = [
    ...(matched.length ? [`Correctly called: ${quote(matched)}`] : []),
    ...(missing.length
      ? [`${o.checkParameters ? "Missing/incorrect calls" : "Missing tools"}: ${quote(missing)}`]
      : []),
    ...(unexpected.length ? [`Unexpected tools: ${quote(unexpected)}`] : []),
  ];
  return { score: { recall, precision, f1 }[o.scoring], explanation: parts.join("; ") };
}

// -----------------------------------------------------------------------------------------------

describe("differential: engine against naive transcriptions of docs/reference/semantics.md", () => {
  it("agrees with deepeval's rules on 3,000 random cases", async () => {
    const next = random(42);
    for (let trial = 0; trial < 3000; trial++) {
      const nearTies = next() < 0.3;
      const expected = nearTies ? nearDuplicates(next, 6) : randomCalls(next, 6);
      const called = nearTies
        ? nearDuplicates(next, 6)
        : next() < 0.7
          ? perturb(next, expected)
          : randomCalls(next, 6);
      const o: DeepevalOptions = {
        params: next() < 0.6,
        output: next() < 0.3,
        ordering: next() < 0.4,
        exact: next() < 0.2,
      };
      const strictMode = next() < 0.2;
      const threshold = Math.floor(next() * 5) / 4;
      const evaluationParams = [
        ...(o.params ? (["inputParameters"] as const) : []),
        ...(o.output ? (["output"] as const) : []),
      ];
      const options = {
        evaluationParams,
        shouldConsiderOrdering: o.ordering,
        shouldExactMatch: o.exact,
        strictMode,
        threshold,
      };
      const metric =
        next() < 0.5
          ? new ToolCorrectnessMetric(options)
          : new MultimodalToolCorrectnessMetric(options);
      const score = await metric.measure({
        input: ["q"],
        actualOutput: ["a"],
        toolsCalled: called,
        expectedTools: expected,
      });
      const raw = deepevalReference(expected, called, o);
      const reference = strictMode && raw < 1 ? 0 : raw;
      expect({ trial, score }).toEqual({ trial, score: reference });
      expect(metric.success).toBe(reference >= (strictMode ? 1 : threshold));
      const kinds = o.exact
        ? ["exact-match", "not-exact-match"]
        : o.ordering
          ? ["correct-ordering", "incorrect-ordering"]
          : ["all-called", "incomplete"];
      expect(metric.reasonKind).toBe(kinds[raw === 1 ? 0 : 1]);
    }
  });

  it("agrees with axion's rules, explanations included, on 3,000 random cases", async () => {
    const next = random(7);
    for (let trial = 0; trial < 3000; trial++) {
      const nearTies = next() < 0.3;
      const expected = nearTies ? nearDuplicates(next, 5) : randomCalls(next, 5);
      const called = nearTies
        ? nearDuplicates(next, 5)
        : next() < 0.7
          ? perturb(next, expected)
          : randomCalls(next, 5);
      const o: AxionOptions = {
        checkParameters: next() < 0.7,
        strictOrder: next() < 0.25,
        parameterMatchingStrategy: (["exact", "subset", "fuzzy"] as const)[Math.floor(next() * 3)],
        fuzzyThreshold: Math.floor(next() * 11) / 10,
        scoring: (["recall", "precision", "f1"] as const)[Math.floor(next() * 3)],
      };
      const result = await new ToolCorrectness(o).execute({
        toolsCalled: called,
        expectedTools: expected,
      });
      const reference = axionReference(expected, called, o);
      expect({ trial, score: result.score, explanation: result.explanation }).toEqual({
        trial,
        ...reference,
      });
    }
  });

  it("optimal matching never scores below greedy, and is independent of list order", async () => {
    const next = random(99);
    for (let trial = 0; trial < 1000; trial++) {
      const expected = randomCalls(next, 6);
      const called = perturb(next, expected);
      const evaluationParams = ["inputParameters" as const];
      const greedy = await new ToolCorrectnessMetric({ evaluationParams }).measure({
        input: "q",
        toolsCalled: called,
        expectedTools: expected,
      });
      const optimal = new ToolCorrectnessMetric({ evaluationParams, matching: "optimal" });
      const score = await optimal.measure({
        input: "q",
        toolsCalled: called,
        expectedTools: expected,
      });
      expect(score).toBeGreaterThanOrEqual(greedy - 1e-12);
      const shuffled = await new ToolCorrectnessMetric({
        evaluationParams,
        matching: "optimal",
      }).measure({
        input: "q",
        toolsCalled: [...called].reverse(),
        expectedTools: [...expected].reverse(),
      });
      expect(Math.abs(shuffled - score)).toBeLessThanOrEqual(1e-12);
    }
  });
});
