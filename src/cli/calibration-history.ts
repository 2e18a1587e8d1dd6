import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { calibrationPercent } from "../judges/calibration/calibrate.js";
import type { CalibrationReport } from "../judges/calibration/calibrate.js";
import { jsonlLines } from "../node/dataset.js";

/** One calibration as the history keeps it: which judge, on what, and its figures. */
export interface CalibrationEntry {
  readonly date: string;
  readonly metric: string;
  readonly model: string;
  readonly promptVersion: string;
  /** Where the labelled cases came from: toolscore's set, or the file given. */
  readonly cases: string;
  readonly unit: "case" | "call";
  readonly kappa: number | null;
  readonly coverage: number;
  readonly falsePassRate: number | null;
  readonly passed: boolean;
  /** A decision model's band `[low, high]` the figures hold for, and what eval uses. */
  readonly band?: readonly [number, number];
  /** A decision model's Brier score and expected calibration error. */
  readonly brier?: number;
  readonly ece?: number;
}

/** A calibration's entry, dated now. */
export function entryOf(report: CalibrationReport, cases: string, date: Date): CalibrationEntry {
  return {
    date: date.toISOString(),
    metric: report.metric,
    model: report.model,
    promptVersion: report.promptVersion,
    cases,
    unit: report.unit,
    kappa: report.cohensKappa ?? null,
    coverage: report.coverage,
    falsePassRate: report.falsePassRate ?? null,
    passed: report.passed,
    ...decisionFigures(report),
  };
}

function decisionFigures(report: CalibrationReport): Partial<CalibrationEntry> {
  const decision = report.decision;
  if (decision === undefined) return {};
  return {
    band: [decision.band.low, decision.band.high],
    ...(decision.brier === undefined ? {} : { brier: decision.brier }),
    ...(decision.ece === undefined ? {} : { ece: decision.ece }),
  };
}

/** Whether a history line is an entry: the file may hold anything, and is only ever compared. */
function isEntry(value: unknown): value is CalibrationEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    ["date", "metric", "model", "promptVersion", "cases", "unit"].every(
      (key) => typeof entry[key] === "string",
    ) &&
    (entry.kappa === null || typeof entry.kappa === "number") &&
    typeof entry.coverage === "number" &&
    typeof entry.passed === "boolean"
  );
}

/**
 * The last calibration in `file` that `matches`, if any; lines that are not entries are counted
 * in `skipped`, never read as one.
 */
export async function latestCalibration(
  file: string,
  matches: (entry: CalibrationEntry) => boolean,
): Promise<{ readonly last: CalibrationEntry | undefined; readonly skipped: number }> {
  let last: CalibrationEntry | undefined;
  let skipped = 0;
  try {
    for await (const { text } of jsonlLines(file)) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (!isEntry(value)) {
        skipped++;
        continue;
      }
      if (matches(value)) last = value;
    }
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
  }
  return { last, skipped };
}

/** The last calibration of the same judge, prompt version and cases in `file`, if any. */
export function lastCalibration(file: string, like: CalibrationEntry) {
  return latestCalibration(
    file,
    (value) =>
      value.metric === like.metric &&
      value.model === like.model &&
      value.promptVersion === like.promptVersion &&
      value.cases === like.cases &&
      value.unit === like.unit,
  );
}

/** A band as a history line holds it, when it is one: `[low, high]` within [0, 1]. */
export function bandOf(entry: CalibrationEntry): readonly [number, number] | undefined {
  const band: unknown = entry.band;
  if (!Array.isArray(band) || band.length !== 2) return undefined;
  const [low, high] = band as unknown[];
  const share = (n: unknown): n is number => typeof n === "number" && n >= 0 && n <= 1;
  return share(low) && share(high) && low <= high ? [low, high] : undefined;
}

/** What got worse since `last`, said figure by figure; empty when nothing did. */
export function worseSince(last: CalibrationEntry, now: CalibrationEntry): string[] {
  const worse: string[] = [];
  const fixed = (value: number) => value.toFixed(2);
  if (last.kappa !== null && now.kappa !== null && now.kappa < last.kappa)
    worse.push(`kappa ${fixed(last.kappa)} → ${fixed(now.kappa)}`);
  if (now.coverage < last.coverage)
    worse.push(
      `coverage ${calibrationPercent(last.coverage)} → ${calibrationPercent(now.coverage)}`,
    );
  if (
    last.falsePassRate !== null &&
    now.falsePassRate !== null &&
    now.falsePassRate > last.falsePassRate
  )
    worse.push(
      `false passes ${calibrationPercent(last.falsePassRate)} → ${calibrationPercent(now.falsePassRate)}`,
    );
  if (last.passed && !now.passed) worse.push("trusted → not trusted");
  return worse;
}

/** Adds an entry at the end of the history, making its folder when needed. */
export async function recordCalibration(file: string, entry: CalibrationEntry): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(entry)}\n`);
}
