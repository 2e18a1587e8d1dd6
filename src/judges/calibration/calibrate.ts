import pLimit from "p-limit";
import type { JudgeModel, JudgeUsage } from "../../core/judge.js";
import type { JsonObject } from "../../core/json.js";
import { samplingOptions } from "../samples.js";
import type { Metric } from "../../core/metric.js";
import { toToolCalls } from "../../core/tool-call.js";
import { judgedMetrics } from "../judged-metrics.js";
import { agreementStats, kappaInterval, kappaWords } from "./agreement.js";
import type { AgreementStats } from "./agreement.js";
import {
  argumentCorrectnessCalibrationSet,
  taskCompletionCalibrationSet,
} from "./judged-metric-cases.js";
import type { CallLabel, LabelledCase } from "./judged-metric-cases.js";
import { toolSelectionCalibrationSet } from "./tool-selection-cases.js";
import type { LabelledToolSelectionCase } from "./tool-selection-cases.js";
import { defaultConcurrency } from "../../core/options.js";
import {
  argumentCorrectnessDecisionVersion,
  argumentCorrectnessPromptVersion,
} from "../prompts/argument-correctness.js";
import {
  taskCompletionDecisionVersion,
  taskCompletionPromptVersion,
} from "../prompts/task-completion.js";
import {
  toolSelectionDecisionVersion,
  toolSelectionPromptVersion,
} from "../prompts/tool-selection.js";
import { isDecisionModel } from "../decisions.js";
import type { DecisionBand } from "../decisions.js";
import { brierScore, expectedCalibrationError, fitDecisionBand } from "./decision-band.js";
import type { LabelledProbability } from "./decision-band.js";
import { canonicalJson } from "../../core/json.js";
import type { JudgeResponse } from "../../core/judge.js";

/** The judged metrics that ship a labelled set. */
export const calibratedMetrics = [
  "tool-selection",
  "argument-correctness",
  "task-completion",
] as const;
export type CalibratedMetric = (typeof calibratedMetrics)[number];

/** The prompt each metric asks with: a calibration holds for that version only. */
const promptVersions: Readonly<Record<CalibratedMetric, string>> = {
  "tool-selection": toolSelectionPromptVersion,
  "argument-correctness": argumentCorrectnessPromptVersion,
  "task-completion": taskCompletionPromptVersion,
};

/** The decision-model form each metric asks a decision model with. */
const decisionVersions: Readonly<Record<CalibratedMetric, string>> = {
  "tool-selection": toolSelectionDecisionVersion,
  "argument-correctness": argumentCorrectnessDecisionVersion,
  "task-completion": taskCompletionDecisionVersion,
};

/**
 * The version of the prompt a judge is asked `metric` with (`decisions`: a decision model's
 * form): a calibration holds for it only.
 */
export function calibratedPromptVersion(metric: CalibratedMetric, decisions: boolean): string {
  return (decisions ? decisionVersions : promptVersions)[metric];
}

/** Each metric's pass line by default: its own default threshold. */
const defaultThresholds: Readonly<Record<CalibratedMetric, number>> = {
  "tool-selection": 0.5,
  "argument-correctness": 1,
  "task-completion": 1,
};

/** A metric's labelled set, as toolscore ships it. */
export function calibrationSet(metric: CalibratedMetric): readonly LabelledCase[] {
  if (metric === "argument-correctness") return argumentCorrectnessCalibrationSet();
  if (metric === "task-completion") return taskCompletionCalibrationSet();
  return toolSelectionCalibrationSet.map(fromToolSelectionCase);
}

function fromToolSelectionCase(entry: LabelledToolSelectionCase): LabelledCase {
  return {
    id: entry.id,
    testCase: {
      id: entry.id,
      input: entry.input,
      availableTools: entry.availableTools,
      toolsCalled: toToolCalls(entry.toolsCalled, { field: `${entry.id}.toolsCalled` }),
      actualOutput: entry.output,
    },
    label: entry.label,
    why: entry.reasoning,
  };
}

export interface JudgeCalibrationOptions {
  /** The judged metric measured. Default `"tool-selection"`. */
  metric?: CalibratedMetric;
  /** Default: toolscore's labelled set of the metric (`calibrationSet`). */
  cases?: readonly LabelledCase[];
  /** Pass/fail line for accuracy and kappa. Default: the metric's default threshold. */
  threshold?: number;
  /** Cases judged at once. Default 8. */
  concurrency?: number;
  /**
   * The metric's options as the gate runs it (`samples`, `temperature`, `minAgreement`, ...):
   * a calibration measures the configuration it vouches for.
   */
  metricOptions?: Readonly<Record<string, unknown>>;
  /** What the judge must reach to pass; each unset one takes its default (`defaultCalibrationGates`). */
  gates?: CalibrationGates;
  /**
   * For a decision model: whether to fit its band on the cases (`fitDecisionBand`) and report
   * the figures with it. Default true, unless `metricOptions.band` sets one.
   */
  fitBand?: boolean;
  /** The false-pass and false-fail rate a fitted band aims at. Default 0.05. */
  targetFalsePass?: number;
  signal?: AbortSignal;
}

/** What a decision model's probabilities are worth, and the band a calibration used. */
export interface DecisionCalibration {
  /** The band the figures are measured with. */
  readonly band: DecisionBand;
  /** Whether it was fitted on these cases (else the metric's own). */
  readonly fitted: boolean;
  /** The rate a fitted band aims at. */
  readonly targetFalsePass: number;
  /** Mean squared gap between probability and label (0 best); undefined without labelled units. */
  readonly brier: number | undefined;
  /** Expected calibration error over ten bins (0 best). */
  readonly ece: number | undefined;
  /** Units with a probability and a label that decides them. */
  readonly units: number;
}

/** What a judge must reach on labelled cases to be trusted with a gate. */
export interface CalibrationGates {
  /** The least Cohen's kappa on pass/fail (-1..1). */
  readonly minKappa?: number;
  /** The largest share of label-failed cases the judge may pass (0..1). */
  readonly maxFalsePass?: number;
  /** The least share of decidable cases the judge must decide (0..1): "cannot tell" is no verdict. */
  readonly minCoverage?: number;
}

/**
 * The defaults: substantial agreement (Landis and Koch), at most one failing case in seven passed,
 * four decidable cases in five decided.
 */
export const defaultCalibrationGates: Required<CalibrationGates> = {
  minKappa: 0.6,
  maxFalsePass: 0.15,
  minCoverage: 0.8,
};

/** One case of a calibration: the label, and the judge's score, "cannot tell" or error. */
export interface CalibrationCaseResult {
  readonly id: string;
  readonly label: number | "not-evaluable";
  readonly score?: number;
  /** The judge could not tell. */
  readonly notEvaluable?: boolean;
  readonly reason?: string;
  readonly error?: { readonly code: string; readonly message: string };
  /** Of a case labelled call by call: each call's label and the judge's verdict on it. */
  readonly calls?: readonly {
    readonly label: CallLabel;
    readonly verdict?: string;
    /** A decision model's probability that the call is right. */
    readonly probability?: number;
  }[];
  /** A decision model's probability that the case passes. */
  readonly probability?: number;
}

/** How a judge agrees with the labels, case by case and overall (cases both decided). */
export interface CalibrationReport extends AgreementStats {
  readonly metric: CalibratedMetric;
  /**
   * What the figures count: cases, or calls when every case is labelled call by call
   * (`argument-correctness`), so a judge that blames the wrong call is caught.
   */
  readonly unit: "case" | "call";
  /** The version of the metric's prompt the judge was asked with. */
  readonly promptVersion: string;
  /** `provider/model`. */
  readonly model: string;
  readonly threshold: number;
  /** Cases the judge could not score (left out of the statistics). */
  readonly errors: number;
  /**
   * "Cannot tell", against the labels: cases labelled not evaluable, those the judge said it
   * could not tell, and those both said (left out of the statistics above).
   */
  readonly notEvaluable: {
    readonly labelled: number;
    readonly judged: number;
    readonly agreed: number;
  };
  /** Of the cases a label decides, the share the judge decided (scored, not "cannot tell", no error). */
  readonly coverage: number;
  /** Cases a label decides on which the judge said "cannot tell". */
  readonly abstained: number;
  /** Of the decided cases the label fails, the share the judge passed; undefined without any. */
  readonly falsePassRate: number | undefined;
  /** Of the decided cases the label passes, the share the judge failed; undefined without any. */
  readonly falseFailRate: number | undefined;
  /** A 95% bootstrap interval of the kappa (2,000 draws, seeded). */
  readonly kappaInterval: readonly [low: number, high: number] | undefined;
  /** The gates the judge was held to, defaults filled in. */
  readonly gates: Required<CalibrationGates>;
  /** Whether the judge met every gate. */
  readonly passed: boolean;
  /** Each gate it missed, with its figure: empty when it passed. */
  readonly failures: readonly string[];
  /** One line that says what the judge is worth. */
  readonly verdict: string;
  readonly results: readonly CalibrationCaseResult[];
  readonly usage: JudgeUsage;
  readonly costUsd?: number;
  /** Of a decision model: its probabilities' worth, and the band used. */
  readonly decision?: DecisionCalibration;
}

/** The judge, counting what every answer cost. */
function counting(model: JudgeModel) {
  const usage = { inputTokens: 0, outputTokens: 0 };
  let cost: number | undefined;
  const counted: JudgeModel = {
    ...model,
    async generate(request, options) {
      const response = await model.generate(request, options);
      usage.inputTokens += response.usage.inputTokens;
      usage.outputTokens += response.usage.outputTokens;
      if (response.costUsd !== undefined) cost = (cost ?? 0) + response.costUsd;
      return response;
    },
  };
  return { counted, spent: () => ({ usage: { ...usage }, costUsd: cost }) };
}

/** The metric, as the registry makes it, asking `model`. */
function metricFor(
  metric: CalibratedMetric,
  model: JudgeModel,
  threshold: number,
  options: Readonly<Record<string, unknown>>,
): Metric {
  const definition = judgedMetrics.find((entry) => entry.id === metric);
  if (definition === undefined) throw new Error(`${metric} is not a judged metric`);
  return definition.create(
    { ...options, threshold },
    {
      judge: () => model,
      hasJudge: true,
      imageLoading: { baseDirectory: ".", allowedRoots: [] },
      loadContexts: () => Promise.reject(new Error("calibration cases hold no images")),
    },
  );
}

/**
 * Runs a judged metric over labelled cases and reports how its judge agrees with the labels:
 * coverage, false-pass and false-fail rates, Cohen's kappa with a bootstrap interval, pass/fail
 * accuracy, mean absolute error, exact agreement, how its "cannot tell" answers match the cases
 * labelled undecidable, and every case; then whether it meets the gates, and one verdict line. A
 * case the judge fails is reported and left out of the statistics; the run goes on.
 *
 * @example
 * const report = await calibrateJudge(resolveJudgeModel("openai/gpt-4.1-mini"), { metric: "argument-correctness" });
 * report.passed; report.verdict; // "not trusted: coverage 28.3% < 80.0%: ..."
 */
export async function calibrateJudge(
  model: JudgeModel,
  options: JudgeCalibrationOptions = {},
): Promise<CalibrationReport> {
  const metricId = options.metric ?? "tool-selection";
  const cases = options.cases ?? calibrationSet(metricId);
  const given = options.metricOptions ?? {};
  const threshold =
    options.threshold ??
    (typeof given.threshold === "number" ? given.threshold : defaultThresholds[metricId]);
  const { counted, spent } = counting(model);
  const decides = isDecisionModel(model);
  // A second pass with a fitted band asks nothing again: answers are kept for the calibration.
  const judge = decides ? remembering(counted) : counted;
  const measureAll = (metricOptions: Readonly<Record<string, unknown>>) =>
    measureCases(metricFor(metricId, judge, threshold, metricOptions), cases, options);
  let results = await measureAll(given);
  let decision: DecisionCalibration | undefined;
  if (decides) {
    const target = options.targetFalsePass ?? 0.05;
    const points = labelledProbabilities(results, threshold);
    const fit = options.fitBand ?? given.band === undefined;
    const band = fit
      ? fitDecisionBand(points, target)
      : samplingOptions(metricId, given as JsonObject).band;
    if (fit) results = await measureAll({ ...given, band: [band.low, band.high] });
    decision = {
      band,
      fitted: fit,
      targetFalsePass: target,
      brier: brierScore(points),
      ece: expectedCalibrationError(points),
      units: points.length,
    };
  }
  const unit: "call" | "case" =
    cases.length > 0 && cases.every((entry) => entry.callLabels) ? "call" : "case";
  const units = unit === "call" ? results.flatMap(callUnits) : results.map(caseUnit);
  const decidable = units.filter((item) => typeof item.label === "number");
  const scored = decidable.flatMap((item) =>
    typeof item.judged === "number" ? [{ label: item.label as number, score: item.judged }] : [],
  );
  const labelled = results.filter((result) => result.label === "not-evaluable");
  // A call is right (1) or wrong (0): its line sits between them.
  const line = unit === "call" ? 0.5 : threshold;
  const stats = agreementStats(scored, line);
  const { bothPass, bothFail, judgeOnlyPass, labelOnlyPass } = stats.confusion;
  const share = (part: number, whole: number) => (whole === 0 ? undefined : part / whole);
  const figures = {
    ...stats,
    unit,
    coverage: decidable.length === 0 ? 0 : scored.length / decidable.length,
    abstained: decidable.filter((item) => item.judged === "abstained").length,
    falsePassRate: share(judgeOnlyPass, judgeOnlyPass + bothFail),
    falseFailRate: share(labelOnlyPass, labelOnlyPass + bothPass),
    kappaInterval: kappaInterval(scored, line),
  };
  const gates = { ...defaultCalibrationGates, ...definedOnly(options.gates ?? {}) };
  const failures = gateFailures(figures, gates);
  const { usage, costUsd } = spent();
  return {
    ...figures,
    metric: metricId,
    promptVersion: calibratedPromptVersion(metricId, decides),
    model: `${model.provider}/${model.modelId}`,
    threshold,
    errors: results.filter((result) => result.error !== undefined).length,
    notEvaluable: {
      labelled: labelled.length,
      judged: results.filter((result) => result.notEvaluable === true).length,
      agreed: labelled.filter((result) => result.notEvaluable === true).length,
    },
    gates,
    passed: failures.length === 0,
    failures,
    verdict: verdictLine(figures, failures),
    results,
    usage,
    costUsd,
    ...(decision === undefined ? {} : { decision }),
  };
}

/** Every case measured by `metric`, `options.concurrency` at once; each case's outcome kept. */
async function measureCases(
  metric: Metric,
  cases: readonly LabelledCase[],
  options: JudgeCalibrationOptions,
): Promise<CalibrationCaseResult[]> {
  const limit = pLimit(options.concurrency ?? defaultConcurrency);
  return Promise.all(
    cases.map((entry) =>
      limit(async (): Promise<CalibrationCaseResult> => {
        const result = await metric.measure(entry.testCase, { signal: options.signal });
        const base = { id: entry.id, label: entry.label };
        const calls = (details: unknown) =>
          entry.callLabels === undefined ? {} : { calls: callVerdicts(entry.callLabels, details) };
        switch (result.status) {
          case "scored":
            return {
              ...base,
              score: result.score,
              reason: result.reason,
              ...calls(result.details),
              ...probabilityIn(result.details),
            };
          case "not-evaluable":
            return {
              ...base,
              notEvaluable: true,
              reason: result.reason,
              ...calls(result.details),
              ...probabilityIn(result.details),
            };
          // Its calls stay counted: decidable, and not decided.
          case "error":
            return {
              ...base,
              error: { code: result.error.code, message: result.error.message },
              ...calls(undefined),
            };
          case "skipped":
            return {
              ...base,
              error: { code: "SKIPPED", message: result.reason },
              ...calls(undefined),
            };
        }
      }),
    ),
  );
}

/** A decision model's probability in a result's details, when there is one. */
function probabilityIn(details: unknown): { probability?: number } {
  const probability =
    typeof details === "object" && details !== null && "probability" in details
      ? details.probability
      : undefined;
  return typeof probability === "number" ? { probability } : {};
}

/** The judge, each distinct question asked once: a repeated one gets the first answer. */
function remembering(model: JudgeModel): JudgeModel {
  const answers = new Map<string, Promise<JudgeResponse>>();
  return {
    ...model,
    generate(request, options) {
      const key = canonicalJson(request);
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = model.generate(request, options);
        answers.set(key, answer);
        // A failed call is asked again next time.
        answer.catch(() => answers.delete(key));
      }
      return answer;
    },
  };
}

/** Each unit a label decides with the probability the decision model gave it, when it gave one. */
function labelledProbabilities(
  results: readonly CalibrationCaseResult[],
  threshold: number,
): LabelledProbability[] {
  const points: LabelledProbability[] = [];
  for (const result of results) {
    if (result.calls !== undefined) {
      for (const call of result.calls) {
        if (call.label !== "cannot_tell" && call.probability !== undefined)
          points.push({ probability: call.probability, passes: call.label === "right" });
      }
    } else if (typeof result.label === "number" && result.probability !== undefined) {
      points.push({ probability: result.probability, passes: result.label >= threshold });
    }
  }
  return points;
}

/** What a unit of a calibration (a case, or a call) was labelled, and what the judge made of it. */
interface Unit {
  readonly label: number | "not-evaluable";
  readonly judged: number | "abstained" | "error";
}

function caseUnit(result: CalibrationCaseResult): Unit {
  const judged = result.score ?? (result.notEvaluable === true ? "abstained" : ("error" as const));
  return { label: result.label, judged };
}

const callScores: Readonly<Record<string, number | "abstained">> = {
  right: 1,
  wrong: 0,
  cannot_tell: "abstained",
};

function callUnits(result: CalibrationCaseResult): Unit[] {
  return (result.calls ?? []).map((call) => ({
    label: call.label === "cannot_tell" ? "not-evaluable" : call.label === "right" ? 1 : 0,
    judged: call.verdict === undefined ? "error" : (callScores[call.verdict] ?? "error"),
  }));
}

/** Each labelled call with the judge's verdict on it, read from the metric's details. */
function callVerdicts(
  labels: readonly CallLabel[],
  details: unknown,
): { label: CallLabel; verdict?: string; probability?: number }[] {
  const judged =
    typeof details === "object" && details !== null && "calls" in details
      ? details.calls
      : undefined;
  return labels.map((label, index) => {
    const call = Array.isArray(judged)
      ? (judged[index] as { verdict?: unknown; probability?: unknown } | undefined)
      : undefined;
    const verdict = call?.verdict;
    const probability = call?.probability;
    return {
      label,
      ...(typeof verdict === "string" ? { verdict } : {}),
      ...(typeof probability === "number" ? { probability } : {}),
    };
  });
}

function definedOnly(gates: CalibrationGates): CalibrationGates {
  return Object.fromEntries(Object.entries(gates).filter(([, value]) => value !== undefined));
}

type Figures = Pick<
  CalibrationReport,
  "cohensKappa" | "coverage" | "falsePassRate" | "confusion" | "cases" | "unit"
>;

/** A share as calibration figures show it: a percentage to one decimal (`15.0%`). */
export function calibrationPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Each gate the figures miss, said with the figure and the line. */
function gateFailures(figures: Figures, gates: Required<CalibrationGates>): string[] {
  const failures: string[] = [];
  if (figures.coverage < gates.minCoverage)
    failures.push(
      `coverage ${calibrationPercent(figures.coverage)} < ${calibrationPercent(gates.minCoverage)}: the judge decided too few of the ${figures.unit}s a label decides`,
    );
  if (figures.cohensKappa === undefined)
    failures.push(
      figures.cases === 0
        ? `no ${figures.unit} was decided by both the judge and a label: kappa cannot be measured`
        : `kappa cannot be measured: every decided ${figures.unit} sits on one side for both; label ${figures.unit}s of the other side`,
    );
  else if (figures.cohensKappa < gates.minKappa)
    failures.push(
      `kappa ${figures.cohensKappa.toFixed(2)} < ${gates.minKappa.toFixed(2)}: ${describeKappa(figures)}`,
    );
  if (figures.falsePassRate !== undefined && figures.falsePassRate > gates.maxFalsePass)
    failures.push(
      `false passes ${calibrationPercent(figures.falsePassRate)} > ${calibrationPercent(gates.maxFalsePass)}: the judge passed cases the labels fail`,
    );
  return failures;
}

/** The kappa in words, naming a judge that answers one way whatever it is shown. */
function describeKappa(figures: Figures): string {
  const { bothPass, bothFail, judgeOnlyPass, labelOnlyPass } = figures.confusion;
  const kappa = figures.cohensKappa ?? 0;
  if (kappa <= 0.05 && bothFail + labelOnlyPass === 0) return "no better than always answering yes";
  if (kappa <= 0.05 && bothPass + judgeOnlyPass === 0) return "no better than always answering no";
  return kappaWords(kappa);
}

/** One line: trusted or not, and the figure that decides it. */
function verdictLine(figures: Figures, failures: readonly string[]): string {
  if (failures.length > 0) return `not trusted: ${failures[0]}`;
  const kappa = figures.cohensKappa ?? 0;
  return `trusted: kappa ${kappa.toFixed(2)} (${describeKappa(figures)}), coverage ${calibrationPercent(figures.coverage)}`;
}
