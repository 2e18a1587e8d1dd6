import { describe, expect, it } from "vitest";
import { readDatasetCase } from "../src/adapters/dataset-case.js";
import { ARGUMENT_KEYS } from "../src/core/call-fields.js";
import type { JsonObject } from "../src/core/json.js";
import { toToolCall, toToolCalls } from "../src/core/tool-call.js";
import { createMetric } from "../src/registry/metric-registry.js";
import { matchToolCalls } from "../src/metrics/match-tool-calls.js";
import { callsOf } from "../src/testing/matchers.js";
import {
  LLMTestCase,
  ToolCallParser,
  ToolCorrectnessMetric,
} from "../src/compat/deepeval/index.js";
import { ToolCorrectness } from "../src/compat/axion/index.js";

/**
 * Every place that takes calls reads them through one reader with one alias table: each
 * spelling of the arguments is read on both sides, by every metric, and nothing is dropped.
 */

const metricOptions: Record<string, JsonObject> = {
  "tool-call-accuracy": {},
  "deepeval-tool-correctness": { evaluationParams: ["inputParameters"] },
  "axion-tool-correctness": { checkParameters: true },
};

function call(key: string, value: unknown) {
  return { name: "book", [key]: value };
}

describe.each(ARGUMENT_KEYS)("arguments spelled %s", (key) => {
  const right = { seat: "1C" };
  const wrong = { seat: "12A" };

  it("are read by toToolCall", () => {
    expect(toToolCall(call(key, right)).inputParameters).toEqual(right);
  });

  it.each(Object.keys(metricOptions))("score under %s on both sides", async (id) => {
    const metric = createMetric({ metric: id, ...metricOptions[id] });
    for (const side of ["toolsCalled", "expectedTools"] as const) {
      const other = side === "toolsCalled" ? "expectedTools" : "toolsCalled";
      const pass = await metric.measure({
        [side]: [call(key, right)],
        [other]: [{ name: "book", inputParameters: right }],
      });
      const fail = await metric.measure({
        [side]: [call(key, wrong)],
        [other]: [{ name: "book", inputParameters: right }],
      });
      expect(pass, `${side} right`).toMatchObject({ status: "scored", score: 1 });
      expect(fail, `${side} wrong`).toMatchObject({ status: "scored" });
      expect((fail as { score: number }).score, `${side} wrong`).toBeLessThan(1);
    }
  });

  it("are read by matchToolCalls on both sides", () => {
    expect(matchToolCalls([call(key, right)], [call(key, right)]).score).toBe(1);
    expect(matchToolCalls([call(key, wrong)], [call(key, right)]).score).toBeLessThan(1);
  });

  it("are read by the compat classes", async () => {
    const deepeval = new ToolCorrectnessMetric({ evaluationParams: ["inputParameters"] });
    const score = await deepeval.measure(
      new LLMTestCase({
        input: "q",
        toolsCalled: [call(key, wrong)],
        expectedTools: [{ name: "book", inputParameters: right }],
      }),
    );
    expect(score).toBeLessThan(1);
    const axion = await new ToolCorrectness({ checkParameters: true }).execute({
      toolsCalled: [call(key, wrong)],
      expectedTools: [{ name: "book", args: right }],
    });
    expect(axion.score).toBeLessThan(1);
    const [step] = new ToolCallParser().parse([call(key, right)]);
    expect(step.args).toEqual(right);
  });

  it("are read from a dataset line and by the test matchers", () => {
    const testCase = readDatasetCase(
      { toolsCalled: [call(key, right)], expectedTools: [call(key, right)] },
      { index: 0, line: 1 },
    );
    expect(testCase.toolsCalled?.[0].inputParameters).toEqual(right);
    expect(callsOf([call(key, right)])[0].inputParameters).toEqual(right);
  });
});

describe("the one call reader refuses what it would otherwise drop", () => {
  it("names an unknown key, with a suggestion", () => {
    expect(() => toToolCall({ name: "a", argumnets: {} })).toThrow(
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: "toolCall.argumnets",
        message: expect.stringContaining('did you mean "arguments"?') as string,
      }),
    );
  });

  it("names a call that gives its arguments twice, on both sides", () => {
    const twice = { name: "a", arguments: {}, input: {} };
    expect(() => toToolCalls([twice], { field: "toolsCalled" })).toThrow(
      /toolsCalled\[0\] gives its arguments twice \(arguments and input\)/,
    );
    expect(() => matchToolCalls([], [twice])).toThrow(/expected\[0\] gives its arguments twice/);
  });

  it("makes an unknown key the dataset line's error", () => {
    expect(() =>
      readDatasetCase(
        { toolsCalled: [{ name: "a", params: {} }], expectedTools: [] },
        { index: 0, line: 4 },
      ),
    ).toThrow(/^line 4: toolsCalled\[0\]\.params is not a field of a tool call/);
    expect(() =>
      readDatasetCase(
        { toolsCalled: [], expected_tools: [{ name: "a", argument: {} }] },
        { index: 0, line: 5 },
      ),
    ).toThrow(/line 5: expected_tools\[0\]\.argument is not a field .*did you mean "arguments"/);
  });

  it("reads provider call items, JSON text arguments included", () => {
    const items = [
      { id: "c1", type: "function", function: { name: "a", arguments: '{"x":1}' } },
      { type: "function_call", call_id: "c2", name: "a", arguments: '{"x":1}', status: "done" },
      { type: "tool_use", id: "c3", name: "a", input: { x: 1 } },
      { functionCall: { name: "a", args: { x: 1 }, id: "c4" } },
      { toolUse: { toolUseId: "c5", name: "a", input: { x: 1 } } },
      { type: "tool-call", toolCallId: "c6", toolName: "a", input: { x: 1 } },
    ];
    const calls = toToolCalls(items, { field: "calls" });
    expect(calls.map((c) => [c.name, c.id, c.inputParameters])).toEqual(
      items.map((_, index) => ["a", `c${index + 1}`, { x: 1 }]),
    );
    expect(matchToolCalls(calls, items as never).score).toBe(1);
    expect(() => toToolCalls([{ functionCall: { name: "a", argz: {} } }], { field: "c" })).toThrow(
      /c\[0\]\.functionCall\.argz is not a field/,
    );
  });

  it("keeps arguments text that is not a JSON object as the call's invalid arguments", () => {
    expect(toToolCall({ name: "a", arguments: "{oops" })).toMatchObject({
      inputParameters: {},
      invalidArguments: "{oops",
    });
    expect(() => matchToolCalls([], [{ name: "a", arguments: "{oops" }])).toThrow(
      /expected\[0\]\.arguments is text that is not JSON/,
    );
  });
});
