import { InvalidInputError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import { measureBySync } from "../core/metric.js";
import type { SyncMetric } from "../core/metric.js";
import { scoredResult, toErroredResult } from "../core/metric-result.js";
import type { MetricResult } from "../core/metric-result.js";
import { contentText } from "../core/test-case.js";
import type { Content } from "../core/test-case.js";
import { describeTextOptions, textNormalizer } from "../matchers/value-matchers.js";
import type { TextOptions } from "../matchers/value-matchers.js";
import { textOptionsOf } from "./match-options.js";
import {
  camelKeys,
  caseOptions,
  nameOption,
  shareOption,
  optionsObject,
  rejectUnknownOptions,
  stringListOption,
} from "../core/options.js";

/** What `responseContains` reads from a case. */
export interface ResponseContainsCase {
  /** The strings to find; the metric's `values` when absent. */
  readonly expectedOutputContains?: readonly string[];
  /** The agent's answer; searched when given. */
  readonly actualOutput?: Content;
  /** The agent's replies read from its transcript; searched when `actualOutput` is not given. */
  readonly replies?: readonly string[];
}

export interface ResponseContainsOptions {
  /** The metric's name in results. Default "Response Contains". */
  name?: string;
  /** The score a case needs to pass. Default 1: every string found. */
  threshold?: number;
  /** The strings to find when a case gives no `expectedOutputContains`. */
  values?: string[];
  /** How replies and strings are normalized before looking (tau-bench: ignore case and ","). */
  strings?: TextOptions;
}

/** What was looked for, and where. */
export interface ResponseContainsDetails {
  readonly found: readonly string[];
  readonly missing: readonly string[];
  /** Where the metric looked: the case's `actualOutput`, or the transcript's replies. */
  readonly searched: "actualOutput" | "replies";
  /** How many texts it looked in. */
  readonly texts: number;
}

const optionNames = ["name", "threshold", "values", "strings"];
/** What a case's `metricOptions` may set: the name is the run's. */
export const responseContainsCaseOptions: readonly string[] = ["threshold", "values", "strings"];

function stringList(field: string, value: unknown): readonly string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw new InvalidInputError({ field, message: `${field} must be a list of strings` });
}

/**
 * A deterministic check of the agent's answer: every string the case lists in
 * `expectedOutputContains` (or the metric's `values`) appears in one of its replies (each string
 * may be in a different reply): the case's `actualOutput` when given, else the replies of its
 * transcript. `strings` normalizes both sides first. The score is the share of strings found; a
 * case with nothing to find scores 1. The reason names what is missing.
 *
 * @example
 * const metric = responseContains({ strings: { ignoreCase: true, ignoreCharacters: "," } });
 * await metric.measure({ expectedOutputContains: ["1000"], replies: ["Your refund is $1,000."] });
 */
export function responseContains(
  options: ResponseContainsOptions = {},
): SyncMetric<ResponseContainsCase, ResponseContainsDetails> {
  const given = camelKeys(optionsObject("response-contains", options) as JsonObject) as Record<
    string,
    unknown
  >;
  rejectUnknownOptions("response-contains", given, optionNames);
  const name = nameOption("response-contains", given.name, "Response Contains");
  const threshold = shareOption("response-contains.threshold", given.threshold, 1);
  const values = stringListOption("response-contains.values", given.values) ?? [];
  const textOptions =
    given.strings === undefined ? {} : textOptionsOf("response-contains.strings", given.strings);
  const normalize = textNormalizer(textOptions);
  const how = describeTextOptions(textOptions);

  const measureSync = (testCase: ResponseContainsCase): MetricResult<ResponseContainsDetails> => {
    try {
      if (typeof (testCase as unknown) !== "object" || (testCase as unknown) === null) {
        throw new InvalidInputError({ field: "testCase", message: `${name} measures a test case` });
      }
      const wanted =
        testCase.expectedOutputContains === undefined
          ? values
          : stringList("expectedOutputContains", testCase.expectedOutputContains);
      const searched = testCase.actualOutput === undefined ? "replies" : "actualOutput";
      const texts =
        testCase.actualOutput === undefined
          ? (testCase.replies ?? [])
          : [contentText(testCase.actualOutput)];
      const normalized = texts.map(normalize);
      const found: string[] = [];
      const missing: string[] = [];
      for (const value of wanted) {
        const target = normalize(value);
        (normalized.some((text) => text.includes(target)) ? found : missing).push(value);
      }
      const score = wanted.length === 0 ? 1 : found.length / wanted.length;
      const where =
        searched === "actualOutput"
          ? "the actual output"
          : `${texts.length} ${texts.length === 1 ? "reply" : "replies"}`;
      const suffix = how === "" ? "" : ` (${how})`;
      const reason =
        wanted.length === 0
          ? "no expected strings to find"
          : missing.length === 0
            ? `all ${wanted.length} expected ${wanted.length === 1 ? "string" : "strings"} found in ${where}${suffix}`
            : `${missing.length} of ${wanted.length} expected strings not found in ${where}${suffix}: ${missing.map((value) => JSON.stringify(value)).join(", ")}`;
      return scoredResult(name, {
        score,
        threshold,
        reason,
        details: { found, missing, searched, texts: texts.length },
      });
    } catch (error) {
      return toErroredResult(name, error);
    }
  };
  return {
    id: "response-contains",
    name,
    withOptions: (overrides: JsonObject) =>
      responseContains({
        ...options,
        ...(caseOptions(
          "response-contains",
          overrides,
          responseContainsCaseOptions,
        ) as ResponseContainsOptions),
      }),
    measure: measureBySync(measureSync),
    measureSync,
  };
}
