import { describe, expect, it } from "vitest";
import type { InvalidOptionError } from "../core/errors.js";
import { createMetric } from "../registry/metric-registry.js";
import { matchToolCalls, scoreToolCalls } from "./match-tool-calls.js";

/** Issue 21, items 1 and 2: tool scope, failures reported as text, toolErrors "skip". */

const call = (name: string, inputParameters: Record<string, unknown> = {}, output?: unknown) => ({
  name,
  inputParameters,
  ...(output === undefined ? {} : { output }),
});

describe("tool scope: onlyTools and ignoreTools", () => {
  const made = [call("get_user"), call("book", { id: 1 }), call("get_flight"), call("cancel")];
  const expected = [
    { name: "get_reservation", arguments: {} },
    { name: "book", arguments: { id: 1 } },
    { name: "cancel", arguments: {} },
  ];

  it("leaves calls out of scope out of both sides, and lists them by their index", () => {
    const result = matchToolCalls(made, expected, { ignoreTools: ["get_*"], order: "strict" });
    expect(result).toMatchObject({ score: 1, exact: true, unexpected: [], missing: [] });
    expect(result.pairs.map((pair) => [pair.expectedIndex, pair.calledIndex])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(result.ignored).toEqual({
      called: [
        { calledIndex: 0, name: "get_user", why: "out-of-scope" },
        { calledIndex: 2, name: "get_flight", why: "out-of-scope" },
      ],
      expected: [{ expectedIndex: 0, name: "get_reservation" }],
    });
    expect(result.reason).toContain(
      "2 calls made and 1 expected call of tools out of scope left out",
    );
    expect(scoreToolCalls(made, expected, { ignoreTools: ["get_*"], order: "strict" }).score).toBe(
      1,
    );
  });

  it("onlyTools keeps the named tools; indices in mismatches are the lists' own", () => {
    const result = matchToolCalls(made, [{ name: "book", arguments: { id: 1, seat: "2A" } }], {
      onlyTools: ["book", "can?el"],
    });
    expect(result.unexpected).toEqual([{ calledIndex: 3, name: "cancel" }]);
    expect(result.pairs[0]).toMatchObject({ expectedIndex: 0, calledIndex: 1 });
    expect(result.reason).toContain("called[1]");
  });

  it("constraints count only calls in scope", () => {
    const result = matchToolCalls([call("get_a"), call("get_b"), call("book")], [call("book")], {
      ignoreTools: ["get_*"],
      constraints: { maxTotalCalls: 1 },
    });
    expect(result.violations).toEqual([]);
  });

  it("refuses a glob that is not a string, naming it", () => {
    expect(() => matchToolCalls([], [], { ignoreTools: ["ok", 3 as never] })).toThrow(
      expect.objectContaining({ option: "ignoreTools[1]" }) as InvalidOptionError,
    );
  });

  it("is read from JSON options in the registry (snake_case too)", async () => {
    const metric = createMetric({ metric: "tool-call-accuracy", ignore_tools: ["get_*"] });
    expect(
      await metric.measure({ toolsCalled: made, expectedTools: expected } as never),
    ).toMatchObject({
      score: 1,
    });
  });
});

describe("failed attempts without an error flag", () => {
  it("errorOutput makes a call whose output matches a tool error", () => {
    const made = [
      call("book", { id: 1 }, "Error: seat taken"),
      call("book", { id: 1 }, { ok: true }),
    ];
    const result = matchToolCalls(made, [{ name: "book", arguments: { id: 1 } }], {
      errorOutput: "^Error:",
      toolErrors: "retry",
    });
    expect(result).toMatchObject({ score: 1, unexpected: [] });
    expect(result.ignored?.called).toEqual([{ calledIndex: 0, name: "book", why: "retried" }]);
    // Any other value is matched as its JSON text.
    const json = matchToolCalls(
      [call("book", { id: 1 }, { error: "no" })],
      [{ name: "book", arguments: { id: 1 } }],
      {
        errorOutput: '"error"',
        toolErrors: "fail",
      },
    );
    expect(json.score).toBe(0);
  });

  it('toolErrors "skip" leaves every failed call out, retried or not, and lists it', () => {
    const made = [
      { ...call("update", { x: 1 }), isError: true },
      call("book", { id: 1 }),
      { ...call("cancel"), isError: true },
    ];
    const result = matchToolCalls(made, [{ name: "book", arguments: { id: 1 } }], {
      toolErrors: "skip",
    });
    expect(result).toMatchObject({ score: 1, violations: [], unexpected: [] });
    expect(result.ignored?.called.map((item) => [item.calledIndex, item.why])).toEqual([
      [0, "skipped"],
      [2, "skipped"],
    ]);
    expect(result.reason).toContain("called[0] update failed and is left out");
  });

  it("refuses an invalid errorOutput pattern, naming it", () => {
    expect(() => matchToolCalls([], [], { errorOutput: "(" })).toThrow(
      expect.objectContaining({ option: "errorOutput" }) as InvalidOptionError,
    );
  });
});
