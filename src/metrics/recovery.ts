/**
 * `recovery`: how the agent handled its tools' failures, by rule. For each failure (a call the
 * tool answered with an error, a timeout or a rate limit, and the calls of the same tool and
 * arguments that followed it until one succeeded) three rules are checked: the agent retried at
 * most `maxRetries` times; it did not repeat a state-changing call that timed out (and so may
 * have gone through) without looking first; and when the tool never succeeded, its answer says
 * so instead of claiming success.
 */
import { InvalidInputError, InvalidOptionError } from "../core/errors.js";
import { jsonEquals } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { measureBySync } from "../core/metric.js";
import type { SyncMetric } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import {
  camelKeys,
  caseOptions,
  integerOption,
  nameOption,
  optionsObject,
  rejectUnknownOptions,
  shareOption,
} from "../core/options.js";
import { contentText } from "../core/test-case.js";
import type { Content, ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import { linearRegExp } from "../matchers/linear-regex.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import { outputSaysError } from "./call-scope.js";
import { patternOption } from "./constraint-options.js";

/** What `recovery` reads from a case. */
export interface RecoveryCase {
  readonly toolsCalled?: readonly ToolCall[];
  /** Which tools change state (`readOnly: false`) and which only look (`readOnly: true`). */
  readonly availableTools?: readonly ToolSpec[];
  readonly actualOutput?: Content;
  readonly replies?: readonly string[];
}

export interface RecoveryOptions {
  /** The metric's name in results. Default "Recovery". */
  name?: string;
  /** The score a case needs to pass. Default 1: every failure handled. */
  threshold?: number;
  /** Calls of a failed tool with the same arguments allowed after the failure. Default 2. */
  maxRetries?: number;
  /** Tools whose calls change state, beside those the case's tools mark `readOnly: false`. */
  stateChanging?: string[];
  /**
   * A pattern (RE2 syntax) of outputs that say the call failed, for transcripts that do not mark
   * tool errors. Default: error, failed, failure, exception, timed out, timeout, rate limit, 429,
   * unavailable, as words, any case.
   */
  errorOutput?: string;
}

/** How a failure fared. */
export interface RecoveryFailure {
  /** The failed call's position among the case's calls, from 0. */
  readonly call: number;
  readonly tool: string;
  readonly kind: "error" | "timeout" | "rate-limit";
  /** Calls of the same tool and arguments after it, up to one that succeeded. */
  readonly retries: number;
  /** Whether a later call of the tool succeeded. */
  readonly recovered: boolean;
  /** The rules it broke, each said in a sentence; none when it was handled. */
  readonly violations: readonly string[];
}

export interface RecoveryDetails {
  readonly failures: readonly RecoveryFailure[];
  /** Whether the answer was read (a failure never recovered needs it). */
  readonly answerRead: boolean;
}

const optionNames = ["name", "threshold", "maxRetries", "stateChanging", "errorOutput"];
/** What a case's `metricOptions` may set. */
export const recoveryCaseOptions: readonly string[] = [
  "threshold",
  "maxRetries",
  "stateChanging",
  "errorOutput",
];

const defaultErrorOutput =
  "\\b(errors?|failed|failure|exception|timed ?out|timeout|rate.?limit(ed)?|429|unavailable)\\b";

/** Words an answer uses to say a step did not go through. */
const acknowledged =
  /\b(could ?n[o']t|can ?n[o']t|cannot|unable|not able|failed|failure|error|did ?n[o']t|was ?n[o']t|were ?n[o']t|is ?n[o']t|not (?:been )?(?:completed|processed|confirmed|possible)|try again|unavailable|sorry|problem|timed out|went wrong)\b/i;

function kindOf(output: string): RecoveryFailure["kind"] {
  if (/timed? ?out|timeout|deadline/i.test(output)) return "timeout";
  if (/rate.?limit|\b429\b|too many requests/i.test(output)) return "rate-limit";
  return "error";
}

/** Which calls failed: marked errors, or outputs `errorOutput` finds (transcripts that do not mark them). */
export function failedFlags(calls: readonly ToolCall[], errorOutput: LinearRegExp): boolean[] {
  return calls.map((call) => call.isError === true || outputSaysError(call.output, errorOutput));
}

/** The pattern of outputs that say a call failed, when none is given (see `errorOutput`). */
export function defaultErrorPattern(): LinearRegExp {
  return linearRegExp(defaultErrorOutput, "i");
}

/** A failed call, and the calls of the same tool and arguments after it up to one that succeeded. */
export interface RetryChain {
  readonly at: number;
  /** The retries' positions among the calls, in order. */
  readonly retries: readonly number[];
  /** Whether the last retry succeeded. */
  readonly succeeded: boolean;
}

/** Every failure's retries: a call in a chain starts none of its own. */
export function retryChains(calls: readonly ToolCall[], failed: readonly boolean[]): RetryChain[] {
  const chains: RetryChain[] = [];
  const inChain = new Set<number>();
  for (const [at, call] of calls.entries()) {
    if (!failed[at] || inChain.has(at)) continue;
    const retries: number[] = [];
    let succeeded = false;
    for (let next = at + 1; next < calls.length && !succeeded; next++) {
      const later = calls[next];
      if (later.name !== call.name || !jsonEquals(later.inputParameters, call.inputParameters)) {
        continue;
      }
      inChain.add(next);
      retries.push(next);
      succeeded = !failed[next];
    }
    chains.push({ at, retries, succeeded });
  }
  return chains;
}

const textOf = (call: ToolCall) =>
  typeof call.output === "string" ? call.output : JSON.stringify(call.output);

/**
 * A deterministic check of how the agent handled failed tool calls (see the file's head). The
 * score is the share of failures handled by every rule; a case where no call failed scores 1.
 *
 * @example
 * const metric = recovery({ maxRetries: 1, stateChanging: ["issue_refund"] });
 */
export function recovery(options: RecoveryOptions = {}): SyncMetric<RecoveryCase, RecoveryDetails> {
  const given = camelKeys(optionsObject("recovery", options) as JsonObject) as Record<
    string,
    unknown
  >;
  rejectUnknownOptions("recovery", given, optionNames);
  const name = nameOption("recovery", given.name, "Recovery");
  const threshold = shareOption("recovery.threshold", given.threshold, 1);
  const maxRetries = integerOption("recovery.maxRetries", given.maxRetries, 2, {
    min: 0,
    unit: "retries",
  });
  const listed = given.stateChanging;
  if (
    listed !== undefined &&
    !(Array.isArray(listed) && listed.every((item) => typeof item === "string"))
  ) {
    throw new InvalidOptionError({
      option: "recovery.stateChanging",
      value: listed,
      message: "recovery.stateChanging must be a list of tool names",
    });
  }
  const stateChanging = new Set(listed ?? []);
  const errorOutput =
    patternOption("recovery.errorOutput", given.errorOutput) ?? defaultErrorPattern();

  const measureSync = (testCase: RecoveryCase): MetricResult<RecoveryDetails> => {
    try {
      if (typeof (testCase as unknown) !== "object" || (testCase as unknown) === null) {
        throw new InvalidInputError({ field: "testCase", message: `${name} measures a test case` });
      }
      const calls = testCase.toolsCalled ?? [];
      const readOnly = new Map((testCase.availableTools ?? []).map((t) => [t.name, t.readOnly]));
      const changes = (tool: string) => stateChanging.has(tool) || readOnly.get(tool) === false;
      const failed = failedFlags(calls, errorOutput);
      const answer =
        testCase.actualOutput === undefined
          ? testCase.replies?.at(-1)
          : contentText(testCase.actualOutput);
      const failures: RecoveryFailure[] = [];
      for (const chain of retryChains(calls, failed)) {
        const { at } = chain;
        const call = calls[at];
        const kind = kindOf(textOf(call));
        const retried = new Set(chain.retries);
        const retries = chain.retries.length;
        let recovered = chain.succeeded;
        const violations: string[] = [];
        let looked = false;
        let uncertain = kind === "timeout" && changes(call.name);
        const last = chain.succeeded ? (chain.retries.at(-1) as number) : calls.length - 1;
        for (let next = at + 1; next <= last; next++) {
          const later = calls[next];
          if (!retried.has(next)) {
            if (later.name !== call.name && !changes(later.name)) looked = true;
            if (later.name === call.name && !failed[next]) recovered = true;
            continue;
          }
          if (uncertain && !looked) {
            violations.push(
              `called[${next}] ${later.name} repeats called[${at}], which timed out and may have gone through: look before doing it again`,
            );
          }
          uncertain = kindOf(textOf(later)) === "timeout" && changes(call.name);
          looked = false;
        }
        if (retries > maxRetries) {
          violations.push(
            `${call.name} was called ${retries} more times after called[${at}] failed (at most ${maxRetries})`,
          );
        }
        if (!recovered && answer !== undefined && !acknowledged.test(answer)) {
          violations.push(
            `${call.name} failed (called[${at}], ${kind}) and never succeeded, but the answer does not say so`,
          );
        }
        failures.push({ call: at, tool: call.name, kind, retries, recovered, violations });
      }
      const handled = failures.filter((failure) => failure.violations.length === 0).length;
      const score = failures.length === 0 ? 1 : handled / failures.length;
      const broken = failures.flatMap((failure) => failure.violations);
      const unread =
        answer === undefined && failures.some((failure) => !failure.recovered)
          ? "; the case has no answer, so whether it claimed success was not checked"
          : "";
      const reason =
        failures.length === 0
          ? calls.length === 0
            ? "no tool was called: nothing to recover from"
            : `none of ${calls.length} ${calls.length === 1 ? "call" : "calls"} failed: nothing to recover from`
          : broken.length === 0
            ? `all ${failures.length} ${failures.length === 1 ? "failure" : "failures"} handled${unread}`
            : `${failures.length - handled} of ${failures.length} ${failures.length === 1 ? "failure" : "failures"} mishandled: ${broken.join("; ")}${unread}`;
      return scoredResult(name, {
        score,
        threshold,
        reason,
        details: { failures, answerRead: answer !== undefined },
      });
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  return {
    id: "recovery",
    name,
    withOptions: (overrides: JsonObject) =>
      recovery({
        ...options,
        ...(caseOptions("recovery", overrides, recoveryCaseOptions) as RecoveryOptions),
      }),
    measure: measureBySync(measureSync),
    measureSync,
  };
}
