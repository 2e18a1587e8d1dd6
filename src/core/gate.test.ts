import { describe, expect, it } from "vitest";
import { gateVerdict, readRecordedGate } from "./gate.js";

const run = (passed: number, failed: number, errors = 0, notEvaluable = 0) => {
  const cases = passed + failed + errors + notEvaluable;
  const passRate = cases === 0 ? null : passed / cases;
  return { cases, passed, failed, errors, notEvaluable, passRate };
};

describe("gateVerdict", () => {
  it("says the pass rate against fail_under, where it came from, and the exit code", () => {
    expect(
      gateVerdict(run(2, 3), { failUnder: 0.75, failUnderFrom: "toolscore.config.yaml" }),
    ).toEqual({
      passed: false,
      exitCode: 1,
      text: "gate: 40% passed < fail_under 75% (toolscore.config.yaml): exit 1",
    });
    expect(gateVerdict(run(9, 1), { failUnder: 0.9, failUnderFrom: "--fail-under" }).text).toBe(
      "gate: 90% passed ≥ fail_under 90% (--fail-under): exit 0",
    );
    expect(gateVerdict(run(2, 1), { failUnder: 0.5 }).text).toBe(
      "gate: 66.7% passed ≥ fail_under 50%: exit 0",
    );
  });

  it("needs every case to pass without fail_under", () => {
    expect(gateVerdict(run(3, 0), {})).toMatchObject({ passed: true, exitCode: 0 });
    expect(gateVerdict(run(1, 0), {}).text).toBe("gate: the 1 case passed: exit 0");
    expect(gateVerdict(run(3, 1), {}).text).toBe(
      "gate: 1 of 4 cases failed; every case must pass (no fail_under): exit 1",
    );
  });

  it("fails on cases a judge could not tell, unless told to leave them out", () => {
    expect(gateVerdict(run(3, 0, 0, 1), {})).toEqual({
      passed: false,
      exitCode: 1,
      text: "gate: 1 of 4 cases not evaluable; every case must pass (no fail_under): exit 1",
    });
    expect(gateVerdict(run(2, 1, 0, 1), {}).text).toBe(
      "gate: 1 of 4 cases failed, 1 not evaluable; every case must pass (no fail_under): exit 1",
    );
    const tolerant = { notEvaluable: "ignore", maxNotEvaluable: 0.25 } as const;
    expect(gateVerdict(run(3, 0, 0, 1), tolerant).text).toBe(
      "gate: all 3 cases passed (1 not evaluable, left out): exit 0",
    );
    // The pass rate: over every case, or over those the judge could tell.
    expect(gateVerdict(run(3, 0, 0, 1), { failUnder: 0.8 }).text).toBe(
      "gate: 75% passed < fail_under 80%: exit 1",
    );
    expect(gateVerdict(run(3, 0, 0, 1), { failUnder: 0.8, ...tolerant }).text).toBe(
      "gate: 100% passed (1 not evaluable, left out) ≥ fail_under 80%: exit 0",
    );
  });

  it("never passes on cases a judge did not decide: past max_not_evaluable, or with none decided", () => {
    // One case in four left out is past the default, a fifth.
    expect(gateVerdict(run(3, 0, 0, 1), { notEvaluable: "ignore" }).text).toBe(
      "gate: 1 of 4 cases not evaluable (25%) > max_not_evaluable 20%: exit 1",
    );
    expect(gateVerdict(run(4, 0, 0, 1), { notEvaluable: "ignore" }).passed).toBe(true);
    // Nothing decided is never "all 0 cases passed", whatever the limit and the pass rate.
    for (const rule of [
      { notEvaluable: "ignore", maxNotEvaluable: 1 },
      { notEvaluable: "ignore", maxNotEvaluable: 1, failUnder: 0 },
    ] as const) {
      expect(gateVerdict(run(0, 0, 0, 2), rule)).toEqual({
        passed: false,
        exitCode: 1,
        text: "gate: no case decided: all 2 cases not evaluable (not_evaluable ignore): exit 1",
      });
    }
    // Errors still come first.
    expect(gateVerdict(run(0, 0, 1, 2), { notEvaluable: "ignore" }).exitCode).toBe(3);
  });

  it("puts a stop, then errors, then regressions before the pass rate", () => {
    expect(gateVerdict(run(3, 0, 1), { failUnder: 0 }).text).toBe(
      "gate: 1 case could not be scored: exit 3",
    );
    expect(gateVerdict(run(3, 0, 1), { stoppedBy: "SIGTERM" }).exitCode).toBe(143);
    expect(gateVerdict(run(3, 0, 1), { stoppedBy: "judge-unreachable" })).toMatchObject({
      exitCode: 3,
      text: "gate: stopped: the judge cannot be reached: exit 3",
    });
    const baseline = { name: "main.jsonl", regressions: 2 };
    expect(gateVerdict(run(4, 0), { baseline, failUnder: 0.5 }).text).toBe(
      "gate: 2 regressions against main.jsonl: exit 1",
    );
    expect(gateVerdict(run(3, 1), { baseline: { ...baseline, regressions: 0 } }).text).toBe(
      "gate: no regressions against main.jsonl: exit 0",
    );
    // A baseline without regressions still fails a pass rate under fail_under, and says both.
    expect(
      gateVerdict(run(1, 3), {
        baseline: { ...baseline, regressions: 0 },
        failUnder: 0.75,
        failUnderFrom: "--fail-under",
      }).text,
    ).toBe(
      "gate: 25% passed < fail_under 75% (--fail-under), no regressions against main.jsonl: exit 1",
    );
  });

  it("holds pass@k or pass^k over repeated runs, and fails on flaky cases when told to", () => {
    const repeats = {
      cases: 4,
      runs: 12,
      ungrouped: 0,
      passAtK: 0.75,
      passHatK: 0.25,
      flaky: 2,
      byK: [],
      flakyCases: [],
      listed: [],
    };
    const repeated = { ...run(7, 5), repeats };
    expect(gateVerdict(repeated, { rate: "pass@k", failUnder: 0.7 }).text).toBe(
      "gate: pass@k 75% over 4 cases ≥ fail_under 70%: exit 0",
    );
    expect(gateVerdict(repeated, { rate: "pass^k", failUnder: 0.7 })).toMatchObject({
      exitCode: 1,
      text: "gate: pass^k 25% over 4 cases < fail_under 70%: exit 1",
    });
    expect(gateVerdict(repeated, { failUnder: 0.5, failOnFlaky: true }).text).toBe(
      "gate: 2 flaky cases (passed in some runs, failed in others; fail_on_flaky): exit 1",
    );
    // Without repeated runs each case ran once: the rate is the pass rate, and the verdict says so.
    expect(gateVerdict(run(3, 1), { rate: "pass^k", failUnder: 0.7, failOnFlaky: true }).text).toBe(
      "gate: pass^k 75% (no repeated runs: each case ran once) ≥ fail_under 70%: exit 0",
    );
    // Errors still come first.
    expect(gateVerdict({ ...repeated, errors: 1 }, { rate: "pass@k" }).exitCode).toBe(3);
  });
});

describe("readRecordedGate", () => {
  it("reads back the gate a run recorded, keeping only the keys it holds", () => {
    const rule = {
      failUnder: 0.75,
      failUnderFrom: "toolscore.config.yaml",
      notEvaluable: "ignore",
      rate: "pass^k",
      failOnFlaky: true,
    };
    expect(readRecordedGate(rule)).toEqual(rule);
    expect(readRecordedGate({})).toEqual({});
    const read = readRecordedGate({ failUnder: 0.75 });
    expect(!("problem" in read) && gateVerdict(run(3, 1), read).passed).toBe(true);
  });

  it("names what is wrong with a gate a file may have made up", () => {
    expect(readRecordedGate([])).toEqual({ problem: "gate is not an object" });
    expect(readRecordedGate({ failUnder: 75 })).toEqual({
      problem: "gate.failUnder is not a share from 0 to 1",
    });
    expect(readRecordedGate({ failUnder: "0.5" })).toHaveProperty("problem");
    expect(readRecordedGate({ notEvaluable: "pass" })).toEqual({
      problem: "gate.notEvaluable is not fail or ignore",
    });
    expect(readRecordedGate({ rate: "pass@2" })).toHaveProperty("problem");
    expect(readRecordedGate({ failOnFlaky: "yes" })).toHaveProperty("problem");
    expect(readRecordedGate({ failUnderFrom: 3 })).toHaveProperty("problem");
    expect(readRecordedGate({ baseline: { name: "main", regressions: 0 } })).toEqual({
      problem: "gate has unknown keys (baseline)",
    });
  });
});
