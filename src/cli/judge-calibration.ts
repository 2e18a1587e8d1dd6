import path from "node:path";
import {
  calibratedMetrics,
  calibrationPercent,
  calibratedPromptVersion,
} from "../judges/calibration/calibrate.js";
import type { CalibratedMetric } from "../judges/calibration/calibrate.js";
import { defaultDecisionBand } from "../judges/decisions.js";
import { judgeNamed } from "../providers/judge-models.js";
import { bandOf, latestCalibration } from "./calibration-history.js";
import type { CalibrationEntry } from "./calibration-history.js";
import { judgeCacheDirectory } from "./config.js";
import type { EvalConfig, MetricConfig } from "./config.js";
import type { CliIo } from "./io.js";

const isCalibrated = (metric: string): metric is CalibratedMetric =>
  (calibratedMetrics as readonly string[]).includes(metric);

function described(entry: CalibrationEntry): string {
  const kappa = entry.kappa === null ? "–" : entry.kappa.toFixed(2);
  const cases = entry.cases === "toolscore" ? "toolscore's cases" : path.basename(entry.cases);
  return `last calibrated ${entry.date.slice(0, 10)} on ${cases}: kappa ${kappa}, coverage ${calibrationPercent(entry.coverage)}, ${entry.passed ? "trusted" : "not trusted"}`;
}

/**
 * The run's judged metrics as the judge's last calibrations leave them, each calibrated one named
 * on stderr with when it was last calibrated and what it scored, read from the history beside
 * the judge cache (a decision model's also when it never was: its band depends on it). A decision model's metric without a `band` of its own takes the band
 * of its last trusted calibration; without one it keeps the default, and says so.
 */
export async function withCalibrations(
  metrics: readonly MetricConfig[],
  settings: Pick<EvalConfig, "judge" | "judgeCache" | "noCache">,
  io: CliIo,
): Promise<MetricConfig[]> {
  const judge = typeof settings.judge === "string" ? judgeNamed(settings.judge) : undefined;
  const judged = metrics.filter((entry) => isCalibrated(entry.metric));
  if (judge === undefined || judged.length === 0) return [...metrics];
  const directory = settings.noCache ? undefined : judgeCacheDirectory(settings, io);
  const file = directory === undefined ? undefined : path.join(directory, "calibrations.jsonl");
  const result: MetricConfig[] = [];
  for (const entry of metrics) {
    if (!isCalibrated(entry.metric)) {
      result.push(entry);
      continue;
    }
    const metric = entry.metric;
    const version = calibratedPromptVersion(metric, judge.decisions);
    const { last } =
      file === undefined
        ? { last: undefined }
        : await latestCalibration(
            file,
            (line) =>
              line.model === judge.name && line.metric === metric && line.promptVersion === version,
          );
    const head = `toolscore: judge ${judge.name} on ${metric} (${version}): `;
    const never = `never calibrated${file === undefined ? " (no judge cache, no history)" : ""}; run toolscore calibrate ${metric} --judge ${judge.name}`;
    const own = entry.options;
    if (!judge.decisions || "band" in own) {
      // A chat judge never calibrated is not said on every run: calibrate's guide says it once.
      if (last !== undefined) io.stderr.write(`${head}${described(last)}\n`);
      result.push(entry);
      continue;
    }
    const band = last !== undefined && last.passed ? bandOf(last) : undefined;
    const shown = (b: readonly [number, number]) => `[${b[0]}, ${b[1]}]`;
    io.stderr.write(
      `${head}${last === undefined ? never : described(last)}; ${
        band === undefined
          ? `band ${shown([defaultDecisionBand.low, defaultDecisionBand.high])} by default: no trusted calibration fitted one`
          : `band ${shown(band)} from that calibration`
      }\n`,
    );
    result.push(band === undefined ? entry : { ...entry, options: { ...own, band: [...band] } });
  }
  return result;
}
