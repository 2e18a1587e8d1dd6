/**
 * The agent run over a dataset: every case that holds an input and no recorded run is run (`repeat`
 * times), and each run is appended to a recordings file as the case with its transcript, so that
 * scoring, a later `eval` without an agent, `view` and `compare` read it as any recording. Cases
 * that hold a run already are copied as they are. A run killed midway is resumed from the file:
 * what it holds is neither lost nor run again.
 */
import { open, stat, truncate } from "node:fs/promises";
import { DatasetParseError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { Content } from "../core/test-case.js";
import { readDatasetCase } from "../adapters/dataset-case.js";
import { readDatasetRecords } from "../node/dataset.js";
import { runAgentOnce } from "./agent.js";
import type { Agent, AgentOutcome } from "./agent.js";

export interface RecordAgentRunsOptions {
  /** The dataset: JSONL, JSON or YAML. */
  readonly dataset: string;
  /** The recordings file (JSONL) the runs are appended to. */
  readonly recordings: string;
  readonly agent: Agent;
  /** Runs of each case. */
  readonly repeat: number;
  /** Runs at once. */
  readonly concurrency: number;
  /** Each run's deadline. */
  readonly timeoutMs: number;
  /** Keep the runs the recordings file holds and run only the rest; else it is started anew. */
  readonly resume: boolean;
  readonly signal?: AbortSignal | undefined;
  /** Told of each run as it ends. */
  readonly onRun?: (run: FinishedRun) => void;
  /** Told how far the dataset has been read, in bytes. */
  readonly onProgress?: (bytes: number) => void;
}

export interface FinishedRun {
  readonly caseId: string;
  readonly attempt: number;
  readonly outcome: AgentOutcome;
}

/** What recording the runs came to. */
export interface RecordedRuns {
  /** Runs made now, and how many of them failed. */
  readonly ran: number;
  readonly failed: number;
  /** Runs the recordings file held already (`resume`). */
  readonly kept: number;
  /** Cases copied as they were: they held a run, or no input to run the agent on. */
  readonly copied: number;
  /** The agent's own time over the runs made, in milliseconds. */
  readonly agentMs: number;
}

/** A line's key in the recordings file: its case and which run of it. */
const keyOf = (id: string, run: number) => `${id}\u0000${run}`;

/** Runs the agent over the dataset's cases into the recordings file (see the file's head). */
export async function recordAgentRuns(options: RecordAgentRunsOptions): Promise<RecordedRuns> {
  const recorded = options.resume ? await recordedKeys(options.recordings) : new Set<string>();
  const kept = recorded.size;
  const file = await open(options.recordings, options.resume ? "a" : "w");
  let writing: Promise<unknown> = Promise.resolve();
  // One line a write, in turn: runs that end together never interleave their lines.
  const write = (line: JsonObject): Promise<unknown> =>
    (writing = writing.then(() => file.appendFile(`${JSON.stringify(line)}\n`)));
  let ran = 0;
  let failed = 0;
  let copied = 0;
  let agentMs = 0;
  const running = new Set<Promise<unknown>>();
  const schedule = async (task: () => Promise<unknown>): Promise<void> => {
    while (running.size >= options.concurrency) await Promise.race(running);
    const started = task().finally(() => running.delete(started));
    // Seen by the next race or the last wait; a failure between them is not an unhandled one.
    started.catch(() => undefined);
    running.add(started);
  };
  try {
    const reading = readDatasetRecords(
      options.dataset,
      options.onProgress === undefined ? {} : { onProgress: options.onProgress },
    );
    for await (const { value, place } of reading) {
      if (options.signal?.aborted === true) break;
      const raw = isJsonObject(value) && !DatasetParseError.isInstance(value) ? value : undefined;
      const read = readCase(value, place.index);
      if (DatasetParseError.isInstance(read) || raw === undefined) {
        // Carried to the scoring, which shows it as the case's error, as it would the line's.
        const error = DatasetParseError.isInstance(read) ? read : undefined;
        const own = raw?.id;
        const id =
          error?.caseId ??
          (typeof own === "string" && own !== "" ? own : `case-${place.index + 1}`);
        // Under an id of its own, so that a resumed run knows it is written.
        if (!recorded.has(keyOf(id, 0))) await write({ id, runError: parseError(error) });
        copied++;
        continue;
      }
      const { id, hasRun, input } = read;
      if (hasRun || input === undefined) {
        if (!recorded.has(keyOf(id, typeof raw.run === "number" ? raw.run : 0))) {
          await write({ ...raw, id });
        }
        copied++;
        continue;
      }
      for (let attempt = 0; attempt < options.repeat; attempt++) {
        if (recorded.has(keyOf(id, attempt))) continue;
        await schedule(async () => {
          const outcome = await runAgentOnce(
            options.agent,
            { caseId: id, input, attempt },
            { timeoutMs: options.timeoutMs, signal: options.signal },
          );
          if (options.signal?.aborted === true) return;
          ran++;
          agentMs += outcome.durationMs;
          if (outcome.status === "failed") failed++;
          await write(recordingOf(raw, id, attempt, options, outcome));
          options.onRun?.({ caseId: id, attempt, outcome });
        });
      }
    }
    await Promise.all(running);
    await writing;
  } finally {
    await Promise.allSettled(running);
    await writing.catch(() => undefined);
    await file.close();
  }
  return { ran, failed, kept, copied, agentMs: Math.round(agentMs) };
}

/** What the scoring needs to know of a case: its id, whether it holds a run, what to ask. */
function readCase(
  value: unknown,
  index: number,
):
  | DatasetParseError
  | { readonly id: string; readonly hasRun: boolean; readonly input: Content | undefined } {
  if (DatasetParseError.isInstance(value)) return value;
  try {
    const read = readDatasetCase(value, { index });
    const hasRun =
      read.toolsCalled !== undefined ||
      read.trajectory !== undefined ||
      read.turns?.some((turn) => turn.toolsCalled !== undefined) === true;
    // A conversation is run turn by turn by a later version: its case is not run here.
    return { id: read.id, hasRun: hasRun || read.turns !== undefined, input: read.input };
  } catch (error) {
    if (DatasetParseError.isInstance(error)) return error;
    throw error;
  }
}

function parseError(error: DatasetParseError | undefined): JsonObject {
  return { code: "DATASET_PARSE", message: error?.message ?? "not a test case" };
}

/** A run as the recordings file holds it: the case, with its transcript or the agent's error. */
function recordingOf(
  raw: JsonObject,
  id: string,
  attempt: number,
  options: Pick<RecordAgentRunsOptions, "agent" | "repeat">,
  outcome: AgentOutcome,
): JsonObject {
  const run: JsonObject = { agent: options.agent.name, durationMs: outcome.durationMs };
  if (outcome.status === "answered" && outcome.log.length > 0) run.log = [...outcome.log];
  const metadata = Object.hasOwn(raw, "metadata") ? raw.metadata : {};
  const line: JsonObject = {
    ...raw,
    id,
    ...(options.repeat > 1 ? { run: attempt } : {}),
    metadata: isJsonObject(metadata) ? { ...metadata, agentRun: run } : metadata,
  };
  if (outcome.status === "answered") line.trajectory = outcome.transcript as JsonObject;
  else line.runError = { code: "AGENT_RUN", message: outcome.message };
  return line;
}

/**
 * The runs a recordings file holds, by case and run; a last line cut short (a kill mid-write) is
 * taken off first, so that appending goes on from a whole line.
 */
async function recordedKeys(file: string): Promise<Set<string>> {
  const keys = new Set<string>();
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return keys;
  }
  await cutToLastLine(file, size);
  for await (const { value, place } of readDatasetRecords(file)) {
    if (!isJsonObject(value)) continue;
    const id = typeof value.id === "string" ? value.id : `case-${place.index + 1}`;
    keys.add(keyOf(id, typeof value.run === "number" ? value.run : 0));
  }
  return keys;
}

async function cutToLastLine(file: string, size: number): Promise<void> {
  if (size === 0) return;
  const handle = await open(file, "r");
  try {
    const tail = Buffer.alloc(Math.min(size, 1 << 20));
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (tail.at(-1) === 10) return;
    const newline = tail.lastIndexOf(10);
    // A line longer than the tail read is kept whole; its reading says what is wrong with it.
    if (newline === -1 && tail.length < size) return;
    await truncate(file, size - tail.length + newline + 1);
  } finally {
    await handle.close();
  }
}
