import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DatasetParseError,
  matchToolCalls,
  parseTrajectory,
  toToolCall,
} from "../src/entries/index.js";
import { readDataset } from "../src/node/dataset.js";
import { caseContentOf } from "../src/evaluate/record.js";

/** Issue 21, item 6: a whole number written 3.0 is a float to a schema that declares integer. */

const tools = [
  {
    name: "area",
    parameters: {
      type: "object",
      properties: {
        base: { type: "integer" },
        scale: { type: "number" },
        sides: { type: "array", items: { type: "integer" } },
        either: { anyOf: [{ type: "integer" }, { type: "string" }] },
      },
    },
  },
];
const expected = [{ name: "area", arguments: { base: 10 } }];
const options = { tools, arguments: "subset", onSchemaViolation: "fail" } as const;

const chat = (args: string) => [
  { role: "user", content: "area?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "area", arguments: args } }],
  },
  { role: "tool", tool_call_id: "c1", content: "50" },
];

function violationsOf(calls: Parameters<typeof matchToolCalls>[0]) {
  const result = matchToolCalls(calls, expected, options);
  return {
    success: result.success,
    violations: result.schemaViolations.map((v) => `${v.kind} ${v.path}: ${v.message}`),
  };
}

describe("integer fidelity", () => {
  it("refuses 10.0 and 1e1 for an integer in OpenAI Chat arguments, at any depth", () => {
    const { calls } = parseTrajectory(
      chat('{"base": 10.0, "scale": 2.0, "sides": [3, 4e0], "either": 5.00}'),
    );
    expect(calls[0].numberSpellings).toEqual({
      "$.base": "10.0",
      "$.scale": "2.0",
      "$.sides[1]": "4e0",
      "$.either": "5.00",
    });
    expect(violationsOf(calls)).toEqual({
      success: false,
      violations: [
        "wrong-type $.base: must be integer, written as 10.0",
        "wrong-type $.sides[1]: must be integer, written as 4e0",
        "wrong-type $.either: must be integer, written as 5.00",
      ],
    });
  });

  it("accepts integers written as integers, and floats for a number", () => {
    const { calls } = parseTrajectory(chat('{"base": 10, "scale": 2.0, "sides": [3, 4]}'));
    expect(violationsOf(calls)).toEqual({ success: true, violations: [] });
  });

  it("reads OpenAI Responses arguments the same way", () => {
    const { calls } = parseTrajectory(
      [
        { type: "function_call", call_id: "c1", name: "area", arguments: '{"base": 1e1}' },
        { type: "function_call_output", call_id: "c1", output: "50" },
      ],
      { format: "openai-responses" },
    );
    expect(violationsOf(calls).violations).toEqual([
      "wrong-type $.base: must be integer, written as 1e1",
    ]);
  });

  const mcp = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "area", arguments: { base: 10 } },
    },
    { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "50" }] } },
  ];
  const floatText = (value: unknown) => JSON.stringify(value).replace('"base":10', '"base":10.0');

  it("reads MCP tools/call arguments given as JSON text or JSON Lines", () => {
    const asJson = parseTrajectory(floatText(mcp), { format: "mcp" });
    const asLines = parseTrajectory(mcp.map(floatText).join("\n"), { format: "mcp" });
    for (const { calls } of [asJson, asLines]) {
      expect(calls[0].numberSpellings).toEqual({ "$.base": "10.0" });
      expect(violationsOf(calls).success).toBe(false);
    }
    // A value already parsed has no spelling left to check.
    expect(parseTrajectory(mcp, { format: "mcp" }).calls[0].numberSpellings).toBeUndefined();
  });

  it("reads MCP transcript files named by a dataset", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "toolscore-int-"));
    writeFileSync(path.join(folder, "run.jsonl"), mcp.map(floatText).join("\n"));
    writeFileSync(
      path.join(folder, "cases.jsonl"),
      JSON.stringify({ id: "a", trajectoryFile: "run.jsonl", expectedTools: expected }),
    );
    const entries = [];
    for await (const entry of readDataset(path.join(folder, "cases.jsonl"))) entries.push(entry);
    const [entry] = entries;
    if (DatasetParseError.isInstance(entry)) throw entry;
    expect(entry.toolsCalled?.[0].numberSpellings).toEqual({ "$.base": "10.0" });
  });

  it("reads arguments text in toolscore's own call shape, and keeps spellings in records", () => {
    const call = toToolCall({ name: "area", arguments: '{"base": 10.0}' });
    expect(call.numberSpellings).toEqual({ "$.base": "10.0" });
    expect(violationsOf([call]).success).toBe(false);
    const recorded = caseContentOf({ input: "", toolsCalled: [call] }).toolsCalled;
    expect(recorded?.[0]).toMatchObject({ numberSpellings: { "$.base": "10.0" } });
    // Read back, the record's call still fails.
    expect(violationsOf([toToolCall(recorded?.[0])]).success).toBe(false);
  });

  it("refuses numberSpellings that are not paths to texts", () => {
    expect(() => toToolCall({ name: "area", numberSpellings: { "$.a": 3 } as never })).toThrow(
      /toolCall\.numberSpellings must map JSON paths/,
    );
  });
});
