import { DatasetParseError, InvalidInputError, ToolscoreError } from "../core/errors.js";
import { DEFAULT_MAX_DEPTH, nestsDeeperThan } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { CaseTurn, Content, TestCase, ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import type {
  NameMapping,
  TraceContext,
  TrajectoryFormat,
  TrajectoryStep,
  TrajectoryWarning,
} from "../core/trajectory.js";
import type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
import { parseTrajectory } from "./parse-trajectory.js";
import { readToolList } from "./tool-spec.js";
import {
  closestSpelling,
  readCalls,
  readCaseTurns,
  readContent,
  turnFieldsOfCase,
} from "./dataset-turns.js";
import type { TurnAggregate } from "../core/turns.js";

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

/** Each field's name in toolscore, and the other spellings datasets use for it. */
const fieldNames = {
  id: ["id"],
  run: ["run"],
  input: ["input", "user_input", "query"],
  actualOutput: ["actualOutput", "actual_output", "response"],
  expectedOutput: ["expectedOutput", "expected_output", "reference"],
  expectedOutputContains: ["expectedOutputContains", "expected_output_contains"],
  expectedOutcome: ["expectedOutcome", "expected_outcome"],
  toolsCalled: ["toolsCalled", "tools_called"],
  expectedTools: ["expectedTools", "expected_tools"],
  availableTools: ["availableTools", "available_tools"],
  trajectory: ["trajectory", "agentTrajectory", "agent_trajectory"],
  expectedTrajectory: [
    "expectedTrajectory",
    "expected_trajectory",
    "expectedAgentTrajectory",
    "expected_agent_trajectory",
  ],
  trajectoryFormat: ["trajectoryFormat", "trajectory_format"],
  traceId: ["traceId", "trace_id"],
  retrievedContexts: ["retrievedContexts", "retrieved_contexts"],
  metricOptions: ["metricOptions", "metric_options"],
  metadata: ["metadata"],
  turns: ["turns"],
  turnAggregate: ["turnAggregate", "turn_aggregate"],
} as const;

type Field = keyof typeof fieldNames;

const spellingOf: ReadonlyMap<string, Field> = new Map(
  (Object.entries(fieldNames) as [Field, readonly string[]][]).flatMap(([field, spellings]) =>
    spellings.map((spelling) => [spelling, field] as const),
  ),
);

/** The closest known spelling, in the key's own style (snake_case or camelCase) when one is close. */
function suggest(key: string): string | undefined {
  return closestSpelling(key, [...spellingOf.keys()]);
}

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
  const values: Partial<Record<Field, unknown>> = {};
  const givenAs: Partial<Record<Field, string>> = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(record as Record<string, unknown>)) {
    const field = spellingOf.get(key);
    if (field === undefined) {
      const guess = suggest(key);
      notes.push(
        `unknown field ${JSON.stringify(key)} ignored${guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`}`,
      );
      continue;
    }
    if (value === undefined || value === null) continue;
    // The call lists are held to the depth limit by the call reader; the rest here, before
    // anything recursive (a record's writer, a report, a hash) meets them.
    if (
      typeof value === "object" &&
      field !== "toolsCalled" &&
      field !== "expectedTools" &&
      field !== "turns" &&
      nestsDeeperThan(value, DEFAULT_MAX_DEPTH)
    ) {
      fail(
        `${key} is nested more than ${DEFAULT_MAX_DEPTH} levels deep (see docs/reference/limits.md)`,
        field,
      );
    }
    const earlier = givenAs[field];
    if (earlier !== undefined) {
      fail(
        `${JSON.stringify(earlier)} and ${JSON.stringify(key)} are the same field; give one`,
        field,
      );
    }
    givenAs[field] = key;
    values[field] = value;
  }

  let id: string;
  if (values.id === undefined || values.id === "") id = `case-${options.index + 1}`;
  else if (typeof values.id === "string") id = values.id;
  else if (typeof values.id === "number" && Number.isFinite(values.id)) id = String(values.id);
  else return fail("id must be a string or a number", "id");

  const run = values.run;
  if (run !== undefined && !(typeof run === "number" && Number.isInteger(run) && run >= 0)) {
    fail(`run must be a whole number (0, 1, 2, ...), got ${JSON.stringify(run)}`, "run");
  }

  const content = (
    field: "input" | "actualOutput" | "expectedOutput" | "expectedOutcome",
  ): Content | undefined => {
    const value = values[field];
    if (value === undefined) return undefined;
    try {
      return readContent(value, givenAs[field] ?? field);
    } catch (error) {
      return fail((error as Error).message, field);
    }
  };
  const list = (field: Field): readonly unknown[] | undefined => {
    const value = values[field];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return fail(`${givenAs[field] ?? field} must be a list`, field);
    return value as readonly unknown[];
  };

  const format = values.trajectoryFormat;
  if (format !== undefined && typeof format !== "string") {
    fail('trajectoryFormat must be a format name such as "openai-chat"', "trajectoryFormat");
  }
  const traceId = values.traceId;
  if (traceId !== undefined) {
    if (typeof traceId !== "string" || traceId === "") {
      fail("traceId must be a trace id (text)", "traceId");
    }
    if (values.trajectory === undefined) {
      fail("traceId chooses a trace of the case's trajectory, and the case has none", "traceId");
    }
  }
  const parse = (field: "trajectory" | "expectedTrajectory") => {
    try {
      return parseTrajectory(values[field], {
        ...(format === undefined ? {} : { format: format as TrajectoryFormat }),
        ...(field === "trajectory" && traceId !== undefined ? { traceId: traceId as string } : {}),
        ...(options.normalizeNames === undefined ? {} : { normalizeNames: options.normalizeNames }),
      });
    } catch (error) {
      const detail =
        ToolscoreError.isInstance(error) || error instanceof Error ? error.message : String(error);
      return fail(`${givenAs[field] ?? field} could not be read: ${detail}`, field, error);
    }
  };
  const info = (trajectory: ReturnType<typeof parseTrajectory>): CaseTrajectoryInfo =>
    trajectory.trace === undefined
      ? {
          format: trajectory.format,
          warnings: trajectory.warnings,
          nameMapping: trajectory.nameMapping,
        }
      : {
          format: trajectory.format,
          warnings: trajectory.warnings,
          nameMapping: trajectory.nameMapping,
          trace: trajectory.trace,
        };

  const calls = (side: "called" | "expected", field: "toolsCalled" | "expectedTools") => {
    const given = list(field);
    try {
      return readCalls(given, side, givenAs[field] ?? field);
    } catch (error) {
      const detail =
        ToolscoreError.isInstance(error) || error instanceof Error ? error.message : String(error);
      return fail(detail, field, error);
    }
  };
  let toolsCalled = calls("called", "toolsCalled") as readonly ToolCall[] | undefined;
  let availableTools: readonly ToolSpec[] | undefined;
  if (values.availableTools !== undefined) {
    const tools = values.availableTools;
    if (typeof tools !== "object") {
      fail("availableTools must be a list of tool definitions", "availableTools");
    }
    availableTools = readToolList(tools, givenAs.availableTools ?? "availableTools");
  }
  let trajectory: CaseTrajectoryInfo | undefined;
  let replies: readonly string[] | undefined;
  let calledSteps: readonly TrajectoryStep[] | undefined;
  let expectedSteps: readonly TrajectoryStep[] | undefined;
  let input = content("input");
  let parsedTrajectory: ReturnType<typeof parseTrajectory> | undefined;
  if (values.trajectory !== undefined) {
    if (toolsCalled !== undefined) {
      fail(
        `give ${givenAs.toolsCalled ?? "toolsCalled"} or ${givenAs.trajectory ?? "trajectory"}, not both`,
        "trajectory",
      );
    }
    const parsed = parse("trajectory");
    parsedTrajectory = parsed;
    toolsCalled = parsed.calls;
    calledSteps = parsed.steps;
    replies = parsed.replies;
    trajectory = info(parsed);
    if (availableTools === undefined && parsed.tools.length > 0) availableTools = parsed.tools;
    const firstInput = parsed.turns.find((turn) => turn.input !== undefined)?.input;
    if (input === undefined && firstInput !== undefined) input = firstInput;
  }
  let expectedTools = calls("expected", "expectedTools");
  let expectedTrajectory: CaseTrajectoryInfo | undefined;
  if (values.expectedTrajectory !== undefined) {
    if (expectedTools !== undefined) {
      fail(
        `give ${givenAs.expectedTools ?? "expectedTools"} or ${givenAs.expectedTrajectory ?? "expectedTrajectory"}, not both`,
        "expectedTrajectory",
      );
    }
    const parsed = parse("expectedTrajectory");
    // The expected run's tool outputs are what that run happened to get back, not expectations.
    expectedTools = parsed.calls.map((call) => ({
      name: call.name,
      inputParameters: call.inputParameters,
    }));
    expectedTrajectory = info(parsed);
    expectedSteps = parsed.steps;
  }

  const contexts = list("retrievedContexts");
  const metricOptions = values.metricOptions;
  if (
    metricOptions !== undefined &&
    (typeof metricOptions !== "object" || Array.isArray(metricOptions))
  ) {
    fail("metricOptions must be an object of options by metric id", "metricOptions");
  }
  const metadata = values.metadata;
  if (metadata !== undefined && (typeof metadata !== "object" || Array.isArray(metadata))) {
    fail("metadata must be an object", "metadata");
  }
  const actualOutput = content("actualOutput");
  const expectedOutput = content("expectedOutput");
  const expectedOutcome = content("expectedOutcome");
  const contains = list("expectedOutputContains");
  if (contains?.some((item) => typeof item !== "string") === true) {
    fail(
      `${givenAs.expectedOutputContains ?? "expectedOutputContains"} must be a list of strings`,
      "expectedOutputContains",
    );
  }
  let turns: readonly CaseTurn[] | undefined;
  let turnAggregate: TurnAggregate | undefined;
  if (values.turns !== undefined || values.turnAggregate !== undefined) {
    try {
      const read = readCaseTurns({
        turns: values.turns,
        turnAggregate: values.turnAggregate,
        spelled: { turns: givenAs.turns, turnAggregate: givenAs.turnAggregate },
        conflicting: turnFieldsOfCase.flatMap((field) =>
          values[field] === undefined ? [] : [{ field, given: givenAs[field] ?? field }],
        ),
        ...(parsedTrajectory === undefined ? {} : { trajectory: parsedTrajectory }),
      });
      turns = read.turns;
      turnAggregate = read.turnAggregate;
      notes.push(...read.notes);
      if (parsedTrajectory === undefined && turns?.some((turn) => turn.toolsCalled !== undefined)) {
        toolsCalled = turns.flatMap((turn) => turn.toolsCalled ?? []);
      }
    } catch (error) {
      const field = InvalidInputError.isInstance(error) ? error.field : "turns";
      fail((error as Error).message, field, error);
    }
  }
  // Built key by key (in the order the fields are documented): a conditional spread per
  // optional field cost more than the rest of reading a case.
  const read: { -readonly [K in keyof DatasetCase]: DatasetCase[K] } = { id, index: options.index };
  if (run !== undefined) read.run = run as number;
  if (options.line !== undefined) read.line = options.line;
  if (options.offset !== undefined) read.offset = options.offset;
  if (options.bytes !== undefined) read.bytes = options.bytes;
  if (input !== undefined) read.input = input;
  if (actualOutput !== undefined) read.actualOutput = actualOutput;
  if (expectedOutput !== undefined) read.expectedOutput = expectedOutput;
  if (contains !== undefined) read.expectedOutputContains = contains as readonly string[];
  if (expectedOutcome !== undefined) read.expectedOutcome = expectedOutcome;
  if (replies !== undefined) read.replies = replies;
  if (toolsCalled !== undefined) read.toolsCalled = toolsCalled;
  if (expectedTools !== undefined) read.expectedTools = expectedTools as readonly ToolCall[];
  if (calledSteps !== undefined) read.calledSteps = calledSteps;
  if (expectedSteps !== undefined) read.expectedSteps = expectedSteps;
  if (availableTools !== undefined) read.availableTools = availableTools;
  if (contexts !== undefined) read.retrievedContexts = contexts as readonly string[];
  if (metricOptions !== undefined) {
    read.metricOptions = metricOptions as Readonly<Record<string, JsonObject>>;
  }
  if (metadata !== undefined) read.metadata = metadata as JsonObject;
  if (turns !== undefined) read.turns = turns;
  if (turnAggregate !== undefined) read.turnAggregate = turnAggregate;
  if (trajectory !== undefined) read.trajectory = trajectory;
  if (expectedTrajectory !== undefined) read.expectedTrajectory = expectedTrajectory;
  if (notes.length > 0) read.notes = notes;
  return read;
}
