/**
 * A dataset case's `turns`: each user turn's expectations (and, without a transcript, its calls
 * and replies), and the conversation's transcript cut at its user messages, each turn's calls and
 * replies attributed to it.
 */
import { InvalidInputError } from "../core/errors.js";
import { DEFAULT_MAX_DEPTH, nestsDeeperThan } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { mapExpectedList, readCallFields } from "../core/call-fields.js";
import { closestName } from "../core/suggest.js";
import { contentText } from "../core/test-case.js";
import type { CaseTurn, Content } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { turnAggregates } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import { userTurnsOf } from "../core/trajectory.js";
import type { Trajectory, TrajectoryStep, TrajectoryTurn } from "../core/trajectory.js";

/**
 * The calls made, read by the one call reader (any spelling of the arguments, provider call
 * items), or the expected calls checked by it (their matchers are read by the metrics). An
 * unknown key, or arguments given twice, is an error naming the call.
 */
export function readCalls(
  list: readonly unknown[] | undefined,
  side: "called" | "expected",
  field: string,
): readonly unknown[] | undefined {
  if (list === undefined) return undefined;
  if (side === "called") {
    const calls = toToolCalls(list, { field });
    // Read valid: the metrics take them without reading them again.
    return calls;
  }
  let changed = false as boolean; // set inside the visitor
  const plain = mapExpectedList(list, field, (entry, where) => {
    const { record } = readCallFields(entry, "expected", () => where);
    if (record !== entry) changed = true;
    return record;
  });
  return changed ? plain : list;
}

/** Text, or a list of text and image parts; else an `InvalidInputError` naming `name`. */
export function readContent(value: unknown, name: string): Content {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) {
    throw new InvalidInputError({
      field: name,
      message: `${name} must be text or a list of text and image parts`,
    });
  }
  const bad = value.findIndex(
    (part) =>
      typeof part !== "string" &&
      (typeof part !== "object" || part === null || Array.isArray(part)),
  );
  if (bad !== -1) {
    const part: unknown = value[bad];
    throw new InvalidInputError({
      field: name,
      message: `${name}[${bad}] must be text or a part ({ "type": "text", "text": ... } or an image), got ${part === null ? "null" : Array.isArray(part) ? "a list" : typeof part}`,
    });
  }
  return value as Content;
}

/** The closest of `spellings` to `key`, in the key's own style (snake_case or camelCase) first. */
export function closestSpelling(key: string, spellings: readonly string[]): string | undefined {
  const ownStyle = spellings.filter((spelling) => spelling.includes("_") === key.includes("_"));
  return closestName(key, ownStyle) ?? closestName(key, spellings);
}

/** Text on one line, runs of white space made one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Text cut for a message. */
function cut(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Each turn field's name, and the other spellings datasets use for it. */
const turnFields = {
  input: ["input", "user_input", "query"],
  actualOutput: ["actualOutput", "actual_output", "response"],
  toolsCalled: ["toolsCalled", "tools_called"],
  expectedTools: ["expectedTools", "expected_tools"],
  expectedOutput: ["expectedOutput", "expected_output", "reference"],
  expectedOutputContains: ["expectedOutputContains", "expected_output_contains"],
  expectedOutcome: ["expectedOutcome", "expected_outcome"],
  metricOptions: ["metricOptions", "metric_options"],
} as const;

type TurnField = keyof typeof turnFields;

const turnSpellingOf: ReadonlyMap<string, TurnField> = new Map(
  (Object.entries(turnFields) as [TurnField, readonly string[]][]).flatMap(([field, spellings]) =>
    spellings.map((spelling) => [spelling, field] as const),
  ),
);

/** The calls, steps and replies of one turn of a transcript, indices made the turn's own. */
function turnOfTrajectory(
  trajectory: Trajectory,
  turn: TrajectoryTurn,
): Pick<CaseTurn, "toolsCalled" | "calledSteps" | "replies" | "input"> {
  const first = turn.calls[0] ?? 0;
  const toolsCalled = turn.calls.map((index) => trajectory.calls[index]);
  const calledSteps: TrajectoryStep[] = turn.steps.map((step, index) => ({
    index,
    calls: trajectory.steps[step].calls.map((call) => call - first),
  }));
  const replies = (turn.replies ?? []).map((index) => (trajectory.replies ?? [])[index]);
  return {
    toolsCalled,
    calledSteps,
    ...(replies.length === 0 ? {} : { replies }),
    ...(turn.input === undefined ? {} : { input: turn.input }),
  };
}

/**
 * Reads a case's `turns`: each an object of a turn's fields (camelCase or snake_case). With a
 * transcript, each turn takes the calls and replies that followed its user message (by
 * position); a transcript with more user turns than the case is an error (the calls of the
 * turns left over would count nowhere), one with fewer leaves the last turns without calls or
 * replies, and says so in a note. Unknown fields are noted, never read.
 */
export function readTurns(
  value: unknown,
  options: { readonly field: string; readonly trajectory?: Trajectory },
): { readonly turns: CaseTurn[]; readonly notes: string[] } {
  const { field, trajectory } = options;
  const fail = (message: string, at?: string): never => {
    throw new InvalidInputError({ field: at ?? field, message });
  };
  if (!Array.isArray(value) || value.length === 0) {
    return fail(
      `${field} must be a list of user turns, each an object ({ "expected_tools": [...] }; {} expects no calls)`,
    );
  }
  const notes: string[] = [];
  const userTurns = trajectory === undefined ? [] : userTurnsOf(trajectory.turns);
  if (trajectory !== undefined && userTurns.length > value.length) {
    fail(
      `the transcript has ${userTurns.length} user turns and ${field} ${value.length}: give one entry per user turn ({} for a turn that should call nothing)`,
    );
  }
  if (trajectory !== undefined && userTurns.length < value.length) {
    const first = userTurns.length + 1;
    notes.push(
      `the transcript has ${userTurns.length} user ${userTurns.length === 1 ? "turn" : "turns"}: ${first === value.length ? `turn ${first} was` : `turns ${first} to ${value.length} were`} not reached (no calls, no replies)`,
    );
  }
  const turns = (value as unknown[]).map((item, at): CaseTurn => {
    const where = `${field}[${at}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return fail(`${where} must be an object of the turn's fields`, where);
    }
    const given: Partial<Record<TurnField, unknown>> = {};
    const givenAs: Partial<Record<TurnField, string>> = {};
    for (const [key, entry] of Object.entries(item as Record<string, unknown>)) {
      const name = turnSpellingOf.get(key);
      if (name === undefined) {
        const guess = closestSpelling(key, [...turnSpellingOf.keys()]);
        notes.push(
          `unknown field ${JSON.stringify(key)} in ${where} ignored${guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`}`,
        );
        continue;
      }
      if (entry === undefined || entry === null) continue;
      if (givenAs[name] !== undefined) {
        fail(
          `${where}: ${JSON.stringify(givenAs[name])} and ${JSON.stringify(key)} are the same field; give one`,
          where,
        );
      }
      if (
        typeof entry === "object" &&
        name !== "toolsCalled" &&
        name !== "expectedTools" &&
        nestsDeeperThan(entry, DEFAULT_MAX_DEPTH)
      ) {
        fail(`${where}.${key} is nested more than ${DEFAULT_MAX_DEPTH} levels deep`, where);
      }
      given[name] = entry;
      givenAs[name] = key;
    }
    const path = (name: TurnField): string => `${where}.${givenAs[name] ?? name}`;
    const list = (name: TurnField): readonly unknown[] | undefined => {
      const entry = given[name];
      if (entry === undefined) return undefined;
      return Array.isArray(entry)
        ? (entry as unknown[])
        : fail(`${path(name)} must be a list`, path(name));
    };
    const turn: { -readonly [K in keyof CaseTurn]: CaseTurn[K] } = {};
    if (trajectory !== undefined) {
      if (given.toolsCalled !== undefined) {
        fail(
          `${path("toolsCalled")}: the calls come from the case's transcript; give one or the other`,
          path("toolsCalled"),
        );
      }
      const reached = userTurns.at(at);
      if (reached === undefined) turn.toolsCalled = [];
      else Object.assign(turn, turnOfTrajectory(trajectory, reached));
    } else {
      const called = readCalls(list("toolsCalled"), "called", path("toolsCalled"));
      if (called !== undefined) turn.toolsCalled = called as readonly ToolCall[];
    }
    if (given.input !== undefined) {
      const input = readContent(given.input, path("input"));
      const heard = turn.input;
      if (heard === undefined) turn.input = input;
      else if (oneLine(contentText(input)) !== oneLine(contentText(heard))) {
        // A dataset written from an earlier recording: its turns may no longer line up.
        notes.push(
          `${path("input")} is not what the user said at turn ${at + 1} of the transcript (${JSON.stringify(cut(oneLine(contentText(heard))))}); the transcript's is used: do the turns still line up?`,
        );
      }
    }
    if (given.actualOutput !== undefined) {
      turn.actualOutput = readContent(given.actualOutput, path("actualOutput"));
    }
    const expected = readCalls(list("expectedTools"), "expected", path("expectedTools"));
    turn.expectedTools = (expected ?? []) as readonly ToolCall[];
    if (given.expectedOutput !== undefined) {
      turn.expectedOutput = readContent(given.expectedOutput, path("expectedOutput"));
    }
    const contains = list("expectedOutputContains");
    if (contains !== undefined) {
      if (contains.some((entry) => typeof entry !== "string")) {
        fail(
          `${path("expectedOutputContains")} must be a list of strings`,
          path("expectedOutputContains"),
        );
      }
      turn.expectedOutputContains = contains as readonly string[];
    }
    if (given.expectedOutcome !== undefined) {
      turn.expectedOutcome = readContent(given.expectedOutcome, path("expectedOutcome"));
    }
    const own = given.metricOptions;
    if (own !== undefined) {
      if (typeof own !== "object" || Array.isArray(own)) {
        fail(
          `${path("metricOptions")} must be an object of options by metric id`,
          path("metricOptions"),
        );
      }
      turn.metricOptions = own as Readonly<Record<string, JsonObject>>;
    }
    return turn;
  });
  // Calls given turn by turn: a turn that gives none made none.
  if (trajectory === undefined && turns.some((turn) => turn.toolsCalled !== undefined)) {
    return {
      turns: turns.map((turn) =>
        turn.toolsCalled === undefined ? { ...turn, toolsCalled: [] } : turn,
      ),
      notes,
    };
  }
  return { turns, notes };
}

/** Fields of a case that belong in its turns when it has turns. */
export const turnFieldsOfCase = [
  "toolsCalled",
  "expectedTools",
  "expectedTrajectory",
  "expectedOutputContains",
  "expectedOutput",
  "expectedOutcome",
  "actualOutput",
] as const;

/**
 * A case's `turns` and `turnAggregate` (see `readTurns`): fields of the whole case that belong in
 * its turns (`conflicting`, as the case spelled them) are an error, and so is an aggregate
 * without turns. Errors are `InvalidInputError`s naming the field.
 */
export function readCaseTurns(input: {
  readonly turns: unknown;
  readonly turnAggregate: unknown;
  /** How the case spelled the two fields, when it gave them. */
  readonly spelled: {
    readonly turns?: string | undefined;
    readonly turnAggregate?: string | undefined;
  };
  readonly conflicting: readonly { readonly field: string; readonly given: string }[];
  readonly trajectory?: Trajectory;
}): { turns?: CaseTurn[]; turnAggregate?: TurnAggregate; notes: string[] } {
  const aggregateName = input.spelled.turnAggregate ?? "turnAggregate";
  const given = input.turnAggregate;
  if (given !== undefined && !turnAggregates.includes(given as TurnAggregate)) {
    throw new InvalidInputError({
      field: "turnAggregate",
      message: `${aggregateName} must be ${turnAggregates.join(", ")}, got ${JSON.stringify(given)}`,
    });
  }
  if (input.turns === undefined) {
    throw new InvalidInputError({
      field: "turnAggregate",
      message: `${aggregateName} is for a case with turns`,
    });
  }
  const first = input.conflicting.at(0);
  if (first !== undefined) {
    throw new InvalidInputError({
      field: first.field,
      message: `a case with turns gives ${input.conflicting.map((item) => item.given).join(", ")} in each turn it belongs to, not for the whole conversation`,
    });
  }
  const read = readTurns(input.turns, {
    field: input.spelled.turns ?? "turns",
    ...(input.trajectory === undefined ? {} : { trajectory: input.trajectory }),
  });
  return given === undefined ? read : { ...read, turnAggregate: given as TurnAggregate };
}
