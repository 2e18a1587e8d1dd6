import { describe, expect, it } from "vitest";
import { MissingParamsError } from "../../core/errors.js";
import { evaluate } from "../../evaluate/evaluate.js";
import {
  AIMessage,
  HumanMessage,
  MultiTurnSample,
  ToolCall,
  ToolCallAccuracy,
  ToolCallF1,
} from "./tool-calls.js";

const weather = new ToolCall({ name: "weather_check", args: { location: "Paris" } });
const uv = new ToolCall({ name: "uv_index_lookup", args: { location: "Paris" } });

describe("toolscore/ragas tool-call metrics", () => {
  it("reads the calls of every AI message in order, and only those", async () => {
    const sample = new MultiTurnSample({
      userInput: [
        new HumanMessage({ content: "Weather?" }),
        new AIMessage({ content: "Checking", toolCalls: [weather] }),
        new HumanMessage({ content: "And UV?" }),
        new AIMessage({ content: "Checking", toolCalls: [uv] }),
      ],
      referenceToolCalls: [weather, uv],
    });
    expect(await new ToolCallAccuracy().multiTurnAscore(sample)).toBe(1);
    const swapped = new MultiTurnSample({
      userInput: sample.userInput,
      referenceToolCalls: [uv, weather],
    });
    expect(await new ToolCallAccuracy().multiTurnAscore(swapped)).toBe(0);
    expect(await new ToolCallAccuracy({ strictOrder: false }).multiTurnAscore(swapped)).toBe(1);
    // ragas' documentation prints 0.67 for its "extra tool called" example; its code gives 0.8.
    const extra = new MultiTurnSample({
      userInput: [
        new AIMessage({ content: "", toolCalls: [weather] }),
        new AIMessage({
          content: "",
          toolCalls: [uv, new ToolCall({ name: "air_quality", args: { location: "Paris" } })],
        }),
      ],
      referenceToolCalls: [uv, weather],
    });
    expect(await new ToolCallF1().multiTurnAscore(extra)).toBe(0.8);
    expect(new ToolCallF1().explain(extra).reason).toBe(
      "called[2] air_quality not expected. 2 of 2 distinct expected calls made, 1 not expected (F1 0.8).",
    );
  });

  it("refuses a sample without reference calls and unknown options, by name", async () => {
    await expect(
      new ToolCallF1().multiTurnAscore(new MultiTurnSample({ userInput: [] })),
    ).rejects.toBeInstanceOf(MissingParamsError);
    expect(() => new ToolCallAccuracy({ strict_order: false } as never)).toThrow(/strict_order/);
    expect(() => new ToolCallF1({ strictOrder: true } as never)).toThrow(/strictOrder/);
  });

  it("runs in evaluate() as the registry's metric, under the class's name", async () => {
    const { results } = await evaluate({
      testCases: [
        {
          id: "a",
          toolsCalled: [
            { name: "b", arguments: {} },
            { name: "a", arguments: {} },
          ],
          expectedTools: [
            { name: "a", arguments: {} },
            { name: "b", arguments: {} },
          ],
        },
      ],
      metrics: [new ToolCallF1(), new ToolCallAccuracy()],
    });
    expect(results[0].results.map((r) => [r.metric, r.status === "scored" && r.score])).toEqual([
      ["tool_call_f1", 1],
      ["tool_call_accuracy", 0],
    ]);
  });
});
