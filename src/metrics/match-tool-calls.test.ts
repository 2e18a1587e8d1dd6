import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { describe, expect, it } from "vitest";
import { InvalidInputError, InvalidOptionError, LimitExceededError } from "../core/errors.js";
import type { ToolSpec } from "../core/test-case.js";
import { match } from "../matchers/value-matchers.js";
import { matchToolCalls } from "./match-tool-calls.js";
import type { ExpectedCallsInput } from "./expected-calls.js";
import type { MatchOptions, OrderMode } from "./match-options.js";
import { seededRandom } from "../../test/support/brute-force.js";

const call = (name: string, inputParameters: Record<string, unknown> = {}, extra = {}) => ({
  name,
  inputParameters,
  ...extra,
});
const want = (name: string, args: Record<string, unknown> = {}, extra = {}) => ({
  name,
  arguments: args,
  ...extra,
});

describe("matchToolCalls: one result, every view", () => {
  const actual = [
    call("search_flights", { from: "PAR", to: "LON" }),
    call("get_weather", { city: "London", unit: "f" }),
    call("get_weather", { city: "London", unit: "c" }),
    call("send_email", { to: "a@b.c" }),
  ];
  const expected = [
    want("search_flights", { from: "PAR", to: "LON" }),
    want("get_weather", { city: "London", unit: "c" }),
    want("book_hotel", { city: "London" }),
    want("send_email", { to: "a@b.c", subject: "trip" }),
  ];
  const result = matchToolCalls(actual, expected);

  it("computes precision, recall and F1 on the same optimal pairs", () => {
    // Pairs: 1 + 1 + 0.5 (send_email lacks subject) = 2.5 over 4 expected and 4 made.
    expect(result.recall).toBe(2.5 / 4);
    expect(result.precision).toBe(2.5 / 4);
    expect(result.f1).toBe(2.5 / 4);
    expect(result.score).toBe(result.f1);
    expect(result.scoreKind).toBe("f1");
    expect(result.exact).toBe(false);
    // The default threshold is 1: a case with any point taken off fails.
    expect(result.success).toBe(false);
    expect(result.threshold).toBe(1);
    expect(matchToolCalls(actual, expected, { threshold: 0.6 }).success).toBe(true);
    expect(result.order).toBe("any");
    expect(result.algorithm).toBe("optimal-assignment");
  });

  it("lists the pairs with per-argument verdicts and JSON paths", () => {
    expect(result.pairs.map((p) => [p.expectedIndex, p.calledIndex, p.score])).toEqual([
      [0, 0, 1],
      [1, 2, 1],
      [3, 3, 0.5],
    ]);
    expect(result.pairs[2]?.arguments).toEqual([
      { path: "$.to", verdict: "match", expected: "a@b.c", actual: "a@b.c" },
      { path: "$.subject", verdict: "missing", expected: "trip" },
    ]);
  });

  it("names what is missing and unexpected, by index", () => {
    expect(result.missing).toEqual([{ expectedIndex: 2, name: "book_hotel" }]);
    expect(result.unexpected).toEqual([{ calledIndex: 1, name: "get_weather" }]);
    expect(result.outOfOrder).toEqual([]);
    // In expected order, then the unexpected calls.
    expect(result.mismatches).toEqual([
      { kind: "missing-call", expectedIndex: 2, name: "book_hotel" },
      {
        kind: "args-missing",
        expectedIndex: 3,
        calledIndex: 3,
        path: "$.subject",
        expected: "trip",
      },
      { kind: "unexpected-call", calledIndex: 1, name: "get_weather" },
    ]);
  });

  it("says why in one sentence, by index and path", () => {
    expect(result.reason).toBe(
      "called[3] send_email: $.subject missing (expected[3], score 0.5); " +
        "expected[2] book_hotel missing; called[1] get_weather not expected. " +
        "2 of 4 expected calls matched exactly (order: any; f1 0.625).",
    );
  });

  it("lets options.score pick the number", () => {
    for (const score of ["precision", "recall", "f1", "exact"] as const) {
      const picked = matchToolCalls(actual, expected, { score });
      expect(picked.score).toBe(score === "exact" ? 0 : picked[score]);
      expect(picked.scoreKind).toBe(score);
    }
  });

  it("explains a perfect match briefly", () => {
    const perfect = matchToolCalls([call("a", { x: 1 })], [want("a", { x: 1 })]);
    expect(perfect).toMatchObject({ score: 1, exact: true, success: true });
    expect(perfect.reason).toBe("The 1 expected call was made as expected (order: any; f1 1).");
    expect(matchToolCalls([], []).reason).toBe(
      "No calls were expected and none were made (order: any; f1 1).",
    );
  });
});

describe("matchToolCalls: order modes", () => {
  const a = want("a", { n: 1 });
  const b = want("b", { n: 2 });
  const c = want("c", { n: 3 });
  const made = (...names: string[]) =>
    names.map((name) => call(name, { n: { a: 1, b: 2, c: 3, x: 9 }[name] }));

  const table: [OrderMode, string[], { score: number; exact: boolean }][] = [
    ["any", ["c", "a", "b"], { score: 1, exact: true }],
    ["any", ["a", "b"], { score: 0.8, exact: false }],
    ["in-order", ["a", "x", "b", "c"], { score: 1, exact: true }],
    ["in-order", ["b", "a", "c"], { score: 2 / 3, exact: false }],
    ["in-order", ["c", "b", "a"], { score: 1 / 3, exact: false }],
    ["strict", ["a", "b", "c"], { score: 1, exact: true }],
    ["strict", ["a", "x", "b", "c"], { score: 2 / 7, exact: false }],
    ["only-expected", ["a", "c"], { score: 1, exact: true }],
    ["only-expected", ["a", "x"], { score: 0.5, exact: false }],
    ["all-expected", ["x", "c", "b", "a", "x"], { score: 1, exact: true }],
    ["all-expected", ["a", "b"], { score: 2 / 3, exact: false }],
  ];
  // The extra call x is of a read-only tool: the order alone decides.
  const readOnly = { readOnly: ["x"] };
  for (const [order, names, want] of table) {
    it(`${order}: ${names.join(",")} scores ${want.score.toFixed(3)}`, () => {
      const result = matchToolCalls(made(...names), [a, b, c], { order, sideEffects: readOnly });
      expect(result.score).toBeCloseTo(want.score, 12);
      expect(result.exact).toBe(want.exact);
      expect(result.order).toBe(order);
    });
  }

  it("defaults the score to recall where extra calls are allowed, precision for subset", () => {
    expect(matchToolCalls([], [a], { order: "in-order" }).scoreKind).toBe("recall");
    expect(matchToolCalls([], [a], { order: "all-expected" }).scoreKind).toBe("recall");
    expect(matchToolCalls([], [a], { order: "only-expected" }).scoreKind).toBe("precision");
    expect(matchToolCalls([], [[a]]).scoreKind).toBe("recall");
    expect(matchToolCalls([], [a], { order: "strict" }).scoreKind).toBe("f1");
  });

  it("names calls made in the wrong order as out of order, not missing, and not unexpected too", () => {
    const result = matchToolCalls(made("b", "a"), [a, b], { order: "in-order" });
    expect(result.outOfOrder).toEqual([{ expectedIndex: 1, name: "b", calledIndex: 0 }]);
    expect(result.missing).toEqual([]);
    expect(result.unexpected).toEqual([]);
    expect(result.reason).toBe(
      "expected[1] b made out of order (called[0]). 1 of 2 expected calls matched exactly (order: in-order; recall 0.5).",
    );
  });

  it("checks enum membership under the string rule the arguments are compared by", () => {
    const tools: ToolSpec[] = [
      {
        name: "plot",
        parameters: {
          type: "object",
          properties: { wave: { type: "string", enum: ["sine", "square"] } },
        },
      },
    ];
    const options = {
      tools,
      onSchemaViolation: "fail" as const,
      arguments: { mode: "exact" as const, strings: { ignoreCase: true } },
    };
    const made = [{ name: "plot", arguments: { wave: "SINE" } }];
    const expected = [{ name: "plot", arguments: { wave: "sine" } }];
    const result = matchToolCalls(made, expected, options);
    expect(result.schemaViolations).toEqual([]);
    expect(result.score).toBe(1);
    // Without the rule, "SINE" is outside the enum, and the call fails.
    const strict = matchToolCalls(made, expected, { ...options, arguments: "exact" });
    expect(strict.schemaViolations.map((violation) => violation.path)).toEqual(["$.wave"]);
    expect(strict.score).toBe(0);
  });

  it("says a call's arguments did not parse, rather than that every argument is missing", () => {
    const result = matchToolCalls(
      [{ name: "refund", arguments: '{"amount": 30' }],
      [{ name: "refund", arguments: { amount: 30 } }],
    );
    expect(result.score).toBe(0);
    expect(result.reason).toContain(
      'called[0] refund: the arguments did not parse as JSON: "{\\"amount\\": 30"',
    );
    expect(result.reason).not.toContain("$.amount missing");
  });

  it("counts a call whose arguments do not parse as no call, under unparsedArguments: no-call", () => {
    const garbled = { name: "refund", arguments: '{"amount": 30' };
    // BFCL's irrelevance rule: no call expected, and an answer that does not decode is no call.
    const irrelevance = matchToolCalls([garbled], [], { unparsedArguments: "no-call" });
    expect(irrelevance.score).toBe(1);
    expect(irrelevance.reason).toBe(
      "No calls were expected and none were made (order: any; f1 1). called[0] refund: the arguments did not parse as JSON; counts as no call.",
    );
    expect(irrelevance.ignored?.called).toEqual([
      { calledIndex: 0, name: "refund", why: "unparsed" },
    ]);
    // By default it is a call of its tool with every argument wrong.
    expect(matchToolCalls([garbled], []).score).toBe(0);
    // Left out of the constraints too: "some call must be made" is not met by it.
    const relevance = matchToolCalls([garbled, { name: "lookup", arguments: "{}" }], [], {
      unparsedArguments: "no-call",
      constraints: { minCalls: { "*": 2 } },
      order: "all-expected",
      sideEffects: { readOnly: ["lookup"] },
    });
    expect(relevance.violations).toEqual([{ kind: "too-few-calls", name: "*", count: 1, min: 2 }]);
    expect(relevance.unexpected).toEqual([{ calledIndex: 1, name: "lookup", allowed: true }]);
    expect(() => matchToolCalls([], [], { unparsedArguments: "drop" as never })).toThrow(
      /unparsedArguments must be one of "mismatch", "no-call"/,
    );
  });

  it("puts no order among the calls of one assistant turn under in-order", () => {
    const turn = parseTrajectory([
      { role: "user", content: "weather in both, then book" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "1", type: "function", function: { name: "b", arguments: "{}" } },
          { id: "2", type: "function", function: { name: "a", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "1", content: "ok" },
      { role: "tool", tool_call_id: "2", content: "ok" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "3", type: "function", function: { name: "c", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "3", content: "ok" },
    ]);
    const expected = [
      { name: "a", arguments: {} },
      { name: "b", arguments: {} },
      { name: "c", arguments: {} },
    ];
    const result = matchToolCalls(turn, expected, { order: "in-order" });
    expect(result.score).toBe(1);
    expect(result.exact).toBe(true);
    expect(result.unexpected).toEqual([]);
    // Turns keep their order: c, made in the turn after a and b, cannot come first.
    const late = matchToolCalls(turn, [expected[2], expected[0], expected[1]], {
      order: "in-order",
    });
    expect(late.outOfOrder.map((item) => item.name)).toEqual(["c"]);
    expect(late.unexpected).toEqual([]);
    // The same calls as a plain list: each call is its own turn.
    expect(matchToolCalls(turn.calls, expected, { order: "in-order" }).exact).toBe(false);
  });

  it("reads the order modes' old names, subset and superset, as only-expected and all-expected", () => {
    const made = [call("a"), call("x")];
    const expected = [want("a"), want("c")];
    const sideEffects = { undeclared: "read-only" } as const;
    for (const [old, now] of [
      ["subset", "only-expected"],
      ["superset", "all-expected"],
    ] as const) {
      const before = matchToolCalls(made, expected, { order: old, sideEffects });
      const after = matchToolCalls(made, expected, { order: now, sideEffects });
      expect(before).toEqual(after);
      expect(before.reason).toContain(`(order: ${now};`);
    }
  });

  it("says what the order allowed: calls besides the expected ones, expected calls not made", () => {
    // Extra calls of read-only tools: the order lets them go.
    const sideEffects = { undeclared: "read-only" } as const;
    // No calls expected, one made: all-expected and in-order score 1, and the reason says a call was made.
    for (const order of ["all-expected", "in-order", "partial"] as const) {
      const none = matchToolCalls([call("search", { q: "x" })], [], { order, sideEffects });
      expect(none.score).toBe(1);
      expect(none.reason).toBe(
        `No calls were expected; 1 call was made, which order ${order} allows (order: ${order}; recall 1).`,
      );
      expect(none.unexpected).toEqual([{ calledIndex: 0, name: "search", allowed: true }]);
      expect(none.mismatches).toEqual([]);
    }
    // An extra call under superset is allowed, not "not expected", exact or not.
    const exact = matchToolCalls([call("a"), call("b")], [want("a")], {
      order: "all-expected",
      sideEffects,
    });
    expect(exact.reason).toBe(
      "The 1 expected call was made as expected, and 1 other call, which order all-expected allows (order: all-expected; recall 1).",
    );
    const partial = matchToolCalls([call("a"), call("b")], [want("a"), want("c")], {
      order: "all-expected",
      sideEffects,
    });
    expect(partial.reason).toBe(
      "expected[1] c missing; called[1] b made besides the expected calls, which order all-expected allows. 1 of 2 expected calls matched exactly (order: all-expected; recall 0.5).",
    );
    expect(partial.reason).not.toContain("not expected");
    expect(partial.mismatches).toEqual([{ kind: "missing-call", expectedIndex: 1, name: "c" }]);
    // A score that counts the extra call says so.
    const f1 = matchToolCalls([call("a"), call("b")], [want("a")], {
      order: "all-expected",
      score: "f1",
    });
    expect(f1.reason).toBe(
      "The 1 expected call was made as expected, and 1 other call, which lowers the f1 score (order: all-expected; f1 0.667).",
    );
    expect(f1.unexpected).toEqual([{ calledIndex: 1, name: "b" }]);
    // Under subset, an expected call not made is allowed; the reason no longer says all were made.
    const subset = matchToolCalls([call("a")], [want("a"), want("c")], { order: "only-expected" });
    expect(subset.reason).toBe(
      "1 of 2 expected calls was made as expected; the other 1 was not, which order only-expected allows (order: only-expected; precision 1).",
    );
    expect(subset.missing).toEqual([{ expectedIndex: 1, name: "c", allowed: true }]);
    // Orders that count extra calls still call them not expected.
    expect(matchToolCalls([call("search")], [], { order: "any" }).reason).toBe(
      "called[0] search not expected. No calls were expected (order: any; f1 0).",
    );
  });

  describe("partial order", () => {
    const groups = [
      [want("weather", { city: "Paris" }), want("weather", { city: "Lyon" })],
      [want("book", { city: "Lyon" })],
    ];
    const weather = (city: string) => call("weather", { city });

    it("accepts the calls of a group in any order, groups in sequence", () => {
      for (const order of [
        [weather("Paris"), weather("Lyon")],
        [weather("Lyon"), weather("Paris")],
      ]) {
        const result = matchToolCalls([...order, call("book", { city: "Lyon" })], groups);
        expect(result).toMatchObject({ score: 1, exact: true, order: "partial" });
        expect(result.algorithm).toBe("partial-order");
      }
    });

    it("finds a group's call made after the next group out of order", () => {
      const result = matchToolCalls(
        [weather("Paris"), call("book", { city: "Lyon" }), weather("Lyon")],
        groups,
      );
      expect(result.score).toBeCloseTo(2 / 3, 12);
      expect(result.outOfOrder.length + result.unexpected.length).toBeGreaterThan(0);
      expect(result.exact).toBe(false);
    });

    it("reads explicit after dependencies", () => {
      const expected = [
        want("search", {}, { id: "s" }),
        want("weather", {}, { id: "w" }),
        want("book", {}, { after: ["s", "w"] }),
      ];
      expect(matchToolCalls([call("weather"), call("search"), call("book")], expected).score).toBe(
        1,
      );
      expect(
        matchToolCalls([call("weather"), call("book"), call("search")], expected).score,
      ).toBeCloseTo(2 / 3, 12);
    });

    it("refuses another order mode for a partial order", () => {
      expect(() => matchToolCalls([], groups, { order: "strict" })).toThrow(InvalidOptionError);
    });

    it("refuses a partial order too wide to align exactly, with a way out", () => {
      // Twelve unordered calls of one tool with similar arguments, then a final call:
      // neither the greedy nor the in-order bound is tight, so thousands of states stay open.
      const random = seededRandom(2);
      const digit = () => Math.floor(random() * 3);
      const args = () => ({ v: digit(), w: digit(), x: digit(), y: digit(), z: digit() });
      const wide = [Array.from({ length: 12 }, () => want("s", args())), [want("done")]];
      const calls = [...Array.from({ length: 12 }, () => call("s", args())), call("done")];
      let error: unknown;
      try {
        matchToolCalls(calls, wide, { limits: { maxOrderStates: 2000 } });
      } catch (caught) {
        error = caught;
      }
      expect(LimitExceededError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/raise limits\.maxOrderStates, or use order "any"/);
      // Within the default budget it aligns exactly.
      expect(matchToolCalls(calls, wide).score).toBeGreaterThan(0.6);
    });

    it("refuses from the sizes what the pairing budget cannot reach, before comparing (issue 34, item 10)", () => {
      // 5,000 calls of one tool, each unlike every expected one: 25 million comparisons.
      const n = 5_000;
      const expected = Array.from({ length: n }, (_, i) => want("search", { q: `e${i}` }));
      const calls = Array.from({ length: n }, (_, i) => call("search", { q: `c${i}` }));
      let compared = 0;
      const compare = () => {
        compared++;
        return 0.5;
      };
      let error: unknown;
      try {
        matchToolCalls(calls, expected, { toolRules: { search: { compare } } });
      } catch (caught) {
        error = caught;
      }
      expect(LimitExceededError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /needs at least \d+ more pair comparisons, over limits\.maxPairEvaluations \(10000000\)/,
      );
      // Only the cheap first pass (a call against its likely twin) ran: not ten million.
      expect(compared).toBeLessThan(2 * n);
    });

    it("aligns a group of identical parallel calls without trying every way to choose them", () => {
      const group = [Array.from({ length: 30 }, () => want("fetch")), [want("done")]];
      const calls = [...Array.from({ length: 30 }, () => call("fetch")), call("done")];
      const result = matchToolCalls(calls, group, { limits: { maxOrderStates: 200 } });
      expect(result.score).toBe(1);
    });

    it("aligns a single group (no order at all) as a multiset", () => {
      const group = [Array.from({ length: 40 }, (_, i) => want("fetch", { page: i }))];
      const calls = Array.from({ length: 40 }, (_, i) => call("fetch", { page: 39 - i }));
      expect(matchToolCalls(calls, group).score).toBe(1);
    });
  });
});

describe("matchToolCalls: the peers' bug reports", () => {
  it("scores a reordered expected list the same", () => {
    const calls = [call("a", { x: 1 }), call("b", { y: 2 }), call("a", { x: 3 })];
    const expected = [want("a", { x: 1 }), want("b", { y: 2 }), want("a", { x: 4 })];
    const forward = matchToolCalls(calls, expected);
    const reversed = matchToolCalls(calls, [...expected].reverse());
    expect(reversed.score).toBe(forward.score);
    expect(reversed.precision).toBe(forward.precision);
  });

  it("scores a correctly duplicated call 1, and an extra duplicate as an extra", () => {
    const twice = [call("search", { q: "x" }), call("search", { q: "x" })];
    expect(
      matchToolCalls(twice, [want("search", { q: "x" }), want("search", { q: "x" })]).score,
    ).toBe(1);
    const extra = matchToolCalls(twice, [want("search", { q: "x" })]);
    expect(extra).toMatchObject({ recall: 1, precision: 0.5 });
    expect(extra.unexpected).toEqual([{ calledIndex: 1, name: "search" }]);
  });

  it("compares nested arguments without crashing, with partial credit by path", () => {
    const result = matchToolCalls(
      [call("q", { filter: { range: { from: 1, to: 5 }, tags: ["a", { b: [1, 2] }] } })],
      [want("q", { filter: { range: { from: 1, to: 6 }, tags: ["a", { b: [1, 2] }] } })],
    );
    expect(result.score).toBe(0.75);
    expect(result.mismatches).toEqual([
      expect.objectContaining({ kind: "args-mismatch", path: "$.filter.range.to" }),
    ]);
  });

  it("handles empty lists on either side", () => {
    expect(matchToolCalls([], [])).toMatchObject({
      score: 1,
      precision: 1,
      recall: 1,
      exact: true,
    });
    expect(matchToolCalls([call("a")], [])).toMatchObject({ score: 0, precision: 0, recall: 1 });
    expect(matchToolCalls([], [want("a")])).toMatchObject({ score: 0, precision: 0, recall: 0 });
  });

  it("accepts numbers sent as strings where the tool's schema says number", () => {
    const tools: ToolSpec[] = [
      {
        name: "get_forecast",
        parameters: {
          type: "object",
          properties: { days: { type: "integer" }, zip: { type: "string" } },
        },
      },
    ];
    const calls = [call("get_forecast", { days: "5", zip: "020" })];
    expect(matchToolCalls(calls, [want("get_forecast", { days: 5, zip: "020" })]).score).toBe(0.5);
    const guided = matchToolCalls(calls, [want("get_forecast", { days: 5, zip: "020" })], {
      tools,
    });
    expect(guided.score).toBe(1);
    // The string still breaks the schema: reported apart from the expectation.
    expect(guided.schemaViolations).toEqual([
      {
        kind: "wrong-type",
        path: "$.days",
        message: "must be integer",
        calledIndex: 0,
        name: "get_forecast",
      },
    ]);
    expect(guided.reason).toContain("called[0] get_forecast $.days breaks its schema");
  });

  it("pairs optimally where greedy pairing would not", () => {
    // Greedy takes e0-c0 (0.75) and leaves e1 only c1 (0): 0.75. Optimal: e0-c1 + e1-c0 = 1.25.
    const calls = [call("s", { a: 1, b: 1, c: 1, d: 1 }), call("s", { a: 1, b: 1, c: 2, d: 2 })];
    const expected = [want("s", { a: 1, b: 1, c: 1, d: 2 }), want("s", { a: 1, b: 1, c: 1, d: 1 })];
    const result = matchToolCalls(calls, expected);
    expect(result.pairs.map((p) => [p.expectedIndex, p.calledIndex, p.score])).toEqual([
      [0, 1, 0.75],
      [1, 0, 1],
    ]);
    expect(result.recall).toBe(1.75 / 2);
  });
});

describe("matchToolCalls: argument rules", () => {
  it("maps tool names by normalizeNames, given as data: aliases and a rule for dotted names", () => {
    // BFCL's answer names math.factorial; models are sent (and call) math_factorial.
    const called = [call("math_factorial", { n: 5 }), call("fact", { n: 6 })];
    const expected = [want("math.factorial", { n: 5 }), want("factorial", { n: 6 })];
    expect(matchToolCalls(called, expected).score).toBe(0);
    const mapped = matchToolCalls(called, expected, {
      normalizeNames: { dottedNames: "underscore", aliases: { fact: "factorial" } },
    });
    expect(mapped.score).toBe(1);
    // The snake_case spelling of a config reads the same.
    const snake = matchToolCalls(called, expected, {
      normalizeNames: { dotted_names: "underscore", aliases: { fact: "factorial" } } as never,
    });
    expect(snake.score).toBe(1);
    expect(() =>
      matchToolCalls([], [], { normalizeNames: { dottedNames: "dash" } as never }),
    ).toThrow(/dottedNames must be "keep" or "underscore", got "dash"/);
    expect(() => matchToolCalls([], [], { normalizeNames: { alias: {} } as never })).toThrow(
      /"alias" is not a name normalization option/,
    );
    expect(() =>
      matchToolCalls([], [], { normalizeNames: true, normalizeName: (name) => name }),
    ).toThrow(/not both/);
  });

  it("fails the case on the schema violations of the kinds onSchemaViolation names, reporting the others", () => {
    const tools: ToolSpec[] = [
      {
        name: "plot",
        parameters: {
          type: "object",
          properties: {
            kind: { type: "string", enum: ["sine", "cosine"] },
            points: { type: "integer" },
          },
        },
      },
    ];
    const enumOnly = [call("plot", { kind: "tangent", points: 10 })];
    const typeAndEnum = [call("plot", { kind: "tangent", points: "ten" })];
    const expected = [want("plot", { kind: match.anyString(), points: match.any() })];
    const bfcl: MatchOptions = {
      tools,
      onSchemaViolation: { fail: ["unknown-argument", "wrong-type"] },
    };
    const reported = matchToolCalls(enumOnly, expected, bfcl);
    expect(reported.score).toBe(1);
    expect(reported.schemaViolations.map((v) => v.kind)).toEqual(["invalid-value"]);
    const failed = matchToolCalls(typeAndEnum, expected, bfcl);
    expect(failed.score).toBe(0);
    expect(failed.reason).toMatch(
      /The case fails on its wrong-type violations; the others are reported only\.$/,
    );
    // "fail" is every kind; "report" none.
    expect(matchToolCalls(enumOnly, expected, { tools, onSchemaViolation: "fail" }).score).toBe(0);
    expect(
      matchToolCalls(typeAndEnum, expected, { tools, onSchemaViolation: "fail" }).reason,
    ).toMatch(/The case fails on these violations\.$/);
    expect(matchToolCalls(typeAndEnum, expected, { tools }).score).toBe(1);
    expect(() =>
      matchToolCalls([], [], { onSchemaViolation: { fail: ["enum"] } as never }),
    ).toThrow(/onSchemaViolation.fail lists the kinds.*"unknown-argument".*got "enum"/);
    expect(() => matchToolCalls([], [], { onSchemaViolation: "sometimes" as never })).toThrow(
      /onSchemaViolation must be "fail", "report" or \{ fail: \[kinds\] \}/,
    );
  });

  it("reads a schema default for a parameter left out, unless schemaDefaults is false", () => {
    const tools: ToolSpec[] = [
      {
        name: "area",
        parameters: {
          type: "object",
          properties: { base: { type: "integer" }, unit: { type: "string", default: "cm" } },
          required: ["base"],
        },
      },
    ];
    // Left out by the call, expected at its default; passed at its default, not expected.
    const leftOut = (options: MatchOptions) =>
      matchToolCalls([call("area", { base: 10 })], [want("area", { base: 10, unit: "cm" })], {
        tools,
        ...options,
      });
    const passed = (options: MatchOptions) =>
      matchToolCalls([call("area", { base: 10, unit: "cm" })], [want("area", { base: 10 })], {
        tools,
        ...options,
      });
    expect(leftOut({}).score).toBe(1);
    expect(passed({}).score).toBe(1);
    const off = { schemaDefaults: false };
    expect(leftOut(off).score).toBe(0.5);
    expect(leftOut(off).reason).toContain("$.unit missing");
    expect(passed(off).score).toBe(0.5);
    expect(passed(off).reason).toContain('$.unit = "cm" not expected');
    expect(() => matchToolCalls([], [], { schemaDefaults: "no" as never })).toThrow(
      /schemaDefaults/,
    );
  });

  it("applies rules for all calls, per tool, and per path", () => {
    const options: MatchOptions = {
      arguments: { mode: "exact", paths: { "*_id": "ignore" } },
      toolRules: { search: { arguments: "subset" } },
    };
    const result = matchToolCalls(
      [call("refund", { order_id: "o-77", amount: 5 }), call("search", { q: "x", limit: 9 })],
      [want("refund", { order_id: "o-1", amount: 5 }), want("search", { q: "x" })],
      options,
    );
    expect(result.score).toBe(1);
  });

  it("reads rules and matchers written as JSON exactly as their code forms", () => {
    const calls = [call("book", { date: "2025-06-01", seats: 2, ref: "r-9" })];
    const code = matchToolCalls(
      calls,
      [want("book", { date: match.regex("^2025-"), seats: match.range({ min: 1, max: 4 }) })],
      { arguments: { mode: "subset", paths: { ref: match.anyString() } } },
    );
    const json = matchToolCalls(
      calls,
      JSON.parse(
        '[{"name":"book","arguments":{"date":{"$match":"regex","pattern":"^2025-"},"seats":{"$match":"range","min":1,"max":4}}}]',
      ) as ExpectedCallsInput,
      { arguments: { mode: "subset", paths: { ref: match.anyString() } } },
    );
    expect(code.score).toBe(1);
    expect(json.score).toBe(code.score);
    expect(json.pairs).toEqual(code.pairs);
  });

  it("reads path rules given as JSON matchers, as a config file would", () => {
    const calls = [call("refund", { order_id: "o-77", amount: 5 })];
    const expected = [want("refund", { order_id: "o-1", amount: 5 })];
    const options = JSON.parse(
      '{"arguments":{"mode":"exact","paths":{"order_id":{"$match":"regex","pattern":"^o-\\\\d+$"}}}}',
    ) as MatchOptions;
    expect(matchToolCalls(calls, expected, options).score).toBe(1);
    expect(() =>
      matchToolCalls(calls, expected, {
        arguments: { paths: { order_id: { $match: "glob" } as never } },
      }),
    ).toThrow(/unknown matcher "glob"/);
  });

  it("normalizes the tool names of toolRules like the calls' names", () => {
    const result = matchToolCalls(
      [call("Search", { q: "x", page: 2 })],
      [want("search", { q: "x" })],
      {
        normalizeName: (name) => name.toLowerCase(),
        toolRules: { SEARCH: { arguments: "subset" } },
      },
    );
    expect(result.score).toBe(1);
  });

  it("compares outputs under the output rules when an expected call gives one", () => {
    const calls = [call("lookup", {}, { output: { status: "ok", id: 7 } })];
    expect(matchToolCalls(calls, [want("lookup", {}, { output: { status: "ok" } })]).score).toBe(1);
    const exact = matchToolCalls(calls, [want("lookup", {}, { output: { status: "ok" } })], {
      output: "exact",
    });
    expect(exact.score).toBe(0);
    expect(exact.missing[0]?.nearest?.output).toEqual({
      verdict: "mismatch",
      expected: { status: "ok" },
      actual: { status: "ok", id: 7 },
    });
    expect(
      matchToolCalls(calls, [want("lookup", {}, { output: { status: "ok" } })], {
        output: "subset",
      }).score,
    ).toBe(1);
    expect(
      matchToolCalls(
        calls,
        [want("lookup", {}, { output: { id: match.anyNumber(), status: "ok" } })],
        {
          output: "exact",
        },
      ).score,
    ).toBe(1);
  });
});

describe("matchToolCalls: tool errors", () => {
  const failed = call("fetch", { url: "u" }, { isError: true, output: "timeout" });
  const ok = call("fetch", { url: "u" }, { output: "page" });
  const expected = [want("fetch", { url: "u" })];

  it("ignores errors by default, but marks the pair", () => {
    const result = matchToolCalls([failed], expected);
    expect(result.score).toBe(1);
    expect(result.pairs[0]?.isError).toBe(true);
  });

  it("counts a failed call as not made with toolErrors: fail: neither paired nor unexpected", () => {
    const result = matchToolCalls([failed], expected, { toolErrors: "fail" });
    expect(result).toMatchObject({ score: 0, pairs: [], unexpected: [] });
    expect(result.missing).toEqual([{ expectedIndex: 0, name: "fetch" }]);
    expect(result.reason).toContain(
      "expected[0] fetch missing; called[0] fetch failed and counts as not made",
    );
    // With the call made again, successfully: the failure is left out, and the reason says so.
    const again = matchToolCalls([failed, ok], expected, { toolErrors: "fail" });
    expect(again).toMatchObject({ score: 1, precision: 1, unexpected: [] });
    expect(again.reason).toContain("called[0] fetch failed and counts as not made");
  });

  it("requires a failed call to be retried with toolErrors: retry", () => {
    const retried = matchToolCalls([failed, ok], expected, { toolErrors: "retry" });
    expect(retried).toMatchObject({ score: 1, precision: 1, violations: [] });
    expect(retried.unexpected).toEqual([]);
    const notRetried = matchToolCalls([failed], expected, { toolErrors: "retry" });
    expect(notRetried.violations).toEqual([
      { kind: "unretried-error", calledIndex: 0, name: "fetch" },
    ]);
    expect(notRetried.score).toBe(0);
    expect(notRetried.reason).toContain("called[0] fetch failed and was not retried");
    // A retried attempt is neither unexpected nor offered as the near miss; the last attempt is
    // the near miss, named there and not as unexpected too.
    const twice = matchToolCalls([failed, failed], expected, { toolErrors: "retry" });
    expect(twice.unexpected).toEqual([]);
    expect(twice.missing[0]?.nearest?.calledIndex).toBe(1);
    expect(twice.precision).toBe(0);
  });
});

describe("matchToolCalls: constraints", () => {
  it("counts the calls of every tool a glob names together: at least one call of any tool", () => {
    const some = { constraints: { minCalls: { "*": 1 } }, onViolation: "report" as const };
    expect(matchToolCalls([], [], some).violations).toEqual([
      { kind: "too-few-calls", name: "*", count: 0, min: 1 },
    ]);
    expect(matchToolCalls([call("lookup")], [], some).violations).toEqual([]);
    const searches = [call("search_web"), call("lookup"), call("search_docs"), call("search_web")];
    const capped = matchToolCalls(searches, [], {
      constraints: { maxCalls: { "search_*": 2 }, minCalls: { "get_*": 1 } },
      onViolation: "report",
    });
    expect(capped.violations).toEqual([
      { kind: "too-many-calls", calledIndex: 3, name: "search_*", count: 3, max: 2 },
      { kind: "too-few-calls", name: "get_*", count: 0, min: 1 },
    ]);
  });

  const calls = [
    call("search", { q: "a" }),
    call("search", { q: "a" }),
    call("delete_account"),
    call("search", { q: "b" }),
  ];
  const expected = [want("search", { q: "a" }), want("search", { q: "b" })];

  it("lists every violation with the call index", () => {
    const result = matchToolCalls(calls, expected, {
      constraints: {
        forbiddenTools: ["delete_account"],
        maxCalls: { search: 2 },
        minCalls: { confirm: 1 },
        maxTotalCalls: 3,
        redundantCalls: "forbid",
      },
      onViolation: "report",
    });
    expect(result.violations).toEqual([
      { kind: "redundant-call", calledIndex: 1, previousIndex: 0, name: "search" },
      { kind: "forbidden-tool", calledIndex: 2, name: "delete_account" },
      { kind: "too-many-calls", calledIndex: 3, name: "search", count: 3, max: 2 },
      { kind: "too-many-total-calls", calledIndex: 3, count: 4, max: 3 },
      { kind: "too-few-calls", name: "confirm", count: 0, min: 1 },
    ]);
    // Reported only: the score is the alignment's.
    expect(result.score).toBeCloseTo(result.f1, 12);
    expect(result.score).toBeGreaterThan(0);
    expect(result.exact).toBe(false);
  });

  it("fails the case on a violation by default, and says so", () => {
    const result = matchToolCalls(calls, expected, {
      constraints: { forbiddenTools: ["delete_account"] },
    });
    expect(result.score).toBe(0);
    expect(result.success).toBe(false);
    expect(result.reason).toContain("called[2] delete_account is a forbidden tool");
    expect(result.reason).toContain("The case fails on these violations.");
    // The figure the calls earned, then the score the violation leaves: not "f1 0".
    expect(result.f1).toBeGreaterThan(0);
    expect(result.reason).toContain(
      `(order: ${result.order}; f1 ${Math.round(result.f1 * 1000) / 1000}, score 0)`,
    );
  });

  it("fails on schema violations only when asked", () => {
    const tools: ToolSpec[] = [
      {
        name: "search",
        parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    ];
    const calls = [call("search", { q: "a", page: 2 })];
    const reported = matchToolCalls(calls, [want("search", { q: "a" })], {
      tools,
      arguments: "subset",
    });
    expect(reported.score).toBe(1);
    expect(reported.schemaViolations).toEqual([
      expect.objectContaining({ kind: "unknown-argument", path: "$.page", calledIndex: 0 }),
    ]);
    const failing = matchToolCalls(calls, [want("search", { q: "a" })], {
      tools,
      arguments: "subset",
      onSchemaViolation: "fail",
    });
    expect(failing.score).toBe(0);
  });

  it("normalizes names in constraints the way it normalizes calls", () => {
    const result = matchToolCalls([call("Delete-Account")], [], {
      normalizeName: (name) => name.toLowerCase().replace(/-/g, "_"),
      constraints: { forbiddenTools: ["delete_account"] },
    });
    expect(result.violations).toEqual([
      { kind: "forbidden-tool", calledIndex: 0, name: "delete_account" },
    ]);
  });
});

describe("matchToolCalls: inputs", () => {
  it("reads a parsed trajectory, using the tool definitions it carries", () => {
    const trajectory = {
      calls: [{ name: "count", inputParameters: { n: "3" }, output: null, type: "FUNCTION" }],
      tools: [
        { name: "count", parameters: { type: "object", properties: { n: { type: "number" } } } },
      ],
    };
    expect(matchToolCalls(trajectory, [want("count", { n: 3 })]).score).toBe(1);
  });

  it("normalizes tool names on both sides", () => {
    const result = matchToolCalls([call("GetWeather")], [want("get_weather")], {
      normalizeName: (name) => name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase(),
    });
    expect(result.score).toBe(1);
  });

  it("names the bad field of a bad input", () => {
    expect(() => matchToolCalls([{ name: 1 }], [])).toThrow(/actual\[0\]\.name must be a string/);
    expect(() => matchToolCalls([], [{ arguments: {} } as never])).toThrow(InvalidInputError);
    expect(() => matchToolCalls("calls", [])).toThrow(/actual must be an array of tool calls/);
  });

  const badOptions: [MatchOptions, RegExp][] = [
    [{ order: "sorted" as OrderMode }, /order/],
    [{ score: "mean" as "f1" }, /score/],
    [
      { arguments: "loose" as "exact" },
      /arguments must be "exact", "subset", "superset", "ignore" or \{ fuzzy: 0..1 \}/,
    ],
    [{ arguments: { fuzzy: 2 } }, /arguments must be/],
    [{ arguments: { paths: { "a..b": "ignore" } } }, /arguments\.paths/],
    [{ toolRules: { search: { args: "subset" } as never } }, /toolRules\.search/],
    [
      { constraints: { maxCalls: { a: -1 } } },
      /constraints\.maxCalls must map tool names to whole numbers/,
    ],
    [
      { constraints: { forbiddenTools: "x" as never } },
      /constraints\.forbiddenTools must be a list/,
    ],
    [{ threshold: 2 }, /threshold/],
    [{ toolErrors: "skipped" as "fail" }, /toolErrors/],
    [{ tools: [{ parameters: {} }] as never }, /tools must be a list of tool definitions/],
    [{ typo: true } as MatchOptions, /typo/],
  ];
  for (const [options, message] of badOptions) {
    it(`rejects ${JSON.stringify(options)} with an InvalidOptionError`, () => {
      let error: unknown;
      try {
        matchToolCalls([], [], options);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    });
  }
});
