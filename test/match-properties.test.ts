/**
 * Properties of matchToolCalls, checked with fast-check on generated cases: scores stay in [0, 1],
 * identical inputs score 1, unordered scores ignore the order of both lists, key order never
 * matters, an unexpected call never raises precision, arbitrary input never crashes, and the
 * optimal pairing is optimal (checked against brute force), and `scoreToolCalls` gives the same
 * numbers as `matchToolCalls` without explaining them, and transcripts read together (sharing
 * arguments of the same text) score as transcripts read one by one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ToolscoreError,
  matchToolCalls,
  parseTrajectories,
  parseTrajectory,
  scoreToolCalls,
} from "../src/entries/index.js";
import type { JsonObject, JsonValue, MatchOptions, OrderMode } from "../src/entries/index.js";

interface Call {
  name: string;
  inputParameters: JsonObject;
}

// A small domain, so that generated calls often match, nearly match, or share a tool.
const value: fc.Arbitrary<JsonValue> = fc.constantFrom<JsonValue>(
  1,
  2,
  "1",
  "a",
  "b",
  null,
  true,
  [1, 2],
  { k: 1 },
  { k: 2, j: [1] },
);
const args: fc.Arbitrary<JsonObject> = fc.dictionary(fc.constantFrom("x", "y", "z", "w"), value, {
  maxKeys: 4,
});
const toolCall: fc.Arbitrary<Call> = fc.record({
  name: fc.constantFrom("a", "b", "c"),
  inputParameters: args,
});
const calls = fc.array(toolCall, { maxLength: 7 });

const toExpected = (list: readonly Call[]) =>
  list.map((c) => ({ name: c.name, arguments: c.inputParameters }));

const orders: OrderMode[] = ["any", "in-order", "strict", "only-expected", "all-expected"];
const unordered: OrderMode[] = ["any", "only-expected", "all-expected"];
const runs = { numRuns: 300, seed: 20261121 };

/** The same JSON with every object's keys in reverse order. */
function reverseKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v !== null && typeof v === "object") {
    const out: JsonObject = {};
    for (const key of Object.keys(v).reverse()) out[key] = reverseKeys(v[key]);
    return out;
  }
  return v;
}

const scores = (r: ReturnType<typeof matchToolCalls>) => [r.score, r.precision, r.recall, r.f1];

describe("matchToolCalls properties", () => {
  it("keeps every score in [0, 1], in every order mode", () => {
    fc.assert(
      fc.property(calls, calls, fc.constantFrom(...orders), (actual, expected, order) => {
        const result = matchToolCalls(actual, toExpected(expected), { order });
        for (const s of scores(result)) {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
        for (const pair of result.pairs) expect(pair.score).toBeLessThanOrEqual(1);
      }),
      runs,
    );
  });

  it("scores identical inputs 1, exactly, in every order mode and as a partial order", () => {
    fc.assert(
      fc.property(calls, fc.constantFrom(...orders), (list, order) => {
        const result = matchToolCalls(list, toExpected(list), { order });
        expect(scores(result)).toEqual([1, 1, 1, 1]);
        expect(result.exact).toBe(true);
        expect(result.mismatches).toEqual([]);
        const grouped = matchToolCalls(list, [toExpected(list)]);
        expect(grouped.score).toBe(1);
      }),
      runs,
    );
  });

  it("never changes an unordered score when either list is permuted", () => {
    fc.assert(
      fc.property(
        calls,
        calls,
        fc.constantFrom(...unordered),
        fc.infiniteStream(fc.nat()),
        (actual, expected, order, stream) => {
          const shuffle = <T>(list: readonly T[]): T[] => {
            const copy = [...list];
            const picks = stream.take(copy.length);
            let i = copy.length;
            for (const pick of picks) {
              const j = pick % i;
              i--;
              [copy[i], copy[j]] = [copy[j], copy[i]];
            }
            return copy;
          };
          const base = matchToolCalls(actual, toExpected(expected), { order });
          const permuted = matchToolCalls(shuffle(actual), toExpected(shuffle(expected)), {
            order,
          });
          // Bit-for-bit: pair scores are quantized so that sums are exact in any order.
          expect(scores(permuted)).toEqual(scores(base));
          expect(permuted.exact).toBe(base.exact);
        },
      ),
      runs,
    );
  });

  it("never depends on the order of keys in arguments", () => {
    fc.assert(
      fc.property(calls, calls, fc.constantFrom(...orders), (actual, expected, order) => {
        const reordered = actual.map((c) => ({
          name: c.name,
          inputParameters: reverseKeys(c.inputParameters) as JsonObject,
        }));
        const base = matchToolCalls(actual, toExpected(expected), { order });
        const other = matchToolCalls(reordered, toExpected(expected), { order });
        expect(scores(other)).toEqual(scores(base));
      }),
      runs,
    );
  });

  it("never raises precision when an unexpected call is added", () => {
    fc.assert(
      fc.property(
        calls,
        calls,
        fc.constantFrom(...orders),
        fc.nat(),
        args,
        (actual, expected, order, at, extraArgs) => {
          const before = matchToolCalls(actual, toExpected(expected), { order });
          // Anywhere in the list; at the end for strict, where positions are the alignment.
          const index = order === "strict" ? actual.length : at % (actual.length + 1);
          const extra = { name: "never_expected", inputParameters: extraArgs };
          const longer = [...actual.slice(0, index), extra, ...actual.slice(index)];
          const after = matchToolCalls(longer, toExpected(expected), { order });
          expect(after.precision).toBeLessThanOrEqual(before.precision);
          expect(after.recall).toBe(before.recall);
        },
      ),
      runs,
    );
  });

  it("names, by index and path, every reason a score is below 1", () => {
    fc.assert(
      fc.property(calls, calls, fc.constantFrom(...orders), (actual, expected, order) => {
        const result = matchToolCalls(actual, toExpected(expected), { order });
        if (result.exact) return;
        // Something is listed...
        expect(result.mismatches.length + result.violations.length).toBeGreaterThan(0);
        // ...every pair below 1 has argument mismatches located by both indices and a path...
        for (const pair of result.pairs.filter((p) => p.score < 1)) {
          const located = result.mismatches.filter(
            (m) =>
              "calledIndex" in m &&
              "expectedIndex" in m &&
              m.expectedIndex === pair.expectedIndex &&
              m.calledIndex === pair.calledIndex &&
              "path" in m &&
              m.path.startsWith("$"),
          );
          expect(located.length).toBeGreaterThan(0);
        }
        // ...every unpaired call on either side is named, and the reason says it too (or, past
        // six reasons, points to the list).
        const summarized = result.reason.includes("more (see mismatches)");
        // A call the order allows (made besides the expected ones, or left unmade under subset)
        // is named in the reason as allowed, and is not a mismatch.
        for (const m of result.missing) {
          const entry = expect.objectContaining({
            kind: "missing-call",
            expectedIndex: m.expectedIndex,
          });
          if (m.allowed === true) expect(result.mismatches).not.toContainEqual(entry);
          else expect(result.mismatches).toContainEqual(entry);
          if (!summarized && !(m.allowed === true && result.reason.includes("more (see missing)")))
            expect(result.reason).toContain(`expected[${m.expectedIndex}] ${m.name}`);
        }
        for (const m of result.outOfOrder) {
          expect(result.mismatches).toContainEqual(
            expect.objectContaining({ kind: "out-of-order", expectedIndex: m.expectedIndex }),
          );
          if (!summarized)
            expect(result.reason).toContain(`expected[${m.expectedIndex}] ${m.name}`);
        }
        for (const u of result.unexpected) {
          const entry = { kind: "unexpected-call", calledIndex: u.calledIndex, name: u.name };
          if (u.allowed === true) expect(result.mismatches).not.toContainEqual(entry);
          else expect(result.mismatches).toContainEqual(entry);
          if (!summarized && !result.reason.includes("more (see unexpected)"))
            expect(result.reason).toContain(`called[${u.calledIndex}] ${u.name}`);
        }
        // Every call is named once: paired, made out of order, the nearest miss of a missing
        // call, or unexpected; never two of these.
        const named = [
          ...result.pairs.map((p) => p.calledIndex),
          ...result.outOfOrder.map((m) => m.calledIndex),
          ...result.missing.map((m) => m.nearest?.calledIndex),
          ...result.unexpected.map((u) => u.calledIndex),
        ].filter((index) => index !== undefined);
        expect([...named].sort((a, b) => a - b)).toEqual(actual.map((_, col) => col));
      }),
      runs,
    );
  });

  it("never crashes on arbitrary JSON: a result, or a typed error", () => {
    const anyCall = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        inputParameters: fc.jsonValue(),
        output: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const anyExpected = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        arguments: fc.jsonValue(),
        output: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.array(anyCall, { maxLength: 5 }), fc.jsonValue()),
        fc.oneof(fc.array(anyExpected, { maxLength: 5 }), fc.jsonValue()),
        fc.constantFrom<MatchOptions>(
          {},
          { order: "in-order" },
          { arguments: "subset" },
          { arguments: { fuzzy: 0.5 } },
          { output: "exact" },
        ),
        (actual, expected, options) => {
          try {
            const result = matchToolCalls(actual, expected as never, options);
            expect(result.score).toBeGreaterThanOrEqual(0);
            expect(result.score).toBeLessThanOrEqual(1);
            expect(typeof result.reason).toBe("string");
          } catch (error) {
            expect(ToolscoreError.isInstance(error), String(error)).toBe(true);
          }
        },
      ),
      { numRuns: 500, seed: 20261121 },
    );
  });

  it("finds the optimal pairing, where greedy pairing often does not", () => {
    // Brute force over every one-to-one pairing, from the pair scores matchToolCalls reports.
    const best = (pair: (e: number, c: number) => number, rows: number, cols: number): number => {
      const used = new Array<boolean>(cols).fill(false);
      const visit = (row: number): number => {
        if (row === rows) return 0;
        let top = visit(row + 1);
        for (let col = 0; col < cols; col++) {
          const s = pair(row, col);
          if (used[col] || s <= 0) continue;
          used[col] = true;
          top = Math.max(top, s + visit(row + 1));
          used[col] = false;
        }
        return top;
      };
      return visit(0);
    };
    // One tool, three arguments of two values each: many partial scores, many near-ties.
    const bit = fc.constantFrom(1, 2);
    const sameTool = fc.array(
      fc.record({ name: fc.constant("s"), inputParameters: fc.record({ x: bit, y: bit, z: bit }) }),
      { minLength: 1, maxLength: 5 },
    );
    let greedyWorse = 0;
    fc.assert(
      fc.property(sameTool, sameTool, (actual, expected) => {
        const pair = (e: number, c: number) =>
          matchToolCalls([actual[c] as Call], toExpected([expected[e]])).recall;
        const optimum = best(pair, expected.length, actual.length);
        const result = matchToolCalls(actual, toExpected(expected));
        expect(result.recall * expected.length).toBeCloseTo(optimum, 9);
        // Greedy, row by row taking the best free column: how often it falls short.
        const used = new Set<number>();
        let greedy = 0;
        for (let e = 0; e < expected.length; e++) {
          let top = -1;
          let at = -1;
          for (let c = 0; c < actual.length; c++) {
            const s = pair(e, c);
            if (!used.has(c) && s > 0 && s > top) [top, at] = [s, c];
          }
          if (at >= 0) {
            used.add(at);
            greedy += top;
          }
        }
        if (greedy < optimum - 1e-9) greedyWorse++;
      }),
      { numRuns: 400, seed: 20261121 },
    );
    // The generator does produce cases that tell the two apart.
    expect(greedyWorse).toBeGreaterThan(50);
  });
});

describe("scoreToolCalls", () => {
  // Calls that may have failed and may carry an output, and option sets that reach every branch
  // of the score: order modes, score kinds, tool-error policies, constraints, schemas, outputs.
  const made = fc.record({
    name: fc.constantFrom("a", "b", "c"),
    inputParameters: args,
    output: fc.constantFrom<JsonValue>("ok", "no", null),
    isError: fc.boolean(),
  });
  const wanted = fc.record(
    {
      name: fc.constantFrom("a", "b", "c"),
      arguments: args,
      output: fc.constantFrom<JsonValue>("ok", "no"),
    },
    { requiredKeys: ["name", "arguments"] },
  );
  const schema = {
    type: "object",
    properties: { x: { type: "integer" }, y: { type: "string" } },
    additionalProperties: false,
  };
  const optionSets: MatchOptions[] = [
    {},
    { order: "in-order" },
    { order: "strict", score: "exact" },
    { order: "only-expected" },
    { order: "all-expected", score: "f1" },
    { score: "precision", threshold: 0.9 },
    { toolErrors: "fail" },
    { toolErrors: "retry" },
    { toolErrors: "retry", onViolation: "report" },
    { output: "exact", arguments: "subset" },
    { arguments: { fuzzy: 0.5 } },
    { constraints: { forbiddenTools: ["c"], maxCalls: { a: 2 } } },
    { constraints: { redundantCalls: "forbid", maxTotalCalls: 4 }, onViolation: "report" },
    { tools: [{ name: "a", parameters: schema }], onSchemaViolation: "fail" },
    { tools: [{ name: "b", parameters: schema }] },
  ];
  const numbers = [
    "algorithm",
    "precision",
    "recall",
    "f1",
    "score",
    "scoreKind",
    "exact",
    "success",
    "threshold",
    "order",
  ] as const;

  it("gives exactly the numbers matchToolCalls gives, under every option set", () => {
    fc.assert(
      fc.property(
        fc.array(made, { maxLength: 7 }),
        fc.array(wanted, { maxLength: 6 }),
        fc.constantFrom(...optionSets),
        (actual, expected, options) => {
          const full = matchToolCalls(actual, expected, options);
          const score = scoreToolCalls(actual, expected, options);
          expect(Object.keys(score).sort()).toEqual([...numbers].sort());
          for (const key of numbers) expect(score[key], key).toBe(full[key]);
        },
      ),
      { numRuns: 600, seed: 20261122 },
    );
  });

  it("reads partial orders and transcripts as matchToolCalls does", () => {
    fc.assert(
      fc.property(
        fc.array(made, { maxLength: 6 }),
        fc.array(fc.array(wanted, { maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        (actual, groups) => {
          const trajectory = { calls: actual, tools: [] };
          const full = matchToolCalls(trajectory, groups);
          const score = scoreToolCalls(trajectory, groups);
          for (const key of numbers) expect(score[key], key).toBe(full[key]);
          expect(score.order).toBe("partial");
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it("refuses bad input with the same typed error", () => {
    const cases: [unknown, unknown, MatchOptions][] = [
      [[{ name: 3 }], [], {}],
      [[], [{ name: "a", arguments: [1] }], {}],
      [[], [[{ name: "a" }]], { order: "strict" }],
      [[], [], { order: "sideways" as OrderMode }],
    ];
    for (const [actual, expected, options] of cases) {
      const error = (run: () => unknown) => {
        try {
          run();
        } catch (caught) {
          return caught;
        }
        throw new Error("no error");
      };
      const full = error(() => matchToolCalls(actual, expected as never, options));
      const score = error(() => scoreToolCalls(actual, expected as never, options));
      expect(ToolscoreError.isInstance(score)).toBe(true);
      expect(score).toEqual(full);
    }
  });
});

describe("transcripts read together", () => {
  // An agent's transcript made from a reference by changing, dropping, adding and reordering
  // calls: most arguments keep their text, so reading both together shares their objects.
  const reference = fc.array(toolCall, { minLength: 1, maxLength: 6 });
  const edit = fc.record({
    changed: fc.array(fc.tuple(fc.nat(), args), { maxLength: 2 }),
    dropped: fc.array(fc.nat(), { maxLength: 2 }),
    added: fc.array(toolCall, { maxLength: 2 }),
    swapped: fc.boolean(),
  });
  const toMessages = (list: readonly Call[], prefix: string): unknown[] => [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: null,
      tool_calls: list.map((call, index) => ({
        id: `${prefix}${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.inputParameters) },
      })),
    },
    ...list.map((_, index) => ({ role: "tool", tool_call_id: `${prefix}${index}`, content: "ok" })),
  ];
  const optionSets: MatchOptions[] = [
    {},
    { order: "strict" },
    { order: "only-expected" },
    { order: "all-expected" },
    { order: "in-order" },
    { arguments: "subset" },
    { arguments: { fuzzy: 0.5 } },
    { arguments: { mode: "exact", paths: { x: "ignore" } } },
    { output: "exact" },
    { toolErrors: "retry" },
  ];

  it("scores and explains them as transcripts read one by one", () => {
    fc.assert(
      fc.property(reference, edit, fc.constantFrom(...optionSets), (wanted, change, options) => {
        let made = wanted.map((call) => ({ ...call }));
        for (const [at, changed] of change.changed) {
          made[at % made.length] = { ...made[at % made.length], inputParameters: changed };
        }
        made = made.filter((_, index) => !change.dropped.includes(index));
        made.push(...change.added);
        if (change.swapped && made.length > 1) made = [...made.slice(1), made[0]];
        const agent = toMessages(made, "a");
        const expected = toMessages(wanted, "r");
        const { actual, reference } = parseTrajectories({ actual: agent, reference: expected });
        const alone = [parseTrajectory(agent), parseTrajectory(expected)] as const;
        expect(scoreToolCalls(actual, reference, options)).toEqual(
          scoreToolCalls(alone[0], alone[1], options),
        );
        const explained = matchToolCalls(actual, reference, options);
        expect(JSON.stringify(explained)).toBe(
          JSON.stringify(matchToolCalls(alone[0], alone[1], options)),
        );
        const score = scoreToolCalls(actual, reference, options);
        for (const key of Object.keys(score) as (keyof typeof score)[]) {
          expect(score[key], key).toBe(explained[key]);
        }
      }),
      { numRuns: 1500, seed: 20261122 },
    );
  });
});
