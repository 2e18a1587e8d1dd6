import { describe, expect, it } from "vitest";
import { callDiffLines, describeMismatch, formatToolCall } from "./call-diff.js";
import type { ToolCallMatchDetails } from "./explanation.js";

const expected = [
  { name: "search_flights", arguments: { from: "PAR", date: "2026-05-03" } },
  { name: "book", arguments: { seat: "12A" } },
  { name: "pay", arguments: {} },
  { name: "email", arguments: { to: "me" } },
];
const called = [
  { name: "search_flights", arguments: { from: "PAR", date: "2026-06-01" } },
  { name: "email", arguments: { to: "me" } },
  { name: "pay", arguments: {} },
  { name: "refund", arguments: { all: true } },
];

const details: ToolCallMatchDetails = {
  algorithm: "weighted-lcs",
  pairs: [
    {
      expectedIndex: 0,
      calledIndex: 0,
      name: "search_flights",
      score: 0.5,
      arguments: [
        { path: "$.from", verdict: "match", expected: "PAR", actual: "PAR" },
        { path: "$.date", verdict: "mismatch", expected: "2026-05-03", actual: "2026-06-01" },
      ],
    },
    { expectedIndex: 2, calledIndex: 2, name: "pay", score: 1, arguments: [] },
  ],
  missing: [{ expectedIndex: 1, name: "book" }],
  unexpected: [
    { calledIndex: 1, name: "email" },
    { calledIndex: 3, name: "refund" },
  ],
  outOfOrder: [{ expectedIndex: 3, name: "email" }],
  mismatches: [
    {
      kind: "args-mismatch",
      expectedIndex: 0,
      calledIndex: 0,
      path: "$.date",
      expected: "2026-05-03",
      actual: "2026-06-01",
    },
    { kind: "missing-call", expectedIndex: 1, name: "book" },
    { kind: "out-of-order", expectedIndex: 3, name: "email" },
    { kind: "unexpected-call", calledIndex: 3, name: "refund" },
  ],
  precision: 0.375,
  recall: 0.375,
  f1: 0.375,
};

describe("callDiffLines", () => {
  it("marks matched, differing, missing, out-of-order and unexpected calls in reading order", () => {
    expect(callDiffLines({ expected, called, details })).toEqual([
      '~ expected[0] search_flights({"from":"PAR","date":"2026-05-03"})',
      '    called[0] search_flights({"from":"PAR","date":"2026-06-01"}) (score 0.5)',
      '      $.date: expected "2026-05-03", got "2026-06-01"',
      '- expected[1] book({"seat":"12A"}): not called',
      "✓ expected[2] pay() = called[2]",
      '↕ expected[3] email({"to":"me"}): made, but out of order',
      '+ called[1] email({"to":"me"}): not expected',
      '+ called[3] refund({"all":true}): not expected',
    ]);
  });

  it("falls back to the names in the details when the lists are shorter", () => {
    const lines = callDiffLines({ expected: [], called: [], details });
    expect(lines[0]).toBe("~ expected[0] ?");
    expect(lines[1]).toBe("    called[0] search_flights (score 0.5)");
  });
});

describe("callDiffLines on a missing call with a near miss", () => {
  it("names the nearest call of the tool and what kept them apart; + lines can be left out", () => {
    const lines = callDiffLines(
      {
        expected: [{ name: "book", arguments: { seat: "1C" } }],
        called: [{ name: "book", arguments: { seat: "12A", extra: 1 } }],
        details: {
          ...details,
          pairs: [],
          outOfOrder: [],
          mismatches: [],
          missing: [
            {
              expectedIndex: 0,
              name: "book",
              nearest: {
                calledIndex: 0,
                arguments: [
                  { path: "$.seat", verdict: "mismatch", expected: "1C", actual: "12A" },
                  { path: "$.extra", verdict: "unexpected", actual: 1 },
                  { path: "$.gone", verdict: "missing", expected: true },
                ],
              },
            },
          ],
          unexpected: [{ calledIndex: 0, name: "book" }],
        },
      },
      { unexpected: false },
    );
    expect(lines).toEqual([
      '- expected[0] book({"seat":"1C"}): not called',
      '    nearest: called[0] book({"seat":"12A","extra":1})',
      '      $.seat: expected "1C", got "12A"',
      "      $.extra: 1 passed, not expected",
      "      $.gone: expected true, not passed",
    ]);
  });
});

describe("formatToolCall", () => {
  it("cuts long arguments and leaves out empty ones", () => {
    expect(formatToolCall({ name: "f", arguments: {} })).toBe("f()");
    expect(formatToolCall({ name: "f" })).toBe("f(…)");
    const long = formatToolCall({ name: "f", arguments: { text: "x".repeat(500) } });
    expect(long.length).toBeLessThanOrEqual(123);
    expect(long.endsWith("…)")).toBe(true);
  });

  it("survives values JSON cannot write", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatToolCall({ name: "f", arguments: cyclic })).toBe("f([object Object])");
    expect(formatToolCall({ name: "f", arguments: 10n })).toBe("f(10)");
  });
});

describe("describeMismatch", () => {
  it("words every kind", () => {
    expect(describeMismatch({ kind: "count-mismatch", expected: 2, actual: 3 })).toBe(
      "expected 2 calls, got 3",
    );
    expect(
      describeMismatch({
        kind: "args-missing",
        expectedIndex: 0,
        calledIndex: 1,
        path: "$.a",
        expected: 1,
      }),
    ).toBe("$.a: expected 1, not passed");
    expect(
      describeMismatch({
        kind: "args-unexpected",
        expectedIndex: 0,
        calledIndex: 1,
        path: "$.b",
        actual: [1],
      }),
    ).toBe("$.b: [1] passed, not expected");
    expect(
      describeMismatch({
        kind: "type-mismatch",
        expectedIndex: 0,
        calledIndex: 1,
        expected: "FUNCTION",
        actual: "MCP",
      }),
    ).toBe("called[1] is a MCP call, expected FUNCTION");
    expect(
      describeMismatch(
        {
          kind: "output-mismatch",
          expectedIndex: 0,
          calledIndex: 0,
          path: "$",
          expected: "a".repeat(100),
          actual: "b",
        },
        { maxValueLength: 10 },
      ),
    ).toBe('output: expected "aaaaaaaa…, got "b"');
  });

  it("tells the calls the order allowed from the ones it did not", () => {
    const lines = callDiffLines({
      expected: [{ name: "a" }, { name: "c" }],
      called: [{ name: "a" }, { name: "b", arguments: { q: 1 } }],
      details: {
        ...details,
        pairs: [{ expectedIndex: 0, calledIndex: 0, name: "a", score: 1, arguments: [] }],
        outOfOrder: [],
        mismatches: [],
        missing: [{ expectedIndex: 1, name: "c", allowed: true }],
        unexpected: [{ calledIndex: 1, name: "b", allowed: true }],
      },
    });
    expect(lines).toEqual([
      "✓ expected[0] a(…) = called[0]",
      "  expected[1] c(…): not called, which the order allows",
      '  called[1] b({"q":1}): besides the expected calls, which the order allows',
    ]);
  });
});
