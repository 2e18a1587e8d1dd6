import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../../core/judge.js";
import type { JsonValue } from "../../core/json.js";
import { fakeJudge } from "../../../test/support/fake-judge.js";
import { argumentRequestOf } from "../../../test/support/labelled-requests.js";
import { calibrateJudge, calibrationSet } from "./calibrate.js";
import type { CallLabel } from "./judged-metric-cases.js";
import { brierScore, expectedCalibrationError, fitDecisionBand } from "./decision-band.js";

const set = calibrationSet("argument-correctness");
/** The case a request shows: its user message, the same for a chat and a decision judge. */
const key = (request: JudgeRequest) => JSON.stringify(request.messages.at(-1));
const labelsByCase = new Map(
  set.map((entry) => [key(argumentRequestOf(entry)), entry.callLabels ?? []]),
);

/** A decision judge that answers each call with `probability(label, index)`. */
function decisionJudge(probability: (label: CallLabel, index: number) => number) {
  let seen = 0;
  return fakeJudge(
    (request): JsonValue => {
      const labels = labelsByCase.get(key(request)) ?? [];
      return {
        answers: Object.fromEntries(
          labels.map((label, index) => {
            const p = probability(label, seen++ + index);
            return [`call_${index + 1}`, { yes: p, no: 1 - p }];
          }),
        ),
      };
    },
    { decisions: true },
  );
}

/** A spread that depends on the call, not on chance: the same each run. */
const spread = (index: number, width: number) => (((index * 37) % 100) / 100) * width;

describe("calibrating a decision model", () => {
  it("fits a band that trusts a judge whose probabilities are calibrated, and reports Brier and ECE", async () => {
    const { model, asked } = decisionJudge((label, index) =>
      label === "right"
        ? 0.7 + spread(index, 0.29)
        : label === "wrong"
          ? 0.02 + spread(index, 0.25)
          : 0.5,
    );
    const report = await calibrateJudge(model, { metric: "argument-correctness", concurrency: 16 });
    expect(report.unit).toBe("call");
    expect(report.promptVersion).toBe("argument-correctness-decision/1");
    expect(report.decision).toMatchObject({ fitted: true, targetFalsePass: 0.05 });
    const { band, brier, ece, units } = report.decision ?? {};
    // The sides separate: one line holds both.
    expect(band?.low).toBeLessThanOrEqual(band?.high ?? 0);
    expect(brier).toBeLessThan(0.1);
    expect(ece).toBeLessThan(0.3);
    expect(units).toBeGreaterThan(40);
    expect(report.passed).toBe(true);
    expect(report.falsePassRate).toBe(0);
    // The refit pass asked nothing again.
    expect(asked).toHaveLength(set.length);
  });

  it("refuses a judge that leans yes under the default band, and trusts it once its band is fitted", async () => {
    const leaning = (label: CallLabel, index: number) =>
      label === "right"
        ? 0.86 + spread(index, 0.12)
        : label === "wrong"
          ? 0.76 + spread(index, 0.08)
          : 0.8;
    const fixed = await calibrateJudge(decisionJudge(leaning).model, {
      metric: "argument-correctness",
      fitBand: false,
    });
    expect(fixed.decision).toMatchObject({ fitted: false, band: { low: 0.25, high: 0.75 } });
    expect(fixed.passed).toBe(false);
    expect(fixed.verdict).toMatch(/not trusted: .*(kappa|false passes)/);
    const fitted = await calibrateJudge(decisionJudge(leaning).model, {
      metric: "argument-correctness",
    });
    expect(fitted.decision?.band.high).toBeGreaterThan(0.8);
    expect(fitted.passed).toBe(true);
  });

  it("refuses a judge whose probabilities say nothing of the labels: a band that holds false passes leaves it deciding too little", async () => {
    const report = await calibrateJudge(
      decisionJudge((_, index) => 0.3 + spread(index, 0.4)).model,
      { metric: "argument-correctness" },
    );
    expect(report.passed).toBe(false);
    expect(report.failures.join("; ")).toMatch(/coverage|kappa/);
    expect(report.decision?.brier).toBeGreaterThan(0.2);
  });
});

describe("fitDecisionBand", () => {
  const point = fc.record({
    probability: fc.double({ min: 0, max: 1, noNaN: true }),
    passes: fc.boolean(),
  });

  // A probability of exactly 0 always fails and one of 1 always passes: no line lies beyond them.
  it("holds false passes and false fails to the target on the units it is fitted on", () => {
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (points, target) => {
          const band = fitDecisionBand(points, target);
          expect(band.low).toBeLessThanOrEqual(band.high);
          const failing = points.filter((p) => !p.passes);
          const passing = points.filter((p) => p.passes);
          const falsePasses = failing.filter(
            (p) => p.probability >= band.high && p.probability < 1,
          ).length;
          const falseFails = passing.filter(
            (p) => p.probability <= band.low && p.probability < band.high && p.probability > 0,
          ).length;
          if (failing.length > 0)
            expect(falsePasses / failing.length).toBeLessThanOrEqual(target + 1e-12);
          if (passing.length > 0)
            expect(falseFails / passing.length).toBeLessThanOrEqual(target + 1e-12);
        },
      ),
    );
  });

  it("needs no band for sides a judge separates", () => {
    const points = [0.1, 0.2, 0.3].map((probability) => ({ probability, passes: false }));
    points.push(...[0.7, 0.8, 0.9].map((probability) => ({ probability, passes: true })));
    const band = fitDecisionBand(points, 0);
    expect(band.high).toBeGreaterThan(0.3);
    expect(band.high).toBeLessThanOrEqual(0.7);
    expect(band.low).toBeGreaterThanOrEqual(0.3);
  });

  it("scores probabilities: Brier 0 and ECE 0 for a certain, right judge; 0.25 for a coin", () => {
    const sure = [
      { probability: 1, passes: true },
      { probability: 0, passes: false },
    ];
    expect(brierScore(sure)).toBe(0);
    expect(expectedCalibrationError(sure)).toBe(0);
    const coin = sure.map((p) => ({ ...p, probability: 0.5 }));
    expect(brierScore(coin)).toBe(0.25);
    expect(expectedCalibrationError(coin)).toBe(0);
    expect(expectedCalibrationError([{ probability: 0.9, passes: false }])).toBeCloseTo(0.9, 12);
    expect(brierScore([])).toBeUndefined();
  });
});
