import { parseArgs } from "node:util";
import { calibrateToolSelectionJudge } from "../judges/calibration/calibrate.js";
import { resolveJudgeModel } from "../providers/registry.js";
import { formatRate } from "../reporters/format.js";
import { judgeShown } from "./eval.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp } from "./flags.js";
import type { Flag } from "./flags.js";

/** The flags of `toolscore calibrate`: what parseArgs reads, and what --help lists. */
export const calibrateFlags = {
  judge: {
    type: "string",
    value: "<model>",
    help: "the judge, e.g. openai/gpt-4o-mini (key from the environment)",
  },
  threshold: { type: "string", value: "<0..1>", help: "the pass/fail line (default 0.5)" },
  concurrency: { type: "string", value: "<n>", help: "judgements in flight (default 8)" },
  json: { type: "boolean", help: "print the whole report as JSON" },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const calibrateHelp = `Usage: toolscore calibrate --judge <provider/model> [options]

Runs a tool-selection judge over toolscore's fifty labelled cases and prints how well it agrees
with the labels: pass/fail accuracy, Cohen's kappa, mean absolute error, the cases it got wrong.

${flagsHelp(calibrateFlags)}
`;

export async function calibrateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: calibrateFlags,
  });
  if (values.help === true) {
    io.stdout.write(calibrateHelp);
    return ExitCode.OK;
  }
  if (positionals.length > 0) throw usageError("calibrate takes no files (see --help)");
  if (values.judge === undefined) {
    throw usageError("calibrate needs --judge, e.g. --judge openai/gpt-4o-mini", "--judge");
  }
  const threshold = values.threshold === undefined ? 0.5 : Number(values.threshold);
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!(threshold >= 0 && threshold <= 1)) {
    throw usageError("--threshold must be a number from 0 to 1", "--threshold");
  }
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw usageError("--concurrency must be a whole number of at least 1", "--concurrency");
  }
  const model = resolveJudgeModel(values.judge, { env: io.env });
  io.stderr.write(`toolscore: ${judgeShown(model)}\n`);
  const report = await calibrateToolSelectionJudge(model, {
    threshold,
    concurrency,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return ExitCode.OK;
  }
  const kappa = report.cohensKappa === undefined ? "–" : report.cohensKappa.toFixed(2);
  io.stdout.write(
    [
      `judge ${report.model} on ${report.cases} labelled cases (${report.errors} could not be judged)`,
      `  pass/fail accuracy  ${formatRate(report.accuracy)}`,
      `  Cohen's kappa       ${kappa}`,
      `  mean abs. error     ${report.meanAbsoluteError.toFixed(3)}`,
      `  exact agreement     ${formatRate(report.exactAgreement)}`,
      `  tokens ${report.usage.inputTokens + report.usage.outputTokens}${report.costUsd === undefined ? "" : `, ~$${report.costUsd.toFixed(4)}`}`,
      "",
    ].join("\n"),
  );
  const wrong = report.results.filter(
    (result) =>
      result.score === undefined || result.score >= threshold !== result.label >= threshold,
  );
  for (const result of wrong.slice(0, 20)) {
    io.stdout.write(
      `  ${result.id}: label ${result.label}, judge ${result.score ?? "error"}${result.reason === undefined ? "" : ` (${result.reason})`}\n`,
    );
  }
  return report.errors > 0 ? ExitCode.RUNTIME : ExitCode.OK;
}
