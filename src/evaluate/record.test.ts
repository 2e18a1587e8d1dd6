import { describe, expect, it } from "vitest";
import type { MetricResult } from "../core/metric-result.js";

type ScoredResult = MetricResult & { status: "scored" };
import type { CaseResult } from "../core/case-result.js";
import fc from "fast-check";
import { ErrorCode } from "../core/errors.js";
import { caseRecordLine, metricEntryOf, toCaseRecord } from "./record.js";

const scored = (metric: string, score: number): MetricResult => ({
  status: "scored",
  metric,
  score,
  threshold: 0.5,
  success: score >= 0.5,
  reason: `${metric} ${score}`,
  details: { pairs: [], score },
});

const result = (results: MetricResult[]): CaseResult => ({
  index: 3,
  id: "c",
  line: 4,
  status: "failed",
  results,
  durationMs: 1,
});

describe("toCaseRecord: details that can be computed again", () => {
  const source = { offset: 10, bytes: 20 };
  const both = result([scored("A", 1), scored("B", 1), scored("A2", 0.2)]);

  it("leaves out the details of the metrics named, when the line can be read again", () => {
    const record = toCaseRecord(both, undefined, source, { recomputable: new Set(["A", "A2"]) });
    expect(record.metrics.A).toEqual({
      status: "scored",
      score: 1,
      threshold: 0.5,
      success: true,
      reason: "A 1",
    });
    expect(record.metrics.A2).toEqual({
      status: "scored",
      score: 0.2,
      threshold: 0.5,
      success: false,
      reason: "A2 0.2",
    });
    // Not named (a judged metric): kept.
    expect(record.metrics.B).toMatchObject({ details: { pairs: [] } });
  });

  it("keeps the failed ones' when asked, without the repeated score", () => {
    const record = toCaseRecord(both, undefined, source, {
      recomputable: new Set(["A", "A2"]),
      keep: "failed",
    });
    expect(record.metrics.A).not.toHaveProperty("details");
    expect(record.metrics.A2).toMatchObject({ success: false, details: { pairs: [] } });
    expect(record.metrics.A2).not.toHaveProperty("details.score");
  });

  it("never reads the details it leaves out", () => {
    const lazy = scored("A", 1);
    Object.defineProperty(lazy, "details", {
      get: () => {
        throw new Error("read");
      },
    });
    const record = toCaseRecord(result([lazy]), undefined, source, {
      recomputable: new Set(["A"]),
    });
    expect(record.metrics.A).not.toHaveProperty("details");
  });

  it("keeps every detail without a source to read the case from, or without options", () => {
    const inline = toCaseRecord(both, {}, undefined, { recomputable: new Set(["A"]) });
    expect(inline.metrics.A).toHaveProperty("details");
    const plain = toCaseRecord(both, undefined, source);
    expect(plain.metrics.A).toHaveProperty("details");
    expect(plain.metrics.A).toEqual(metricEntryOf(scored("A", 1)));
  });
});

describe("caseRecordLine: the record's JSON, written directly", () => {
  const name = fc.oneof(
    fc.constantFrom("Tool Call Accuracy", "A", "__proto__", "0", "12", "toString", 'quo"te'),
    fc.string({ maxLength: 6 }),
  );
  const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, NaN, Infinity, 1e21));
  const details = fc.option(
    fc.oneof(fc.constant(null), fc.dictionary(fc.string(), fc.jsonValue())),
    {
      nil: undefined,
    },
  );
  const metricResult: fc.Arbitrary<MetricResult> = fc.oneof(
    fc.record(
      {
        status: fc.constant("scored" as const),
        metric: name,
        score: number,
        threshold: number,
        success: fc.boolean(),
        reason: fc.option(fc.oneof(fc.string(), fc.constant("x".repeat(17_000))), {
          nil: undefined,
        }),
        details,
      },
      { requiredKeys: ["status", "metric", "score", "threshold", "success", "details"] },
    ),
    fc.record({
      status: fc.constant("error" as const),
      metric: name,
      error: fc.record({ code: fc.constant(ErrorCode.METRIC_FAILED), message: fc.string() }),
    }),
    fc.record({ status: fc.constant("skipped" as const), metric: name, reason: fc.string() }),
  );
  const caseResult: fc.Arbitrary<CaseResult> = fc.record(
    {
      index: fc.nat(),
      id: fc.string(),
      line: fc.nat(),
      run: fc.nat(),
      group: fc.string(),
      status: fc.constantFrom("passed" as const, "failed" as const, "error" as const),
      turns: fc.array(
        fc.constantFrom(
          "passed" as const,
          "failed" as const,
          "error" as const,
          "not-evaluable" as const,
        ),
        { maxLength: 4 },
      ),
      results: fc.array(metricResult, { maxLength: 3 }),
      error: fc.record({ code: fc.constant(ErrorCode.DATASET_PARSE), message: fc.string() }),
      durationMs: number,
    },
    { requiredKeys: ["index", "id", "status", "results", "durationMs"] },
  );

  it("is JSON.stringify of toCaseRecord's record, whatever the result holds", () => {
    fc.assert(
      fc.property(
        caseResult,
        fc.option(fc.record({ input: fc.string() }), { nil: undefined }),
        fc.option(
          fc.oneof(
            fc.record({ offset: fc.nat(), bytes: fc.nat() }),
            fc.record({ bytes: fc.nat(), offset: fc.nat() }),
            fc.record({ offset: fc.nat(), bytes: fc.nat(), more: fc.string() }),
          ),
          { nil: undefined },
        ),
        fc.option(
          fc.record({
            recomputable: fc.array(name).map((names) => new Set(names)),
            keep: fc.constantFrom("none" as const, "failed" as const),
          }),
          { nil: undefined },
        ),
        (result, content, source, options) => {
          expect(caseRecordLine(result, content, source, options)).toBe(
            JSON.stringify(toCaseRecord(result, content, source, options)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("writes the common record directly, its reason cut as toCaseRecord cuts it", () => {
    const lean = result([{ ...(scored("A", 0.25) as ScoredResult), reason: "r".repeat(20_000) }]);
    const options = { recomputable: new Set(["A"]) };
    const line = caseRecordLine(lean, undefined, { offset: 1, bytes: 2 }, options);
    expect(line).toBe(
      JSON.stringify(toCaseRecord(lean, undefined, { offset: 1, bytes: 2 }, options)),
    );
    expect(line).toContain("[cut: 20000 characters in all");
    expect(line).not.toContain('"details"');
  });
});
