/**
 * The agent run over a dataset: every case that holds an input and no recorded run is run (`repeat`
 * times), and each run is appended to a recordings file as the case with its transcript, so that
 * scoring, a later `eval` without an agent, `view` and `compare` read it as any recording. Cases
 * that hold a run already are copied as they are. A run killed midway is resumed from the file:
 * what it holds is neither lost nor run again.
 */
import { randomUUID } from "node:crypto";
import { open, rename, stat, truncate } from "node:fs/promises";
import { DatasetParseError, InvalidInputError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { JudgeModel } from "../core/judge.js";
import type { Content } from "../core/test-case.js";
import { readDatasetCase } from "../adapters/dataset-case.js";
import { readSimulatedUser } from "../simulate/simulated-user.js";
import type { SimulatedUser } from "../simulate/simulated-user.js";
import { readDatasetRecords, withNamedFiles } from "../node/dataset.js";
import { runAgentOnce, sumDetails } from "./agent.js";
import type { Agent, AgentRunDetails, AgentTurn } from "./agent.js";
import { startHttpToolServer } from "./mcp-tools.js";
import type { HttpToolServer } from "./mcp-tools.js";
import { toolboxOfRun } from "./simulation.js";
import { SchemaValidator } from "../matchers/schema-validation.js";
import type { CaseTools, ToolSimulation } from "./simulation.js";
import type { Toolbox } from "./toolbox.js";
import { createUserSpeaker, scriptedSpeaker, spokenTurns } from "./simulated-user.js";
import type { Speaker, UserRunLog } from "./simulated-user.js";

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
  /**
   * One of `count` shards of the dataset (`--shard`): only the cases whose position mod `count`
   * is `index` are run or copied; `mergeRecordings` joins the shards' recordings.
   */
  readonly shard?: { readonly index: number; readonly count: number } | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The agent's version as the run knows it (its git commit), kept with each run. */
  readonly commit?: string | undefined;
  /**
   * With `resume`: the runs the agent failed, or its simulated user spoiled (their `runError` is
   * `AGENT_RUN` or `USER_SIMULATOR`), are taken out of the recordings file and run again;
   * everything else it holds is kept.
   */
  readonly retryFailed?: boolean;
  /**
   * The run's simulated tools (`--tools`, `--tool-outputs`, `--seed`); a case's own
   * `toolOutputs` simulate its tools without them.
   */
  readonly simulation?: ToolSimulation | undefined;
  /**
   * The model that plays the cases' simulated users (`--user-model`), made when a case first
   * needs it, and the seed of its questions (the same seed replays them from a judge cache).
   */
  readonly user?: { readonly model: () => JudgeModel; readonly seed: number } | undefined;
  /** Count the runs that would be made, and make none: the recordings file is not touched. */
  readonly dryRun?: boolean;
  /** Told of each run as it starts, and as it ends. */
  readonly onStart?: (run: StartedRun) => void;
  readonly onRun?: (run: FinishedRun) => void;
  /** Told how far the dataset has been read, in bytes. */
  readonly onProgress?: (bytes: number) => void;
}

/** A run of a case: which case, which run of it. */
export interface StartedRun {
  readonly caseId: string;
  readonly attempt: number;
}

export interface FinishedRun extends StartedRun {
  /** Whether the agent answered every turn, failed, or its simulated user spoiled the run. */
  readonly status: "answered" | "failed" | "spoiled";
  /** The agent's own time on the run. */
  readonly durationMs: number;
}

/** What recording the runs came to. */
export interface RecordedRuns {
  /** Runs made now (that would be made, in a dry run), and how many of them failed. */
  readonly ran: number;
  readonly failed: number;
  /** Runs the recordings file held already (`resume`). */
  readonly kept: number;
  /** Cases copied as they were: they held a run, or no input to run the agent on. */
  readonly copied: number;
  /** The agent's own time over the runs made, in milliseconds. */
  readonly agentMs: number;
  /** Calls of simulated tools that no entry answered (each recorded as `unanswered`). */
  readonly unanswered: number;
  /** Runs their simulated user spoiled (recorded with a `USER_SIMULATOR` run error). */
  readonly spoiled: number;
}

/** A line's key in the recordings file: its case and which run of it. */
const keyOf = (id: string, run: number) => `${id}\u0000${run}`;

/** Runs the agent over the dataset's cases into the recordings file (see the file's head). */
export async function recordAgentRuns(options: RecordAgentRunsOptions): Promise<RecordedRuns> {
  // Runs are recorded, resumed and merged by case id: two cases of one id would take each other's.
  await refuseSharedIds(options.dataset);
  const dryRun = options.dryRun === true;
  const recorded = options.resume
    ? await recordedKeys(options.recordings, {
        cut: !dryRun,
        dropFailed: options.retryFailed === true,
      })
    : new Set<string>();
  const kept = recorded.size;
  const file = dryRun ? undefined : await open(options.recordings, options.resume ? "a" : "w");
  let writing: Promise<unknown> = Promise.resolve();
  // One line a write, in turn: runs that end together never interleave their lines.
  const write = (line: JsonObject): Promise<unknown> =>
    (writing = writing.then(() => file?.appendFile(`${JSON.stringify(line)}\n`)));
  let ran = 0;
  let failed = 0;
  let copied = 0;
  let agentMs = 0;
  let unanswered = 0;
  let spoiled = 0;
  const running = new Set<Promise<unknown>>();
  // Started when a run first serves its tools over MCP; closed when the runs are done.
  let server: Promise<HttpToolServer> | undefined;
  const phase: RunPhase = {
    mcpServer: () => (server ??= startHttpToolServer({ port: 0 })),
    // One for every run: each run's simulated tools check their arguments against schemas the
    // runs share.
    schemas: new SchemaValidator(),
  };
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
    const { shard } = options;
    for await (const { value, place } of reading) {
      if (options.signal?.aborted === true) break;
      if (shard !== undefined && place.index % shard.count !== shard.index) continue;
      // A run named by file (trajectoryFile) is read in: the recordings live elsewhere.
      const inlined = await inlineFiles(value, options.dataset, place.index);
      const raw =
        isJsonObject(inlined) && !DatasetParseError.isInstance(inlined) ? inlined : undefined;
      const read = readCase(inlined, place.index);
      if (DatasetParseError.isInstance(read) || raw === undefined) {
        // Carried to the scoring, which shows it as the case's error, as it would the line's.
        const error = DatasetParseError.isInstance(read) ? read : undefined;
        const id = caseIdOf(value, place.index, error);
        // Under an id of its own, so that a resumed run knows it is written.
        if (!recorded.has(keyOf(id, 0))) await write({ id, runError: parseError(error) });
        copied++;
        continue;
      }
      const { id, hasRun, inputs, user, tools } = read;
      if (hasRun || (inputs === undefined && user === undefined)) {
        if (!recorded.has(keyOf(id, typeof raw.run === "number" ? raw.run : 0))) {
          await write({ ...raw, id });
        }
        copied++;
        continue;
      }
      for (let attempt = 0; attempt < options.repeat; attempt++) {
        if (recorded.has(keyOf(id, attempt))) continue;
        if (dryRun) {
          ran++;
          continue;
        }
        await schedule(async () => {
          options.onStart?.({ caseId: id, attempt });
          const run = await runCase(options, { id, inputs, user, attempt, tools }, phase);
          if (options.signal?.aborted === true) return;
          ran++;
          agentMs += run.durationMs;
          unanswered +=
            run.toolbox?.calls.filter((call) => call.answer === "unanswered").length ?? 0;
          const status = statusOf(run);
          if (status === "failed") failed++;
          if (status === "spoiled") spoiled++;
          await write(recordingOf(raw, id, attempt, options, run));
          options.onRun?.({ caseId: id, attempt, status, durationMs: run.durationMs });
        });
      }
    }
    await Promise.all(running);
    await writing;
  } finally {
    await Promise.allSettled(running);
    await writing.catch(() => undefined);
    await file?.close();
    await server?.then((started) => started.close()).catch(() => undefined);
  }
  return { ran, failed, kept, copied, agentMs: Math.round(agentMs), unanswered, spoiled };
}

/** How a run went: the agent failed it (or the case could not be run), its user spoiled it, or it was answered. */
function statusOf(run: CaseRun): FinishedRun["status"] {
  if (run.failure !== undefined || run.unreadable !== undefined) return "failed";
  return (run.user?.faults.length ?? 0) > 0 ? "spoiled" : "answered";
}

/**
 * What running a case needs to know of it: its id, whether it holds a run, and what the user says
 * (one input, or a conversation's turn by turn).
 */
function readCase(
  value: unknown,
  index: number,
):
  | DatasetParseError
  | {
      readonly id: string;
      readonly hasRun: boolean;
      readonly inputs: readonly Content[] | undefined;
      /** The simulated user that speaks instead of scripted inputs, when the case gives one. */
      readonly user: SimulatedUser | undefined;
      readonly tools: CaseToolsGiven;
    } {
  if (DatasetParseError.isInstance(value)) return value;
  try {
    const read = readDatasetCase(value, { index });
    const hasRun =
      read.toolsCalled !== undefined ||
      read.trajectory !== undefined ||
      read.turns?.some((turn) => turn.toolsCalled !== undefined) === true;
    const tools = { toolOutputs: read.toolOutputs, availableTools: read.availableTools };
    if (read.user !== undefined && !hasRun) {
      if (read.input !== undefined || read.turns !== undefined) {
        return new DatasetParseError({
          message: `give a simulated user (user) or what the user says (${read.input === undefined ? "turns" : "input"}), not both`,
          item: index,
          caseId: read.id,
          field: "user",
        });
      }
      return { id: read.id, hasRun, inputs: undefined, user: simulatedUserOf(read), tools };
    }
    if (read.turns === undefined || hasRun) {
      const inputs = read.input === undefined ? undefined : [read.input];
      return { id: read.id, hasRun, inputs, user: undefined, tools };
    }
    const silent = read.turns.findIndex((turn) => turn.input === undefined);
    if (silent !== -1) {
      return new DatasetParseError({
        message: `turns[${silent}] has no input: give each turn what the user says, for the agent to answer`,
        item: index,
        caseId: read.id,
        field: "turns",
      });
    }
    return {
      id: read.id,
      hasRun,
      inputs: read.turns.map((turn) => turn.input as Content),
      user: undefined,
      tools,
    };
  } catch (error) {
    if (DatasetParseError.isInstance(error)) return error;
    throw error;
  }
}

/** The case's simulated user, read; a `DatasetParseError` naming its field otherwise. */
function simulatedUserOf(read: {
  readonly id: string;
  readonly index: number;
  readonly user?: unknown;
}): SimulatedUser {
  try {
    return readSimulatedUser(read.user);
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    throw new DatasetParseError({
      message: error.message,
      item: read.index,
      caseId: read.id,
      field: error.field,
      cause: error,
    });
  }
}

/** What a case gives its simulated tools. */
type CaseToolsGiven = Omit<CaseTools, "caseId" | "attempt">;

/** One run of a case: each turn's transcript, up to the turn that failed, if one did. */
interface CaseRun {
  /** What the user said, turn by turn (the turn that failed included). */
  readonly inputs: readonly Content[];
  readonly transcripts: readonly unknown[];
  readonly turns: readonly {
    readonly durationMs: number;
    readonly log: readonly string[];
    readonly details: AgentRunDetails;
  }[];
  readonly durationMs: number;
  readonly failure?: string;
  /** The case's entries could not be read: the run is the case's error, not the agent's. */
  readonly unreadable?: string;
  /** Its simulated tools, when it had them: those served, and the calls they answered. */
  readonly toolbox?: Pick<Toolbox, "tools" | "calls">;
  /** Its simulated user, when it had one: what it said and the faults found in it. */
  readonly user?: UserRunLog;
}

/** What the runs of one phase share: the tool server, started on first use, and compiled schemas. */
interface RunPhase {
  readonly mcpServer: () => Promise<HttpToolServer>;
  readonly schemas: SchemaValidator;
}

/**
 * Runs the agent on a case, turn by turn: each turn is given the conversation so far (the
 * earlier turns' inputs and transcripts) and the run's session id; a failed turn ends the run.
 * What the user says is the case's (its input, or its turns) or its simulated user's, asked
 * before each turn. The run's simulated tools, when it has them, keep their state across its turns.
 */
async function runCase(
  options: RecordAgentRunsOptions,
  run: {
    readonly id: string;
    readonly inputs: readonly Content[] | undefined;
    readonly user: SimulatedUser | undefined;
    readonly attempt: number;
    readonly tools: CaseToolsGiven;
  },
  phase: RunPhase,
): Promise<CaseRun> {
  const { id: caseId, attempt } = run;
  const session = randomUUID();
  const unreadable = (message: string): CaseRun => ({
    inputs: [],
    transcripts: [],
    turns: [],
    durationMs: 0,
    unreadable: message,
  });
  let speaker: Speaker;
  if (run.user === undefined) speaker = scriptedSpeaker(run.inputs ?? []);
  else if (options.user === undefined) {
    return unreadable(
      "the case gives a simulated user (user): give the model that plays it (--user-model, or user.model in the config)",
    );
  } else {
    speaker = createUserSpeaker({
      user: run.user,
      model: options.user.model,
      seed: options.user.seed,
      signal: options.signal,
    });
  }
  let toolbox: Toolbox | undefined;
  try {
    toolbox = toolboxOfRun(
      options.simulation,
      { caseId, attempt, ...run.tools },
      options.timeoutMs,
      phase.schemas,
    );
  } catch (error) {
    return unreadable(error instanceof Error ? error.message : String(error));
  }
  const served =
    toolbox === undefined || options.agent.toolsInContext === true
      ? undefined
      : (await phase.mcpServer()).add(`/mcp/${session}`, toolbox);
  const inputs: Content[] = [];
  const history: AgentTurn[] = [];
  const turns: CaseRun["turns"][number][] = [];
  let failedMs = 0;
  const ran = (failure?: string): CaseRun => ({
    inputs,
    transcripts: history.map((item) => item.transcript),
    turns,
    durationMs: turns.reduce((sum, turn) => sum + turn.durationMs, failedMs),
    ...(failure === undefined ? {} : { failure }),
    ...(toolbox === undefined ? {} : { toolbox }),
    ...(speaker.log === undefined ? {} : { user: speaker.log() }),
  });
  try {
    for (let turn = 0; ; turn++) {
      const input = await speaker.next(history);
      if (input === undefined) break;
      inputs.push(input);
      const outcome = await runAgentOnce(
        options.agent,
        {
          caseId,
          input,
          attempt,
          turn,
          history: [...history],
          session,
          ...(served === undefined ? {} : { mcp: served.url }),
        },
        {
          timeoutMs: options.timeoutMs,
          signal: options.signal,
          tools: served === undefined ? toolbox : undefined,
        },
      );
      if (outcome.status === "failed") {
        failedMs = outcome.durationMs;
        return ran(speaker.single ? outcome.message : `turn ${turn + 1}: ${outcome.message}`);
      }
      turns.push({ durationMs: outcome.durationMs, log: outcome.log, details: outcome.details });
      history.push({ input, transcript: outcome.transcript });
    }
  } finally {
    served?.remove();
  }
  return ran();
}

/**
 * A `DatasetParseError` when two items of the dataset have one id (their own, or the reader's
 * `case-<n>`), naming both; nothing is run then.
 */
export async function refuseSharedIds(dataset: string): Promise<void> {
  const first = new Map<string, number>();
  for await (const { value, place } of readDatasetRecords(dataset)) {
    const id = caseIdOf(value, place.index);
    // Recorded repeats of one case share its id, each with its own run.
    const run = isJsonObject(value) && typeof value.run === "number" ? value.run : 0;
    const line = place.line ?? place.index + 1;
    const before = first.get(keyOf(id, run));
    if (before !== undefined) {
      throw new DatasetParseError({
        message: `${dataset}: ${place.line === undefined ? "items" : "lines"} ${before} and ${line} are both case ${JSON.stringify(id)}${run === 0 ? "" : ` run ${run}`}: give each case its own id (an agent's runs are recorded, resumed and merged by id)`,
        source: dataset,
        item: place.index,
        caseId: id,
      });
    }
    first.set(keyOf(id, run), line);
  }
}

/** The item with the files it names read in; a file that cannot be read is the item's error. */
async function inlineFiles(value: unknown, dataset: string, index: number): Promise<unknown> {
  if (!isJsonObject(value) || DatasetParseError.isInstance(value)) return value;
  try {
    return await withNamedFiles(value, dataset);
  } catch (error) {
    return new DatasetParseError({
      message: error instanceof Error ? error.message : String(error),
      item: index,
      caseId: caseIdOf(value, index),
      source: dataset,
      cause: error,
    });
  }
}

/**
 * The id a dataset item is recorded under: its own, or `case-<position + 1>` as the reader names
 * a case without one; an item that cannot be read keeps the id it gave, if any.
 */
export function caseIdOf(value: unknown, index: number, error?: DatasetParseError): string {
  if (error?.caseId !== undefined) return error.caseId;
  const own = isJsonObject(value) && !DatasetParseError.isInstance(value) ? value.id : undefined;
  if (typeof own === "string" && own !== "") return own;
  if (typeof own === "number" && Number.isFinite(own)) return String(own);
  return `case-${index + 1}`;
}

function parseError(error: DatasetParseError | undefined): JsonObject {
  return { code: "DATASET_PARSE", message: error?.message ?? "not a test case" };
}

/**
 * A run as the recordings file holds it: the case, with its transcript (a conversation's turn by
 * turn) or the agent's error, and the run's metadata.
 */
function recordingOf(
  raw: JsonObject,
  id: string,
  attempt: number,
  options: Pick<RecordAgentRunsOptions, "agent" | "repeat" | "commit">,
  run: CaseRun,
): JsonObject {
  // A simulated user's turns are what it said; a scripted conversation's are the case's.
  const conversation =
    run.user === undefined
      ? Array.isArray(raw.turns)
        ? raw.turns
        : undefined
      : spokenTurns(run.inputs, run.transcripts, run.user);
  const agentRun: JsonObject = { agent: options.agent.name };
  if (options.commit !== undefined) agentRun.commit = options.commit;
  agentRun.durationMs = round(run.durationMs);
  const log = run.turns.flatMap((turn) => turn.log);
  // The turns' details were checked as each was reported; here they add up.
  Object.assign(
    agentRun,
    sumDetails(
      run.turns.map((turn) => turn.details),
      log,
    ),
  );
  if (log.length > 0) agentRun.log = log;
  // What the simulated tools answered, faults and all: how the run met its tools.
  if (run.toolbox !== undefined) {
    agentRun.simulatedTools = run.toolbox.calls.map((call) => ({ ...call }));
  }
  // What the simulated user said and was found to do wrong: how the run met its user.
  if (run.user !== undefined) agentRun.user = run.user.recorded;
  if (conversation !== undefined) {
    agentRun.turns = run.turns.map((turn): JsonObject => {
      const shown: JsonObject = { durationMs: round(turn.durationMs) };
      if (turn.log.length > 0) shown.log = [...turn.log];
      return shown;
    });
  }
  const metadata = Object.hasOwn(raw, "metadata") ? raw.metadata : {};
  const line: JsonObject = {
    ...raw,
    id,
    ...(options.repeat > 1 ? { run: attempt } : {}),
    metadata: isJsonObject(metadata) ? { ...metadata, agentRun } : metadata,
  };
  if (conversation !== undefined) {
    // Each turn with what the agent returned for it; the turns after a failure as given.
    line.turns = conversation.map((turn, at) =>
      at < run.transcripts.length && isJsonObject(turn)
        ? { ...turn, trajectory: run.transcripts[at] as JsonObject }
        : turn,
    );
  } else if (run.transcripts.length > 0) line.trajectory = run.transcripts[0] as JsonObject;
  if (run.failure !== undefined) line.runError = { code: "AGENT_RUN", message: run.failure };
  else if (run.user !== undefined && run.user.faults.length > 0) {
    line.runError = {
      code: "USER_SIMULATOR",
      message: run.user.faults.map((fault) => fault.message).join("; "),
    };
  }
  // The tools the agent had, for the metrics that read which change state and which only look.
  const listed = Object.hasOwn(raw, "availableTools") || Object.hasOwn(raw, "available_tools");
  const served = run.toolbox?.tools ?? [];
  if (!listed && served.length > 0) {
    line.availableTools = served.map(({ outputSchema: _, ...tool }) => ({ ...tool }));
  }
  if (run.unreadable !== undefined) {
    line.runError = { code: "DATASET_PARSE", message: run.unreadable };
  }
  return line;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * The runs a recordings file holds, by case and run; a last line cut short (a kill mid-write) is
 * taken off first, so that appending goes on from a whole line.
 */
async function recordedKeys(
  file: string,
  options: { readonly cut: boolean; readonly dropFailed: boolean },
): Promise<Set<string>> {
  const keys = new Set<string>();
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return keys;
  }
  if (options.cut) await cutToLastLine(file, size);
  const failed: { offset: number; bytes: number }[] = [];
  for await (const { value, place } of readDatasetRecords(file)) {
    if (!isJsonObject(value) || DatasetParseError.isInstance(value)) continue;
    if (options.dropFailed && failedRun(value) && place.offset !== undefined) {
      failed.push({ offset: place.offset, bytes: place.bytes ?? 0 });
      continue;
    }
    const id = typeof value.id === "string" ? value.id : `case-${place.index + 1}`;
    keys.add(keyOf(id, typeof value.run === "number" ? value.run : 0));
  }
  if (failed.length > 0 && options.cut) await dropLines(file, failed);
  return keys;
}

/** Whether a recorded line is a run the agent failed, or its simulated user spoiled. */
function failedRun(value: JsonObject): boolean {
  const error = value.runError ?? value.run_error;
  return isJsonObject(error) && (error.code === "AGENT_RUN" || error.code === "USER_SIMULATOR");
}

/**
 * The file without the lines at `drop` (in file order), written aside and renamed over it: a kill
 * midway leaves the file whole, as it was.
 */
async function dropLines(
  file: string,
  drop: readonly { readonly offset: number; readonly bytes: number }[],
): Promise<void> {
  const aside = `${file}.${process.pid}.tmp`;
  const source = await open(file, "r");
  const target = await open(aside, "w");
  try {
    let at = 0;
    const copy = async (from: number, to: number) => {
      const chunk = 1 << 20;
      for (let position = from; position < to; position += chunk) {
        const buffer = Buffer.alloc(Math.min(chunk, to - position));
        const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
        await target.write(buffer.subarray(0, bytesRead));
      }
    };
    for (const line of drop) {
      await copy(at, line.offset);
      at = line.offset + line.bytes;
    }
    await copy(at, (await source.stat()).size);
  } finally {
    await source.close();
    await target.close();
  }
  await rename(aside, file);
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
