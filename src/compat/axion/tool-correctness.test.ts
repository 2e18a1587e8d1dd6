import { describe, expect, it } from "vitest";
import {
  DatasetItem,
  InvalidOptionError,
  MetricRunner,
  ToolCall,
  ToolCorrectness,
} from "./index.js";

describe("ToolCorrectness", () => {
  it("runs the seed's parameter example with axion's classes", async () => {
    const metric = new ToolCorrectness({
      checkParameters: true,
      parameterMatchingStrategy: "exact",
    });
    const result = await metric.execute(
      new DatasetItem({
        toolsCalled: [new ToolCall({ name: "calculate", args: { a: 5, b: 3 } })],
        expectedTools: [new ToolCall({ name: "calculate", args: { a: 5, b: 3 } })],
      }),
    );
    expect(result.score).toBe(1);
    expect(result.explanation).toBe("Correctly called: ['calculate']");
    expect(result.details.scoring).toBe("recall");
    expect(result.details.pairs).toHaveLength(1);
  });

  it("accepts inputParameters in place of args", async () => {
    const result = await new ToolCorrectness({ checkParameters: true }).execute({
      toolsCalled: [{ name: "f", inputParameters: { q: 1 } }],
      expectedTools: [{ name: "f", args: { q: 1 } }],
    });
    expect(result.score).toBe(1);
  });

  it("refuses an unknown strategy when it is created", () => {
    expect(() => new ToolCorrectness({ parameterMatchingStrategy: "semantic" as never })).toThrow(
      InvalidOptionError,
    );
    expect(() => new ToolCorrectness({ strict_order: true } as never)).toThrow(/strict_order/);
  });

  it("rejects an item without tool lists", async () => {
    await expect(new ToolCorrectness().execute({ toolsCalled: [] })).rejects.toThrow(
      /expectedTools/,
    );
  });
});

describe("MetricRunner", () => {
  it("scores every item and records a bad one without stopping", async () => {
    const runner = new MetricRunner({ metrics: [new ToolCorrectness({ checkParameters: true })] });
    const dataset = [
      new DatasetItem({
        id: "ok",
        toolsCalled: [new ToolCall({ name: "search", args: { q: "x" } })],
        expectedTools: [new ToolCall({ name: "search", args: { q: "x" } })],
      }),
      new DatasetItem({ id: "bad", toolsCalled: [{ name: 5 } as never], expectedTools: [] }),
      new DatasetItem({ toolsCalled: [], expectedTools: [new ToolCall({ name: "a" })] }),
    ];
    const results = await runner.run(dataset);
    expect(results.map((r) => [r.itemId, r.status, r.passed])).toEqual([
      ["ok", "scored", true],
      ["bad", "error", false],
      ["2", "scored", false],
    ]);
    const bad = results[1];
    expect(bad.status === "error" && bad.error).toEqual({
      code: "INVALID_INPUT",
      message: "toolsCalled[0].name must be a string (the tool's name), got number",
      field: "toolsCalled[0].name",
    });
    const first = results[0];
    expect(first.status === "scored" && first.explanation).toBe("Correctly called: ['search']");
    expect(await runner.run({ items: dataset.slice(0, 1) })).toHaveLength(1);
  });

  it("needs at least one metric", () => {
    expect(() => new MetricRunner({ metrics: [] })).toThrow(/at least one metric/);
  });
});
