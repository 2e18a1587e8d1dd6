import { mapExpectedList, readCallFields } from "../core/call-fields.js";
import { InvalidOptionError, LimitExceededError } from "../core/errors.js";
import { camelKeys } from "../core/options.js";
import type { JudgeModel } from "../core/judge.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { MeasureOptions, Metric } from "../core/metric.js";
import { toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import type { TestCase, ToolSpec } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";
import { judgeValue } from "../judges/judged-value.js";
import type { JudgedValueAnswer, JudgedValueQuestion } from "../judges/judged-value.js";
import type { SamplingOptions } from "../judges/samples.js";
import { judgedLeavesOf, mapJudgedLeaves, valueAt } from "../matchers/judged-leaves.js";
import type { JudgedLeaf } from "../matchers/judged-leaves.js";
import { compilePathPattern } from "../matchers/path-rules.js";
import type { PathPattern } from "../matchers/path-rules.js";
import { match } from "../matchers/value-matchers.js";
import type { ValueMatcher } from "../matchers/value-matchers.js";

/** Where judged values may sit in an expected call: its arguments, or its output. */
interface Place {
  /** The expected call's key that holds it (`arguments`, `inputParameters`, ..., `output`). */
  readonly key: string;
  readonly leaves: readonly JudgedLeaf[];
  /** The value at the same place in a call made. */
  readonly actual: (call: ToolCall) => JsonValue | undefined;
}

/** An expected call as given, with the places of the judged values it holds. */
interface ExpectedEntry {
  readonly record: Record<string, unknown>;
  readonly places: readonly Place[];
}

/** The most distinct judged-value questions one case may ask (before samples). */
export const maxJudgedQuestions = 50;

const keyOf = (leaf: JudgedLeaf, tool: string, value: JsonValue) =>
  JSON.stringify([leaf.criterion, leaf.path, tool, value]);

/**
 * Each expected call of a case's `expectedTools`, in order, in any of its forms (a list of calls,
 * a list of groups, a parsed transcript's `{ calls }`), replaced by what `visit` gives.
 */
function eachExpectedCall(
  input: unknown,
  visit: (entry: unknown, where: string) => unknown,
  field = "expectedTools",
): unknown {
  if (isJsonObject(input) && Array.isArray(input.calls)) {
    return { ...input, calls: eachExpectedCall(input.calls, visit, `${field}.calls`) };
  }
  return Array.isArray(input) ? mapExpectedList(input, field, visit) : input;
}

/**
 * The expected calls of a case with the places of the judged values each holds, in order;
 * undefined when the case holds none (it is then scored exactly as without a judge).
 */
function expectedEntries(testCase: TestCase): ExpectedEntry[] | undefined {
  const given: unknown = testCase.expectedTools;
  if (judgedLeavesOf(given).length === 0) return undefined;
  const entries: ExpectedEntry[] = [];
  eachExpectedCall(given, (entry, where) => {
    const { record, argumentsKey } = readCallFields(entry, "expected", () => where);
    const places: Place[] = [];
    if (argumentsKey !== undefined) {
      const leaves = judgedLeavesOf(record[argumentsKey]);
      if (leaves.length > 0)
        places.push({ key: argumentsKey, leaves, actual: (call) => call.inputParameters });
    }
    const outputLeaves = judgedLeavesOf(record.output, "output");
    if (outputLeaves.length > 0)
      places.push({ key: "output", leaves: outputLeaves, actual: (call) => call.output });
    entries.push({ record, places });
    return entry;
  });
  return entries;
}

/** Adds a question once, keyed by what decides its answer, with the case's context. */
type Ask = (key: string, question: Omit<JudgedValueQuestion, "tool" | "request">) => void;

/** An `Ask` filling `questions` for one case: the tool's definition and the user's request. */
function askerFor(testCase: TestCase, questions: Map<string, JudgedValueQuestion>): Ask {
  const tools = new Map<string, ToolSpec>(
    (testCase.availableTools ?? []).map((tool) => [tool.name, tool]),
  );
  return (key, question) => {
    if (questions.has(key)) return;
    const request = testCase.input ?? "";
    const tool = question.toolName === undefined ? undefined : tools.get(question.toolName);
    questions.set(key, { ...question, ...(tool === undefined ? {} : { tool }), request });
  };
}

/**
 * The questions a case's pairing can need: each judged value of an expected call, against the
 * value at its place in every call made of that tool, once per (criterion, path, tool, value).
 */
function expectedQuestions(
  entries: readonly ExpectedEntry[],
  called: readonly ToolCall[],
  ask: Ask,
): void {
  for (const entry of entries) {
    const name = entry.record.name as string;
    for (const call of called) {
      if (call.name !== name) continue;
      for (const place of entry.places)
        for (const leaf of place.leaves) {
          const value = valueAt(place.actual(call), leaf.at);
          if (value === undefined) continue;
          const { criterion, path } = leaf;
          ask(keyOf(leaf, name, value), { criterion, value, path, toolName: name });
        }
    }
  }
}

/** The case's expected calls, in their own form, with each judged value decided by the verdicts. */
function boundExpected(
  given: unknown,
  entries: readonly ExpectedEntry[],
  verdicts: ReadonlyMap<string, JudgedValueAnswer>,
): unknown {
  let next = 0;
  return eachExpectedCall(given, (original) => {
    const entry = entries[next++];
    if (entry.places.length === 0) return original;
    const name = entry.record.name as string;
    const bind = (leaf: JudgedLeaf) =>
      decided(leaf, (value) => verdicts.get(keyOf(leaf, name, value)));
    const bound: Record<string, unknown> = { ...entry.record };
    for (const place of entry.places) {
      const root = place.key === "output" ? "output" : "$";
      bound[place.key] = mapJudgedLeaves(entry.record[place.key], bind, root);
    }
    return bound;
  });
}

/** A judged value a metric's options hold as a path rule, and what it applies to. */
interface RuleLeaf {
  readonly leaf: JudgedLeaf;
  /** The tool whose `toolRules` hold it; undefined for top-level rules (every tool). */
  readonly tool: string | undefined;
  /** Whether it judges values of a call's arguments or of its output. */
  readonly place: "arguments" | "output";
  /** The rule's path pattern, as the options give it. */
  readonly glob: string;
  readonly pattern: PathPattern;
}

/** Where a judged value may sit in options: the path rules of arguments or outputs. */
function rulePlace(at: readonly (string | number)[]) {
  const [first, second, third, fourth, fifth] = at;
  const isPlace = (key: unknown): key is "arguments" | "output" =>
    key === "arguments" || key === "output";
  if (isPlace(first) && second === "paths" && at.length === 3) {
    return { tool: undefined, place: first, glob: third };
  }
  if (first === "toolRules" && isPlace(third) && fourth === "paths" && at.length === 5) {
    return { tool: String(second), place: third, glob: fifth };
  }
  return undefined;
}

/**
 * The judged values of a metric's options, which may sit only as path rules (`arguments.paths`,
 * `output.paths`, and the same under `toolRules.<tool>`); anywhere else is an
 * `InvalidOptionError` naming where they belong.
 */
export function ruleLeavesOf(id: string, options: JsonObject): RuleLeaf[] {
  return judgedLeavesOf(options).map((leaf) => {
    const found = rulePlace(leaf.at);
    if (found === undefined || typeof found.glob !== "string") {
      throw new InvalidOptionError({
        option: `${id}${leaf.path.slice(1)}`,
        value: "(judged value)",
        message: `${id}: a judged value (match.judged) belongs in a case's expected calls or as a path rule (arguments.paths, output.paths, or either under toolRules.<tool>), not at ${leaf.path.slice(2)}`,
      });
    }
    const { tool, place, glob } = found;
    return { leaf, tool, place, glob, pattern: compilePathPattern(glob) };
  });
}

/** Every value in a call's arguments with the keys that lead to it (the root left out). */
function argumentNodes(
  value: JsonValue,
  at: (string | number)[] = [],
  found: { at: (string | number)[]; value: JsonValue }[] = [],
) {
  if (at.length > 0) found.push({ at, value });
  if (Array.isArray(value))
    value.forEach((item, index) => argumentNodes(item, [...at, index], found));
  else if (isJsonObject(value))
    for (const [key, item] of Object.entries(value)) argumentNodes(item, [...at, key], found);
  return found;
}

const ruleKeyOf = (leaf: JudgedLeaf, value: JsonValue) =>
  JSON.stringify(["rule", leaf.criterion, leaf.path, value]);

/**
 * The questions a case's path rules ask: each value of a matching call at a matching path, once
 * per (rule, value): the answer decides that value in every call the rule covers, so the
 * question names the rule's paths and tool, never one call's.
 */
function ruleQuestions(rules: readonly RuleLeaf[], called: readonly ToolCall[], ask: Ask): void {
  for (const call of called) {
    const nodes = {
      arguments: argumentNodes(call.inputParameters),
      output: argumentNodes(call.output),
    };
    for (const rule of rules) {
      if (rule.tool !== undefined && rule.tool !== call.name) continue;
      for (const node of nodes[rule.place]) {
        if (!rule.pattern.matches(node.at)) continue;
        ask(ruleKeyOf(rule.leaf, node.value), {
          criterion: rule.leaf.criterion,
          value: node.value,
          path: `${rule.place === "output" ? "the output" : "the arguments"} at ${rule.glob}`,
          ...(rule.tool === undefined ? {} : { toolName: rule.tool }),
          rule: true,
        });
      }
    }
  }
}

/** A judged value's stand-in once the judge has answered: a matcher reading its verdicts. */
function decided(
  leaf: JudgedLeaf,
  verdictOf: (value: JsonValue) => JudgedValueAnswer | undefined,
): ValueMatcher {
  const shown = JSON.stringify(leaf.criterion);
  const answerOf = (value: JsonValue | undefined) =>
    value === undefined ? undefined : verdictOf(value);
  return {
    ...match.custom(
      (value) => answerOf(value)?.verdict === "meets",
      `a value judged to meet ${shown}`,
    ),
    kind: "judged",
    toJSON: () => ({ $match: "judged", criterion: leaf.criterion }),
    explain(value) {
      const answer = answerOf(value);
      if (answer === undefined) return undefined;
      return answer.verdict === "cannot_tell"
        ? `judged: cannot tell whether it meets ${shown}: ${answer.reason}`
        : `judged not to meet ${shown}: ${answer.reason}`;
    },
  };
}

/** How the metric is made from its options, and how a case's own options merge into them. */
export interface JudgedValuesMetric {
  readonly make: (options: JsonObject) => Metric;
  readonly options: JsonObject;
  readonly merge: (options: JsonObject, overrides: JsonObject) => JsonObject;
}

/**
 * A tool-call metric whose cases (or path rules) may hold judged values (`match.judged`): their
 * questions are asked first (only what the pairing can need, each once a case; the judge cache
 * answers repeats), then the case is scored as ever with the verdicts in place, pairing included.
 * A case that fails where a judge could not tell is not evaluable; cases without judged values
 * are scored as they always were.
 */
export function withJudgedValues(
  spec: JudgedValuesMetric,
  judge: () => JudgeModel,
  sampling: SamplingOptions,
): Metric {
  // Either spelling of the options' names (`tool_rules`), read once as camelCase.
  const metricOptions = camelKeys(spec.options);
  const metric = spec.make(metricOptions);
  const rules = ruleLeavesOf(metric.id ?? metric.name, metricOptions);
  const scoreWith = (scorer: Metric, testCase: TestCase, options?: MeasureOptions) =>
    scorer.measureSync === undefined
      ? scorer.measure(testCase, options)
      : scorer.measureSync(testCase);
  const measure = async (
    testCase: TestCase,
    options: MeasureOptions = {},
  ): Promise<MetricResult> => {
    let entries: ExpectedEntry[] | undefined;
    const questions = new Map<string, JudgedValueQuestion>();
    try {
      entries = expectedEntries(testCase);
      if (entries === undefined && rules.length === 0) {
        return await scoreWith(metric, testCase, options);
      }
      const called = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
      const ask = askerFor(testCase, questions);
      if (entries !== undefined) expectedQuestions(entries, called, ask);
      ruleQuestions(rules, called, ask);
      if (questions.size > maxJudgedQuestions) {
        throw new LimitExceededError({
          limit: "maxJudgedQuestions",
          maximum: maxJudgedQuestions,
          field: "expectedTools",
          message: `the case's judged values ask ${questions.size} questions of the judge (values against calls of their tool), over the ${maxJudgedQuestions} a case may ask`,
        });
      }
    } catch (error) {
      return toErroredResult(metric.name, error);
    }
    const verdicts = new Map<string, JudgedValueAnswer>();
    try {
      const model = questions.size === 0 ? undefined : judge();
      await Promise.all(
        [...questions].map(async ([key, question]) => {
          if (model === undefined) return;
          verdicts.set(key, await judgeValue(model, question, sampling, options));
        }),
      );
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      return toErroredResult(metric.name, error);
    }
    let scorer = metric;
    try {
      if (rules.length > 0) {
        scorer = spec.make(
          mapJudgedLeaves(metricOptions, (leaf) =>
            decided(leaf, (value) => verdicts.get(ruleKeyOf(leaf, value))),
          ) as JsonObject,
        );
      }
    } catch (error) {
      return toErroredResult(metric.name, error);
    }
    const result = await scoreWith(
      scorer,
      entries === undefined
        ? testCase
        : {
            ...testCase,
            expectedTools: boundExpected(testCase.expectedTools, entries, verdicts) as never,
          },
      options,
    );
    const unsure = [...verdicts.values()].filter((answer) => answer.verdict === "cannot_tell");
    if (result.status === "scored" && !result.success && unsure.length > 0) {
      return {
        status: "not-evaluable",
        metric: result.metric,
        reason:
          `${result.reason ?? ""} The judge could not tell ${unsure.length === 1 ? "one value" : `${unsure.length} values`}, on which the verdict may hang.`.trim(),
        details: result.details,
      };
    }
    return result;
  };
  return {
    ...(metric.id === undefined ? {} : { id: metric.id }),
    name: metric.name,
    measure,
    withOptions: (overrides) =>
      withJudgedValues({ ...spec, options: spec.merge(metricOptions, overrides) }, judge, sampling),
  };
}
