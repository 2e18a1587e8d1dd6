import { readCallFields } from "../core/call-fields.js";
import { LimitExceededError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import { isJsonObject } from "../core/json.js";
import type { JsonValue } from "../core/json.js";
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
import { match } from "../matchers/value-matchers.js";

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
  if (!Array.isArray(input)) return input;
  if (input.length > 0 && input.every((item) => Array.isArray(item))) {
    return input.map((group: unknown[], g) =>
      group.map((entry, i) => visit(entry, `${field}[${g}][${i}]`)),
    );
  }
  return input.map((entry: unknown, i) => visit(entry, `${field}[${i}]`));
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

/**
 * The questions a case's pairing can need: each judged value of an expected call, against the
 * value at its place in every call made of that tool, once per (criterion, path, tool, value).
 */
function questionsOf(
  entries: readonly ExpectedEntry[],
  called: readonly ToolCall[],
  testCase: TestCase,
): Map<string, JudgedValueQuestion> {
  const questions = new Map<string, JudgedValueQuestion>();
  const tools = new Map<string, ToolSpec>(
    (testCase.availableTools ?? []).map((tool) => [tool.name, tool]),
  );
  for (const entry of entries) {
    const name = entry.record.name as string;
    for (const call of called) {
      if (call.name !== name) continue;
      for (const place of entry.places)
        for (const leaf of place.leaves) {
          const value = valueAt(place.actual(call), leaf.at);
          if (value === undefined) continue;
          const key = keyOf(leaf, name, value);
          if (questions.has(key)) continue;
          questions.set(key, {
            criterion: leaf.criterion,
            value,
            path: leaf.path,
            toolName: name,
            tool: tools.get(name),
            request: testCase.input ?? "",
          });
        }
    }
  }
  return questions;
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
    const bind = (leaf: JudgedLeaf) => {
      const verdictOf = (value: JsonValue | undefined) =>
        value === undefined ? undefined : verdicts.get(keyOf(leaf, name, value));
      const shown = JSON.stringify(leaf.criterion);
      return {
        ...match.custom(
          (value) => verdictOf(value)?.verdict === "meets",
          `a value judged to meet ${shown}`,
        ),
        kind: "judged",
        toJSON: () => ({ $match: "judged", criterion: leaf.criterion }),
        explain(value: JsonValue | undefined) {
          const answer = verdictOf(value);
          if (answer === undefined) return undefined;
          return answer.verdict === "cannot_tell"
            ? `judged: cannot tell whether it meets ${shown}: ${answer.reason}`
            : `judged not to meet ${shown}: ${answer.reason}`;
        },
      };
    };
    const bound: Record<string, unknown> = { ...entry.record };
    for (const place of entry.places) {
      const root = place.key === "output" ? "output" : "$";
      bound[place.key] = mapJudgedLeaves(entry.record[place.key], bind, root);
    }
    return bound;
  });
}

/**
 * A tool-call metric whose cases may hold judged values (`match.judged`): their questions are
 * asked first (only what the pairing can need, each once a case; the judge cache answers
 * repeats), then the case is scored as ever with the verdicts in place, pairing included. A case
 * that fails where a judge could not tell is not evaluable; cases without judged values are
 * scored as they always were.
 */
export function withJudgedValues(
  metric: Metric,
  judge: () => JudgeModel,
  sampling: SamplingOptions,
): Metric {
  const scoreWith = (testCase: TestCase, options?: MeasureOptions) =>
    metric.measureSync === undefined
      ? metric.measure(testCase, options)
      : metric.measureSync(testCase);
  const measure = async (
    testCase: TestCase,
    options: MeasureOptions = {},
  ): Promise<MetricResult> => {
    let entries: ExpectedEntry[] | undefined;
    let questions: Map<string, JudgedValueQuestion>;
    try {
      entries = expectedEntries(testCase);
      if (entries === undefined) return await scoreWith(testCase, options);
      const called = toToolCalls(testCase.toolsCalled ?? [], { field: "toolsCalled" });
      questions = questionsOf(entries, called, testCase);
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
    const result = await scoreWith(
      {
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
    ...(metric.withOptions === undefined
      ? {}
      : {
          withOptions: (overrides) =>
            withJudgedValues(metric.withOptions?.(overrides) ?? metric, judge, sampling),
        }),
  };
}
