/**
 * The simulated user's next message, asked of a model as a structured question: the user's brief
 * and the conversation so far in, its message, intent and whether it ends out.
 */
import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import { askJudge } from "./ask-judge.js";
import { fenced } from "./fence.js";
import { simulatedUserInstructions, simulatedUserSchemaFor } from "./prompts/simulated-user.js";

/** What the model playing the user is told of its part. */
export interface UserBrief {
  readonly goal: string;
  readonly facts: Readonly<Record<string, string>>;
  readonly persona?: string;
  readonly intents: readonly { readonly name: string; readonly description?: string }[];
}

/** The user's next message: sent to the agent unless `done`. */
export interface UserTurn {
  readonly message: string;
  readonly intent?: string;
  readonly done: boolean;
  readonly usage: JudgeUsage;
  readonly cached: boolean;
}

/** The conversation so far: each user message with the agent's replies to it. */
export interface HeardTurn {
  readonly user: string;
  readonly agent: readonly string[];
}

/** The question the user model is asked at this point of the conversation. */
export function simulatedUserRequest(
  brief: UserBrief,
  conversation: readonly HeardTurn[],
  seed: number,
): JudgeRequest {
  const facts = Object.entries(brief.facts).map(([key, value]) => `${key}: ${value}`);
  const sections = [
    `## Your goal\n${fenced(brief.goal)}`,
    `## The facts you know\n${fenced(facts.length === 0 ? "(none)" : facts.join("\n"))}`,
    ...(brief.persona === undefined ? [] : [`## Your persona\n${fenced(brief.persona)}`]),
    ...(brief.intents.length === 0
      ? []
      : [
          `## The intents of your goal\n${fenced(brief.intents.map((intent) => (intent.description === undefined ? intent.name : `${intent.name}: ${intent.description}`)).join("\n"))}`,
        ]),
    `## The conversation so far\n${fenced(
      conversation.length === 0
        ? "(nothing yet: write your first message)"
        : conversation
            .map((turn) =>
              [`you: ${turn.user}`, ...turn.agent.map((reply) => `agent: ${reply}`)].join("\n"),
            )
            .join("\n"),
    )}`,
  ];
  return {
    messages: [
      { role: "system", content: simulatedUserInstructions },
      { role: "user", content: sections.join("\n\n") },
    ],
    schema: simulatedUserSchemaFor(brief.intents.map((intent) => intent.name)),
    // The seed keeps users apart in the cache: the same seed replays a conversation's questions.
    sample: seed,
  };
}

/** Asks the model for the user's next message (`askJudge`'s retries and errors apply). */
export async function askSimulatedUser(
  model: JudgeModel,
  input: {
    readonly brief: UserBrief;
    readonly conversation: readonly HeardTurn[];
    readonly seed: number;
    readonly signal?: AbortSignal | undefined;
  },
): Promise<UserTurn> {
  const request = simulatedUserRequest(input.brief, input.conversation, input.seed);
  const answer = await askJudge(model, request, {
    ...(input.signal === undefined ? {} : { signal: input.signal }),
    read: (output) => {
      const message = typeof output.message === "string" ? output.message.trim() : "";
      const done = output.done === true;
      if (message === "" && !done) return "message is empty: write the next message to the agent";
      const intent = typeof output.intent === "string" ? output.intent : undefined;
      return { message, done, ...(intent === undefined ? {} : { intent }) };
    },
  });
  return { ...answer.value, usage: answer.usage, cached: answer.cached };
}
