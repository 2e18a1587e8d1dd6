import { describe, expect, it } from "vitest";
import type { MetricResult } from "../core/metric-result.js";
import type { CaseResult } from "../core/case-result.js";
import { metricEntryOf, toCaseRecord } from "./record.js";

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
