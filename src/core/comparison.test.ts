import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCases, metricChanges } from "./comparison.js";
import type { ComparedCase } from "./comparison.js";
import { createSummaryBuilder } from "./summary.js";

const run = (...cases: [string, ComparedCase["status"], number][]): ComparedCase[] =>
  cases.map(([id, status, score]) => ({ id, status, scores: { m: score } }));

describe("compareCases", () => {
  it("sorts every change into one bucket, and counts the regressions", () => {
    const comparison = compareCases({
      baseline: run(
        ["same", "passed", 1],
        ["fails", "passed", 1],
        ["errors", "failed", 0.2],
        ["passes", "failed", 0.2],
        ["drops", "passed", 1],
        ["rises", "failed", 0.1],
        ["gone", "passed", 1],
      ),
      current: run(
        ["same", "passed", 1],
        ["fails", "failed", 0.4],
        ["errors", "error", 0.2],
        ["passes", "passed", 0.9],
        ["drops", "passed", 0.8],
        ["rises", "failed", 0.3],
        ["new", "passed", 1],
      ),
    });
    const ids = (changes: readonly { id: string }[]) => changes.map((change) => change.id);
    expect(ids(comparison.newlyFailed)).toEqual(["fails"]);
    expect(ids(comparison.newlyErrored)).toEqual(["errors"]);
    expect(ids(comparison.newlyPassed)).toEqual(["passes"]);
    expect(ids(comparison.scoreDropped)).toEqual(["drops"]);
    expect(ids(comparison.scoreRose)).toEqual(["rises"]);
    expect(comparison.onlyInBaseline).toEqual(["gone"]);
    expect(comparison.onlyInCurrent).toEqual(["new"]);
    expect(comparison.regressions).toBe(3);
    expect(comparison.newlyFailed[0]).toEqual({
      id: "fails",
      before: "passed",
      after: "failed",
      scores: [{ metric: "m", before: 1, after: 0.4 }],
    });
  });

  it("lets scores move within the tolerance", () => {
    const comparison = compareCases({
      baseline: run(["a", "passed", 1]),
      current: run(["a", "passed", 0.96]),
      tolerance: 0.05,
    });
    expect(comparison.regressions).toBe(0);
    expect(comparison.scoreDropped).toEqual([]);
  });

  it("matches a repeated id occurrence by occurrence", () => {
    const comparison = compareCases({
      baseline: run(["a", "passed", 1], ["a", "passed", 1]),
      current: run(["a", "passed", 1], ["a", "failed", 0], ["a", "passed", 1]),
    });
    expect(comparison.newlyFailed.map((change) => change.id)).toEqual(["a [2]"]);
    expect(comparison.onlyInCurrent).toEqual(["a [3]"]);
  });

  it("compares repeated runs together, a regression only beyond the baseline's spread", () => {
    const runs = (...cases: [string, ComparedCase["status"], number][]): ComparedCase[] =>
      cases.map(([id, status, score], at) => ({ id, run: at, status, scores: { m: score } }));
    const comparison = compareCases({
      baseline: [
        ...runs(["flaky", "passed", 1], ["flaky", "failed", 0.5], ["flaky", "passed", 1]),
        ...runs(["steady", "passed", 1], ["steady", "passed", 1], ["steady", "passed", 1]),
        ...runs(["spread", "failed", 0.6], ["spread", "failed", 0.8]),
      ],
      current: [
        // Fails more often than before, within what its runs already showed: noise.
        ...runs(["flaky", "failed", 0.5], ["flaky", "failed", 0.5], ["flaky", "passed", 1]),
        // Always passed, now fails once: a regression.
        ...runs(["steady", "passed", 1], ["steady", "failed", 0.5], ["steady", "passed", 1]),
        // A mean of 0.55 falls below the lowest of 0.6 and 0.8.
        ...runs(["spread", "failed", 0.5], ["spread", "failed", 0.6]),
        ...runs(["new", "passed", 1], ["new", "passed", 1]),
      ],
    });
    expect(comparison.newlyFailed).toEqual([
      {
        id: "steady",
        before: "passed",
        after: "failed",
        scores: [{ metric: "m", before: 1, after: (1 + 0.5 + 1) / 3 }],
      },
    ]);
    expect(comparison.scoreDropped.map((change) => [change.id, change.scores])).toEqual([
      ["spread", [{ metric: "m", before: 0.6, after: 0.55 }]],
    ]);
    expect(comparison.regressions).toBe(2);
    expect(comparison.onlyInCurrent).toEqual(["new"]);
  });

  it("finds nothing when a run is compared with itself", () => {
    const status = fc.constantFrom("passed" as const, "failed" as const, "error" as const);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 3 }), status, fc.double({ min: 0, max: 1 }))),
        (cases) => {
          const same = run(...cases);
          const comparison = compareCases({ baseline: same, current: same });
          expect(comparison.regressions).toBe(0);
          expect(comparison.newlyPassed).toEqual([]);
          expect(comparison.scoreRose).toEqual([]);
          expect([...comparison.onlyInBaseline, ...comparison.onlyInCurrent]).toEqual([]);
        },
      ),
      { seed: 20261125, numRuns: 200 },
    );
  });
});

describe("metricChanges", () => {
  it("gives each metric's mean and pass rate before and after", () => {
    const summary = (score: number) => {
      const builder = createSummaryBuilder(["m"]);
      builder.add({
        id: "a",
        status: score >= 0.5 ? "passed" : "failed",
        results: [
          {
            status: "scored",
            metric: "m",
            score,
            threshold: 0.5,
            success: score >= 0.5,
            reason: "",
            details: undefined,
          },
        ],
      });
      return builder.summary({ durationMs: 1 });
    };
    expect(metricChanges(summary(1), summary(0.25))).toEqual([
      { name: "m", meanBefore: 1, meanAfter: 0.25, passRateBefore: 1, passRateAfter: 0 },
    ]);
  });
});
