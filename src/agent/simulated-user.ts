/**
 * Who speaks to the agent in a run: the case's scripted inputs, or its simulated user, asked for
 * each message and checked by rule before the message is sent. A fault ends the conversation:
 * the run is then the simulator's to answer for, not the agent's.
 */
import { JudgeResponseError, ProviderCallError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import type { Content } from "../core/test-case.js";
import { lastTurnOf } from "../adapters/dataset-turns.js";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { askSimulatedUser } from "../judges/simulated-user.js";
import type { HeardTurn } from "../judges/simulated-user.js";
import { checkUserEnding, checkUserMessage, expectedByIntent } from "../simulate/simulated-user.js";
import type { SimulatedUser, UserFault } from "../simulate/simulated-user.js";
import type { AgentTurn } from "./agent.js";

/** What the user says to the agent, turn by turn. */
export interface Speaker {
  /** The next message, given the conversation so far; undefined once the user has ended it. */
  next(history: readonly AgentTurn[]): Promise<Content | undefined>;
  /** Whether the case is one input (its failure is said without a turn number). */
  readonly single: boolean;
  /** A simulated user's account of the run. */
  readonly log?: () => UserRunLog;
}

/** What a simulated user did in a run. */
export interface UserRunLog {
  readonly user: SimulatedUser;
  /** What spoiled the run; empty when nothing did. */
  readonly faults: readonly UserFault[];
  /** The intent of each message sent. */
  readonly intents: readonly (string | undefined)[];
  /** As the recording keeps it, under `metadata.agentRun.user`. */
  readonly recorded: JsonObject;
}

/** The case's inputs, one a turn. */
export function scriptedSpeaker(inputs: readonly Content[]): Speaker {
  return {
    single: inputs.length === 1,
    next: (history) => Promise.resolve(inputs.at(history.length)),
  };
}

interface Said {
  readonly message: string;
  readonly intent?: string;
  /** What was wrong with it; a message with faults is not sent. */
  readonly faults?: readonly UserFault[];
}

/**
 * A simulated user: before each turn its model is asked for the next message, which is checked
 * (`checkUserMessage`) before it is sent; its ending is checked too (`checkUserEnding`). A model
 * that gives no usable answer is a fault of the simulator as well; a model that cannot be made
 * (no key) throws, ending the runs.
 */
export function createUserSpeaker(input: {
  readonly user: SimulatedUser;
  readonly model: () => JudgeModel;
  readonly seed: number;
  readonly signal?: AbortSignal | undefined;
}): Speaker {
  const { user, seed, signal } = input;
  const said: Said[] = [];
  const faults: UserFault[] = [];
  const replies: (readonly string[])[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let modelName: string | undefined;
  let closing: string | undefined;
  let ended: "done" | "max-turns" | "fault" | undefined;
  const fail = (found: readonly UserFault[], how: typeof ended): Content | undefined => {
    faults.push(...found);
    ended = found.length > 0 ? "fault" : how;
    return undefined;
  };
  const sent = () => said.filter((message) => message.faults === undefined);
  return {
    single: false,
    async next(history) {
      const turn = history.length;
      const conversation = history.map((entry, at): HeardTurn => ({
        user: said[at]?.message ?? "",
        agent: (replies[at] ??= turnOf(entry.transcript)?.replies ?? []),
      }));
      let answer;
      try {
        const model = input.model();
        modelName ??= `${model.provider}/${model.modelId}`;
        answer = await askSimulatedUser(model, { brief: user, conversation, seed, signal });
      } catch (error) {
        if (!JudgeResponseError.isInstance(error) && !ProviderCallError.isInstance(error)) {
          throw error;
        }
        if (signal?.aborted === true) throw error;
        return fail(
          [
            {
              kind: "no-answer",
              turn: turn + 1,
              message: `turn ${turn + 1}: the model playing the user gave no usable answer: ${error.message}`,
            },
          ],
          "fault",
        );
      }
      usage.inputTokens += answer.usage.inputTokens;
      usage.outputTokens += answer.usage.outputTokens;
      const pursued = said.map((message) => message.intent);
      if (answer.done) {
        closing = answer.message;
        return fail(checkUserEnding({ user, answered: turn, ended: true, pursued }), "done");
      }
      if (turn >= user.maxTurns) {
        return fail(checkUserEnding({ user, answered: turn, ended: false, pursued }), "max-turns");
      }
      const heard = [
        ...said.map((message) => message.message),
        ...conversation.flatMap((t) => t.agent),
      ];
      const found = checkUserMessage({ user, message: answer.message, turn: turn + 1, heard });
      said.push({
        message: answer.message,
        ...(answer.intent === undefined ? {} : { intent: answer.intent }),
        ...(found.length === 0 ? {} : { faults: found }),
      });
      if (found.length > 0) return fail(found, "fault");
      return answer.message;
    },
    log: () => {
      const recorded: JsonObject = {
        ...(modelName === undefined ? {} : { model: modelName }),
        seed,
        messages: said.map((message): JsonObject => ({
          message: message.message,
          ...(message.intent === undefined ? {} : { intent: message.intent }),
          ...(message.faults === undefined
            ? {}
            : { sent: false, faults: message.faults.map((fault) => fault.kind) }),
        })),
        ...(closing === undefined ? {} : { closing }),
        ...(ended === undefined ? {} : { ended }),
        faults: faults.map((fault): JsonObject => ({ ...fault })),
        usage: { ...usage },
      };
      return { user, faults, intents: sent().map((message) => message.intent), recorded };
    },
  };
}

/**
 * A turn's transcript read by the one reader, as scoring reads it: what followed its last user
 * message (it may hold the conversation so far); undefined when it cannot be read (scoring says
 * why).
 */
function turnOf(transcript: unknown): ReturnType<typeof lastTurnOf> | undefined {
  try {
    return lastTurnOf(parseTrajectory(transcript));
  } catch {
    return undefined;
  }
}

/**
 * A simulated user's conversation as a recording's turns: each message sent as a turn's input,
 * with the calls expected of it by the intent it pursued (`expectedByIntent`), when the user's
 * intents expect calls; undefined when the user said nothing.
 */
export function spokenTurns(
  inputs: readonly Content[],
  transcripts: readonly unknown[],
  log: UserRunLog,
): JsonObject[] | undefined {
  if (inputs.length === 0) return undefined;
  const expected = expectedByIntent({
    intents: log.user.intents,
    turnIntents: log.intents,
    called: inputs.map((_, at) =>
      (turnOf(transcripts[at])?.toolsCalled ?? []).map((call) => call.name),
    ),
  });
  return inputs.map((input, at): JsonObject => ({
    input: input as JsonObject[keyof JsonObject],
    ...(expected === undefined ? {} : { expectedTools: expected[at] as JsonObject[] }),
  }));
}
