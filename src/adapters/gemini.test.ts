import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("gemini", () => {
  it("joins responses without ids to calls of the same name, in order", () => {
    const t = parseTrajectory({
      contents: [
        {
          role: "model",
          parts: [
            { functionCall: { name: "a", args: { n: 1 } } },
            { functionCall: { name: "b", args: {} } },
            { functionCall: { name: "a", args: { n: 2 } } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "b", response: { output: "B" } } },
            { functionResponse: { name: "a", response: { output: "A1" } } },
            { functionResponse: { name: "a", response: { value: "A2" } } },
          ],
        },
      ],
    });
    expect(t.calls.map((c) => [c.name, c.inputParameters, c.output])).toEqual([
      ["a", { n: 1 }, "A1"],
      ["b", {}, "B"],
      ["a", { n: 2 }, { value: "A2" }],
    ]);
  });

  it("reads built-in code execution, snake_case parts and candidates", () => {
    const t = parseTrajectory({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { executable_code: { language: "PYTHON", code: "print(1/0)" } },
              { code_execution_result: { outcome: "OUTCOME_FAILED", output: "ZeroDivisionError" } },
              { function_call: { id: "f1", name: "lookup", args: { key: "x" } } },
            ],
          },
        },
      ],
    });
    expect(t.calls).toEqual([
      readCall("code_execution", { language: "PYTHON", code: "print(1/0)" }, "ZeroDivisionError", {
        isError: true,
      }),
      readCall("lookup", { key: "x" }, null, { id: "f1", isError: false }),
    ]);
  });

  it("lowers OpenAPI types in function declarations to JSON Schema", () => {
    const t = parseTrajectory({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [
        {
          function_declarations: [
            {
              name: "f",
              parameters: {
                type: "OBJECT",
                properties: {
                  n: { type: "INTEGER" },
                  tags: { type: "ARRAY", items: { type: "STRING" } },
                },
              },
            },
          ],
        },
      ],
    });
    expect(t.tools).toEqual([
      {
        name: "f",
        parameters: {
          type: "object",
          properties: {
            n: { type: "integer" },
            tags: { type: "array", items: { type: "string" } },
          },
        },
      },
    ]);
  });
});
