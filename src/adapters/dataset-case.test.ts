import { thrown } from "../../test/support/errors.js";
import { describe, expect, it } from "vitest";
import { DatasetParseError, ErrorCode } from "../core/errors.js";
import { anthropicRun, openAiRun } from "../../test/support/transcripts.js";
import { readDatasetCase } from "./dataset-case.js";
import { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";

const errorOf = (record: unknown, line = 7): DatasetParseError =>
  thrown(
    () => readDatasetCase(record, { index: 6, line, source: "runs.jsonl" }),
    DatasetParseError,
  );

describe("readDatasetCase", () => {
  it("accepts camelCase and snake_case names alike", () => {
    const camel = readDatasetCase(
      {
        id: "a",
        input: "q",
        actualOutput: "answer",
        toolsCalled: [{ name: "x", inputParameters: {} }],
        expectedTools: [{ name: "x", arguments: {} }],
        metricOptions: { "tool-call-accuracy": { order: "strict" } },
      },
      { index: 0 },
    );
    const snake = readDatasetCase(
      {
        id: "a",
        input: "q",
        actual_output: "answer",
        tools_called: [{ name: "x", inputParameters: {} }],
        expected_tools: [{ name: "x", arguments: {} }],
        metric_options: { "tool-call-accuracy": { order: "strict" } },
      },
      { index: 0 },
    );
    expect(snake).toEqual(camel);
    expect(camel).toMatchObject({ id: "a", index: 0, actualOutput: "answer" });
  });

  it("reads transcripts of any format into calls, both sides", () => {
    const fromOpenAi = readDatasetCase(
      { trajectory: openAiRun, expected_trajectory: anthropicRun },
      { index: 2, line: 3 },
    );
    expect(fromOpenAi.toolsCalled).toMatchObject([
      { name: "get_weather", inputParameters: { city: "Paris" }, output: "18C" },
    ]);
    expect(fromOpenAi.expectedTools).toEqual([
      { name: "get_weather", inputParameters: { city: "Oslo" } },
    ]);
    expect(fromOpenAi).toMatchObject({
      id: "case-3",
      line: 3,
      input: "Weather in Paris?",
      trajectory: { format: "openai-chat" },
      expectedTrajectory: { format: "anthropic" },
    });
  });

  it("reads available tools in the providers' formats", () => {
    const testCase = readDatasetCase(
      {
        available_tools: [
          { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
          { name: "search", input_schema: { type: "object" } },
        ],
      },
      { index: 0 },
    );
    expect(testCase.availableTools?.map((tool) => tool.name)).toEqual(["get_weather", "search"]);
  });

  it("notes unknown fields, with a guess", () => {
    const testCase = readDatasetCase({ expected_tool: [], colour: "red" }, { index: 0 });
    expect(testCase.notes).toEqual([
      'unknown field "expected_tool" ignored (did you mean "expected_tools"?)',
      'unknown field "colour" ignored',
    ]);
  });

  it("names the line and the field of what is wrong", () => {
    expect(errorOf([1, 2])).toMatchObject({
      code: ErrorCode.DATASET_PARSE,
      line: 7,
      item: 6,
      source: "runs.jsonl",
      message: "line 7: a test case must be a JSON object, got an array",
    });
    expect(errorOf({ toolsCalled: [], tools_called: [] })).toMatchObject({
      field: "toolsCalled",
      message: 'line 7: "toolsCalled" and "tools_called" are the same field; give one',
    });
    expect(errorOf({ tools_called: {} }).message).toBe("line 7: tools_called must be a list");
    expect(errorOf({ id: { a: 1 } }).field).toBe("id");
    expect(errorOf({ input: 3 }).field).toBe("input");
    expect(errorOf({ trajectory: { nothing: "known" } })).toMatchObject({
      field: "trajectory",
      message: expect.stringMatching(/^line 7: trajectory could not be read: /) as string,
    });
    expect(errorOf({ trajectory: openAiRun, toolsCalled: [] }).message).toBe(
      "line 7: give toolsCalled or trajectory, not both",
    );
    expect(errorOf({ metric_options: [1] }).field).toBe("metricOptions");
  });

  it("uses the item number when there is no line", () => {
    expect(() => readDatasetCase("text", { index: 4 })).toThrow(
      "item 4: a test case must be a JSON object, got string",
    );
  });

  it("normalizes tool names when asked", () => {
    const testCase = readDatasetCase(
      {
        trajectory: [
          {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "c",
                type: "function",
                function: { name: "get_weather_x7k2", arguments: "{}" },
              },
            ],
          },
        ],
      },
      { index: 0, normalizeNames: true },
    );
    expect(testCase.toolsCalled?.[0]?.name).toBe("get_weather");
    expect(testCase.trajectory?.nameMapping).toEqual([
      { original: "get_weather_x7k2", normalized: "get_weather" },
    ]);
  });
});

describe("readDatasetCase: call lists in providers' formats", () => {
  it("reads OpenAI tool_calls, Anthropic tool_use blocks and Gemini functionCall parts", () => {
    const testCase = readDatasetCase(
      {
        tools_called: [
          {
            id: "c1",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
        ],
        expected_tools: [
          { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      { index: 0 },
    );
    expect(testCase.toolsCalled).toMatchObject([
      { name: "get_weather", inputParameters: { city: "Paris" } },
    ]);
    expect(testCase.expectedTools).toEqual([
      { name: "get_weather", input: { city: "Paris" }, id: "t1" },
    ]);
    const gemini = readDatasetCase(
      { toolsCalled: [{ functionCall: { name: "search", args: { q: "x" } } }], expectedTools: [] },
      { index: 0 },
    );
    expect(gemini.toolsCalled).toMatchObject([{ name: "search", inputParameters: { q: "x" } }]);
  });

  it("reads an OpenAI tool_calls item without its type, as transcripts do (promptfoo's cases)", () => {
    const item = { id: "c1", function: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    const testCase = readDatasetCase(
      { toolsCalled: [item], expectedTools: [{ function: item.function }] },
      { index: 0 },
    );
    expect(testCase.toolsCalled).toMatchObject([
      { name: "get_weather", inputParameters: { city: "Paris" } },
    ]);
    expect(testCase.expectedTools).toEqual([
      { name: "get_weather", arguments: '{"city":"Paris"}' },
    ]);
    // A call of toolscore's own shape that has a key named function is still refused.
    expect(
      errorOf({ toolsCalled: [{ name: "x", function: {} }], expectedTools: [] }).message,
    ).toContain("toolsCalled[0].function is not a field of a tool call");
  });

  it("lists a call's fields as a person writes them, none that toolscore keeps for itself", () => {
    const { message } = errorOf({
      toolsCalled: [{ nam: "x" }],
      expectedTools: [{ name: "x", agrs: {} }],
    });
    expect(message).toBe(
      'line 7: toolsCalled[0].nam is not a field of a tool call (did you mean "name"?); a call has arguments (or inputParameters, input_parameters, args, input), name, output, type, id, description, reasoning, isError, invalidArguments, durationMs',
    );
    expect(errorOf({ toolsCalled: [], expectedTools: [{ name: "x", agrs: {} }] }).message).toMatch(
      /expectedTools\[0\]\.agrs .*\(did you mean "args"\?\); a call has arguments .*, after$/,
    );
  });
});

describe("readDatasetCase: expected calls in groups", () => {
  const score = (testCase: { toolsCalled?: unknown; expectedTools?: unknown }) => {
    const scored = toolCallAccuracy({ threshold: 1 }).measureSync(testCase);
    if (scored.status !== "scored") throw new Error(JSON.stringify(scored));
    return scored.success;
  };

  it("reads groups in a line and in a turn, each call by the one reader", () => {
    const grouped = readDatasetCase(
      {
        id: "g",
        tools_called: [{ name: "b" }, { name: "a" }, { name: "c" }],
        expected_tools: [
          [{ name: "a" }, { type: "tool_use", id: "t1", name: "b", input: {} }],
          [{ name: "c" }],
        ],
      },
      { index: 0 },
    );
    expect(grouped.expectedTools).toEqual([
      [{ name: "a" }, { name: "b", input: {}, id: "t1" }],
      [{ name: "c" }],
    ]);
    expect(score(grouped)).toBe(true);
    expect(score({ ...grouped, toolsCalled: [{ name: "c" }, { name: "a" }, { name: "b" }] })).toBe(
      false,
    );
    const turned = readDatasetCase(
      {
        id: "t",
        turns: [
          {
            toolsCalled: [{ name: "b" }, { name: "a" }],
            expectedTools: [[{ name: "a" }, { name: "b" }]],
          },
        ],
      },
      { index: 0 },
    );
    expect(turned.turns?.[0]?.expectedTools).toEqual([[{ name: "a" }, { name: "b" }]]);
  });

  it("names the field of a list that mixes calls and groups, or a bad call in a group", () => {
    expect(
      errorOf({ toolsCalled: [], expectedTools: [[{ name: "a" }], { name: "b" }] }).message,
    ).toBe(
      "line 7: expectedTools mixes calls and groups; give either a list of calls or a list of groups (lists)",
    );
    expect(
      errorOf({ toolsCalled: [], expectedTools: [[{ name: "a" }], [{ nme: "b" }]] }).message,
    ).toContain("expectedTools[1][0]");
  });
});
