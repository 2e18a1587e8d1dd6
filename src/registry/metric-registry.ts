import { deepevalMetrics } from "../compat/deepeval/definitions.js";
import { ragasMultimodalMetrics } from "../compat/ragas/definitions.js";
import { InvalidOptionError, JudgeRequiredError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import type { Metric, MetricDefinition, ResolvedMetricContext } from "../core/metric.js";
import { camelKeys, rejectUnknownOptions } from "../core/options.js";
import { didYouMean } from "../core/suggest.js";
import { judgeWhen } from "../core/metric-catalog.js";
import { judgedMetrics } from "../judges/judged-metrics.js";
import { samplingOptions } from "../judges/samples.js";
import { ruleLeavesOf, withJudgedValues } from "./judged-values.js";
import { deterministicMetrics } from "../metrics/definitions.js";
import { caseMatchOptions, hasRunPolicy, holdingRunPolicy } from "../metrics/case-policy.js";
import { resolveMatchOptions } from "../metrics/match-options.js";
import { prepareContexts } from "../node/prepare-contexts.js";
import { resolveJudgeModel } from "../providers/judge-models.js";
import type { JudgeModelSettings } from "../providers/judge-models.js";

/** What a metric may need from where it runs: the judge, and where a dataset's files are. */
export interface MetricContext {
  /**
   * The judge of judged metrics: a model string (`"openai/gpt-4o-mini"`), a `JudgeModel`, or a
   * function giving one (asked only when a judged metric is made). Not needed otherwise.
   */
  readonly judge?: string | JudgeModel | (() => JudgeModel);
  /** Key, base URL and timeouts of a judge named by a model string. */
  readonly modelSettings?: JudgeModelSettings;
  /**
   * The folder relative image paths are read from, and the only one they may be read from.
   * Default: the current directory.
   */
  readonly baseDirectory?: string;
}

/**
 * tool-call-accuracy as the registry makes it: with a judge, a case's judged values
 * (`match.judged`) are decided first (`withJudgedValues`), sampled by `samples`, `temperature`
 * and `minAgreement`; without one, a case that holds them is a `JUDGE_REQUIRED` error.
 */
function withJudgedValuesDefinition(definition: MetricDefinition): MetricDefinition {
  return {
    ...definition,
    judge: "optional",
    asksJudge: {
      when: judgeWhen("tool-call-accuracy"),
      asks: (_options, judgeGiven) => judgeGiven,
    },
    create(given, context) {
      const options = camelKeys(given);
      // Judged values may sit only as path rules: anywhere else is named before any case runs.
      const rules = ruleLeavesOf(definition.id, options);
      const { samples, temperature, minAgreement, ...rest } = options;
      const sampling: JsonObject = {};
      for (const [key, value] of Object.entries({ samples, temperature, minAgreement }))
        if (Object.hasOwn(options, key)) sampling[key] = value;
      if (!context.hasJudge) {
        const given = Object.keys(sampling).at(0);
        if (rules.length > 0 || given !== undefined) {
          throw new JudgeRequiredError({
            option: given === undefined ? definition.id : `${definition.id}.${given}`,
            message:
              rules.length > 0
                ? `${definition.id}'s options hold a judged value (match.judged): give a judge (--judge provider/model)`
                : `${definition.id}.${given ?? ""} samples the judge of judged values: give a judge (--judge provider/model)`,
          });
        }
        return definition.create(rest, context);
      }
      const judged = withJudgedValues(
        {
          make: (made) => definition.create(made, context),
          options: rest,
          merge: (base, overrides) => caseMatchOptions(definition.id, base, overrides),
        },
        context.judge,
        samplingOptions(definition.id, sampling),
      );
      // A case's options are held to the run's policy, as the metric without a judge holds them.
      const run = resolveMatchOptions(rest, definition.id);
      if (!hasRunPolicy(run)) return judged;
      return {
        ...judged,
        withOptions: (overrides: JsonObject) =>
          holdingRunPolicy(judged.withOptions?.(overrides) ?? judged, run),
      };
    },
  };
}

/**
 * Every metric toolscore makes by id, deterministic and judged: the one registry. Each definition
 * lives with what it scores (`metrics`, `judges`, the compatible APIs of `compat`).
 */
export const metricDefinitions: readonly MetricDefinition[] = [
  ...deterministicMetrics.map((definition) =>
    definition.id === "tool-call-accuracy" ? withJudgedValuesDefinition(definition) : definition,
  ),
  ...deepevalMetrics,
  ...judgedMetrics,
  ...ragasMultimodalMetrics,
];

/** The definition of `id`; an `InvalidOptionError` naming the known ids (and the closest) if none. */
export function metricDefinition(id: unknown): MetricDefinition {
  const definition = metricDefinitions.find((entry) => entry.id === id);
  if (definition !== undefined) return definition;
  const ids = metricDefinitions.map((entry) => entry.id);
  throw new InvalidOptionError({
    option: "metric",
    value: id,
    message: `unknown metric ${JSON.stringify(id)}${typeof id === "string" ? didYouMean(id, ids) : ""}; known metrics: ${ids.join(", ")}`,
  });
}

/** A metric config's id and its options, which stand beside it: `{ metric, ...options }`. */
export function splitMetricConfig(config: MetricConfigInput): {
  metric: unknown;
  options: Record<string, unknown>;
} {
  const { metric, ...options } = config as Record<string, unknown>;
  return { metric, options };
}

/** A metric as a config names it: its id, and its options beside it. */
export type MetricConfigInput = { readonly metric: string } & Readonly<Record<string, unknown>>;

function resolveContext(context: MetricContext, id: string): ResolvedMetricContext {
  let judge: JudgeModel | undefined;
  const baseDirectory = context.baseDirectory ?? process.cwd();
  const imageLoading = { baseDirectory, allowedRoots: [baseDirectory] };
  return {
    imageLoading,
    loadContexts: (values, options) => prepareContexts(values, { ...imageLoading, ...options }),
    hasJudge: context.judge !== undefined,
    judge: () => {
      if (judge !== undefined) return judge;
      const given = context.judge;
      if (given === undefined) {
        throw new JudgeRequiredError({
          option: "judge",
          message: `${id} asks an LLM judge: pass { judge: "provider/model" } (or a JudgeModel) as createMetric's second argument, or --judge on the command line`,
        });
      }
      judge =
        typeof given === "function"
          ? given()
          : resolveJudgeModel(given, context.modelSettings ?? {});
      return judge;
    },
  };
}

/**
 * Makes any metric toolscore has, by id, exactly as `toolscore eval` makes it from a config:
 * deterministic ones from their options alone, judged ones (`tool-selection`,
 * `multimodal-faithfulness`, `ragas-multimodal-faithfulness`, `ragas-multimodal-relevance`) with
 * a judge. An unknown id or option is an `InvalidOptionError`; a judge whose key is missing a
 * `ProviderConfigError`; a judged metric without a judge a `JudgeRequiredError`.
 *
 * @example
 * const accuracy = createMetric({ metric: "tool-call-accuracy", order: "in-order" });
 * const selection = createMetric({ metric: "tool-selection", threshold: 0.7 }, { judge: "openai/gpt-4o-mini" });
 */
export function createMetric(config: MetricConfigInput, context: MetricContext = {}): Metric {
  if (!isJsonObject(config)) {
    throw new InvalidOptionError({
      option: "metric",
      value: config,
      message: 'createMetric takes { metric: "<id>", ...options }',
    });
  }
  const id = (config as { metric?: unknown }).metric;
  if (id === undefined) {
    const ids = metricDefinitions.map((entry) => entry.id);
    throw new InvalidOptionError({
      option: "metric",
      value: config,
      message: `createMetric needs the metric key, the id of the metric to make: { metric: "tool-call-accuracy", ...options } (known metrics: ${ids.join(", ")})`,
    });
  }
  // An unknown id is named before anything else.
  const definition = metricDefinition(id);
  const { options } = splitMetricConfig(config);
  if (typeof context !== "object" || (context as unknown) === null) {
    throw new InvalidOptionError({
      option: "context",
      value: context,
      message: "createMetric's second argument is { judge?, modelSettings?, baseDirectory? }",
    });
  }
  rejectUnknownOptions("createMetric's context", context, [
    "judge",
    "modelSettings",
    "baseDirectory",
  ]);
  let metric: Metric;
  try {
    metric = definition.create(options as JsonObject, resolveContext(context, definition.id));
  } catch (error) {
    throw namingMetric(error, definition.id);
  }
  return metric.id === definition.id ? metric : { ...metric, id: definition.id };
}

/**
 * An option error as every metric gives it: the option named from the metric's id
 * (`tool-call-accuracy.threshold`), and the message starting with the id.
 */
function namingMetric(error: unknown, id: string): unknown {
  if (!InvalidOptionError.isInstance(error)) return error;
  const own = error.option === id || error.option.startsWith(`${id}.`);
  const named = error.message.startsWith(id);
  if (own && named) return error;
  return new InvalidOptionError({
    option: own ? error.option : `${id}.${error.option}`,
    value: error.value,
    message: named ? error.message : `${id}: ${error.message}`,
    cause: error,
  });
}
