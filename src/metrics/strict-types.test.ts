import { describe, expect, it } from "vitest";
import { matchToolCalls } from "./match-tool-calls.js";

/** Issue 21, item 5: coerceTypes false compares values as they are. */

const tools = [
  {
    name: "set",
    parameters: {
      type: "object",
      properties: { count: { type: "integer" }, on: { type: "boolean" } },
    },
  },
];

describe("coerceTypes", () => {
  const made = [{ name: "set", inputParameters: { count: "10", on: "true" } }];
  const expected = [{ name: "set", arguments: { count: 10, on: true } }];

  it("reads values as their declared types by default", () => {
    const result = matchToolCalls(made, expected, { tools });
    expect(result.score).toBe(1);
    expect(result.schemaViolations.map((v) => [v.kind, v.path])).toEqual([
      ["wrong-type", "$.count"],
      ["wrong-type", "$.on"],
    ]);
  });

  it("with coerceTypes false, '10' is not 10 and 'true' is not true", () => {
    const result = matchToolCalls(
      [{ name: "set", inputParameters: { count: "10", on: "true", label: "a" } }],
      [{ name: "set", arguments: { count: 10, on: true, label: "a" } }],
      { tools, coerceTypes: false },
    );
    expect(result.score).toBeLessThan(1);
    expect(result.mismatches.map((m) => ("path" in m ? m.path : m.kind))).toEqual([
      "$.count",
      "$.on",
    ]);
  });

  it("fails the case on the wrong type under onSchemaViolation fail", () => {
    const result = matchToolCalls(made, [{ name: "set", arguments: {} }], {
      tools,
      coerceTypes: false,
      arguments: "superset",
      onSchemaViolation: "fail",
    });
    expect(result).toMatchObject({ score: 0, success: false });
  });

  it("refuses a value that is not a boolean", () => {
    expect(() => matchToolCalls([], [], { coerceTypes: "no" as never })).toThrow(/coerceTypes/);
  });
});
