import {
  calibrateJudge,
  calibratedMetrics,
  defaultCalibrationGates,
} from "../judges/calibration/calibrate.js";
import type { CalibratedMetric, CalibrationReport } from "../judges/calibration/calibrate.js";
import { didYouMean } from "../core/suggest.js";
import { formatRate } from "../reporters/format.js";
import path from "node:path";
import { judgeCacheDirectory, settingsFor } from "./config.js";
import { judgeOnDemand } from "./run-judge.js";
import { runSettings } from "./run-settings.js";
import { flagsOf } from "./settings.js";
import { ExitCode, shareFlag, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import { readLabelledCases } from "./labelled-cases.js";
import { createBatchedJudge } from "../evaluate-to-file/judge-batches.js";
import type { JudgeModel, JudgeRunSummary } from "../core/judge.js";
import { entryOf, lastCalibration, recordCalibration, worseSince } from "./calibration-history.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The run settings calibrate shares with eval: the config, and the judge as the gate asks it. */
const judgeFlagSettings = [
  "config",
  "judge",
  "judgeBaseURL",
  "judgeTimeoutMs",
  "judgeMaxRetries",
  "judgeConcurrency",
  "judgeRequestsPerMinute",
  "judgeCache",
  "noCache",
] as const;

/** The flags of `toolscore calibrate`: what parseArgs reads, and what --help lists. */
export const calibrateFlags = {
  ...flagsOf(runSettings, [...judgeFlagSettings, "batch"], { grouped: false }),
  threshold: {
    type: "string",
    value: "<0..1|N%>",
    help: "the pass/fail line (default: the metric's threshold)",
  },
  cases: {
    type: "string",
    value: "<file>",
    help: "your own labelled cases (JSONL, JSON or YAML: a case with label,\nwhy, call_labels), in place of toolscore's set",
  },
  concurrency: { type: "string", value: "<n>", help: "judgements in flight (default 8)" },
  "min-kappa": {
    type: "string",
    value: "<-1..1>",
    help: `exit 1 below this Cohen's kappa (default ${defaultCalibrationGates.minKappa})`,
  },
  "max-false-pass": {
    type: "string",
    value: "<0..1|N%>",
    help: `exit 1 when the judge passes more of the cases the labels fail (default ${defaultCalibrationGates.maxFalsePass * 100}%)`,
  },
  "min-coverage": {
    type: "string",
    value: "<0..1|N%>",
    help: `exit 1 when the judge decides fewer of the cases a label decides (default ${defaultCalibrationGates.minCoverage * 100}%)`,
  },
  "target-false-pass": {
    type: "string",
    value: "<0..1|N%>",
    help: "a decision model's band is fitted to keep false passes and false\nfails to this (default 5%; a band in the metric's options is used as it is)",
  },
  json: { type: "boolean", help: "print the whole report as JSON" },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const calibrateHelp = `Usage: toolscore calibrate [metric] [--judge <provider/model>] [options]

Runs a judged metric over toolscore's labelled cases for it and prints how well its judge agrees
with the labels: coverage (the cases it decided), Cohen's kappa with a 95% interval, false-pass and
false-fail rates, pass/fail accuracy, mean absolute error, how its "cannot tell" answers match the
cases labelled undecidable, and the cases it got wrong; then one verdict line. Exits 1 when the
judge misses a gate (--min-kappa, --max-false-pass, --min-coverage), 3 when cases could not be
judged. The judge, its settings and cache, and the metric's options (samples, minAgreement) come
from the config as eval reads them, so the calibration measures what the gate runs; --batch sends
its questions through the provider's batch API, as eval --batch does. A decision
model's band is fitted on the cases (--target-false-pass) and reported with its Brier score and
expected calibration error; eval then uses that band. Metrics:
${calibratedMetrics.map((metric) => `  ${metric}${metric === "tool-selection" ? " (default)" : ""}`).join("\n")}

${flagsHelp(calibrateFlags)}
`;

export async function calibrateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, calibrateFlags, calibrateHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length > 1) throw usageError("calibrate takes one metric at most (see --help)");
  const metric = positionals[0] ?? "tool-selection";
  if (!(calibratedMetrics as readonly string[]).includes(metric)) {
    throw usageError(
      `calibrate measures ${calibratedMetrics.join(", ")}; ${JSON.stringify(metric)} has no labelled set${didYouMean(metric, calibratedMetrics)}`,
      "metric",
    );
  }
  const threshold = shareFlag("threshold", values.threshold);
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw usageError("--concurrency must be a whole number of at least 1", "--concurrency");
  }
  const minKappa = values["min-kappa"] === undefined ? undefined : Number(values["min-kappa"]);
  if (minKappa !== undefined && !(Number.isFinite(minKappa) && minKappa >= -1 && minKappa <= 1)) {
    throw usageError("--min-kappa must be a number from -1 to 1, e.g. 0.6", "--min-kappa");
  }
  const gates = {
    minKappa,
    maxFalsePass: shareFlag("max-false-pass", values["max-false-pass"]),
    minCoverage: shareFlag("min-coverage", values["min-coverage"]),
  };
  const targetFalsePass = shareFlag("target-false-pass", values["target-false-pass"]);
  const own = values.cases === undefined ? undefined : await readLabelledCases(values.cases);
  for (const note of own?.notes ?? []) io.stderr.write(`toolscore: ${note}\n`);
  for (const error of own?.unreadable ?? []) io.stderr.write(`toolscore: ${error.message}\n`);
  if (own !== undefined && own.cases.length === 0) {
    throw usageError(`${values.cases ?? ""} holds no labelled case to calibrate on`, "--cases");
  }
  // The judge and the metric's options as the run's config gives them: the gate's own.
  const resolved = await settingsFor(
    [...judgeFlagSettings, "batch", "judgeBatchIntervalSeconds", "judgeBatchMaxChecks", "metrics"],
    values,
    io,
  );
  const judge = judgeOnDemand(resolved.settings, io);
  if (judge.model === undefined) {
    throw usageError(
      "calibrate needs a judge: --judge openai/gpt-4o-mini, or judge: in the config",
      "--judge",
    );
  }
  const model = judge.model();
  const metricOptions =
    resolved.settings.metrics.find((entry) => entry.metric === metric)?.options ?? {};
  // A judge the first calls cannot reach stops the calibration: one error, not one per case.
  const signal = io.signal === undefined ? judge.stop : AbortSignal.any([io.signal, judge.stop]);
  let report: CalibrationReport;
  try {
    const calibrate = (asking: JudgeModel) =>
      calibrateJudge(asking, {
        metricOptions,
        metric: metric as CalibratedMetric,
        threshold,
        concurrency,
        gates,
        ...(own === undefined ? {} : { cases: own.cases }),
        ...(targetFalsePass === undefined ? {} : { targetFalsePass }),
        signal,
      });
    if (judge.batch === undefined) report = await calibrate(model);
    else {
      // As eval --batch: the questions gathered by a pass that scores nothing, sent as batches,
      // then every case calibrated from their answers.
      const batched = createBatchedJudge(() => model);
      const failure = await batched.gatherAndSend({
        pass: async () => {
          await calibrate(batched.judge());
          return undefined;
        },
        batch: judge.batch,
        signal,
      });
      if (failure !== undefined) {
        io.stderr.write(
          `toolscore: the judge's batch did not answer, calibration stopped: ${failure instanceof Error ? failure.message : JSON.stringify(failure)}\n`,
        );
        return ExitCode.RUNTIME;
      }
      report = await calibrate(batched.judge());
    }
  } catch (error) {
    if (!judge.stop.aborted) throw error;
    const reason: unknown = judge.stop.reason;
    io.stderr.write(
      `toolscore: the judge cannot be reached, calibration stopped: ${reason instanceof Error ? reason.message : String(reason)}\n`,
    );
    return ExitCode.RUNTIME;
  }
  const unreadable = own?.unreadable.length ?? 0;
  const exit =
    report.errors > 0 || unreadable > 0
      ? ExitCode.RUNTIME
      : report.passed
        ? ExitCode.OK
        : ExitCode.FAILED;
  const history = await compareAndRecord(report, values.cases, resolved.settings, io);
  if (values.json === true) {
    const shown = { ...report, judge: judge.summary(), lowerThanLast: history };
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return exit;
  }
  io.stdout.write(reportText(report, judge.summary()));
  io.stdout.write(`${report.verdict}\n`);
  for (const line of history) io.stdout.write(`${line}\n`);
  if (unreadable > 0)
    io.stdout.write(
      `  ${unreadable} labelled case${unreadable === 1 ? "" : "s"} could not be read (above): calibrated on the other ${report.results.length}\n`,
    );
  for (const failure of report.failures.slice(1)) io.stdout.write(`  also: ${failure}\n`);
  return exit;
}

/** The calibration's figures and the cases where judge and label disagree (the first 20). */
function reportText(report: CalibrationReport, spent: JudgeRunSummary | undefined): string {
  const kappa = report.cohensKappa === undefined ? "–" : report.cohensKappa.toFixed(2);
  const interval =
    report.kappaInterval === undefined
      ? ""
      : ` (95% ${report.kappaInterval[0].toFixed(2)} to ${report.kappaInterval[1].toFixed(2)})`;
  const rate = (value: number | undefined) => (value === undefined ? "–" : formatRate(value));
  const unsure = report.notEvaluable;
  const { bothPass, bothFail, judgeOnlyPass, labelOnlyPass } = report.confusion;
  const lines = [
    `${report.metric}: judge ${report.model} on ${report.results.length} labelled cases (${report.errors} could not be judged)`,
    `  coverage            ${formatRate(report.coverage)} decided (${report.abstained} "cannot tell" on cases a label decides)`,
    `  Cohen's kappa       ${kappa}${interval}`,
    `  false pass / fail   ${rate(report.falsePassRate)} / ${rate(report.falseFailRate)}`,
    `  confusion           label pass: judge pass ${bothPass}, fail ${labelOnlyPass}; label fail: judge pass ${judgeOnlyPass}, fail ${bothFail}`,
    `  pass/fail accuracy  ${formatRate(report.accuracy)} (${report.unit === "call" ? "call by call" : `threshold ${report.threshold}`}, ${report.cases} ${report.unit}s both decided)`,
    `  mean abs. error     ${report.meanAbsoluteError.toFixed(3)}`,
    `  exact agreement     ${formatRate(report.exactAgreement)}`,
    `  cannot tell         ${unsure.judged} said, ${unsure.agreed} of ${unsure.labelled} labelled undecidable`,
    ...decisionLines(report),
    `  judge               ${spent?.calls ?? 0} calls, ${spent?.batchedRequests ? `${spent.batchedRequests} batched, ` : ""}${spent?.cacheHits ?? 0} answered from the cache, ${report.usage.inputTokens + report.usage.outputTokens} tokens${report.costUsd === undefined ? "" : `, ~$${report.costUsd.toFixed(4)}`}`,
  ];
  const passes = (value: number) => value >= report.threshold;
  const wrong = report.results.filter((result) =>
    typeof result.label === "number"
      ? result.score === undefined || passes(result.score) !== passes(result.label)
      : result.notEvaluable !== true,
  );
  for (const result of wrong.slice(0, 20)) {
    const judged =
      result.score ??
      (result.notEvaluable === true ? "cannot tell" : (result.error?.code ?? "error"));
    lines.push(
      `  ${result.id}: label ${result.label}, judge ${judged}${result.reason === undefined ? "" : ` (${result.reason})`}`,
    );
  }
  return lines.map((line) => `${line}\n`).join("");
}

/** A decision model's lines: the band the figures hold for, and what its probabilities are worth. */
function decisionLines(report: CalibrationReport): string[] {
  const decision = report.decision;
  if (decision === undefined) return [];
  const { band } = decision;
  const figure = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(3));
  return [
    `  band                [${band.low.toFixed(3)}, ${band.high.toFixed(3)}] ${decision.fitted ? `fitted for ${formatRate(decision.targetFalsePass)} false passes and fails (on these cases: figures above are in-sample)` : "from the metric's options"}`,
    `  probabilities       Brier ${figure(decision.brier)}, ECE ${figure(decision.ece)} (${decision.units} ${report.unit}s)`,
  ];
}

/**
 * Compares the calibration with the last one of the same judge, prompt and cases, kept beside the
 * judge cache (`calibrations.jsonl`), then records it: lines saying what got worse, or none. No
 * cache, no history.
 */
async function compareAndRecord(
  report: CalibrationReport,
  cases: string | undefined,
  settings: Parameters<typeof judgeCacheDirectory>[0] & { readonly noCache: boolean },
  io: CliIo,
): Promise<string[]> {
  const directory = settings.noCache ? undefined : judgeCacheDirectory(settings, io);
  if (directory === undefined) return [];
  const file = path.join(directory, "calibrations.jsonl");
  const entry = entryOf(
    report,
    cases === undefined ? "toolscore" : path.resolve(io.cwd, cases),
    new Date(),
  );
  const { last, skipped } = await lastCalibration(file, entry);
  if (skipped > 0)
    io.stderr.write(
      `toolscore: ${file}: ${skipped} line${skipped === 1 ? " is" : "s are"} not a calibration, left out of the comparison\n`,
    );
  await recordCalibration(file, entry);
  if (last === undefined) return [];
  const worse = worseSince(last, entry);
  return worse.length === 0
    ? []
    : [
        `  lower than the last calibration of this judge (${last.date.slice(0, 10)}): ${worse.join(", ")}`,
      ];
}

export const command: Command = {
  run: calibrateCommand,
  help: calibrateHelp,
  flags: calibrateFlags,
};
