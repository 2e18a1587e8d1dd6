import type { JudgeModel, JudgeRequest, JudgeUsage } from "../core/judge.js";
import type { JsonObject } from "../core/json.js";
import { contentText } from "../core/test-case.js";
import type {
  Content,
  ConversationPlace,
  ImagePart,
  TextPart,
  ToolSpec,
} from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import { shortenOutput } from "./shorten-output.js";
import type { ToolCall } from "../core/tool-call.js";
import { describeTools, shownContent } from "./case-content.js";
import { fenced } from "./fence.js";
import {
  argumentCorrectnessDecisionInstructions,
  argumentCorrectnessInstructions,
  argumentCorrectnessQuestion,
  argumentCorrectnessSchema,
} from "./prompts/argument-correctness.js";
import {
  bandVerdict,
  decisionRequest,
  isDecisionModel,
  probabilityText,
  readDecisions,
} from "./decisions.js";
import type { DecisionBand } from "./decisions.js";
import { askSamples, majorityVerdict, sampleShare } from "./samples.js";
import type { JudgeCallOptions, SamplingOptions } from "./samples.js";

/** A judge's verdict on one call's arguments. */
export type ArgumentVerdict = "right" | "wrong" | "cannot_tell";

/** What the judge is shown: the request, the tools available, the calls with their outputs. */
export interface ArgumentCorrectnessInput {
  readonly input: Content;
  readonly availableTools: readonly ToolSpec[];
  readonly toolsCalled: readonly ToolCall[];
  /** Where the case sits in a conversation, when it is one turn of one. */
  readonly conversation?: ConversationPlace | undefined;
}

/** One call's verdict over every sample: the majority, its reason, and how far samples agreed. */
export interface CallArgumentsVerdict {
  /** The call's place among the calls made, from 0. */
  readonly index: number;
  readonly name: string;
  /** `cannot_tell` also when the samples agreed less than `minAgreement`. */
  readonly verdict: ArgumentVerdict;
  readonly reason: string;
  /** Share of samples that gave the majority verdict. */
  readonly agreement: number;
  /** Every sample's verdict, in order. */
  readonly samples: readonly ArgumentVerdict[];
  /** A decision model's probability that the arguments were right (the first sample's). */
  readonly probability?: number;
}

/**
 * Longest tool output shown to the judge, in characters: a longer one keeps its head and tail,
 * JSON shortened by its values first (see `shortenOutput`).
 */
export const maxOutputShown = 4000;

function describeOutput(call: ToolCall): string {
  if (call.output === null) return "(no output recorded)";
  return `${call.isError === true ? "error: " : ""}${shortenOutput(call.output, maxOutputShown)}`;
}

/** A call as judges read it: numbered, its arguments, the agent's reason, what it returned. */
function describeCall(call: ToolCall, number: number): string {
  const args = call.invalidArguments ?? JSON.stringify(call.inputParameters);
  return [
    `Call ${number}: ${call.name}(${args})`,
    call.reasoning === undefined ? "" : `The agent's stated reason: ${call.reasoning}`,
    `Returned: ${describeOutput(call)}`,
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/** Earlier turns of a conversation a judge is shown at most: the latest (older ones are counted). */
export const maxEarlierTurnsShown = 20;

/**
 * The turns of a conversation before the one judged, as text: what the user said, the calls with
 * what they returned, what the agent said; the latest `maxEarlierTurnsShown` of them, so a
 * prompt stays bounded however long the conversation; empty for the first turn (or a case that
 * is no conversation). Images of earlier turns are counted, not sent.
 */
export function conversationSoFar(place: ConversationPlace | undefined): TextPart[] {
  if (place === undefined || place.at <= 0) return [];
  const first = Math.max(0, place.at - maxEarlierTurnsShown);
  const lines = ["## The conversation so far (earlier turns, for context: judge the turn below)"];
  if (first > 0) {
    lines.push(
      `(turns 1 to ${first} are not shown: only the latest ${maxEarlierTurnsShown} earlier turns are)`,
    );
  }
  for (let at = first; at < place.at; at++) {
    const turn = place.turns[at] ?? {};
    lines.push(`### Turn ${at + 1}`);
    if (turn.input !== undefined) lines.push("The user said:", fenced(contentText(turn.input)));
    let calls: readonly ToolCall[];
    try {
      calls = toToolCalls(turn.toolsCalled ?? [], { field: `turns[${at}].toolsCalled` });
    } catch {
      calls = [];
      lines.push("(the calls of this turn could not be read)");
    }
    if (calls.length > 0) {
      lines.push(
        "The agent's calls, with what each returned:",
        ...calls.map((call, index) => fenced(describeCall(call, index + 1))),
      );
    }
    const said =
      turn.actualOutput === undefined ? (turn.replies ?? []) : [contentText(turn.actualOutput)];
    if (said.length > 0) lines.push("The agent said:", ...said.map((reply) => fenced(reply)));
  }
  return [{ type: "text", text: lines.join("\n") }];
}

/** The tools available and the calls made with their outputs, as the run judges read them. */
export function runSections(tools: readonly ToolSpec[], calls: readonly ToolCall[]): string[] {
  return [
    "## Available tools",
    tools.length === 0 ? "(their definitions were not given)" : describeTools(tools),
    "## Calls the agent made, in order, with what each returned",
    calls.length === 0
      ? "(no calls)"
      : calls.map((call, index) => fenced(describeCall(call, index + 1))).join("\n"),
  ];
}

/** The judge request for one case; images of the request are sent when the judge takes them. */
export function argumentCorrectnessRequest(
  input: ArgumentCorrectnessInput,
  options: { readonly images: boolean },
): JudgeRequest {
  const content: (TextPart | ImagePart)[] = [
    ...conversationSoFar(input.conversation),
    ...shownContent("## The user's request", input.input, { ...options, what: "request" }),
    {
      type: "text",
      text: runSections(input.availableTools, input.toolsCalled).join("\n"),
    },
  ];
  return {
    messages: [
      { role: "system", content: argumentCorrectnessInstructions },
      { role: "user", content },
    ],
    schema: argumentCorrectnessSchema,
  };
}

interface SampleVerdict {
  readonly verdict: ArgumentVerdict;
  readonly reason: string;
  readonly probability?: number;
}

/** The decision form of the request: one yes-no question per call. */
export function argumentDecisionRequest(
  input: ArgumentCorrectnessInput,
  options: { readonly images: boolean },
): JudgeRequest {
  return decisionRequest(
    argumentCorrectnessRequest(input, options),
    argumentCorrectnessDecisionInstructions,
    input.toolsCalled.map((call, index) => ({
      type: "yes-no",
      id: `call_${index + 1}`,
      instructions: argumentCorrectnessQuestion(index + 1, call.name),
    })),
  );
}

const argumentVerdicts = { pass: "right", fail: "wrong", cannot_tell: "cannot_tell" } as const;

/** Reads a decision model's answers: each call's verdict from its probability and the band. */
export function readArgumentDecisions(count: number, band: DecisionBand) {
  return (output: JsonObject): SampleVerdict[] | string => {
    const answers = readDecisions(output);
    if (typeof answers === "string") return answers;
    return Array.from({ length: count }, (_, index): SampleVerdict => {
      const distribution = answers[`call_${index + 1}`];
      if (distribution === null) {
        return { verdict: "cannot_tell", reason: "the decision model declined to answer" };
      }
      const probability = distribution.yes;
      return {
        verdict: argumentVerdicts[bandVerdict(probability, band)],
        reason: `P(right) ${probabilityText(probability)}, band [${band.low}, ${band.high}]`,
        probability,
      };
    });
  };
}

/** Reads an answer that fits the schema: one verdict for each of `count` calls, or what is wrong. */
export function readArgumentVerdicts(count: number) {
  return (output: JsonObject): SampleVerdict[] | string => {
    const calls = output.calls as { call: number; verdict: ArgumentVerdict; reason: string }[];
    const verdicts: (SampleVerdict | undefined)[] = new Array<SampleVerdict | undefined>(count);
    for (const entry of calls) {
      if (entry.call < 1 || entry.call > count) {
        return `call ${entry.call} is not one of the ${count} calls listed`;
      }
      if (verdicts[entry.call - 1] !== undefined) return `call ${entry.call} is judged twice`;
      verdicts[entry.call - 1] = { verdict: entry.verdict, reason: entry.reason.trim() };
    }
    const missing = verdicts.findIndex((verdict) => verdict === undefined);
    if (missing !== -1) return `call ${missing + 1} has no verdict: judge every call listed`;
    return verdicts as SampleVerdict[];
  };
}

/** The verdicts on every call of a case, and what asking for them cost. */
export interface ArgumentCorrectnessAnswer {
  readonly calls: readonly CallArgumentsVerdict[];
  readonly usage: JudgeUsage;
  readonly attempts: number;
  readonly cached: boolean;
  readonly costUsd?: number;
}

/** Combines the samples of one call: the majority, or `cannot_tell` when they agree too little. */
function combineCall(
  call: ToolCall,
  index: number,
  samples: readonly SampleVerdict[],
  minAgreement: number,
): CallArgumentsVerdict {
  const { verdict, reason, agreement, verdicts } = majorityVerdict(samples, {
    order: ["right", "wrong", "cannot_tell"],
    undecided: "cannot_tell",
    minAgreement,
  });
  const probability = samples[0]?.probability;
  return {
    index,
    name: call.name,
    verdict,
    reason,
    agreement,
    samples: verdicts,
    ...(probability === undefined ? {} : { probability }),
  };
}

/**
 * Asks a judge whether each call's arguments were right for the request and the outputs before
 * it, `sampling.samples` times; each call gets the majority verdict, or `cannot_tell` when the
 * samples agree less than `sampling.minAgreement`.
 */
export async function judgeArguments(
  model: JudgeModel,
  input: ArgumentCorrectnessInput,
  sampling: SamplingOptions,
  options: JudgeCallOptions = {},
): Promise<ArgumentCorrectnessAnswer> {
  const count = input.toolsCalled.length;
  const decides = isDecisionModel(model);
  const request = (decides ? argumentDecisionRequest : argumentCorrectnessRequest)(input, {
    images: model.supportsImages,
  });
  const answers = await askSamples(model, request, sampling, {
    read: decides ? readArgumentDecisions(count, sampling.band) : readArgumentVerdicts(count),
    ...options,
  });
  const calls = input.toolsCalled.map((call, index) =>
    combineCall(
      call,
      index,
      answers.values.map((sample) => sample[index]),
      sampling.minAgreement,
    ),
  );
  return {
    calls,
    usage: answers.usage,
    attempts: answers.attempts,
    cached: answers.cached,
    costUsd: answers.costUsd,
  };
}

/** What the verdicts come to: a score with its reason, or not evaluable when it hangs on a call the judge could not tell. */
export type ArgumentCorrectnessOutcome =
  | { readonly kind: "scored"; readonly score: number; readonly reason: string }
  | { readonly kind: "not-evaluable"; readonly reason: string };

const named = (call: CallArgumentsVerdict) => `called[${call.index}] ${call.name}`;

/**
 * The share of calls judged right; calls the judge could not tell count as not right, unless
 * they decide whether the case passes: then the case is not evaluable, naming them.
 */
export function argumentCorrectnessOutcome(
  calls: readonly CallArgumentsVerdict[],
  threshold: number,
): ArgumentCorrectnessOutcome {
  const right = calls.filter((call) => call.verdict === "right").length;
  const unsure = calls.filter((call) => call.verdict === "cannot_tell");
  const wrong = calls.filter((call) => call.verdict === "wrong");
  const score = right / calls.length;
  const best = (right + unsure.length) / calls.length;
  const tally = `${right} of ${calls.length} call${calls.length === 1 ? "" : "s"} judged right`;
  // The share of the verdict's own samples, when they are a majority: a "cannot tell" of samples
  // that disagreed says so in its reason already.
  const split = (call: CallArgumentsVerdict) => {
    const own = call.samples.filter((sample) => sample === call.verdict).length;
    return own * 2 > call.samples.length
      ? sampleShare(own / call.samples.length, call.samples.length)
      : "";
  };
  const unsureText = unsure.map(
    (call) => `${named(call)}: cannot tell${split(call)}: ${call.reason}`,
  );
  if (unsure.length > 0 && score < threshold && best >= threshold) {
    return {
      kind: "not-evaluable",
      reason: `${unsureText.join("; ")}. The verdict hangs on ${unsure.length === 1 ? "it" : "them"} (${tally}, threshold ${threshold}).`,
    };
  }
  const wrongText = wrong.map((call) => `${named(call)}${split(call)}: ${call.reason}`);
  // A right verdict the samples split on is named too: it would read as unanimous otherwise.
  const splitRight = calls
    .filter((call) => call.verdict === "right" && split(call) !== "")
    .map((call) => `${named(call)}: right${split(call)}`);
  return {
    kind: "scored",
    score,
    reason: [...wrongText, ...unsureText, ...splitRight, `${tally}.`].join("; "),
  };
}
