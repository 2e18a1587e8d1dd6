import { gateVerdict } from "../core/gate.js";
import { firstFailures } from "../node/results-file.js";
import { formatConsoleReport, maxFailuresShown } from "../reporters/console.js";
import { gateFlags, gateFor } from "./config.js";
import { ExitCode, namedFile, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { reportTargets, writeReports } from "./reports.js";
import { datasetPath, summarizeResults } from "../reports/results-reports.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore report`: what parseArgs reads, and what --help lists. */
export const reportFlags = {
  ...gateFlags,
  config: {
    type: "string",
    short: "c",
    value: "<file>",
    help: "the config whose fail_under applies (default: the current folder's)",
  },
  verbose: { type: "boolean", short: "v", help: "print failed cases' whole reasons" },
  report: { type: "string", value: "<file.html>", help: "single-file HTML report" },
  junit: { type: "string", value: "<file.xml>", help: "JUnit XML" },
  markdown: { type: "string", value: "<file.md>", help: "Markdown summary" },
  "otlp-events": {
    type: "string",
    value: "<file.json>",
    help: "each score as an OpenTelemetry evaluation event on its run's trace",
  },
  "max-cases": {
    type: "string",
    value: "<n>",
    help: "most cases in the HTML report (failures first; default 2000)",
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const reportHelp = `Usage: toolscore report <results.jsonl> [options]

Renders reports from a results file written by eval (or merge), lists its failed cases, and
states the run's gate verdict as eval decided it (every case must pass, or the share --fail-under,
else the config's fail_under, names). Exits 0 once the reports are written.

${flagsHelp(reportFlags)}
`;

export async function reportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, reportFlags, reportHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  const gateRule = await gateFor(values, io);
  if (positionals.length !== 1)
    throw usageError("report takes one results file (see toolscore report --help)");
  const maxCases = values["max-cases"] === undefined ? undefined : Number(values["max-cases"]);
  if (maxCases !== undefined && !(Number.isInteger(maxCases) && maxCases >= 1)) {
    throw usageError("--max-cases must be a whole number of at least 1", "--max-cases");
  }
  const results = { noun: "results", kinds: "the .jsonl that eval wrote", option: "results" };
  const file = namedFile(positionals[0], results, io);
  const { summary, metrics, dataset } = await summarizeResults(file);
  const failures = summary.failed > 0 ? await firstFailures(file, maxFailuresShown) : [];
  const width = io.stdout.isTTY === true ? io.stdout.columns : undefined;
  io.stdout.write(
    `${formatConsoleReport({
      summary: summary,
      failures,
      verbose: values.verbose === true,
      ...(width === undefined ? {} : { width }),
    })}\n`,
  );
  const gate = gateVerdict(summary, gateRule);
  await writeReports({
    out: file,
    summary,
    metrics,
    reports: reportTargets(values, io.cwd),
    io: { ...io, env: { ...io.env, GITHUB_STEP_SUMMARY: undefined } },
    dataset: datasetPath(dataset, file, io.cwd),
    source: dataset,
    ...(maxCases === undefined ? {} : { maxCases }),
    gate,
  });
  io.stdout.write(`${gate.text}\n`);
  return ExitCode.OK;
}

export const command: Command = { run: reportCommand, help: reportHelp, flags: reportFlags };
