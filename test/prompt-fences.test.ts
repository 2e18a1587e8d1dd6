/**
 * Every piece of a case a judge is shown sits inside a fence (issue 48, item 3): a case with a
 * marker in every field it can hold, scored by every judged metric of the registry (and judged
 * values, in expected calls and path rules), leaves no marker in any prompt outside a fence.
 */
import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../src/core/judge.js";
import type { JsonObject, JsonValue } from "../src/core/json.js";
import type { TestCase } from "../src/core/test-case.js";
import { createMetric, metricDefinitions } from "../src/registry/metric-registry.js";
import { fakeJudge } from "./support/fake-judge.js";

/** A marker naming the field it was put in. */
const mark = (field: string) => `MK<${field}>`;

/** An answer that fits a schema: the first of each enum, text, 1, true, empty lists. */
function fitting(schema: JsonObject): JsonValue {
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  return Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      if (Array.isArray(property.enum)) return [key, property.enum[0]];
      switch (property.type) {
        case "number":
        case "integer":
          return [key, 1];
        case "boolean":
          return [key, true];
        case "array":
          return [key, []];
        case "object":
          return [key, fitting(property)];
        default:
          return [key, "ok"];
      }
    }),
  );
}

/** The text of every message of a request, parts joined. */
function textsOf(request: JudgeRequest): string[] {
  return request.messages.map((message) =>
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n"),
  );
}

/** The text outside fences: a fence is a line of 3+ backticks, closed by the same run alone. */
function outsideFences(text: string): string {
  // split keeps the captured runs of backticks at odd places; the fenced text is dropped.
  return text
    .split(/^(`{3,})\n[\s\S]*?\n\1$/m)
    .filter((_, at) => at % 2 === 0)
    .join("\n");
}

const tool = (name: string) => ({
  name,
  description: mark(`${name}.description`),
  parameters: {
    type: "object",
    description: mark(`${name}.parameters.description`),
    properties: {
      [mark(`${name}.property`)]: { type: "string", description: mark(`${name}.property.desc`) },
      amount: { type: "number", description: mark(`${name}.amount.description`) },
    },
  },
});

const calledTool = mark("tool name");
const madeCall = (turn: string) => ({
  name: calledTool,
  inputParameters: {
    [mark(`${turn}.argument key`)]: mark(`${turn}.argument value`),
    amount: 5000,
  },
  output: mark(`${turn}.output`),
  reasoning: mark(`${turn}.reasoning`),
});
const expectedCall = (turn: string) => ({
  name: calledTool,
  inputParameters: {
    [mark(`${turn}.argument key`)]: mark(`${turn}.expected value`),
    amount: { $match: "judged", criterion: mark(`${turn}.criterion`) },
  },
  output: mark(`${turn}.expected output`),
});

/** One case with a marker in each field a judge may read. */
const flat = {
  id: mark("id"),
  input: mark("input"),
  actualOutput: mark("actualOutput"),
  expectedOutput: mark("expectedOutput"),
  expectedOutcome: mark("expectedOutcome"),
  expectedOutputContains: [mark("expectedOutputContains")],
  replies: [mark("replies")],
  retrievedContexts: [mark("retrievedContexts")],
  availableTools: [tool(calledTool), tool(mark("other tool"))],
  toolsCalled: [madeCall("case"), { name: mark("unexpected tool"), inputParameters: {} }],
  expectedTools: [expectedCall("case")],
  metadata: { note: mark("metadata") },
};

/** The same, as a conversation of two turns: the second judged with the first shown. */
const conversation = {
  id: mark("conversation id"),
  availableTools: flat.availableTools,
  retrievedContexts: flat.retrievedContexts,
  turns: [1, 2].map((turn) => ({
    input: mark(`turn ${turn} input`),
    actualOutput: mark(`turn ${turn} actualOutput`),
    expectedOutcome: mark(`turn ${turn} expectedOutcome`),
    replies: [mark(`turn ${turn} replies`)],
    toolsCalled: [madeCall(`turn ${turn}`)],
    expectedTools: [expectedCall(`turn ${turn}`)],
  })),
};

/** Judged value rules of a run, with markers in the criteria (the config's, but shown fenced). */
const judgedRules = {
  arguments: { paths: { "$.amount": { $match: "judged", criterion: mark("rule criterion") } } },
  toolRules: {
    [calledTool]: {
      arguments: { paths: { "**": { $match: "judged", criterion: mark("tool rule") } } },
    },
  },
};

const judged = metricDefinitions.filter((definition) => definition.judge !== "none");

describe("no case text outside a fence in any judge's prompt", () => {
  it("covers every judged metric of the registry", () => {
    expect(judged.map((definition) => definition.id).sort()).toEqual(
      [
        "argument-correctness",
        "deepeval-multimodal-tool-correctness",
        "deepeval-trajectory-tool-correctness",
        "multimodal-faithfulness",
        "ragas-multimodal-faithfulness",
        "ragas-multimodal-relevance",
        "task-completion",
        "tool-call-accuracy",
        "tool-selection",
      ].sort(),
    );
  });

  it.each(judged.map((definition) => definition.id))("%s", async (id) => {
    const { model, asked } = fakeJudge((request) => fitting(request.schema.schema));
    // What makes a metric ask: judged values for tool-call-accuracy, tools for deepeval's class.
    const options: JsonObject =
      id === "tool-call-accuracy"
        ? judgedRules
        : id === "deepeval-multimodal-tool-correctness"
          ? { availableTools: flat.availableTools }
          : {};
    const metric = createMetric({ metric: id, ...options }, { judge: model });
    for (const testCase of [flat, conversation]) {
      await metric.measure(testCase as unknown as TestCase);
    }
    expect(asked.length, `${id} asked no judge`).toBeGreaterThan(0);
    const leaks = asked.flatMap((request) =>
      textsOf(request).flatMap((text) => outsideFences(text).match(/MK<[^>]*>/g) ?? []),
    );
    expect(leaks, `${id} shows case text outside a fence`).toEqual([]);
    // The markers do reach the judge, inside fences: the test can see them.
    expect(asked.map((request) => textsOf(request).join("\n")).join("\n")).toMatch(/MK<[^>]*>/);
  });
});
