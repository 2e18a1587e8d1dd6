import { describe, expect, it } from "vitest";
import type { JsonObject } from "../core/json.js";
import type { Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase } from "../core/test-case.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import { createMetric } from "../registry/metric-registry.js";
import { toolCallAccuracy } from "./tool-call-accuracy.js";

/** Issue 48, item 7: a dataset line cannot exempt itself from the config's policy. */

const run = { order: "in-order", constraints: { forbiddenTools: ["delete_all"] } };
const refund: TestCase = {
  toolsCalled: [{ name: "lookup" }, { name: "delete_all", inputParameters: {} }] as never,
  expectedTools: [{ name: "lookup" }] as never,
};

/** The run's metric made as the registry makes it: without a judge, and with one. */
const runs: [string, () => Metric][] = [
  ["without a judge", () => createMetric({ metric: "tool-call-accuracy", ...run })],
  [
    "with a judge (judged values)",
    () =>
      createMetric(
        { metric: "tool-call-accuracy", ...run },
        { judge: fakeJudge(() => ({ reason: "ok", verdict: "meets" })).model },
      ),
  ],
];

const scoreOf = async (metric: Metric, overrides: JsonObject, testCase = refund) =>
  (await metric.withOptions?.(overrides).measure(testCase)) as MetricResult;

describe("a case's options against the run's policy", () => {
  describe.each(runs)("%s", (_, make) => {
    it.each([
      ["ignoreTools", { ignoreTools: ["delete_*"] }],
      ["onlyTools", { onlyTools: ["lookup"] }],
      ["superset with threshold 0", { order: "all-expected", threshold: 0 }],
      ["threshold 0", { threshold: 0 }],
      ["empty constraints", { constraints: {} }],
      ["tool errors skipped", { toolErrors: "skip", errorOutput: "." }],
      ["a name alias", { normalizeNames: { aliases: { delete_all: "lookup" } } }],
      ["unparsed arguments as no call", { unparsedArguments: "no-call" }],
    ])("a forbidden call fails the case whose options set %s", async (_name, overrides) => {
      const result = await scoreOf(make(), overrides);
      expect(result).toMatchObject({ status: "scored", score: 0, success: false });
      expect((result as { reason: string }).reason).toContain(
        "called[1] delete_all is a forbidden tool",
      );
    });

    it("refuses a case option that loosens the policy, naming it", () => {
      expect(() => make().withOptions?.({ onViolation: "report" })).toThrow(
        'metricOptions.tool-call-accuracy.onViolation: the run fails a case on a violation of its constraints; a case may make the run\'s policy stricter, never looser (see docs/guides/cli.md, "What a case may set")',
      );
    });
  });

  it("takes a stricter policy from a case: more forbidden tools, lower maxima", () => {
    const metric = toolCallAccuracy({
      order: "all-expected",
      constraints: { forbiddenTools: ["delete_all"], maxCalls: { search: 3 } },
      sideEffects: { readOnly: ["search"] },
    });
    const case2: TestCase = {
      toolsCalled: [{ name: "lookup" }, { name: "search" }, { name: "search" }] as never,
      expectedTools: [{ name: "lookup" }] as never,
    };
    expect(metric.measureSync(case2)).toMatchObject({ success: true });
    const stricter = metric.withOptions?.({
      constraints: { forbiddenTools: ["refund"], maxCalls: { search: 1 } },
    });
    const result = stricter?.measureSync?.(case2);
    expect(result).toMatchObject({ success: false, score: 0 });
    expect((result as { reason: string }).reason).toContain(
      "search called 2 times, at most 1 allowed",
    );
    // The run's forbidden tool stays forbidden beside the case's own.
    expect(
      stricter?.measureSync?.({
        ...case2,
        toolsCalled: [{ name: "lookup" }, { name: "delete_all" }] as never,
      }),
    ).toMatchObject({ success: false });
  });

  it("refuses a looser maximum, minimum, total or redundancy, and a weaker schema rule", () => {
    const metric = toolCallAccuracy({
      constraints: {
        maxCalls: { search: 1 },
        minCalls: { lookup: 1 },
        maxTotalCalls: 3,
        redundantCalls: "forbid",
      },
      onSchemaViolation: { fail: ["unknown-argument", "wrong-type"] },
    });
    for (const [overrides, message] of [
      [
        { constraints: { maxCalls: { search: 5 } } },
        "metricOptions.tool-call-accuracy.constraints.maxCalls.search: the run allows at most 1 calls of search",
      ],
      [
        { constraints: { minCalls: { lookup: 0 } } },
        "constraints.minCalls.lookup: the run allows no fewer than 1 calls of lookup",
      ],
      [{ constraints: { maxTotalCalls: 4 } }, "the run allows at most 3 calls in all"],
      [{ constraints: { redundantCalls: "allow" } }, "the run forbids the same call twice"],
      [
        { onSchemaViolation: { fail: ["wrong-type"] } },
        "onSchemaViolation: the run fails a case on unknown-argument",
      ],
      [{ onSchemaViolation: "report" }, "the run fails a case on unknown-argument, wrong-type"],
    ] as const) {
      expect(() => metric.withOptions?.(overrides as JsonObject)).toThrow(message);
    }
    // Stricter is taken.
    expect(() =>
      metric.withOptions?.({
        onSchemaViolation: "fail",
        constraints: { maxCalls: { search: 0 }, minCalls: { lookup: 2 }, maxTotalCalls: 2 },
      }),
    ).not.toThrow();
  });

  it("leaves a case free where the run sets no policy", () => {
    const metric = toolCallAccuracy({ order: "in-order" });
    const own = metric.withOptions?.({ ignoreTools: ["delete_all"], onViolation: "report" });
    expect(own?.measureSync?.(refund)).toMatchObject({ success: true, score: 1 });
  });

  it("fails a case on a violation under onViolation fail, whatever its threshold", () => {
    const metric = toolCallAccuracy({
      threshold: 0,
      constraints: { forbiddenTools: ["delete_all"] },
    });
    expect(metric.measureSync(refund)).toMatchObject({ score: 0, success: false });
    const reporting = toolCallAccuracy({
      threshold: 0,
      onViolation: "report",
      constraints: { forbiddenTools: ["delete_all"] },
    });
    expect(reporting.measureSync(refund)).toMatchObject({ success: true });
  });
});
