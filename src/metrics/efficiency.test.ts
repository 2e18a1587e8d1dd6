import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { efficiency, findLoops } from "./efficiency.js";
import type { EfficiencyCase, EfficiencyDetails } from "./efficiency.js";
import type { MetricResult } from "../core/metric-result.js";
import type { ToolCall } from "../core/tool-call.js";

const call = (
  name: string,
  inputParameters: ToolCall["inputParameters"] = {},
  more: Partial<ToolCall> = {},
): ToolCall => ({ name, inputParameters, output: "ok", type: "FUNCTION", ...more });

const failed = (name: string, inputParameters: ToolCall["inputParameters"] = {}): ToolCall =>
  call(name, inputParameters, { output: "Error: service unavailable", isError: true });

function scored(result: MetricResult<EfficiencyDetails>) {
  if (result.status !== "scored") throw new Error(`not scored: ${JSON.stringify(result)}`);
  return result;
}

describe("efficiency", () => {
  it("finds a loop of calls going round, and fails it by default", () => {
    const round = [call("search", { q: "refund policy" }), call("fetch_page", { id: 1 })];
    const result = scored(
      efficiency().measureSync({ toolsCalled: [call("start"), ...round, ...round, ...round] }),
    );
    expect(result.details.loops).toEqual([
      { start: 1, length: 2, times: 3, tools: ["search", "fetch_page"] },
    ]);
    expect(result.success).toBe(false);
    expect(result.score).toBe(0);
    expect(result.reason).toContain("1 loop (called[1] search, fetch_page 3 times)");
    expect(result.reason).toContain("maxLoops 1 > 0");
    // The same calls with other arguments are no loop: paging goes on.
    const paging = [1, 2, 3, 4].map((page) => call("list_orders", { page }));
    expect(scored(efficiency().measureSync({ toolsCalled: paging })).details.loops).toEqual([]);
  });

  it("counts the same call twice as a repeat, not a loop; three times in a row is a loop", () => {
    const twice = scored(
      efficiency({ maxRepeats: 0 }).measureSync({
        toolsCalled: [call("get_order", { id: 7 }), call("get_order", { id: 7 })],
      }),
    );
    expect(twice.details).toMatchObject({ repeats: 1, loops: [] });
    expect(twice.reason).toContain("maxRepeats 1 > 0");
    const thrice = scored(
      efficiency().measureSync({ toolsCalled: [1, 2, 3].map(() => call("ping")) }),
    );
    expect(thrice.details.loops).toEqual([{ start: 0, length: 1, times: 3, tools: ["ping"] }]);
  });

  it("counts a retry storm's retries against maxRetries, not as repeats", () => {
    const storm = [
      ...[1, 2, 3, 4, 5].map(() => failed("charge_card", { amount: 30 })),
      call("charge_card", { amount: 30 }),
    ];
    const result = scored(
      efficiency({ maxRetries: 2, maxLoops: 9 }).measureSync({ toolsCalled: storm }),
    );
    expect(result.details).toMatchObject({ retries: 5, repeats: 0, failed: 5 });
    expect(result.details.budgets).toContainEqual({
      budget: "maxRetries",
      limit: 2,
      actual: 5,
      held: false,
    });
    expect(result.score).toBe(0.5);
    expect(result.reason).toContain("5 retries");
    // A failure the transcript does not mark is found by its output, as recovery finds it.
    const unmarked = scored(
      efficiency({ maxRetries: 0 }).measureSync({
        toolsCalled: [call("pay", {}, { output: "rate limit exceeded" }), call("pay")],
      }),
    );
    expect(unmarked.details.retries).toBe(1);
    expect(unmarked.success).toBe(false);
  });

  it("counts calls beyond the expected ones, read-only lookups apart", () => {
    const testCase: EfficiencyCase = {
      toolsCalled: [
        call("lookup_order", { id: 1 }),
        call("lookup_order", { id: 2 }),
        call("refund", { id: 1 }),
        call("refund", { id: 1 }),
      ],
      expectedTools: [call("refund", { id: 1 })],
      availableTools: [
        { name: "lookup_order", readOnly: true },
        { name: "refund", readOnly: false },
      ],
    };
    const result = scored(efficiency({ maxExtraCalls: 0 }).measureSync(testCase));
    expect(result.details).toMatchObject({ extraCalls: 1, extraLookups: 2, repeats: 1 });
    expect(result.reason).toContain("maxExtraCalls 1 > 0");
    // Without expected calls there is nothing to be beyond: the budget cannot be checked.
    const { expectedTools: _, ...unexpected } = testCase;
    const open = efficiency({ maxExtraCalls: 0 }).measureSync(unexpected);
    expect(open.status).toBe("not-evaluable");
    expect(open.status === "not-evaluable" && open.reason).toContain("the expected calls");
  });

  it("holds the run's tokens, time and cost to their budgets, saying an estimate is one", () => {
    const spend = { inputTokens: 9000, outputTokens: 1500, durationMs: 12_400, costUsd: 0.0213 };
    const metric = efficiency({ maxTokens: 10_000, maxLatencyMs: 15_000, maxCostUsd: 0.02 });
    const result = scored(metric.measureSync({ toolsCalled: [], spend }));
    expect(result.details.budgets.map((check) => [check.budget, check.held])).toEqual([
      ["maxLoops", true],
      ["maxTokens", false],
      ["maxLatencyMs", true],
      ["maxCostUsd", false],
    ]);
    expect(result.score).toBe(0.5);
    expect(result.reason).toContain("10500 tokens (9000 in, 1500 out), 12400 ms, $0.0213");
    expect(result.reason).toContain("maxTokens 10500 > 10000, maxCostUsd 0.0213 > 0.02");
    const estimated = scored(
      metric.measureSync({ spend: { ...spend, inputTokens: 10, costEstimated: true } }),
    );
    expect(estimated.reason).toContain("$0.0213 (estimated)");
  });

  it("is not evaluable, never a pass, when a budget's figure is unknown", () => {
    const result = efficiency({ maxCostUsd: 1, maxTokens: 100 }).measureSync({
      toolsCalled: [call("a")],
    });
    expect(result.status).toBe("not-evaluable");
    expect(result.status === "not-evaluable" && result.reason).toMatch(
      /^maxTokens, maxCostUsd cannot be checked: the case does not say the run's tokens or what the run cost/,
    );
  });

  it("holds each tool to its own budgets, its slowest call to maxLatencyMs", () => {
    const toolsCalled = [
      call("search", { q: "a" }, { durationMs: 120 }),
      call("search", { q: "b" }, { durationMs: 2300 }),
      call("search", { q: "c" }, { durationMs: 80 }),
      call("book", {}, { durationMs: 400 }),
    ];
    const metric = efficiency({
      tools: { search: { maxCalls: 2, maxLatencyMs: 2000 }, book: { max_calls: 1 } as never },
    });
    const result = scored(metric.measureSync({ toolsCalled }));
    expect(result.details.tools).toEqual([
      {
        tool: "search",
        calls: 3,
        repeats: 0,
        retries: 0,
        failed: 0,
        totalMs: 2500,
        slowestMs: 2300,
      },
      { tool: "book", calls: 1, repeats: 0, retries: 0, failed: 0, totalMs: 400, slowestMs: 400 },
    ]);
    expect(result.reason).toContain(
      "over 2 of 4 budgets: tools.search.maxCalls 3 > 2, tools.search.maxLatencyMs 2300 > 2000",
    );
    // A tool whose calls are not all timed has no slowest call to hold.
    const untimed = metric.measureSync({ toolsCalled: [...toolsCalled, call("search")] });
    expect(untimed.status).toBe("not-evaluable");
  });

  it("refuses unknown and negative budgets, and spending budgets a case sets", () => {
    expect(() => efficiency({ maxCall: 3 } as never)).toThrow(
      /efficiency has no option "maxCall" \(did you mean "maxCalls"\?\)/,
    );
    expect(() => efficiency({ maxCalls: -1 })).toThrow(
      /efficiency.maxCalls must be a whole number/,
    );
    expect(() => efficiency({ maxCostUsd: -0.5 })).toThrow(/efficiency.maxCostUsd must be between/);
    expect(() => efficiency({ tools: { search: { maxTokens: 3 } } } as never)).toThrow(
      /efficiency.tools.search has no option "maxTokens"/,
    );
    const metric = efficiency();
    const withOptions = (options: object) => {
      const made = metric.withOptions?.(options as never);
      if (made?.measureSync === undefined) throw new Error("no withOptions");
      return made as typeof metric;
    };
    expect(() => withOptions({ max_cost_usd: 100 })).toThrow(
      /metricOptions.efficiency.max_cost_usd: a case may not set "max_cost_usd": spending budgets are the run's/,
    );
    expect(
      scored(withOptions({ max_calls: 0 }).measureSync({ toolsCalled: [call("a")] })).success,
    ).toBe(false);
  });

  it("scores a case with no calls and no budget but loops as within budget", () => {
    const result = scored(efficiency().measureSync({}));
    expect(result).toMatchObject({ score: 1, success: true });
    expect(result.reason).toBe("0 calls; within its budget");
  });

  it("reports only loops that go round: each found round is the same calls again", () => {
    const names = fc.constantFrom("a", "b", "c");
    fc.assert(
      fc.property(fc.array(names, { maxLength: 40 }), (picked) => {
        const calls = picked.map((name) => call(name));
        let covered = 0;
        for (const loop of findLoops(calls)) {
          expect(loop.start).toBeGreaterThanOrEqual(covered);
          expect(loop.times).toBeGreaterThanOrEqual(loop.length === 1 ? 3 : 2);
          for (let at = loop.start; at < loop.start + loop.length * loop.times; at++) {
            expect(calls[at].name).toBe(calls[loop.start + ((at - loop.start) % loop.length)].name);
          }
          covered = loop.start + loop.length * loop.times;
        }
      }),
    );
  });
});
