import { isDatasetHead } from "../adapters/detect-format.js";
import { writeFile } from "node:fs/promises";
import { readRegularFile } from "../node/regular-file.js";
import path from "node:path";
import { existsSync, statSync } from "node:fs";
import { scanResults } from "../node/results-file.js";
import { refuseLinkedOutput, writeFlags } from "../node/output-path.js";
import { buildRecordingsDataset, fileHead } from "../node/recordings.js";
import { plural } from "../core/words.js";
import type { RecordingsDataset } from "../node/recordings.js";
import { printable } from "../reporters/printable.js";
import { ExitCode, namedFile, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore dataset`: what parseArgs reads, and what --help lists. */
export const datasetFlags = {
  expected: {
    type: "string",
    short: "e",
    value: "<file>",
    help: "expected cases (.jsonl, .json, .yaml) merged in by id: the case with a\nrecording's id, else the case whose id is the nearest folder holding it\n(one expected case for the repeated runs in a folder)",
  },
  out: {
    type: "string",
    short: "o",
    value: "<file>",
    help: "the dataset to write (default toolscore-dataset.jsonl), in a folder\nthat holds the recordings",
  },
  turns: {
    type: "boolean",
    help: "write each recording's conversation as turns, the calls of each user\nturn as its expected calls (what the agent did: review them), unless\nits expected case says what to expect",
  },
  overwrite: { type: "boolean", help: "replace the --out file when it exists" },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const datasetHelp = `Usage: toolscore dataset <folder|glob|transcript...> [options]

Writes a JSONL dataset from recorded runs: one case per transcript (.json, .jsonl, .ndjson; one
per trace of an OpenTelemetry or OpenInference export that holds several). A case's id is its
file's path (runs/a.json, or runs/export.json#<trace id>); its transcript is named by
trajectoryFile (and traceId), never copied. Quote a glob ('runs/**/*.json') so that the shell
leaves it alone.

${flagsHelp(datasetFlags, 25)}

Exit codes: 0 written; 2 usage error, nothing written; 3 written, but some transcript cannot be
read (its case is in the dataset, and eval reports it as an error).
`;

/** Names listed in a warning at most; the rest are counted. */
const maxListed = 10;

function listed(items: readonly string[]): string {
  const shown = items.slice(0, maxListed).join(", ");
  return items.length > maxListed ? `${shown} and ${items.length - maxListed} more` : shown;
}

/** What a user should hear about a dataset built from recordings, one warning a line. */
export function recordingsWarnings(built: RecordingsDataset): string[] {
  const warnings: string[] = [];
  if (built.withoutExpected.length > 0) {
    warnings.push(
      `${plural(built.withoutExpected.length, "case")} without an expected case: ${listed(built.withoutExpected)}`,
    );
  }
  if (built.unmatchedExpected.length > 0) {
    warnings.push(
      `${plural(built.unmatchedExpected.length, "expected case")} that no recording has: ${listed(built.unmatchedExpected)}`,
    );
  }
  if (built.links.length > 0) {
    warnings.push(
      `${plural(built.links.length, "symbolic link")} not followed (a link is a recording only when it leads to a file in the folder searched): ${listed(built.links)}`,
    );
  }
  if (built.ownFiles.length > 0) {
    warnings.push(
      `${plural(built.ownFiles.length, "file")} left out, toolscore's results or datasets, not transcripts: ${listed(built.ownFiles)}`,
    );
  }
  if (built.repeatedExpected.length > 0) {
    warnings.push(
      `expected ids given more than once (the first is used): ${listed(built.repeatedExpected)}`,
    );
  }
  return warnings;
}

/**
 * Whether a command line names recordings (a folder, a glob, several files), not a dataset. A
 * name that exists is taken as it is, whatever it holds: `runs (1).jsonl` is a file, not a glob.
 */
export async function namesRecordings(
  inputs: readonly string[],
  io: Pick<CliIo, "cwd">,
  withExpected = false,
): Promise<boolean> {
  if (inputs.length !== 1) return inputs.length > 1;
  const [input] = inputs;
  const file = path.resolve(io.cwd, input);
  const info = statSync(file, { throwIfNoEntry: false });
  if (info === undefined) return (await import("tinyglobby")).isDynamicPattern(input);
  if (info.isDirectory()) return true;
  // One file with expected cases beside it is a recording, unless it is a dataset itself.
  if (!withExpected || !info.isFile()) return false;
  const head = await fileHead(file);
  return head !== undefined && !isDatasetHead(head);
}

/**
 * The dataset `eval` builds from recordings, written beside its results file
 * (`<results>.dataset.jsonl`) so that reports, `--resume` and `merge` read the cases again. It
 * is never rewritten under an unfinished run's results (without `--overwrite`): their records
 * point into it.
 */
export async function datasetFromRecordings(
  options: {
    inputs: readonly string[];
    expected: string | undefined;
    out: string;
    resume: boolean;
    overwrite: boolean;
    exclude: readonly string[];
  },
  io: CliIo,
): Promise<string> {
  const file = `${options.out.replace(/\.(jsonl|ndjson)$/i, "")}.dataset.jsonl`;
  const built = await buildRecordingsDataset({
    inputs: options.inputs,
    cwd: io.cwd,
    dataset: file,
    exclude: [options.out, ...options.exclude],
    ...(options.expected === undefined
      ? {}
      : { expected: given(options.expected, expectedFile, io) }),
  });
  if (built.transcripts === 0 && built.ownFiles.length > 0) {
    throw usageError(
      `${options.inputs.join(" ")} holds no transcript, only toolscore's results or datasets (${listed(built.ownFiles)}); to score a dataset, give the dataset file in it`,
      "dataset",
    );
  }
  if (built.unreadable.length === built.transcripts) {
    // Nothing to score: most likely a folder holding a dataset file, not recordings.
    const folder =
      options.inputs.length === 1 &&
      statSync(path.resolve(io.cwd, options.inputs[0]), {
        throwIfNoEntry: false,
      })?.isDirectory() === true;
    throw usageError(
      `${folder ? `${options.inputs[0]} is a directory, and` : `${options.inputs.join(" ")}:`} ${built.transcripts === 1 ? "its one file is not" : `none of its ${built.transcripts} files is`} a transcript that can be read (${built.unreadable[0]}); to score a dataset, give the dataset file in it (.jsonl, .json, .yaml or .yml)`,
      "dataset",
    );
  }
  const text = `${built.lines.join("\n")}\n`;
  // What a run generated here before (a regular file no larger than what it would write).
  const before = await readRegularFile(file, { noFollow: true, maxBytes: Buffer.byteLength(text) })
    .then((bytes) => bytes.toString("utf8"))
    .catch(() => undefined);
  if (before !== text) {
    // The unfinished run's records point into the dataset it ran on: keep that one.
    if (
      before !== undefined &&
      !options.overwrite &&
      (options.resume || (await unfinished(options.out)))
    ) {
      throw usageError(
        `${shownPath(options.out, io)} holds a run on other recordings (${shownPath(file, io)} would change): give the recordings of that run to --resume it, or --overwrite to start over`,
        options.resume ? "--resume" : "--out",
      );
    }
    refuseLinkedOutput(file, { option: "--out", within: io.cwd });
    await writeFile(file, text, { flag: writeFlags.truncate });
  }
  io.stderr.write(
    `dataset from ${plural(built.transcripts, "recording")}: ${plural(built.lines.length, "case")} in ${shownPath(file, io)}\n`,
  );
  for (const warning of recordingsWarnings(built)) {
    io.stderr.write(`warning: ${printable(warning)}\n`);
  }
  return file;
}

/** Whether a results file holds a run that has not ended (or cannot be read as one). */
async function unfinished(results: string): Promise<boolean> {
  if (!existsSync(results)) return false;
  try {
    return (await scanResults(results)).end === undefined;
  } catch {
    return true;
  }
}

/** A file named on the command line, checked, as the user wrote it (for messages). */
function given(name: string, what: Parameters<typeof namedFile>[1], io: CliIo): string {
  namedFile(name, what, io);
  return name;
}

const expectedFile = {
  noun: "expected cases",
  kinds: ".jsonl, .json, .yaml or .yml",
  option: "--expected",
};

/** Runs `toolscore dataset`; resolves to the exit code. */
export async function datasetCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, datasetFlags, datasetHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length === 0) {
    throw usageError(
      "dataset needs recordings: a folder, a glob or transcript files (see toolscore dataset --help)",
    );
  }
  const out = path.resolve(io.cwd, values.out ?? "toolscore-dataset.jsonl");
  refuseLinkedOutput(out, { option: "--out", within: io.cwd });
  const built = await buildRecordingsDataset({
    inputs: positionals,
    cwd: io.cwd,
    dataset: out,
    ...(values.expected === undefined
      ? {}
      : { expected: given(values.expected, expectedFile, io) }),
    ...(values.turns === true ? { turns: true } : {}),
  });
  try {
    await writeFile(out, `${built.lines.join("\n")}\n`, {
      flag: values.overwrite === true ? writeFlags.truncate : "wx",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw usageError(
        `${shownPath(out, io)} exists; give another --out, or --overwrite to replace it`,
        "--out",
      );
    }
    throw error;
  }
  const expected =
    values.expected === undefined ? "" : `; ${built.withExpected} with an expected case`;
  const turns =
    values.turns === true
      ? `; ${built.withTurns} with turns whose expected calls are the calls recorded: review them`
      : "";
  io.stdout.write(
    `wrote ${plural(built.lines.length, "case")} from ${plural(built.transcripts, "recording")} to ${shownPath(out, io)}${expected}${turns}\n`,
  );
  for (const warning of recordingsWarnings(built)) {
    io.stderr.write(`warning: ${printable(warning)}\n`);
  }
  for (const problem of built.unreadable.slice(0, maxListed)) {
    io.stderr.write(`error: ${printable(problem)}\n`);
  }
  if (built.unreadable.length > maxListed) {
    io.stderr.write(`error: and ${built.unreadable.length - maxListed} more that cannot be read\n`);
  }
  return built.unreadable.length > 0 ? ExitCode.RUNTIME : ExitCode.OK;
}

export const command: Command = { run: datasetCommand, help: datasetHelp, flags: datasetFlags };
