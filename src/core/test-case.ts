import type { JsonObject } from "./json.js";
import type { ToolCall } from "./tool-call.js";
import type { TrajectoryStep } from "./trajectory.js";

/** Where an image comes from. Loading and validation happen at the edge (`src/node`), not here. */
export type ImageSource =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "base64"; readonly data: string; readonly mimeType?: string };

export interface TextPart {
  readonly type: "text";
  readonly text: string;
}

export interface ImagePart {
  readonly type: "image";
  readonly source: ImageSource;
}

/** One piece of multimodal content. */
export type ContentPart = TextPart | ImagePart;

/** Text, or an ordered mix of text and images. */
export type Content = string | readonly ContentPart[];

/**
 * A tool the agent could have called: its name, what it does, and its parameters as JSON Schema.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: JsonObject;
  /**
   * Whether calling the tool leaves the world as it was (a lookup) or may change it (a refund):
   * an extra call of a tool that is not read-only fails a case where the order allows extra
   * calls. Read from `readOnly` / `read_only`, or MCP's annotations (`readOnlyHint`, and
   * `destructiveHint: true` for a tool that changes state); undefined when not said.
   */
  readonly readOnly?: boolean;
  /**
   * Whether the tool reaches outside the agent's world (sends mail, posts, fetches the web):
   * `tool-safety` holds what leaves through it. Read from `openWorld` / `open_world`, or MCP's
   * `openWorldHint`; undefined when not said.
   */
  readonly openWorld?: boolean;
}

/**
 * What a run of the agent spent, as its recording or its transcript says (`efficiency` reads it):
 * each figure absent when neither says.
 */
export interface RunSpend {
  /** Model tokens the agent's model read over the run. */
  readonly inputTokens?: number;
  /** Model tokens the agent's model wrote over the run. */
  readonly outputTokens?: number;
  /** How long the run took, end to end, in milliseconds. */
  readonly durationMs?: number;
  /** What the run cost in US dollars: as the agent reported it, else its tokens at list price. */
  readonly costUsd?: number;
  /** Whether `costUsd` is an estimate from list prices, not what the agent reported. */
  readonly costEstimated?: boolean;
}

/**
 * One evaluation case: what the user asked, what the agent answered and did, and what it was
 * expected to do. Metrics read the fields they need and report the ones that are missing.
 */
export interface TestCase {
  readonly id?: string;
  /**
   * Which run of the case this is, for an agent run several times on the same case: cases with
   * the same `id` and a `run` are grouped, and the summary reports pass@k, pass^k and flaky cases.
   */
  readonly run?: number;
  readonly input?: Content;
  readonly actualOutput?: Content;
  readonly expectedOutput?: Content;
  /**
   * What the run should have achieved, in words (`task-completion`'s reference): "order 4521
   * refunded 30 EUR and the customer told so". Without it the judge reads the request alone.
   */
  readonly expectedOutcome?: Content;
  /** Strings the agent's replies must contain (`response-contains`). */
  readonly expectedOutputContains?: readonly string[];
  /**
   * The agent's text replies, each on its own, as read from its transcript (`parseTrajectory`'s
   * `replies`); metrics that look into the answer read them when `actualOutput` is not given.
   */
  readonly replies?: readonly string[];
  readonly toolsCalled?: readonly ToolCall[];
  readonly expectedTools?: readonly ToolCall[];
  /**
   * How `toolsCalled` and `expectedTools` group into steps (calls issued together), when they
   * were read from transcripts; `order: "steps"` compares them.
   */
  readonly calledSteps?: readonly TrajectoryStep[];
  readonly expectedSteps?: readonly TrajectoryStep[];
  readonly availableTools?: readonly ToolSpec[];
  /** What the answer should be faithful to: texts, image paths, image URLs, data URIs. */
  readonly retrievedContexts?: readonly (string | ImageSource)[];
  /**
   * Options for this case only, by metric id or name, laid over the run's options:
   * `{ "tool-call-accuracy": { "order": "in-order" } }`.
   */
  readonly metricOptions?: Readonly<Record<string, JsonObject>>;
  /**
   * A conversation, user turn by user turn: each turn is scored as a case (its calls against its
   * expected calls, its replies against its expected reply) and the case's score aggregates the
   * turns' (see `turnAggregate`). `toolsCalled` then holds the whole conversation's calls.
   */
  readonly turns?: readonly CaseTurn[];
  /** How the turns' scores make the case's: "mean" (default), "min", or "all" (every turn passes). */
  readonly turnAggregate?: "mean" | "min" | "all";
  /**
   * When this case is one turn of a conversation: the conversation's turns and this turn's index
   * among them; judges are shown the turns before it as the conversation so far. The turns are
   * shared, never copied, so a turn of a long conversation costs what any turn costs.
   */
  readonly conversation?: ConversationPlace;
  /**
   * Why the run is not the agent's to answer for: its simulated user spoiled it (made up a fact,
   * never ended, ...). No metric scores the case; each is not evaluable for this reason.
   */
  readonly simulatorFault?: string;
  /**
   * What the run spent (tokens, time, money), read from its recording (`metadata.agentRun`) or
   * its transcript.
   */
  readonly spend?: RunSpend;
}

/** Where a case sits in a conversation: its turns, and the index (0-based) of this one. */
export interface ConversationPlace {
  readonly turns: readonly CaseTurn[];
  readonly at: number;
}

/**
 * One user turn of a conversation: what the user said, what the agent did and replied (read from
 * the conversation's transcript: the calls and replies that followed this user message), and what
 * was expected of it (no calls, when `expectedTools` is left out), with options for this turn
 * only, laid over the case's.
 */
export type CaseTurn = Pick<
  TestCase,
  | "input"
  | "actualOutput"
  | "replies"
  | "toolsCalled"
  | "calledSteps"
  | "expectedTools"
  | "expectedSteps"
  | "expectedOutput"
  | "expectedOutputContains"
  | "expectedOutcome"
  | "metricOptions"
>;

/** The text of content: a string, or its text parts (images have none). */
export function contentText(content: Content): string {
  if (typeof content === "string") return content;
  // Read as data may write it: a list may hold plain strings, and parts without text.
  return (content as readonly unknown[])
    .flatMap((part) => {
      if (typeof part === "string") return [part];
      const text = (part as { type?: unknown; text?: unknown } | null)?.text;
      return (part as { type?: unknown } | null)?.type === "text" && typeof text === "string"
        ? [text]
        : [];
    })
    .join("\n");
}
