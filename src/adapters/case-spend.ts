import { isJsonObject, jsonEquals } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { costOf, defaultPrices, priceOfModel } from "../core/pricing.js";
import type { RunSpend } from "../core/test-case.js";
import type { TokenUsage, Trajectory } from "../core/trajectory.js";

/**
 * The tokens of a turn's transcript: the whole transcript's, or, for a later turn of a
 * conversation whose transcript holds the conversation so far, the part after its last user
 * message, so that no turn's tokens count twice.
 */
export function turnUsageOf(trajectory: Trajectory, laterTurn: boolean): TokenUsage | undefined {
  return laterTurn && trajectory.turns.length > 1
    ? trajectory.turns.at(-1)?.usage
    : trajectory.usage;
}

/** The tokens at the list price of the model, when the price is known. */
export function estimatedCostUsd(model: string, usage: TokenUsage): number | undefined {
  const price = priceOfModel(defaultPrices, model);
  return price === undefined ? undefined : costOf(price, usage);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * What a run spent: the figures its recording (`metadata.agentRun`: `durationMs`, `usage`,
 * `costUsd`, `estimatedCostUsd`) gives, each figure it lacks from its transcripts (tokens added
 * over the turns, a trace's duration, the tokens at the last model's list price). A recorded
 * figure that is not a number of 0 or more is left out with a note. Undefined when neither says
 * anything.
 */
export function readCaseSpend(
  metadata: JsonObject | undefined,
  transcripts: readonly Trajectory[],
  notes: string[],
): RunSpend | undefined {
  const spend: Mutable<RunSpend> = {};
  const agentRun = metadata?.agentRun;
  if (isJsonObject(agentRun)) {
    const figure = (value: unknown, what: string): number | undefined => {
      if (value === undefined) return undefined;
      if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
      notes.push(
        `metadata.agentRun.${what} ${JSON.stringify(value)} is not a number of 0 or more: not read`,
      );
      return undefined;
    };
    const durationMs = figure(agentRun.durationMs, "durationMs");
    if (durationMs !== undefined) spend.durationMs = durationMs;
    const usage = agentRun.usage as JsonObject[string] | undefined;
    if (isJsonObject(usage)) {
      const input = figure(usage.inputTokens, "usage.inputTokens");
      if (input !== undefined) spend.inputTokens = input;
      const output = figure(usage.outputTokens, "usage.outputTokens");
      if (output !== undefined) spend.outputTokens = output;
    } else if (usage !== undefined) {
      notes.push("metadata.agentRun.usage is not { inputTokens, outputTokens }: not read");
    }
    const reported = figure(agentRun.costUsd, "costUsd");
    const estimated = figure(agentRun.estimatedCostUsd, "estimatedCostUsd");
    if (reported !== undefined) spend.costUsd = reported;
    else if (estimated !== undefined) {
      spend.costUsd = estimated;
      spend.costEstimated = true;
    }
  }
  fillFromTranscripts(spend, transcripts);
  return Object.keys(spend).length === 0 ? undefined : spend;
}

function fillFromTranscripts(spend: Mutable<RunSpend>, transcripts: readonly Trajectory[]): void {
  if (transcripts.length === 0) return;
  let usage: Mutable<TokenUsage> | undefined;
  let durationMs: number | undefined;
  let model: string | undefined;
  for (const [at, trajectory] of transcripts.entries()) {
    const turn = turnUsageOf(trajectory, at > 0);
    if (turn !== undefined) {
      usage ??= { inputTokens: 0, outputTokens: 0 };
      usage.inputTokens += turn.inputTokens;
      usage.outputTokens += turn.outputTokens;
    }
    if (trajectory.durationMs !== undefined) {
      durationMs = (durationMs ?? 0) + trajectory.durationMs;
    }
    model = trajectory.models?.at(-1) ?? model;
  }
  const tokensRecorded = spend.inputTokens !== undefined || spend.outputTokens !== undefined;
  if (usage !== undefined && !tokensRecorded) {
    spend.inputTokens = usage.inputTokens;
    spend.outputTokens = usage.outputTokens;
  }
  if (durationMs !== undefined) spend.durationMs ??= durationMs;
  if (spend.costUsd === undefined && usage !== undefined && model !== undefined) {
    const cost = estimatedCostUsd(model, {
      inputTokens: spend.inputTokens ?? 0,
      outputTokens: spend.outputTokens ?? 0,
    });
    if (cost !== undefined) {
      spend.costUsd = cost;
      spend.costEstimated = true;
    }
  }
}

/**
 * What a recording's simulated tools logged of each call (`metadata.agentRun.simulatedTools`),
 * by the call's position: the entry at the same place whose tool and arguments are the call's,
 * else none (a transcript the agent trimmed, a tool it served itself).
 */
export function simulatedLogOf(
  calls: readonly ToolCall[],
  metadata: JsonObject | undefined,
): readonly (JsonObject | undefined)[] | undefined {
  const agentRun = metadata?.agentRun;
  const log = isJsonObject(agentRun) ? agentRun.simulatedTools : undefined;
  if (!Array.isArray(log)) return undefined;
  return calls.map((call, at) => {
    const logged = log[at];
    return isJsonObject(logged) &&
      logged.tool === call.name &&
      isJsonObject(logged.arguments) &&
      jsonEquals(logged.arguments, call.inputParameters)
      ? logged
      : undefined;
  });
}

/**
 * A recording's calls, each its simulated tool served with the latency it was given (none is 0),
 * unless the transcript timed the call itself.
 */
export function withSimulatedLatency(
  calls: readonly ToolCall[],
  metadata: JsonObject | undefined,
): readonly ToolCall[] {
  const log = simulatedLogOf(calls, metadata);
  if (log === undefined) return calls;
  return calls.map((call, at) => {
    const logged = log[at];
    if (logged === undefined || call.durationMs !== undefined) return call;
    const latency = logged.latencyMs;
    const durationMs =
      typeof latency === "number" && Number.isFinite(latency) && latency >= 0 ? latency : 0;
    return { ...call, durationMs };
  });
}
