import path from "node:path";
import { formatComparison } from "../reporters/comparison.js";
import { ExitCode, namedFile, numberFlag, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { writeReports } from "./reports.js";
import { compareResults, datasetPath, summarizeResults } from "../reports/results-reports.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore compare`: what parseArgs reads, and what --help lists. */
export const compareFlags = {
  tolerance: {
    type: "string",
    value: "<0..1>",
    help: "how far a score may move without counting (default 0)",
    group: "Options",
  },
  markdown: {
    type: "string",
    value: "<file.md>",
    help: "the new run's summary with the comparison, as Markdown (also\nappended to $GITHUB_STEP_SUMMARY when set)",
    group: "Options",
  },
  report: {
    type: "string",
    value: "<file.html>",
    help: "the new run's HTML report, with the comparison",
    group: "Options",
  },
  help: { type: "boolean", short: "h", group: "Options" },
} as const satisfies Readonly<Record<string, Flag>>;

export const compareHelp = `Usage: toolscore compare <baseline results> <new results> [options]

Compares two results files case by case (cases matched by id): per metric the mean and pass
rate before and after, the cases that newly fail, newly error or newly pass, the scores that
moved by more than --tolerance, and the cases only one run has. Exits 1 when any case regressed
(newly failed, newly errored, or a score dropped beyond the tolerance), 0 otherwise.

${flagsHelp(compareFlags)}
`;

const results = { noun: "results", kinds: "the .jsonl that eval wrote", option: "results" };

/** Runs `toolscore compare`; resolves to the exit code. */
export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, compareFlags, compareHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length !== 2) {
    throw usageError(
      "compare takes a baseline results file and a new one: toolscore compare baseline.jsonl results.jsonl",
    );
  }
  const [baselineArgument, currentArgument] = positionals;
  const baseline = namedFile(baselineArgument, results, io);
  const current = namedFile(currentArgument, results, io);
  const tolerance = numberFlag("tolerance", values.tolerance, 0, 1) ?? 0;
  const comparison = await compareResults(baseline, current, { tolerance });
  const color = io.stdout.isTTY === true && io.env.NO_COLOR === undefined;
  io.stdout.write(`${formatComparison(comparison, { baseline: baselineArgument, color })}\n`);
  if (
    values.markdown !== undefined ||
    values.report !== undefined ||
    (io.env.GITHUB_STEP_SUMMARY ?? "") !== ""
  ) {
    const run = await summarizeResults(current);
    await writeReports({
      out: current,
      summary: run.summary,
      metrics: run.metrics,
      reports: {
        markdown: values.markdown === undefined ? undefined : path.resolve(io.cwd, values.markdown),
        report: values.report === undefined ? undefined : path.resolve(io.cwd, values.report),
      },
      io,
      dataset: datasetPath(run.dataset, current, io.cwd),
      source: run.dataset,
      comparison: { comparison, baseline: baselineArgument },
    });
  }
  return comparison.regressions > 0 ? ExitCode.FAILED : ExitCode.OK;
}

export const command: Command = { run: compareCommand, help: compareHelp, flags: compareFlags };
