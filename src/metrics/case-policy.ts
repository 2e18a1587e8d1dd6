/**
 * What a case's own options (`metricOptions`, a turn's too) may change of a run's tool-call
 * matching. A dataset line may come from a stranger, so it may change how its calls are matched
 * (order, argument rules, scope, threshold...), but never switch off the run's policy: the
 * constraints the run sets, and whether violations and schema violations fail a case. A case may
 * make the policy stricter (add forbidden tools, lower a maximum); an option that loosens it is
 * the case's error. And whatever else a case sets (a scope that leaves a forbidden tool out, tool
 * errors skipped, a threshold of 0), the run's policy is checked with the run's own options.
 */
import { InvalidOptionError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import { camelKeys, caseOptions } from "../core/options.js";
import { hasConstraints } from "./match-constraints.js";
import { matchCaseOptions } from "./match-options.js";
import type { ResolvedMatchOptions } from "./match-options.js";
import { schemaViolationText, violationText } from "./match-reason.js";
import type { MatchResult } from "./match-result.js";
import { matchWithResolvedOptions } from "./match-tool-calls.js";

/** A refusal of a case option that would loosen the run's policy. */
function loosens(option: string, value: unknown, what: string): InvalidOptionError {
  return new InvalidOptionError({
    option,
    value,
    message: `${option}: ${what}; a case may make the run's policy stricter, never looser (see docs/guides/cli.md, "What a case may set")`,
  });
}

/** A record of numbers by tool, or undefined when it is not one (the resolver then says so). */
function counts(value: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return isJsonObject(value) ? value : undefined;
}

/**
 * The run's constraints with a case's laid over them, the stricter of the two wherever both
 * speak: forbidden tools added, the lower maximum, the higher minimum, redundancy forbidden if
 * either forbids it; a case value that is looser is refused.
 */
function stricterConstraints(where: string, given: JsonValue, asked: JsonValue): JsonValue {
  if (!isJsonObject(given) || !isJsonObject(asked)) return asked;
  // Either spelling of each key (max_calls, maxCalls), as the resolver reads them.
  const run = camelKeys(given);
  const own = camelKeys(asked);
  const merged: JsonObject = { ...run, ...own };
  if (Array.isArray(run.forbiddenTools) || Array.isArray(own.forbiddenTools)) {
    const tools = [
      ...(Array.isArray(run.forbiddenTools) ? run.forbiddenTools : []),
      ...(Array.isArray(own.forbiddenTools) ? own.forbiddenTools : []),
    ];
    merged.forbiddenTools = [...new Set(tools)];
  }
  for (const [key, tighter] of [
    ["maxCalls", (a: number, b: number) => a <= b],
    ["minCalls", (a: number, b: number) => a >= b],
  ] as const) {
    const ran = counts(run[key]);
    const given = counts(own[key]);
    if (ran === undefined || given === undefined) continue;
    for (const [tool, limit] of Object.entries(ran)) {
      if (!Object.hasOwn(given, tool)) continue;
      const asked = given[tool];
      if (typeof asked !== "number" || typeof limit !== "number") continue;
      if (!tighter(asked, limit)) {
        throw loosens(
          `${where}.constraints.${key}.${tool}`,
          asked,
          `the run allows ${key === "maxCalls" ? "at most" : "no fewer than"} ${limit} calls of ${tool}`,
        );
      }
    }
    merged[key] = { ...ran, ...given };
  }
  const total = own.maxTotalCalls;
  if (
    typeof run.maxTotalCalls === "number" &&
    typeof total === "number" &&
    total > run.maxTotalCalls
  ) {
    throw loosens(
      `${where}.constraints.maxTotalCalls`,
      total,
      `the run allows at most ${run.maxTotalCalls} calls in all`,
    );
  }
  if (run.redundantCalls === "forbid" && Object.hasOwn(own, "redundantCalls")) {
    if (own.redundantCalls !== "forbid") {
      throw loosens(
        `${where}.constraints.redundantCalls`,
        own.redundantCalls,
        "the run forbids the same call twice in a row",
      );
    }
  }
  return merged;
}

/** The kinds of schema violation an `onSchemaViolation` value fails a case on; all: "*". */
function failingKinds(value: JsonValue | undefined): ReadonlySet<string> {
  if (value === "fail") return new Set(["*"]);
  if (isJsonObject(value) && Array.isArray(value.fail)) {
    return new Set(value.fail.filter((kind): kind is string => typeof kind === "string"));
  }
  return new Set();
}

/**
 * The options of a metric for a case: the run's (`run`) with the case's (`overrides`, as the
 * case spelled them) laid over them, by the rules above. Throws an `InvalidOptionError` naming
 * the case's option (`metricOptions.tool-call-accuracy.constraints.maxCalls.refund`) when it is
 * not a case option or would loosen the run's policy.
 */
export function caseMatchOptions<T extends object>(
  metric: string,
  runOptions: T,
  overrides: unknown,
): T {
  const run = runOptions as Readonly<Record<string, unknown>>;
  const given = caseOptions(metric, overrides, matchCaseOptions);
  const where = `metricOptions.${metric}`;
  const merged: Record<string, unknown> = { ...run, ...given };
  const runConstraints = run.constraints as JsonValue | undefined;
  if (Object.hasOwn(given, "constraints") && runConstraints !== undefined) {
    merged.constraints = stricterConstraints(where, runConstraints, given.constraints);
  }
  const violationsFail = (run.onViolation ?? "fail") === "fail";
  const runPolicy =
    (isJsonObject(runConstraints) && hasConstraints(runConstraints)) || run.toolErrors === "retry";
  if (violationsFail && runPolicy && Object.hasOwn(given, "onViolation")) {
    if (given.onViolation !== "fail") {
      throw loosens(
        `${where}.onViolation`,
        given.onViolation,
        "the run fails a case on a violation of its constraints",
      );
    }
  }
  if (Object.hasOwn(given, "onSchemaViolation")) {
    const ran = failingKinds(run.onSchemaViolation as JsonValue | undefined);
    const asked = failingKinds(given.onSchemaViolation);
    const lost = asked.has("*") ? [] : [...ran].filter((kind) => !asked.has(kind));
    if (lost.length > 0) {
      throw loosens(
        `${where}.onSchemaViolation`,
        given.onSchemaViolation,
        `the run fails a case on ${lost.includes("*") ? "every schema violation" : lost.join(", ")}`,
      );
    }
  }
  return merged as T;
}

/** Whether the run's options make a policy a case's options could otherwise step around. */
export function hasRunPolicy(resolved: ResolvedMatchOptions): boolean {
  return (
    (resolved.onViolation === "fail" &&
      (hasConstraints(resolved.constraints) || resolved.toolErrors === "retry")) ||
    resolved.failingSchemaViolations.size > 0
  );
}

/** What reads a case's calls for the run's policy: the metric's case, as it reads it. */
interface PolicyCase {
  readonly toolsCalled?: unknown;
  readonly calledSteps?: unknown;
  readonly availableTools?: readonly { readonly name: string }[];
}

/**
 * `derived` (the metric a case's options made) held to the run's policy: the calls are checked
 * with the run's own options (`run`: its constraints, scope, tool errors and schemas), and a
 * violation the run fails a case on fails the case, score 0, named first in its reason, whatever
 * the case's options say. Cases that break none are `derived`'s results as they are.
 */
export function holdingRunPolicy<TCase extends PolicyCase, TDetails>(
  derived: Metric<TCase, TDetails>,
  run: ResolvedMatchOptions,
): Metric<TCase, TDetails> {
  const held = (testCase: TCase, own: MetricResult<TDetails>): MetricResult<TDetails> => {
    const given: unknown = testCase;
    if (own.status !== "scored" || typeof given !== "object" || given === null) return own;
    let policy: MatchResult;
    try {
      policy = matchWithResolvedOptions(
        testCase.toolsCalled,
        [],
        run,
        testCase.availableTools ?? [],
        { actual: "toolsCalled", expected: "expectedTools" },
      );
    } catch {
      // Calls the run cannot read are the case's own error to give: derived gave its verdict.
      return own;
    }
    const broken = [
      ...(run.onViolation === "fail" ? policy.violations.map(violationText) : []),
      ...policy.schemaViolations
        .filter((violation) => run.failingSchemaViolations.has(violation.kind))
        .map(schemaViolationText),
    ];
    if (broken.length === 0) return own;
    const reason = own.reason ?? "";
    const unsaid = broken.filter((text) => !reason.includes(text));
    // The case's own match already failed on these: its result says it all.
    if (unsaid.length === 0 && !own.success) return own;
    const named = unsaid.length === 0 ? broken : unsaid;
    return {
      ...own,
      score: 0,
      success: false,
      reason:
        `${named.join("; ")} (the run's policy, which a case's options cannot lift). ${reason}`.trim(),
    };
  };
  // Built key by key: the derived metric's lean scoring would step around the check.
  const sync = derived.measureSync?.bind(derived);
  const misplacedCalls = derived.misplacedCalls?.bind(derived);
  const withOptions = derived.withOptions?.bind(derived);
  return {
    ...(derived.id === undefined ? {} : { id: derived.id }),
    name: derived.name,
    measure: async (testCase, options) => held(testCase, await derived.measure(testCase, options)),
    ...(sync === undefined
      ? {}
      : { measureSync: (testCase: TCase) => held(testCase, sync(testCase)) }),
    ...(misplacedCalls === undefined ? {} : { misplacedCalls }),
    ...(withOptions === undefined
      ? {}
      : {
          withOptions: (overrides: JsonObject) => holdingRunPolicy(withOptions(overrides), run),
        }),
  };
}
