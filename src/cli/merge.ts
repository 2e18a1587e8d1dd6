import path from "node:path";
import { ResultsFileError, ToolscoreError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import { mergeRecordings } from "../agent/merge-recordings.js";
import { readDatasetRecords } from "../node/dataset.js";
import { gateVerdict } from "../core/gate.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { mergeResults } from "../node/merge-results.js";
import { formatConsoleReport } from "../reporters/console.js";
import { printableLines } from "../reporters/printable.js";
import { gateFlags, gateFor } from "./config.js";
import { ExitCode, namedFile, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { reportTargets, writeReports } from "./reports.js";
import { datasetPath, summarizeResults } from "../reports/results-reports.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore merge`: what parseArgs reads, and what --help lists. */
export const mergeFlags = {
  out: { type: "string", short: "o", value: "<file>", help: "the merged results file (required)" },
  ...gateFlags,
  config: {
    type: "string",
    short: "c",
    value: "<file>",
    help: "the config whose fail_under applies (default: toolscore.config.json,\n.yaml or .yml in the current folder, as eval reads it)",
  },
  report: {
    type: "string",
    value: "<file.html>",
    help: "also render reports from the merged results",
  },
  junit: { type: "string", value: "<file.xml>" },
  markdown: { type: "string", value: "<file.md>" },
  dataset: {
    type: "string",
    value: "<file>",
    help: "join the recordings of an agent run's shards (eval --agent --shard i/n)\ninstead: the dataset they ran, whose order they take; score the result\nwith eval",
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const mergeHelp = `Usage: toolscore merge <shard results...> --out <merged.jsonl> [options]
       toolscore merge <shard recordings...> --dataset <dataset> --out <runs.jsonl>

Joins the results files of all n shards of one run (eval --shard i/n) into one, cases in
dataset order, and decides the run's gate as eval does: every case must pass, or the share
--fail-under (else the config's fail_under) names. With --dataset, joins the recordings of
the shards of an agent run (eval --agent --shard i/n) into one, which eval then scores.

${flagsHelp(mergeFlags)}

Exit codes: 0 the gate passed; 1 too few cases passed; 2 a usage error; 3 a shard missing or
unfinished, or a case that could not be scored.
`;

export async function mergeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, mergeFlags, mergeHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  const gateRule = await gateFor(values, io);
  if (values.out === undefined) throw usageError("merge needs --out <merged.jsonl>", "--out");
  if (positionals.length === 0) throw usageError("merge needs the shard results files", "files");
  const out = path.resolve(io.cwd, values.out);
  refuseLinkedOutput(out, { option: "--out", within: io.cwd });
  const results = { noun: "results", kinds: "the .jsonl that eval wrote", option: "files" };
  const inputs = positionals.map((file) => namedFile(file, results, io));
  if (inputs.includes(out)) throw usageError("--out must not be one of the files merged", "--out");
  const recordings = await holdsRecordings(inputs[0]);
  if (values.dataset !== undefined || recordings) {
    return mergeRecordingsCommand(values, inputs, out, recordings, io);
  }
  try {
    await mergeResults({ inputs, out });
  } catch (error) {
    // Shards that do not fit together are a failed run, not a bad command line.
    if (ToolscoreError.isInstance(error) && error.code === "RESULTS_FILE") {
      io.stderr.write(`toolscore merge: ${printableLines(error.message)}\n`);
      return ExitCode.RUNTIME;
    }
    throw error;
  }
  const { summary, metrics, dataset } = await summarizeResults(out);
  io.stdout.write(`${formatConsoleReport({ summary })}\nmerged: ${values.out}\n`);
  const gate = gateVerdict(summary, gateRule);
  await writeReports({
    out,
    summary,
    metrics,
    reports: reportTargets(values, io.cwd),
    io,
    dataset: datasetPath(dataset, out, io.cwd),
    source: dataset,
    gate,
  });
  io.stdout.write(`${gate.text}\n`);
  return gate.exitCode;
}

export const command: Command = { run: mergeCommand, help: mergeHelp, flags: mergeFlags };

/** Whether `file` holds recordings (a dataset's lines) rather than a run's results. */
async function holdsRecordings(file: string): Promise<boolean> {
  for await (const { value } of readDatasetRecords(file)) {
    return !(isJsonObject(value) && value.toolscore === "results");
  }
  return false;
}

/** `merge --dataset`: the shards' recordings of an agent run joined in the dataset's order. */
async function mergeRecordingsCommand(
  values: Readonly<Record<string, unknown>>,
  inputs: readonly string[],
  out: string,
  recordings: boolean,
  io: CliIo,
): Promise<number> {
  if (!recordings) {
    throw usageError(
      `${shownPath(inputs[0], io)} holds results: --dataset joins recordings (eval --agent --recordings); merge results without it`,
      "--dataset",
    );
  }
  if (typeof values.dataset !== "string") {
    throw usageError(
      `${shownPath(inputs[0], io)} holds recordings of an agent's runs: give --dataset, the dataset the shards ran`,
      "--dataset",
    );
  }
  for (const flag of ["fail-under", "report", "junit", "markdown"]) {
    if (values[flag] !== undefined) {
      throw usageError(
        `--${flag} goes with results: score the joined recordings with eval`,
        `--${flag}`,
      );
    }
  }
  const dataset = namedFile(
    values.dataset,
    { noun: "dataset", kinds: "a .jsonl, .json or .yaml file", option: "--dataset" },
    io,
  );
  try {
    const merged = await mergeRecordings({ dataset, inputs, out });
    io.stdout.write(
      `merged: ${merged.runs} runs of ${merged.cases} cases into ${shownPath(out, io)}; score them with toolscore eval ${shownPath(out, io)}\n`,
    );
    return ExitCode.OK;
  } catch (error) {
    if (ResultsFileError.isInstance(error)) {
      io.stderr.write(`toolscore merge: ${printableLines(error.message)}\n`);
      return ExitCode.RUNTIME;
    }
    throw error;
  }
}
