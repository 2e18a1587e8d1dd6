/**
 * A dataset case's `turns`: each user turn's expectations (and, without a transcript, its calls
 * and replies), and the conversation's transcript cut at its user messages, each turn's calls and
 * replies attributed to it.
 */
import { InvalidInputError } from "../core/errors.js";
import { RecordFields, readTurnFields, recordReader, turnSpellings } from "./case-fields.js";
import { contentText } from "../core/test-case.js";
import type { CaseTurn } from "../core/test-case.js";
import { turnAggregates } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import { userTurnsOf } from "../core/trajectory.js";
import type { Trajectory, TrajectoryStep, TrajectoryTurn } from "../core/trajectory.js";

/** Text on one line, runs of white space made one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Text cut for a message. */
function cut(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A turn's own transcript, read (a conversation recorded turn by turn). */
export interface TurnTranscript {
  readonly at: number;
  readonly trajectory: Trajectory;
}

const turnReader = recordReader(turnSpellings, ["toolsCalled", "expectedTools"]);

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
 * What followed the last user message of a turn's transcript (it may hold the conversation so
 * far): its calls, steps and replies, and that message.
 */
export function lastTurnOf(
  trajectory: Trajectory,
): Pick<CaseTurn, "toolsCalled" | "calledSteps" | "replies" | "input"> {
  const last = trajectory.turns.at(-1);
  return last === undefined ? { toolsCalled: [] } : turnOfTrajectory(trajectory, last);
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
  options: {
    readonly field: string;
    readonly trajectory?: Trajectory;
    /** Reads a turn's own transcript (a conversation recorded turn by turn). */
    readonly parse?: (value: unknown) => Trajectory;
  },
): {
  readonly turns: CaseTurn[];
  readonly notes: string[];
  readonly transcripts: TurnTranscript[];
} {
  const { field, trajectory } = options;
  const transcripts: TurnTranscript[] = [];
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
    const fields = new RecordFields(
      item as Record<string, unknown>,
      turnReader,
      where,
      notes,
      (message, _field, name) => fail(message, name),
    );
    const own = fields.values.trajectory;
    const given = readTurnFields(fields, {
      callsGiven: trajectory !== undefined || own !== undefined,
      expectNone: true,
    });
    if (trajectory === undefined && own === undefined) return given;
    if (fields.values.toolsCalled !== undefined) {
      const path = fields.name("toolsCalled");
      const from = own === undefined ? "the case's transcript" : fields.name("trajectory");
      fail(`${path}: the calls come from ${from}; give one or the other`, path);
    }
    let turn: { -readonly [K in keyof CaseTurn]: CaseTurn[K] };
    if (trajectory !== undefined) {
      if (own !== undefined) {
        const path = fields.name("trajectory");
        fail(
          `${path}: the case's transcript holds the whole conversation; give one or the other`,
          path,
        );
      }
      const reached = userTurns.at(at);
      turn = reached === undefined ? { toolsCalled: [] } : turnOfTrajectory(trajectory, reached);
    } else {
      const path = fields.name("trajectory");
      let read: Trajectory;
      try {
        if (options.parse === undefined) throw new Error("a turn's transcript is not read here");
        read = options.parse(own);
      } catch (error) {
        return fail(`${path} could not be read: ${(error as Error).message}`, path);
      }
      transcripts.push({ at, trajectory: read });
      turn = lastTurnOf(read);
    }
    const heard = turn.input;
    const { input, ...rest } = given;
    if (heard === undefined) {
      if (input !== undefined) turn.input = input;
    } else if (input !== undefined && oneLine(contentText(input)) !== oneLine(contentText(heard))) {
      // A dataset written from an earlier recording: its turns may no longer line up.
      notes.push(
        `${fields.name("input")} is not what the user said at turn ${at + 1} of the transcript (${JSON.stringify(cut(oneLine(contentText(heard))))}); the transcript's is used: do the turns still line up?`,
      );
    }
    return Object.assign(turn, rest);
  });
  // Calls given turn by turn: a turn that gives none made none.
  if (trajectory === undefined && turns.some((turn) => turn.toolsCalled !== undefined)) {
    return {
      turns: turns.map((turn) =>
        turn.toolsCalled === undefined ? { ...turn, toolsCalled: [] } : turn,
      ),
      notes,
      transcripts,
    };
  }
  return { turns, notes, transcripts };
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
  readonly parse?: (value: unknown) => Trajectory;
}): {
  turns?: CaseTurn[];
  turnAggregate?: TurnAggregate;
  notes: string[];
  transcripts: TurnTranscript[];
} {
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
    ...(input.parse === undefined ? {} : { parse: input.parse }),
  });
  return given === undefined ? read : { ...read, turnAggregate: given as TurnAggregate };
}
