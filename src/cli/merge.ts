import path from "node:path";
import { ToolscoreError } from "../core/errors.js";
import { gateVerdict } from "../core/gate.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { mergeResults } from "../node/merge-results.js";
import { formatConsoleReport } from "../reporters/console.js";
import { printableLines } from "../reporters/printable.js";
import { gateFlags, gateFor } from "./config.js";
import { ExitCode, namedFile, usageError } from "./io.js";
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
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const mergeHelp = `Usage: toolscore merge <shard results...> --out <merged.jsonl> [options]

Joins the results files of all n shards of one run (eval --shard i/n) into one, cases in
dataset order, and decides the run's gate as eval does: every case must pass, or the share
--fail-under (else the config's fail_under) names.

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
