import type { CaseContent, RecordedCall, TurnContent } from "../core/case-record.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { contentText } from "../core/test-case.js";
import type { CaseTurn, Content, TestCase } from "../core/test-case.js";
import type { TrajectoryStep } from "../core/trajectory.js";

/** A call as a diff reads it: what a transcript or a results file keeps of one. */
export interface DiffCall {
  readonly name: string;
  readonly arguments: JsonObject;
  readonly output?: JsonValue;
  readonly isError?: boolean;
  /** The arguments' text when it was not a JSON object. */
  readonly invalidArguments?: string;
}

/** One user turn of a run: its calls, which step (model response) each was made in, its answer. */
export interface DiffTurn {
  readonly calls: readonly DiffCall[];
  /** The step of each call, by position (calls of one step were made together); absent: one each. */
  readonly steps?: readonly number[];
  readonly answer?: string;
}

/** One run of a case, turn by turn, as two runs are compared. */
export interface DiffRun {
  readonly turns: readonly DiffTurn[];
}

/** The step of each call, from a transcript's steps (indices into the turn's calls). */
function stepsOf(
  count: number,
  steps: readonly TrajectoryStep[] | undefined,
): readonly number[] | undefined {
  if (steps === undefined || steps.length === 0) return undefined;
  const of = Array.from({ length: count }, (_, at) => steps.length + at);
  for (const [at, step] of steps.entries()) for (const call of step.calls) of[call] = at;
  return of;
}

function answerOf(
  output: Content | undefined,
  replies: readonly string[] | undefined,
): string | undefined {
  if (output !== undefined) return contentText(output);
  return replies?.at(-1);
}

function turnOf(turn: Pick<CaseTurn, "toolsCalled" | "calledSteps" | "actualOutput" | "replies">) {
  const calls: DiffCall[] = (turn.toolsCalled ?? []).map((call) => ({
    name: call.name,
    arguments: call.inputParameters,
    output: call.output,
    ...(call.isError === true ? { isError: true } : {}),
    ...(call.invalidArguments === undefined ? {} : { invalidArguments: call.invalidArguments }),
  }));
  const steps = stepsOf(calls.length, turn.calledSteps);
  const answer = answerOf(turn.actualOutput, turn.replies);
  const read: DiffTurn = {
    calls,
    ...(steps === undefined ? {} : { steps }),
    ...(answer === undefined ? {} : { answer }),
  };
  return read;
}

/** A case as read from a dataset or recordings, as a run to compare: its turns, or itself as one. */
export function diffRunOf(testCase: TestCase): DiffRun {
  if (testCase.turns !== undefined && testCase.turns.length > 0) {
    return { turns: testCase.turns.map(turnOf) };
  }
  return { turns: [turnOf(testCase)] };
}

function recordedCall(call: RecordedCall): DiffCall {
  return {
    name: call.name,
    arguments: call.arguments,
    ...(call.output === undefined ? {} : { output: call.output }),
    ...(call.isError === true ? { isError: true } : {}),
    ...(call.invalidArguments === undefined ? {} : { invalidArguments: call.invalidArguments }),
  };
}

function contentTurn(turn: TurnContent): DiffTurn {
  const answer = turn.actualOutput === undefined ? turn.finalReply : contentText(turn.actualOutput);
  return {
    calls: (turn.toolsCalled ?? []).map(recordedCall),
    ...(answer === undefined ? {} : { answer }),
  };
}

/**
 * A case as a results file's record keeps it (its calls without their steps), as a run to
 * compare: calls made together are then taken as made one by one.
 */
export function diffRunOfContent(content: CaseContent): DiffRun {
  if (content.turns !== undefined && content.turns.length > 0) {
    return { turns: content.turns.map(contentTurn) };
  }
  return { turns: [contentTurn(content)] };
}
