/**
 * `efficiency`: what a run cost, by rule, against budgets. The figures come from what the case
 * carries: its calls (repeated identical calls, loops, retries after failures, calls beyond the
 * expected ones, each tool's time when the transcript times calls) and what the run spent (tokens,
 * time, money; `TestCase.spend`). Each budget given is a check; the score is the share held.
 */
import { InvalidInputError, InvalidOptionError } from "../core/errors.js";
import { canonicalJson, isJsonObject } from "../core/json.js";
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
  numberOption,
  optionsObject,
  rejectUnknownOptions,
  shareOption,
} from "../core/options.js";
import type { CaseTurn, RunSpend, ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import { patternOption } from "./constraint-options.js";
import { defaultErrorPattern, failedFlags, retryChains } from "./recovery.js";

/** What `efficiency` reads from a case. */
export interface EfficiencyCase {
  readonly toolsCalled?: readonly ToolCall[];
  /** The calls expected: calls beyond them are counted when given. */
  readonly expectedTools?: readonly ToolCall[];
  /** A conversation's turns: their expected calls, when the case lists none of its own. */
  readonly turns?: readonly Pick<CaseTurn, "expectedTools">[];
  /** Which tools only look (`readOnly: true`): their calls beyond the expected ones are lookups. */
  readonly availableTools?: readonly ToolSpec[];
  readonly spend?: RunSpend;
}

/** Budgets for one tool's calls. */
export interface ToolBudgets {
  maxCalls?: number;
  maxRepeats?: number;
  maxRetries?: number;
  /** The slowest call of the tool, in milliseconds. */
  maxLatencyMs?: number;
}

export interface EfficiencyOptions {
  /** The metric's name in results. Default "Efficiency". */
  name?: string;
  /** The share of budgets a case must hold to pass. Default 1: every one. */
  threshold?: number;
  /** Tool calls in the run. */
  maxCalls?: number;
  /** Calls identical (tool and arguments) to an earlier one that succeeded. */
  maxRepeats?: number;
  /** Loops: the same calls done again back to back (see `EfficiencyLoop`). Default 0. */
  maxLoops?: number;
  /** Calls of a failed call's tool and arguments after it. */
  maxRetries?: number;
  /** Calls beyond the expected ones, lookups of read-only tools left out. */
  maxExtraCalls?: number;
  /** Model tokens, read and written, over the run. The run's to set, not a case's. */
  maxTokens?: number;
  /** The run's duration in milliseconds. The run's to set, not a case's. */
  maxLatencyMs?: number;
  /** The run's cost in US dollars (reported, else estimated at list prices). The run's to set. */
  maxCostUsd?: number;
  /** Budgets per tool, by name. */
  tools?: Record<string, ToolBudgets>;
  /** A pattern (RE2 syntax) of outputs that say a call failed; as `recovery`'s. */
  errorOutput?: string;
}

/** The same calls done again right after themselves: `length` calls, `times` times in a row. */
export interface EfficiencyLoop {
  /** The first call's position among the case's calls, from 0. */
  readonly start: number;
  readonly length: number;
  readonly times: number;
  /** The tools of one round, in order. */
  readonly tools: readonly string[];
}

/** One tool's figures. */
export interface ToolEfficiency {
  readonly tool: string;
  readonly calls: number;
  readonly repeats: number;
  readonly retries: number;
  readonly failed: number;
  /** Time in the tool's calls, when the transcript times every one of them. */
  readonly totalMs?: number;
  readonly slowestMs?: number;
}

/** One budget, what the run came to, and whether it held. */
export interface BudgetCheck {
  /** The option: `maxCalls`, `tools.search.maxRetries`. */
  readonly budget: string;
  readonly limit: number;
  readonly actual: number;
  readonly held: boolean;
}

export interface EfficiencyDetails {
  readonly calls: number;
  readonly repeats: number;
  readonly retries: number;
  readonly failed: number;
  readonly loops: readonly EfficiencyLoop[];
  /** Calls beyond the expected ones, and the read-only lookups among them; with expected calls. */
  readonly extraCalls?: number;
  readonly extraLookups?: number;
  /** What the run spent, as the case says. */
  readonly spend?: RunSpend;
  readonly tools: readonly ToolEfficiency[];
  readonly budgets: readonly BudgetCheck[];
}

const runBudgets = [
  "maxCalls",
  "maxRepeats",
  "maxLoops",
  "maxRetries",
  "maxExtraCalls",
  "maxTokens",
  "maxLatencyMs",
  "maxCostUsd",
] as const;
const toolBudgets = ["maxCalls", "maxRepeats", "maxRetries", "maxLatencyMs"] as const;
const optionNames = ["name", "threshold", ...runBudgets, "tools", "errorOutput"];
/** What a case's `metricOptions` may set: budgets of calls; spending budgets are the run's. */
export const efficiencyCaseOptions: readonly string[] = [
  "threshold",
  "maxCalls",
  "maxRepeats",
  "maxLoops",
  "maxRetries",
  "maxExtraCalls",
  "tools",
];

/** The longest round of calls a loop is looked for in. */
const maxLoopLength = 10;

type Budget = (typeof runBudgets)[number];

function budgetOption(option: string, value: unknown, whole: boolean): number | undefined {
  if (value === undefined) return undefined;
  return whole
    ? integerOption(option, value, 0, { min: 0 })
    : numberOption(option, value, 0, { min: 0, max: Number.MAX_VALUE });
}

function readToolBudgets(value: unknown): ReadonlyMap<string, Partial<Record<string, number>>> {
  const budgets = new Map<string, Partial<Record<string, number>>>();
  if (value === undefined) return budgets;
  if (!isJsonObject(value)) {
    throw new InvalidOptionError({
      option: "efficiency.tools",
      value,
      message:
        'efficiency.tools must map tool names to budgets, like { "search": { "maxCalls": 3 } }',
    });
  }
  for (const [tool, given] of Object.entries(value)) {
    const where = `efficiency.tools.${tool}`;
    if (!isJsonObject(given)) {
      throw new InvalidOptionError({
        option: where,
        value: given,
        message: `${where} must be an object of budgets (${toolBudgets.join(", ")})`,
      });
    }
    const named = camelKeys(given);
    rejectUnknownOptions(where, named, [...toolBudgets]);
    const own: Partial<Record<string, number>> = {};
    for (const [key, limit] of Object.entries(named)) {
      own[key] = budgetOption(`${where}.${key}`, limit, key !== "maxLatencyMs");
    }
    budgets.set(tool, own);
  }
  return budgets;
}

/** A call's tool and arguments, as one key: calls with the same key are the same call. */
const callKey = (call: ToolCall) => `${call.name}\u0000${canonicalJson(call.inputParameters)}`;

/**
 * The loops of a run: rounds of up to ten calls done again back to back (see the option). A retry
 * of a failed call (`retried`, by position) is no round of a loop: retries have their own budget.
 */
export function findLoops(
  calls: readonly ToolCall[],
  retried: ReadonlySet<number> = new Set(),
): EfficiencyLoop[] {
  const keys = calls.map((call, at) => (retried.has(at) ? at : callKey(call)));
  const loops: EfficiencyLoop[] = [];
  let at = 0;
  while (at < keys.length) {
    let found: EfficiencyLoop | undefined;
    for (let length = 1; length <= maxLoopLength && at + 2 * length <= keys.length; length++) {
      let times = 1;
      while (
        at + (times + 1) * length <= keys.length &&
        keys
          .slice(at + times * length, at + (times + 1) * length)
          .every((key, offset) => key === keys[at + offset])
      ) {
        times++;
      }
      // Twice the same call is a repeat; a loop goes round at least three times, or is longer.
      if (times >= (length === 1 ? 3 : 2)) {
        found = {
          start: at,
          length,
          times,
          tools: calls.slice(at, at + length).map((call) => call.name),
        };
        break;
      }
    }
    if (found === undefined) at++;
    else {
      loops.push(found);
      at += found.length * found.times;
    }
  }
  return loops;
}

/** The calls expected of the run: the case's, else its turns' together; undefined when none says. */
function expectedOf(testCase: EfficiencyCase): readonly ToolCall[] | undefined {
  if (testCase.expectedTools !== undefined) return testCase.expectedTools;
  const turns = testCase.turns;
  if (turns === undefined || turns.every((turn) => turn.expectedTools === undefined)) {
    return undefined;
  }
  return turns.flatMap((turn) => turn.expectedTools ?? []);
}

const plural = (count: number, word: string, words = `${word}s`) =>
  `${count} ${count === 1 ? word : words}`;

function describeSpend(spend: RunSpend | undefined): string[] {
  if (spend === undefined) return [];
  const said: string[] = [];
  if (spend.inputTokens !== undefined || spend.outputTokens !== undefined) {
    said.push(
      `${(spend.inputTokens ?? 0) + (spend.outputTokens ?? 0)} tokens (${spend.inputTokens ?? 0} in, ${spend.outputTokens ?? 0} out)`,
    );
  }
  if (spend.durationMs !== undefined) said.push(`${Math.round(spend.durationMs)} ms`);
  if (spend.costUsd !== undefined) {
    said.push(`$${spend.costUsd.toFixed(4)}${spend.costEstimated === true ? " (estimated)" : ""}`);
  }
  return said;
}

/**
 * A deterministic check of what a run cost against budgets (see the file's head). Figures are
 * always given in the details and the reason; each budget set is checked, and the score is the
 * share held. A budget on a figure the case does not carry (tokens of a transcript that has none)
 * makes the case not evaluable, never a pass.
 *
 * @example
 * const metric = efficiency({ maxCalls: 8, maxRetries: 2, maxCostUsd: 0.05, tools: { search: { maxCalls: 3 } } });
 */
export function efficiency(
  options: EfficiencyOptions = {},
): SyncMetric<EfficiencyCase, EfficiencyDetails> {
  const given = camelKeys(optionsObject("efficiency", options) as JsonObject) as Record<
    string,
    unknown
  >;
  rejectUnknownOptions("efficiency", given, optionNames);
  const name = nameOption("efficiency", given.name, "Efficiency");
  const threshold = shareOption("efficiency.threshold", given.threshold, 1);
  const limits = new Map<Budget, number>();
  for (const budget of runBudgets) {
    const whole = budget !== "maxLatencyMs" && budget !== "maxCostUsd";
    // A loop is never efficient: the one budget held unless the run says otherwise.
    const limit =
      budgetOption(`efficiency.${budget}`, given[budget], whole) ??
      (budget === "maxLoops" ? 0 : undefined);
    if (limit !== undefined) limits.set(budget, limit);
  }
  const perTool = readToolBudgets(given.tools);
  const errorOutput =
    patternOption("efficiency.errorOutput", given.errorOutput) ?? defaultErrorPattern();

  const measureSync = (testCase: EfficiencyCase): MetricResult<EfficiencyDetails> => {
    try {
      if (typeof (testCase as unknown) !== "object" || (testCase as unknown) === null) {
        throw new InvalidInputError({ field: "testCase", message: `${name} measures a test case` });
      }
      const calls = testCase.toolsCalled ?? [];
      const failed = failedFlags(calls, errorOutput);
      const retried = new Set(retryChains(calls, failed).flatMap((chain) => chain.retries));
      // A repeat: the same tool and arguments as an earlier call that succeeded.
      const succeeded = new Set<string>();
      const repeated = calls.map((call, at) => {
        const key = callKey(call);
        const repeat = !retried.has(at) && succeeded.has(key);
        if (!failed[at]) succeeded.add(key);
        return repeat;
      });
      const tools = toolFigures(calls, repeated, retried, failed);
      const loops = findLoops(calls, retried);
      const repeats = repeated.filter(Boolean).length;
      const retries = retried.size;
      const failures = failed.filter(Boolean).length;
      const { extraCalls, extraLookups } = extraCallsOf(testCase, calls, retried);
      const spend = testCase.spend;
      const actuals: Record<Budget, number | undefined> = {
        maxCalls: calls.length,
        maxRepeats: repeats,
        maxLoops: loops.length,
        maxRetries: retries,
        maxExtraCalls: extraCalls,
        maxTokens:
          spend?.inputTokens === undefined && spend?.outputTokens === undefined
            ? undefined
            : (spend.inputTokens ?? 0) + (spend.outputTokens ?? 0),
        maxLatencyMs: spend?.durationMs,
        maxCostUsd: spend?.costUsd,
      };
      const { budgets, unknown } = checkBudgets(limits, actuals, perTool, tools);
      const details: EfficiencyDetails = {
        calls: calls.length,
        repeats,
        retries,
        failed: failures,
        loops,
        ...(extraCalls === undefined ? {} : { extraCalls, extraLookups }),
        ...(spend === undefined ? {} : { spend }),
        tools: [...tools.values()],
        budgets,
      };
      const figures = [
        plural(calls.length, "call"),
        ...(repeats > 0 ? [plural(repeats, "repeat")] : []),
        ...(loops.length > 0
          ? [
              `${plural(loops.length, "loop")} (${loops.map((loop) => `called[${loop.start}] ${loop.tools.join(", ")} ${loop.times} times`).join("; ")})`,
            ]
          : []),
        ...(retries > 0 ? [plural(retries, "retry", "retries")] : []),
        ...(extraCalls !== undefined && extraCalls > 0
          ? [`${extraCalls} beyond the expected`]
          : []),
        ...describeSpend(spend),
      ].join(", ");
      if (unknown.length > 0) {
        return {
          status: "not-evaluable",
          metric: name,
          reason: `${unknown.join(", ")} cannot be checked: the case does not say ${unknown.map(whatItLacks).join(" or ")} (${figures})`,
          details,
        };
      }
      const over = budgets.filter((check) => !check.held);
      const score = budgets.length === 0 ? 1 : (budgets.length - over.length) / budgets.length;
      const reason =
        over.length === 0
          ? `${figures}; within ${budgets.length === 1 ? "its budget" : `all ${budgets.length} budgets`}`
          : `${figures}; over ${over.length} of ${budgets.length} budgets: ${over.map((check) => `${check.budget} ${round(check.actual)} > ${check.limit}`).join(", ")}`;
      return scoredResult(name, { score, threshold, reason, details });
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  return {
    id: "efficiency",
    name,
    scoresWholeRun: true,
    withOptions: (overrides: JsonObject) =>
      efficiency({
        ...options,
        ...(caseOptions("efficiency", overrides, efficiencyCaseOptions) as EfficiencyOptions),
      }),
    measure: measureBySync(measureSync),
    measureSync,
  };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

type ToolFigures = { -readonly [K in keyof ToolEfficiency]: ToolEfficiency[K] };

/** Each tool's figures, in the order of its first call; times only when every call was timed. */
function toolFigures(
  calls: readonly ToolCall[],
  repeated: readonly boolean[],
  retried: ReadonlySet<number>,
  failed: readonly boolean[],
): Map<string, ToolFigures> {
  const tools = new Map<string, ToolFigures>();
  const untimed = new Set<string>();
  for (const [at, call] of calls.entries()) {
    let figures = tools.get(call.name);
    if (figures === undefined) {
      figures = { tool: call.name, calls: 0, repeats: 0, retries: 0, failed: 0 };
      tools.set(call.name, figures);
    }
    figures.calls++;
    if (repeated[at]) figures.repeats++;
    if (retried.has(at)) figures.retries++;
    if (failed[at]) figures.failed++;
    if (call.durationMs === undefined) untimed.add(call.name);
    else {
      figures.totalMs = (figures.totalMs ?? 0) + call.durationMs;
      figures.slowestMs = Math.max(figures.slowestMs ?? 0, call.durationMs);
    }
  }
  for (const tool of untimed) {
    const figures = tools.get(tool);
    if (figures === undefined) continue;
    delete figures.totalMs;
    delete figures.slowestMs;
  }
  return tools;
}

/**
 * Calls beyond the expected, tool by tool (retries have their own budget); calls of read-only
 * tools counted apart, as lookups. Undefined without expected calls.
 */
function extraCallsOf(
  testCase: EfficiencyCase,
  calls: readonly ToolCall[],
  retried: ReadonlySet<number>,
): { extraCalls: number | undefined; extraLookups: number | undefined } {
  const expected = expectedOf(testCase);
  if (expected === undefined) return { extraCalls: undefined, extraLookups: undefined };
  const readOnly = new Set(
    (testCase.availableTools ?? []).filter((tool) => tool.readOnly === true).map((t) => t.name),
  );
  const wanted = new Map<string, number>();
  for (const call of expected) wanted.set(call.name, (wanted.get(call.name) ?? 0) + 1);
  const made = new Map<string, number>();
  calls.forEach((call, at) => {
    if (!retried.has(at)) made.set(call.name, (made.get(call.name) ?? 0) + 1);
  });
  let extraCalls = 0;
  let extraLookups = 0;
  for (const [tool, count] of made) {
    const beyond = Math.max(0, count - (wanted.get(tool) ?? 0));
    if (readOnly.has(tool)) extraLookups += beyond;
    else extraCalls += beyond;
  }
  return { extraCalls, extraLookups };
}

/** Each budget set, checked against its figure; those whose figure the case lacks, by name. */
function checkBudgets(
  limits: ReadonlyMap<Budget, number>,
  actuals: Readonly<Record<Budget, number | undefined>>,
  perTool: ReturnType<typeof readToolBudgets>,
  tools: ReadonlyMap<string, ToolFigures>,
): { budgets: BudgetCheck[]; unknown: string[] } {
  const budgets: BudgetCheck[] = [];
  const unknown: string[] = [];
  for (const [budget, limit] of limits) {
    const actual = actuals[budget];
    if (actual === undefined) unknown.push(budget);
    else budgets.push({ budget, limit, actual, held: actual <= limit });
  }
  for (const [tool, own] of perTool) {
    const figures = tools.get(tool);
    for (const [budget, limit] of Object.entries(own)) {
      if (limit === undefined) continue;
      const key = `tools.${tool}.${budget}`;
      const actual =
        budget === "maxCalls"
          ? (figures?.calls ?? 0)
          : budget === "maxRepeats"
            ? (figures?.repeats ?? 0)
            : budget === "maxRetries"
              ? (figures?.retries ?? 0)
              : figures === undefined
                ? 0
                : figures.slowestMs;
      if (actual === undefined) unknown.push(key);
      else budgets.push({ budget: key, limit, actual, held: actual <= limit });
    }
  }
  return { budgets, unknown };
}

function whatItLacks(budget: string): string {
  if (budget === "maxTokens") return "the run's tokens";
  if (budget === "maxLatencyMs") return "how long the run took";
  if (budget === "maxCostUsd") return "what the run cost (or its tokens and a priced model)";
  if (budget === "maxExtraCalls") return "the expected calls";
  return `how long each ${budget.split(".")[1]} call took`;
}
