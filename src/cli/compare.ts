import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { writeFlags } from "../node/output-path.js";
import path from "node:path";
import type { TrajectoryComparison } from "../core/trajectory-diff.js";
import { divergenceMarkdown } from "../reporters/markdown.js";
import { formatComparison } from "../reporters/comparison.js";
import { ExitCode, namedFile, numberFlag, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { writeReports } from "./reports.js";
import { compareResults, datasetPath, summarizeResults } from "../reports/results-reports.js";
import { compareTrajectories } from "../reports/trajectory-comparison.js";
import { formatDivergences } from "../reporters/divergence.js";
import { callRegressions, diffPlanOf } from "./diff-plan.js";
import { isResultsFile } from "../node/recordings.js";
import { flagsHelp, readArgs } from "./flags.js";
import { settingsFor } from "./config.js";
import { diffSettings, runSettings } from "./run-settings.js";
import { flagsOf } from "./settings.js";
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
  ...flagsOf(runSettings, diffSettings, { grouped: false }),
  config: {
    type: "string",
    value: "<file>",
    help: "the config file whose diff settings apply (default: the current\nfolder's toolscore.config.json, .yaml or .yml)",
    group: "Options",
  },
  json: {
    type: "boolean",
    help: "print the comparison as JSON, for scripts",
    group: "Options",
  },
  help: { type: "boolean", short: "h", group: "Options" },
} satisfies Readonly<Record<string, Flag>>;

export const compareHelp = `Usage: toolscore compare <baseline> <new> [options]

Compares two runs case by case (cases matched by id). Each run is a results file (what eval
wrote) or recordings (what eval --agent recorded, or any dataset of recorded runs).

Trajectories: each case's calls are aligned with the baseline's, under the rules of the new
run's tool-call-accuracy metric when it has one, and the first place they part is printed like
a line of a code diff (turn 2, call 1: refund_order $.amount 30 → 300), with the differences
that follow: calls added, dropped, moved, made in parallel or one by one, arguments changed by
path, outputs changed. With repeated runs (--repeat), a place where the baseline's own runs
differ too is noise and is set aside; the others are regressions.

Scores, when both are results files: per metric the mean and pass rate before and after, the
cases that newly fail, newly error or newly pass, the scores that moved by more than
--tolerance, and the cases only one run has.

Exits 1 when any case regressed (newly failed, newly errored, a score dropped beyond the
tolerance, or, unless --divergences report, its calls parted from the baseline's where the
baseline's own runs do not), 0 otherwise.

${flagsHelp(compareFlags)}
`;

const runs = {
  noun: "run",
  kinds: "the .jsonl that eval wrote, or recordings",
  option: "results",
};

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
  const baseline = namedFile(baselineArgument, runs, io);
  const current = namedFile(currentArgument, runs, io);
  const tolerance = numberFlag("tolerance", values.tolerance, 0, 1) ?? 0;
  const { settings } = await settingsFor(diffSettings, values, io);
  const plan = diffPlanOf(settings);
  const scored = (await isResultsFile(baseline)) && (await isResultsFile(current));
  if (!scored && values.report !== undefined) {
    throw usageError(
      "--report needs two results files (the HTML report shows a run's scores); score the recordings with eval --baseline, or use --markdown or --json",
      "--report",
    );
  }
  const comparison = scored ? await compareResults(baseline, current, { tolerance }) : undefined;
  const trajectories = await compareTrajectories({
    baseline,
    current,
    diff: plan.diff,
    flakyRate: plan.flakyRate,
    cwd: io.cwd,
    onWarning: (message) => io.stderr.write(`toolscore: ${message}\n`),
  });
  if (values.json === true) {
    io.stdout.write(
      `${JSON.stringify({ ...(comparison === undefined ? {} : { scores: comparison }), trajectories }, null, 2)}\n`,
    );
  } else {
    const color = io.stdout.isTTY === true && io.env.NO_COLOR === undefined;
    if (comparison !== undefined) {
      io.stdout.write(`${formatComparison(comparison, { baseline: baselineArgument, color })}\n\n`);
    }
    io.stdout.write(`${formatDivergences(trajectories, { color })}\n`);
  }
  if (comparison === undefined) {
    await writeCallsMarkdown(trajectories, values.markdown, io);
  } else if (
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
      comparison: { comparison, baseline: baselineArgument, calls: trajectories },
    });
  }
  const regressions = (comparison?.regressions ?? 0) + callRegressions(trajectories, plan);
  return regressions > 0 ? ExitCode.FAILED : ExitCode.OK;
}

/**
 * The calls' comparison of two recordings as Markdown: to --markdown, and appended to the CI job
 * summary when $GITHUB_STEP_SUMMARY names one.
 */
async function writeCallsMarkdown(
  calls: TrajectoryComparison,
  markdown: string | undefined,
  io: CliIo,
): Promise<void> {
  const text = `${["## toolscore compare", "", ...divergenceMarkdown(calls, 20)].join("\n")}\n`;
  if (markdown !== undefined) {
    const file = path.resolve(io.cwd, markdown);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, { flag: writeFlags.truncate });
    io.stdout.write(`markdown: ${markdown}\n`);
  }
  const summary = io.env.GITHUB_STEP_SUMMARY ?? "";
  if (summary !== "") await appendFile(summary, text);
}

export const command: Command = { run: compareCommand, help: compareHelp, flags: compareFlags };
