import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testFolders } from "../../test/support/folders.js";
import { lastCalibration, recordCalibration, worseSince } from "./calibration-history.js";
import type { CalibrationEntry } from "./calibration-history.js";

const folder = testFolders("toolscore-calibration-history-");

const entry = (date: string, kappa: number | null, coverage = 1): CalibrationEntry => ({
  date,
  metric: "argument-correctness",
  model: "openai/gpt-4.1-mini",
  promptVersion: "argument-correctness/2",
  cases: "toolscore",
  unit: "call",
  kappa,
  coverage,
  falsePassRate: 0.05,
  passed: kappa !== null && kappa >= 0.6,
});

describe("the calibration history", () => {
  it("finds the last calibration of the same judge, prompt and cases, and skips lines that are none", async () => {
    const file = path.join(folder({}), "deeper", "calibrations.jsonl");
    expect(await lastCalibration(file, entry("now", 1))).toEqual({ last: undefined, skipped: 0 });
    await recordCalibration(file, entry("2026-11-01T00:00:00.000Z", 0.9));
    await recordCalibration(file, { ...entry("2026-11-02T00:00:00.000Z", 0.1), model: "other/x" });
    await recordCalibration(file, entry("2026-11-03T00:00:00.000Z", 0.8));
    writeFileSync(file, `${readFileSync(file, "utf8")}not json\n{"metric": 3}\n`);
    const { last, skipped } = await lastCalibration(file, entry("now", 0.5));
    expect(last?.date).toBe("2026-11-03T00:00:00.000Z");
    expect(skipped).toBe(2);
    // Another prompt version is another judge.
    expect(
      (
        await lastCalibration(file, {
          ...entry("now", 0.5),
          promptVersion: "argument-correctness/3",
        })
      ).last,
    ).toBeUndefined();
  });

  it("says each figure that got worse, and nothing when none did", () => {
    const before = entry("a", 0.8, 0.95);
    expect(worseSince(before, entry("b", 0.85, 0.95))).toEqual([]);
    expect(worseSince(before, { ...entry("b", 0.5, 0.7), falsePassRate: 0.2 })).toEqual([
      "kappa 0.80 → 0.50",
      "coverage 95.0% → 70.0%",
      "false passes 5.0% → 20.0%",
      "trusted → not trusted",
    ]);
  });
});
