import { isDatasetHead, isResultsHead } from "../adapters/detect-format.js";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { traceIdsOf } from "../adapters/otlp.js";
import { DatasetParseError, InvalidInputError, InvalidOptionError } from "../core/errors.js";
import { userTurnsOf } from "../core/trajectory.js";
import type { Trajectory } from "../core/trajectory.js";
import { readDatasetRecords } from "./dataset.js";
import { readTranscriptFile } from "./transcript-file.js";
import { openRegularFile } from "./regular-file.js";

/** The file names a folder of recordings is searched for. */
const transcriptFiles = "**/*.{json,jsonl,ndjson}";

/** A path as ids and datasets write it: relative, with forward slashes. */
function portable(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}

/** The folder a glob searches from (the part before its first pattern), or the folder itself. */
function staticBase(
  absolute: string,
  input: string,
  isDynamicPattern: (pattern: string) => boolean,
): string {
  if (!isDynamicPattern(input)) return absolute;
  const parts = absolute.split(path.sep);
  const first = parts.findIndex((part) => isDynamicPattern(part));
  return parts.slice(0, first).join(path.sep) || path.sep;
}

/** Whether a link leads to a regular file inside `folder` (its real path, links resolved). */
async function fileWithin(link: string, folder: string): Promise<boolean> {
  if (!/\.(json|jsonl|ndjson)$/i.test(link)) return false;
  try {
    const [real, realFolder] = await Promise.all([realpath(link), realpath(folder)]);
    const relative = path.relative(realFolder, real);
    return !relative.startsWith("..") && !path.isAbsolute(relative) && (await stat(real)).isFile();
  } catch {
    return false;
  }
}

/**
 * The symbolic links under a folder that may be taken for recordings (a recording's name, or a
 * folder), found without following any; hidden folders and `node_modules` left out, as the search
 * leaves them.
 */
async function linksUnder(folder: string): Promise<string[]> {
  const links: string[] = [];
  const pending = [folder];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const entries = await readdir(next, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(next, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") pending.push(full);
      } else if (entry.isSymbolicLink()) {
        const folderLink = await stat(full).then(
          (info) => info.isDirectory(),
          () => false,
        );
        if (folderLink || /\.(json|jsonl|ndjson)$/i.test(entry.name)) links.push(full);
      }
    }
  }
  return links.sort();
}

/**
 * The transcript files that folders, globs and file names name: every `.json`, `.jsonl` and
 * `.ndjson` file under a folder (hidden ones and `node_modules` aside), what a glob matches, a file as named.  Sorted
 * by path, each once, the `exclude`d files (absolute paths) left out. A name that is none of these,
 * or a glob that matches nothing, is an `InvalidOptionError`.
 */
export async function findTranscripts(options: {
  inputs: readonly string[];
  cwd: string;
  exclude?: readonly string[];
  /**
   * Told of each symbolic link met under a folder or a glob's folder that is not followed: a link
   * in a checkout may lead anywhere, so only a link to a file in the folder searched is a
   * recording (a glob follows none, nor does any search follow a link to a folder).
   */
  onLink?: (link: string) => void;
}): Promise<string[]> {
  // Loaded here, not with this module: only a search of folders and globs needs it.
  const { escapePath, glob, isDynamicPattern } = await import("tinyglobby");
  const found = new Set<string>();
  const exclude = new Set((options.exclude ?? []).map((file) => path.resolve(options.cwd, file)));
  for (const input of options.inputs) {
    const absolute = path.resolve(options.cwd, input);
    let pattern: string | undefined;
    // A name that exists is taken as it is (`runs (1)/`, `a[1].json`); a glob otherwise.
    const info = await stat(absolute).catch(() => undefined);
    const globbed = info === undefined && isDynamicPattern(input);
    if (globbed) pattern = input;
    else if (info === undefined) {
      throw new InvalidOptionError({
        option: "recordings",
        value: input,
        message: `${input}: no such file or folder`,
      });
    } else if (info.isDirectory()) pattern = `${escapePath(input)}/${transcriptFiles}`;
    else found.add(absolute);
    if (pattern === undefined) continue;
    const matches = await glob(pattern, {
      cwd: options.cwd,
      absolute: true,
      onlyFiles: true,
      // Links are not followed (nor listed): they are told apart below.
      followSymbolicLinks: false,
      // A folder's packages are not its recordings.
      ignore: globbed ? [] : ["**/node_modules/**"],
    });
    // A link is a recording when a folder holds it and it leads to a file in that folder; any
    // other is told of, and never read.
    const base = globbed ? staticBase(absolute, input, isDynamicPattern) : absolute;
    for (const link of await linksUnder(base)) {
      if (!globbed && (await fileWithin(link, base))) matches.push(link);
      else options.onLink?.(link);
    }
    const kept = matches.map((file) => path.resolve(file)).filter((file) => !exclude.has(file));
    if (kept.length === 0) {
      throw new InvalidOptionError({
        option: "recordings",
        value: input,
        message: `${input} holds no transcript (.json, .jsonl or .ndjson file)`,
      });
    }
    for (const file of kept) found.add(file);
  }
  for (const file of exclude) found.delete(file);
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export interface RecordingsDatasetOptions {
  /** Folders, globs or transcript files. */
  readonly inputs: readonly string[];
  /**
   * Where relative names start, and case ids without `expected` (with it, ids are paths from
   * the expected file's folder). Default: the process's working folder.
   */
  readonly cwd?: string;
  /** The dataset file the lines are for: `trajectoryFile` is relative to its folder. */
  readonly dataset: string;
  /** A dataset of expected cases, merged into the recordings' cases by id. */
  readonly expected?: string;
  /** Files never taken for transcripts (the dataset itself, results files), besides `expected`. */
  readonly exclude?: readonly string[];
  /**
   * Write each recording's conversation as `turns`, the calls of each user turn as its expected
   * calls (for a person to review), unless its expected case says what to expect.
   */
  readonly turns?: boolean;
}

/** A dataset built from recordings: its lines, and what a user should hear about. */
export interface RecordingsDataset {
  /** JSONL lines, without their newlines. */
  readonly lines: readonly string[];
  /** Transcript files read. */
  readonly transcripts: number;
  /** Cases that got an expected case. */
  readonly withExpected: number;
  /** Cases written with turns from their recordings (`turns`). */
  readonly withTurns: number;
  /** Transcripts that could not be read: their cases are written all the same, and will be errors. */
  readonly unreadable: readonly string[];
  /** Recordings without an expected case, and expected cases no recording has (by id). */
  readonly withoutExpected: readonly string[];
  readonly unmatchedExpected: readonly string[];
  /** Expected ids given more than once (the first is used). */
  readonly repeatedExpected: readonly string[];
  /** Symbolic links met in the folders searched, not followed (nor read). */
  readonly links: readonly string[];
  /** Files in the folders searched that are toolscore's results or datasets, left out. */
  readonly ownFiles: readonly string[];
}

/** Fields of an expected case that say what the agent did: the recordings say that. */
const runFields = new Set([
  "trajectory",
  "agentTrajectory",
  "agent_trajectory",
  "trajectoryFile",
  "trajectory_file",
  "toolsCalled",
  "tools_called",
  "traceId",
  "trace_id",
]);

interface ExpectedCase {
  readonly record: Record<string, unknown>;
  matched: boolean;
}

/** The expected cases by id, from a dataset file of any format. */
async function readExpected(
  file: string,
  name: string,
): Promise<{ byId: Map<string, ExpectedCase>; repeated: string[] }> {
  const byId = new Map<string, ExpectedCase>();
  const repeated: string[] = [];
  for await (const { value, place } of readDatasetRecords(file)) {
    const where = `${name} ${place.line === undefined ? `item ${place.index}` : `line ${place.line}`}`;
    if (DatasetParseError.isInstance(value)) {
      throw new InvalidInputError({ field: "expected", message: `${name}: ${value.message}` });
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new InvalidInputError({
        field: "expected",
        message: `${where}: an expected case must be a JSON object`,
      });
    }
    const record = value as Record<string, unknown>;
    const id = record.id;
    if (typeof id !== "string" || id === "") {
      throw new InvalidInputError({
        field: "expected",
        message: `${where}: an expected case needs the id of its recording (its path, like runs/a.json)`,
      });
    }
    const clash = Object.keys(record).find((key) => runFields.has(key));
    if (clash !== undefined) {
      throw new InvalidInputError({
        field: "expected",
        message: `${where} (${id}) gives ${clash}: expected cases say what should happen, the recordings what did; leave ${clash} out`,
      });
    }
    if (byId.has(id)) repeated.push(id);
    else byId.set(id, { record, matched: false });
  }
  return { byId, repeated };
}

/** The expected case of a recording: the one with its id, else the one of its nearest folder. */
function expectedFor(id: string, byId: Map<string, ExpectedCase>): ExpectedCase | undefined {
  const own = byId.get(id);
  if (own !== undefined) return own;
  const file = id.split("#")[0];
  for (let cut = file.lastIndexOf("/"); cut > 0; cut = file.lastIndexOf("/", cut - 1)) {
    const folder = byId.get(file.slice(0, cut)) ?? byId.get(`${file.slice(0, cut)}/`);
    if (folder !== undefined) return folder;
  }
  return undefined;
}

/** The first 4 KiB of a file, as text; undefined when it cannot be read. */
export async function fileHead(file: string): Promise<string | undefined> {
  try {
    const { handle } = await openRegularFile(file);
    try {
      const buffer = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Whether a file is a results file (its first bytes are a results header). */
export async function isResultsFile(file: string): Promise<boolean> {
  const head = await fileHead(file);
  return head !== undefined && isResultsHead(head);
}

/** Whether a file is toolscore's results or a dataset (a transcript that cannot be read is not). */
async function isOwnFile(file: string): Promise<boolean> {
  const head = await fileHead(file);
  return head !== undefined && isDatasetHead(head);
}

/** One run of a transcript: its trace, when the file holds several, and what was read of it. */
interface RecordedRun {
  readonly traceId: string | undefined;
  readonly trajectory: Trajectory | undefined;
}

/** The runs one transcript holds: one, or one per trace of an export of spans. */
async function runsOf(file: string): Promise<{ runs: RecordedRun[]; error?: string }> {
  try {
    const value = await readTranscriptFile(file);
    const trajectory = parseTrajectory(value);
    const traces = ["otel", "openinference", "openai-agents", "mastra"].includes(trajectory.format)
      ? traceIdsOf(value)
      : [];
    if (traces.length <= 1) return { runs: [{ traceId: undefined, trajectory }] };
    return {
      runs: traces.map((traceId) => ({
        traceId,
        trajectory: parseTrajectory(value, { traceId }),
      })),
    };
  } catch (error) {
    return {
      runs: [{ traceId: undefined, trajectory: undefined }],
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Fields of an expected case that say what to expect of the calls: turns are not made then. */
const expectsCalls = [
  "turns",
  "expectedTools",
  "expected_tools",
  "expectedTrajectory",
  "expected_trajectory",
  "expectedAgentTrajectory",
  "expected_agent_trajectory",
];

/**
 * A recording's conversation as a case's turns: each user turn's message and its calls (name
 * and arguments; what they returned is no expectation) as the turn's expected calls.
 */
function turnsOfRecording(trajectory: Trajectory): Record<string, unknown>[] {
  return userTurnsOf(trajectory.turns).map((turn) => ({
    ...(turn.input === undefined ? {} : { input: turn.input }),
    expected_tools: turn.calls.map((index) => ({
      name: trajectory.calls[index].name,
      arguments: trajectory.calls[index].inputParameters,
    })),
  }));
}

/**
 * A dataset from recorded runs: one case per transcript file (one per trace of an export of
 * spans holding several), its id the file's path from `cwd` (`runs/a.json`, or
 * `runs/export.json#<trace id>`), its transcript named by `trajectoryFile` (and `traceId`), never
 * copied. With `expected`, each case takes the fields of the expected case with its id, or of the
 * expected case whose id is the nearest folder holding it (one expected case for repeated runs).
 * Transcripts are read once to find their runs; one that cannot be read still makes a case (so a
 * run reports it) and is listed in `unreadable`.
 */
export async function buildRecordingsDataset(
  options: RecordingsDatasetOptions,
): Promise<RecordingsDataset> {
  const cwd = options.cwd ?? process.cwd();
  const dataset = path.resolve(cwd, options.dataset);
  const folder = path.dirname(dataset);
  const expectedFile =
    options.expected === undefined ? undefined : path.resolve(cwd, options.expected);
  const links: string[] = [];
  const files = await findTranscripts({
    inputs: options.inputs,
    cwd,
    onLink: (link) => links.push(portable(cwd, link)),
    exclude: [
      dataset,
      ...(expectedFile === undefined ? [] : [expectedFile]),
      ...(options.exclude ?? []),
    ],
  });
  const expected =
    expectedFile === undefined
      ? undefined
      : await readExpected(expectedFile, options.expected ?? expectedFile);
  // Ids as the expected file writes them: paths from its folder (else from the current one).
  const idBase = expectedFile === undefined ? cwd : path.dirname(expectedFile);
  const lines: string[] = [];
  const unreadable: string[] = [];
  const withoutExpected: string[] = [];
  const ownFiles: string[] = [];
  let withExpected = 0;
  let withTurns = 0;
  for (const file of files) {
    if (await isOwnFile(file)) {
      ownFiles.push(portable(cwd, file));
      continue;
    }
    const trajectoryFile = portable(folder, file);
    if (trajectoryFile.startsWith("../") || path.isAbsolute(trajectoryFile)) {
      throw new InvalidOptionError({
        option: "recordings",
        value: file,
        message: `${portable(cwd, file)} is outside ${portable(cwd, folder) || "."}, the folder of the dataset ${portable(cwd, dataset)}: a dataset names transcripts in its own folder; write it in a folder that holds the recordings`,
      });
    }
    const { runs, error } = await runsOf(file);
    if (error !== undefined) unreadable.push(`${portable(cwd, file)}: ${error}`);
    for (const { traceId, trajectory } of runs) {
      const id =
        traceId === undefined ? portable(idBase, file) : `${portable(idBase, file)}#${traceId}`;
      const line: Record<string, unknown> = { id, trajectoryFile };
      if (traceId !== undefined) line.traceId = traceId;
      const match = expected === undefined ? undefined : expectedFor(id, expected.byId);
      if (match !== undefined) {
        match.matched = true;
        withExpected++;
        for (const [key, value] of Object.entries(match.record))
          if (key !== "id") line[key] = value;
      } else if (expected !== undefined) withoutExpected.push(id);
      if (
        options.turns === true &&
        trajectory !== undefined &&
        !expectsCalls.some((key) => Object.hasOwn(line, key))
      ) {
        line.turns = turnsOfRecording(trajectory);
        withTurns++;
      }
      lines.push(JSON.stringify(line));
    }
  }
  const unmatchedExpected =
    expected === undefined
      ? []
      : [...expected.byId].flatMap(([id, { matched }]) => (matched ? [] : [id]));
  return {
    lines,
    transcripts: files.length - ownFiles.length,
    ownFiles,
    withExpected,
    withTurns,
    unreadable,
    withoutExpected,
    unmatchedExpected,
    repeatedExpected: expected?.repeated ?? [],
    links,
  };
}
