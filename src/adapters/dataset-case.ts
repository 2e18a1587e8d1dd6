import { AgentRunError, DatasetParseError, InvalidInputError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import type { TestCase, ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import type {
  NameMapping,
  TraceContext,
  Trajectory,
  TrajectoryFormat,
  TrajectoryWarning,
} from "../core/trajectory.js";
import type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCaseSpend, withSimulatedLatency } from "./case-spend.js";
import { readToolList } from "./tool-spec.js";
import { readCaseTurns, turnFieldsOfCase } from "./dataset-turns.js";
import type { TurnTranscript } from "./dataset-turns.js";
import {
  RecordFields,
  errorText,
  readTurnFields,
  recordReader,
  turnSpellings,
} from "./case-fields.js";

/** What a transcript in a dataset case was read as. */
export interface CaseTrajectoryInfo {
  readonly format: TrajectoryFormat;
  readonly warnings: readonly TrajectoryWarning[];
  readonly nameMapping: readonly NameMapping[];
  /** The run's root span, when the transcript is a trace (see `Trajectory.trace`). */
  readonly trace?: TraceContext;
}

/**
 * One case read from a dataset: a test case with its place in the file, its transcripts already
 * read into tool calls, and notes about anything odd (unknown fields, transcript warnings).
 */
export interface DatasetCase extends TestCase {
  readonly id: string;
  /** 0-based position in the dataset. */
  readonly index: number;
  /** 1-based line, when the format has lines. */
  readonly line?: number;
  /** Where the case's line starts in a JSONL file, in bytes, and its length (for reports). */
  readonly offset?: number;
  readonly bytes?: number;
  /** Free-form data carried to the results as given. */
  readonly metadata?: JsonObject;
  /** How `trajectory` was read, when the case had one. */
  readonly trajectory?: CaseTrajectoryInfo;
  /** How `expectedTrajectory` was read, when the case had one. */
  readonly expectedTrajectory?: CaseTrajectoryInfo;
  /** Fields the reader did not know (likely typos), and the like. */
  readonly notes?: readonly string[];
  /**
   * What simulated tools answer in a run of the case by the agent, as given (the agent runner
   * reads the entries; see docs/guides/simulated-tools.md).
   */
  readonly toolOutputs?: readonly unknown[];
  /**
   * The simulated user a run of the case by the agent talks with, as given (the agent runner
   * reads it; see docs/guides/simulated-users.md).
   */
  readonly user?: JsonObject;
}

export interface ReadDatasetCaseOptions {
  /** 0-based position in the dataset. */
  readonly index: number;
  /** 1-based line, for messages. */
  readonly line?: number;
  /** Where the line sits in a JSONL file (bytes), kept on the case. */
  readonly offset?: number;
  readonly bytes?: number;
  /** The dataset file, for messages. */
  readonly source?: string;
  /** Normalize tool names read from transcripts (both sides). Default false. */
  readonly normalizeNames?: boolean | NameNormalizationOptions;
}

const caseSpellings = {
  id: ["id"],
  run: ["run"],
  input: turnSpellings.input,
  actualOutput: turnSpellings.actualOutput,
  expectedOutput: turnSpellings.expectedOutput,
  expectedOutputContains: turnSpellings.expectedOutputContains,
  expectedOutcome: turnSpellings.expectedOutcome,
  toolsCalled: turnSpellings.toolsCalled,
  expectedTools: turnSpellings.expectedTools,
  availableTools: ["availableTools", "available_tools"],
  trajectory: turnSpellings.trajectory,
  expectedTrajectory: [
    "expectedTrajectory",
    "expected_trajectory",
    "expectedAgentTrajectory",
    "expected_agent_trajectory",
  ],
  trajectoryFormat: ["trajectoryFormat", "trajectory_format"],
  traceId: ["traceId", "trace_id"],
  retrievedContexts: ["retrievedContexts", "retrieved_contexts"],
  metricOptions: turnSpellings.metricOptions,
  metadata: ["metadata"],
  turns: ["turns"],
  turnAggregate: ["turnAggregate", "turn_aggregate"],
  runError: ["runError", "run_error"],
  toolOutputs: ["toolOutputs", "tool_outputs"],
  user: ["user"],
} as const;

type Field = keyof typeof caseSpellings;

const caseReader = recordReader(caseSpellings, ["toolsCalled", "expectedTools", "turns"]);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reads one dataset record (a JSONL line, a JSON or YAML item) into a test case. camelCase and
 * snake_case names are both accepted (and ragas' `user_input`/`response`); a `trajectory` in any
 * transcript format becomes `toolsCalled`, an `expectedTrajectory` becomes `expectedTools`.
 * Throws `DatasetParseError` naming the field and the line.
 *
 * @example
 * readDatasetCase({ id: "a", trajectory: openAiMessages, expected_tools: [...] }, { index: 0, line: 1 });
 */
export function readDatasetCase(record: unknown, options: ReadDatasetCaseOptions): DatasetCase {
  const where = options.line === undefined ? `item ${options.index}` : `line ${options.line}`;
  const fail = (message: string, field?: string, cause?: unknown): never => {
    throw new DatasetParseError({
      message: `${where}: ${message}`,
      item: options.index,
      ...(options.line === undefined ? {} : { line: options.line }),
      ...(options.source === undefined ? {} : { source: options.source }),
      ...(field === undefined ? {} : { field }),
      ...(cause === undefined ? {} : { cause }),
    });
  };
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return fail(
      `a test case must be a JSON object, got ${record === null ? "null" : Array.isArray(record) ? "an array" : typeof record}`,
    );
  }
  const notes: string[] = [];
  const fields = new RecordFields(
    record as Record<string, unknown>,
    caseReader,
    undefined,
    notes,
    (message, field, _name, cause) => fail(message, field, cause),
  );
  const { values } = fields;
  let id: string;
  if (values.id === undefined || values.id === "") id = `case-${options.index + 1}`;
  else if (typeof values.id === "string") id = values.id;
  else if (typeof values.id === "number" && Number.isFinite(values.id)) id = String(values.id);
  else return fail("id must be a string or a number", "id");
  const run = values.run;
  if (run !== undefined && !(typeof run === "number" && Number.isInteger(run) && run >= 0)) {
    fail(`run must be a whole number (0, 1, 2, ...), got ${JSON.stringify(run)}`, "run");
  }
  // A run the simulated user spoiled is read whole (reports show it) and scored by no metric.
  const simulatorFault =
    values.runError === undefined ? undefined : runErrorOf(fields, id, options, where);
  if (simulatorFault !== undefined && typeof simulatorFault !== "string") throw simulatorFault;
  const given = readTurnFields(fields, { callsGiven: false, expectNone: false });
  let availableTools: readonly ToolSpec[] | undefined;
  if (values.availableTools !== undefined) {
    if (typeof values.availableTools !== "object") {
      fail("availableTools must be a list of tool definitions", "availableTools");
    }
    availableTools = readToolList(values.availableTools, fields.name("availableTools"));
  }
  const transcripts = transcriptOptions(fields, options);
  const called = readTranscript(fields, "trajectory", given.toolsCalled, transcripts);
  const expected = readTranscript(fields, "expectedTrajectory", given.expectedTools, transcripts);
  const turns = readTurnsOfCase(fields, called, transcripts);
  const read: Mutable<DatasetCase> = { id, index: options.index };
  if (run !== undefined) read.run = run as number;
  if (options.line !== undefined) read.line = options.line;
  if (options.offset !== undefined) read.offset = options.offset;
  if (options.bytes !== undefined) read.bytes = options.bytes;
  // Built key by key (in the order the fields are documented): a conditional spread per
  // optional field cost more than the rest of reading a case.
  const input = given.input ?? called?.turns.find((turn) => turn.input !== undefined)?.input;
  if (input !== undefined) read.input = input;
  if (given.actualOutput !== undefined) read.actualOutput = given.actualOutput;
  if (given.expectedOutput !== undefined) read.expectedOutput = given.expectedOutput;
  if (given.expectedOutputContains !== undefined) {
    read.expectedOutputContains = given.expectedOutputContains;
  }
  if (given.expectedOutcome !== undefined) read.expectedOutcome = given.expectedOutcome;
  if (called?.replies !== undefined) read.replies = called.replies;
  const toolsCalled = called?.calls ?? given.toolsCalled ?? turns?.calls;
  if (toolsCalled !== undefined) read.toolsCalled = toolsCalled;
  if (expected !== undefined) {
    // The expected run's tool outputs are what that run happened to get back, not expectations.
    read.expectedTools = expected.calls.map(
      (call) => ({ name: call.name, inputParameters: call.inputParameters }) as ToolCall,
    );
  } else if (given.expectedTools !== undefined) read.expectedTools = given.expectedTools;
  if (called !== undefined) read.calledSteps = called.steps;
  if (expected !== undefined) read.expectedSteps = expected.steps;
  const toolsSeen =
    called?.tools ?? turns?.transcripts.flatMap(({ trajectory }) => trajectory.tools);
  availableTools ??= toolsSeen !== undefined && toolsSeen.length > 0 ? toolsSeen : undefined;
  if (availableTools !== undefined) read.availableTools = availableTools;
  const contexts = fields.list("retrievedContexts");
  if (contexts !== undefined) read.retrievedContexts = contexts as readonly string[];
  if (given.metricOptions !== undefined) read.metricOptions = given.metricOptions;
  const toolOutputs = fields.list("toolOutputs");
  if (toolOutputs !== undefined) read.toolOutputs = toolOutputs;
  const user = fields.object("user", 'an object { "goal": ..., "facts": { ... } }');
  if (user !== undefined) read.user = user;
  if (simulatorFault !== undefined) read.simulatorFault = simulatorFault;
  const metadata = fields.object("metadata", "an object");
  if (metadata !== undefined) read.metadata = metadata;
  const spend = readCaseSpend(
    metadata,
    called === undefined
      ? (turns?.transcripts.map(({ trajectory }) => trajectory) ?? [])
      : [called],
    notes,
  );
  if (spend !== undefined) read.spend = spend;
  // A recording's simulated tools say how long each call they served took.
  if (metadata !== undefined && read.toolsCalled !== undefined) {
    read.toolsCalled = withSimulatedLatency(read.toolsCalled, metadata);
  }
  if (turns !== undefined) notes.push(...turns.notes);
  if (turns?.turns !== undefined) read.turns = turns.turns;
  if (turns?.turnAggregate !== undefined) read.turnAggregate = turns.turnAggregate;
  if (called !== undefined) read.trajectory = info(called);
  else if (turns !== undefined && turns.transcripts.length > 0) {
    read.trajectory = turnsInfo(turns.transcripts, fields.name("turns"));
  }
  if (expected !== undefined) read.expectedTrajectory = info(expected);
  if (notes.length > 0) read.notes = notes;
  return read;
}

type CaseFields = RecordFields<Field>;

/**
 * The error a recording gives for a run that never happened (the agent failed on the case, or
 * its dataset line could not be read): the case's error, as the run met it. A run its simulated
 * user spoiled (`USER_SIMULATOR`) is no error of the case: the fault is returned, as text.
 */
function runErrorOf(
  fields: CaseFields,
  id: string,
  options: ReadDatasetCaseOptions,
  where: string,
): DatasetParseError | string {
  const given = fields.object("runError", 'an object { "code": "AGENT_RUN", "message": ... }');
  const code = given?.code;
  const message = given?.message;
  if (
    (code !== "AGENT_RUN" && code !== "DATASET_PARSE" && code !== "USER_SIMULATOR") ||
    typeof message !== "string"
  ) {
    return fields.fail(
      `${fields.name("runError")} must be { "code": "AGENT_RUN", "DATASET_PARSE" or "USER_SIMULATOR", "message": text }`,
      "runError",
    );
  }
  if (code === "USER_SIMULATOR") return message;
  const place = {
    message: `${where}: ${code === "AGENT_RUN" ? "the agent failed: " : ""}${message}`,
    item: options.index,
    caseId: id,
    field: fields.name("runError"),
    ...(options.line === undefined ? {} : { line: options.line }),
    ...(options.source === undefined ? {} : { source: options.source }),
  };
  return code === "AGENT_RUN" ? new AgentRunError(place) : new DatasetParseError(place);
}

/** How the case's transcripts are read: its `trajectoryFormat` and `traceId`, checked once. */
function transcriptOptions(
  fields: CaseFields,
  options: ReadDatasetCaseOptions,
): { readonly format?: TrajectoryFormat; readonly traceId?: string } & Pick<
  ReadDatasetCaseOptions,
  "normalizeNames"
> {
  const { values } = fields;
  const format = values.trajectoryFormat;
  if (format !== undefined && typeof format !== "string") {
    fields.fail('trajectoryFormat must be a format name such as "openai-chat"', "trajectoryFormat");
  }
  const traceId = values.traceId;
  if (traceId !== undefined) {
    if (typeof traceId !== "string" || traceId === "") {
      fields.fail("traceId must be a trace id (text)", "traceId");
    }
    if (values.trajectory === undefined) {
      fields.fail(
        "traceId chooses a trace of the case's trajectory, and the case has none",
        "traceId",
      );
    }
  }
  // Key by key, as the case itself is built: no conditional spreads per case.
  const read: Mutable<ReturnType<typeof transcriptOptions>> = {};
  if (format !== undefined) read.format = format as TrajectoryFormat;
  if (traceId !== undefined) read.traceId = traceId;
  if (options.normalizeNames !== undefined) read.normalizeNames = options.normalizeNames;
  return read;
}

/** A transcript of the case read, when it gave one (and not the call list it stands for). */
function readTranscript(
  fields: CaseFields,
  field: "trajectory" | "expectedTrajectory",
  calls: readonly ToolCall[] | undefined,
  read: ReturnType<typeof transcriptOptions>,
): Trajectory | undefined {
  const value = fields.values[field];
  if (value === undefined) return undefined;
  if (calls !== undefined) {
    const list = field === "trajectory" ? "toolsCalled" : "expectedTools";
    fields.fail(`give ${fields.name(list)} or ${fields.name(field)}, not both`, field);
  }
  // The trace chosen is the case's trajectory's; the expected run is read whole.
  const { traceId, ...rest } = read;
  try {
    return parseTrajectory(value, field === "trajectory" ? read : rest);
  } catch (error) {
    return fields.fail(
      `${fields.name(field)} could not be read: ${errorText(error)}`,
      field,
      error,
    );
  }
}

function info(trajectory: Trajectory): CaseTrajectoryInfo {
  const { format, warnings, nameMapping, trace } = trajectory;
  return trace === undefined
    ? { format, warnings, nameMapping }
    : { format, warnings, nameMapping, trace };
}

/**
 * How a conversation recorded turn by turn was read: the first turn's format, and every turn's
 * warnings (their paths made the case's) and renamed tools.
 */
function turnsInfo(transcripts: readonly TurnTranscript[], turns: string): CaseTrajectoryInfo {
  const nameMapping = new Map<string, NameMapping>();
  for (const { trajectory } of transcripts) {
    for (const mapping of trajectory.nameMapping) nameMapping.set(mapping.original, mapping);
  }
  return {
    format: transcripts[0].trajectory.format,
    warnings: transcripts.flatMap(({ at, trajectory }) =>
      trajectory.warnings.map((warning) => ({
        ...warning,
        path: `$.${turns}[${at}].trajectory${warning.path.slice(1)}`,
      })),
    ),
    nameMapping: [...nameMapping.values()],
  };
}

/** The case's `turns`, when it gave them: the calls made turn by turn are the case's calls. */
function readTurnsOfCase(
  fields: CaseFields,
  transcript: Trajectory | undefined,
  transcripts: ReturnType<typeof transcriptOptions>,
): (ReturnType<typeof readCaseTurns> & { calls?: readonly ToolCall[] }) | undefined {
  const { values } = fields;
  if (values.turns === undefined && values.turnAggregate === undefined) return undefined;
  try {
    const read = readCaseTurns({
      turns: values.turns,
      turnAggregate: values.turnAggregate,
      spelled: { turns: fields.name("turns"), turnAggregate: fields.name("turnAggregate") },
      conflicting: turnFieldsOfCase.flatMap((field) =>
        values[field] === undefined ? [] : [{ field, given: fields.name(field) }],
      ),
      ...(transcript === undefined ? {} : { trajectory: transcript }),
      parse: (value) => {
        // A turn's transcript is one run of the agent: the case's trace id chooses none of it.
        const { traceId: _chosen, ...rest } = transcripts;
        return parseTrajectory(value, rest);
      },
    });
    return transcript === undefined && read.turns?.some((turn) => turn.toolsCalled !== undefined)
      ? { ...read, calls: read.turns.flatMap((turn) => turn.toolsCalled ?? []) }
      : read;
  } catch (error) {
    const field = InvalidInputError.isInstance(error) ? error.field : "turns";
    // The case's own error naming the turn's field as the turn reader did.
    return fields.fail((error as Error).message, field as Field, error);
  }
}
