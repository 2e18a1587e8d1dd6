import { InvalidOptionError } from "../core/errors.js";
import type { ToolCallMatchDetails } from "../core/explanation.js";
import { jsonEquals } from "../core/json.js";
import type { ToolCall } from "../core/tool-call.js";
import { diffArguments } from "../matchers/diff-arguments.js";
import { resolveMatchLimits } from "./limits.js";
import type { MatchLimits, ResolvedMatchLimits } from "./limits.js";
import { deepevalPairScore, quickDeepevalScore } from "./deepeval-quick-score.js";
import type { DeepevalMode, QuickPairing, QuickScoreOptions } from "./deepeval-quick-score.js";
import { buildMatchDetails } from "./match-details.js";
import type { PairExplanation } from "./match-details.js";
import { booleanOption, enumOption, shareOption } from "../core/options.js";
import { pairToolCalls } from "./pairing.js";
import { toolCallMatrix } from "./tool-call-matrix.js";

/** The tool-call fields deepeval can compare besides the name (deepeval's `ToolCallParams`). */
export type DeepevalEvaluationParam = "inputParameters" | "output";

const evaluationParamValues: readonly DeepevalEvaluationParam[] = ["inputParameters", "output"];

export type { DeepevalMode };

/** Which of deepeval's reason templates the deterministic score selects. */
export type DeepevalReasonKind =
  | "all-called"
  | "incomplete"
  | "correct-ordering"
  | "incorrect-ordering"
  | "exact-match"
  | "not-exact-match";

export interface DeepevalToolCorrectnessOptions {
  /** Minimum passing score. Default 0.5. */
  threshold?: number;
  /** Fields compared besides the name. Default none (names only). */
  evaluationParams?: readonly DeepevalEvaluationParam[];
  /** Build the reason text. Default true. */
  includeReason?: boolean;
  /** Binary scoring: anything below 1 scores 0, and the threshold becomes 1. Default false. */
  strictMode?: boolean;
  /** Score the order of calls (weighted LCS). Default false. */
  shouldConsiderOrdering?: boolean;
  /** Require the exact sequence; wins over `shouldConsiderOrdering`. Default false. */
  shouldExactMatch?: boolean;
  /**
   * How the unordered path pairs calls: `"greedy"` reproduces deepeval's numbers, `"optimal"`
   * finds the pairing with the highest total. Default `"greedy"`.
   */
  matching?: "greedy" | "optimal";
  /** Bounds for pathological inputs. */
  limits?: MatchLimits;
}

export interface ResolvedDeepevalToolCorrectnessOptions {
  readonly threshold: number;
  readonly evaluationParams: readonly DeepevalEvaluationParam[];
  readonly includeReason: boolean;
  readonly strictMode: boolean;
  readonly shouldConsiderOrdering: boolean;
  readonly shouldExactMatch: boolean;
  readonly matching: "greedy" | "optimal";
  readonly limits: ResolvedMatchLimits;
}

/** deepeval's Python spellings of the evaluation params, accepted everywhere. */
const pythonParamNames: Readonly<Record<string, DeepevalEvaluationParam>> = {
  input_parameters: "inputParameters",
  INPUT_PARAMETERS: "inputParameters",
  OUTPUT: "output",
};

/** Validates the options once and fills in deepeval's defaults. */
export function resolveDeepevalToolCorrectnessOptions(
  options: DeepevalToolCorrectnessOptions = {},
): ResolvedDeepevalToolCorrectnessOptions {
  const evaluationParams: unknown = options.evaluationParams ?? [];
  if (!Array.isArray(evaluationParams)) {
    throw new InvalidOptionError({
      option: "evaluationParams",
      value: evaluationParams,
      message: `evaluationParams must be an array of "inputParameters" and/or "output", got ${typeof evaluationParams}`,
    });
  }
  const params = (evaluationParams as unknown[]).map((param) =>
    enumOption(
      "evaluationParams",
      pythonParamNames[param as string] ?? param,
      evaluationParamValues,
      "inputParameters",
    ),
  );
  return {
    threshold: shareOption("threshold", options.threshold, 0.5),
    evaluationParams: params,
    includeReason: booleanOption("includeReason", options.includeReason, true),
    strictMode: booleanOption("strictMode", options.strictMode, false),
    shouldConsiderOrdering: booleanOption(
      "shouldConsiderOrdering",
      options.shouldConsiderOrdering,
      false,
    ),
    shouldExactMatch: booleanOption("shouldExactMatch", options.shouldExactMatch, false),
    matching: enumOption("matching", options.matching, ["greedy", "optimal"], "greedy"),
    limits: resolveMatchLimits(options.limits),
  };
}

export interface DeepevalToolCorrectnessScore {
  readonly mode: DeepevalMode;
  /** The deterministic tool-calling score, before strict mode and any LLM judgement. */
  readonly score: number;
  readonly reasonKind: DeepevalReasonKind;
  /** The tool-calling reason; absent when `includeReason` is false. */
  readonly reason?: string;
  readonly details: ToolCallMatchDetails;
}

/** A name JSON writes as it is, between quotes: printable ASCII without `"` or `\`. */
const plainName = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The calls' names as a JSON list, as `JSON.stringify` writes it (built directly: it is on every reason). */
export function namesOf(calls: readonly { name: string }[]): string {
  let text = "[";
  for (let at = 0; at < calls.length; at++) {
    const name = calls[at].name;
    if (at > 0) text += ",";
    text += plainName.test(name) ? `"${name}"` : JSON.stringify(name);
  }
  return `${text}]`;
}

/**
 * What a reason reads of an alignment: the pairs (in expected order) with their scores, and the
 * expected calls left unpaired, as missing or out of order. The full details are one; a quick
 * score's own pairing gives another without building the details.
 */
interface ReasonView {
  readonly pairs: readonly {
    readonly expectedIndex: number;
    readonly calledIndex: number;
    readonly name: string;
    readonly score: number;
  }[];
  readonly missing: readonly { readonly expectedIndex: number; readonly name: string }[];
  readonly outOfOrder: readonly { readonly expectedIndex: number; readonly name: string }[];
}

/**
 * Expected calls left unmatched although a call of the same name was made, as another type
 * (`FUNCTION` against `MCP`): named as type mismatches, as deepeval 4.1 does, so that a reason
 * never says "missing X" next to "called X".
 */
function typeMismatches(
  unmatched: readonly { readonly expectedIndex: number; readonly name: string }[],
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  details: ReasonView,
): { missing: typeof unmatched; mismatched: string[] } {
  if (unmatched.length === 0) return { missing: unmatched, mismatched: [] };
  const used = new Set(details.pairs.map((pair) => pair.calledIndex));
  const missing: (typeof unmatched)[number][] = [];
  const mismatched: string[] = [];
  for (const item of unmatched) {
    const type = expected[item.expectedIndex].type;
    const at = called.findIndex(
      (call, index) => !used.has(index) && call.name === item.name && call.type !== type,
    );
    if (at === -1) {
      missing.push(item);
      continue;
    }
    used.add(at);
    mismatched.push(typeMismatchText(item.name, type, called[at].type));
  }
  return { missing, mismatched };
}

/** One type mismatch as deepeval writes it: `ask_question (expected FUNCTION, called MCP)`. */
const typeMismatchText = (name: string, expected: string, called: string): string =>
  `${name} (expected ${expected}, called ${called})`;

/** Texts as a JSON list, as the reasons write every list. */
const listOf = (texts: readonly string[]): string => namesOf(texts.map((name) => ({ name })));

/** The positions where the same tool was called with another type (exact match compares them). */
function positionalTypeMismatches(
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
): string[] {
  const mismatched: string[] = [];
  const n = Math.min(expected.length, called.length);
  for (let at = 0; at < n; at++) {
    const [e, c] = [expected[at], called[at]];
    if (e.name === c.name && e.type !== c.type)
      mismatched.push(typeMismatchText(e.name, e.type, c.type));
  }
  return mismatched;
}

function buildReason(
  mode: DeepevalMode,
  score: number,
  expected: readonly ToolCall[],
  called: readonly ToolCall[],
  details: ReasonView,
): string {
  // Both lists, for the reasons that name them (a full score's names the expected ones only).
  const lists = () => `expected ${namesOf(expected)}, called ${namesOf(called)}`;
  if (mode === "exact") {
    const mismatched = positionalTypeMismatches(expected, called);
    const types = mismatched.length > 0 ? ` Tool type mismatches: ${listOf(mismatched)}.` : "";
    return `${score === 1 ? "Exact match" : "Not an exact match"}: ${lists()}.${types}`;
  }
  if (score === 1) {
    return mode === "ordering"
      ? `Correct ordering: all expected tools ${namesOf(expected)} were called in the correct order.`
      : `All expected tools ${namesOf(expected)} were called (order not considered).`;
  }
  const partial = details.pairs.filter((pair) => pair.score < 1);
  if (mode === "ordering") {
    const parts: string[] = [];
    const { missing, mismatched } = typeMismatches(details.missing, expected, called, details);
    // deepeval's order of the parts: missing, out of order, type mismatches.
    if (missing.length > 0) parts.push(`missing tools ${namesOf(missing)}`);
    if (details.outOfOrder.length > 0)
      parts.push(`out-of-order tools ${namesOf(details.outOfOrder)}`);
    if (mismatched.length > 0) parts.push(`tool type mismatches ${listOf(mismatched)}`);
    if (partial.length > 0) parts.push(`partially matching tools ${namesOf(partial)}`);
    if (expected.length === 0) parts.push(`unexpected tools ${namesOf(called)}`);
    return `Incorrect tool usage: ${parts.join(" and ")}; ${lists()}.`;
  }
  const extra = [
    ...(partial.length > 0 ? [`partially matching tools ${namesOf(partial)}`] : []),
    ...(expected.length === 0 ? [`unexpected tools ${namesOf(called)}`] : []),
  ];
  const unmatched =
    details.outOfOrder.length === 0
      ? details.missing
      : [...details.missing, ...details.outOfOrder].sort(
          (a, b) => a.expectedIndex - b.expectedIndex,
        );
  const { missing, mismatched } = typeMismatches(unmatched, expected, called, details);
  const head = [
    ...(missing.length > 0 || mismatched.length === 0 ? [`missing tools ${namesOf(missing)}`] : []),
    ...(mismatched.length > 0 ? [`tool type mismatches ${listOf(mismatched)}`] : []),
  ];
  return `Incomplete tool usage: ${head.join("; ")}${extra.map((part) => `; ${part}`).join("")}; ${lists()}.`;
}

const reasonKinds: Record<DeepevalMode, [DeepevalReasonKind, DeepevalReasonKind]> = {
  default: ["all-called", "incomplete"],
  ordering: ["correct-ordering", "incorrect-ordering"],
  exact: ["exact-match", "not-exact-match"],
};

export interface ExplainedDeepevalScore {
  readonly score: number;
  readonly reason: string;
  readonly details: ToolCallMatchDetails;
}

/** The pairing algorithm of a mode: by position, by order (weighted LCS), or deepeval's greedy. */
function algorithmOf(
  quick: QuickScoreOptions,
  options: ResolvedDeepevalToolCorrectnessOptions,
): "positional" | "weighted-lcs" | "optimal-assignment" | "deepeval-greedy" {
  if (quick.mode === "exact") return "positional";
  if (quick.mode === "ordering") return "weighted-lcs";
  return options.matching === "optimal" ? "optimal-assignment" : "deepeval-greedy";
}

/** A pair's argument and output verdicts, for the fields the options compare. */
function pairExplainer(quick: QuickScoreOptions): (e: ToolCall, c: ToolCall) => PairExplanation {
  const { useParameters, useOutput } = quick;
  return (e, c) => ({
    arguments: useParameters ? diffArguments(e.inputParameters, c.inputParameters) : [],
    ...(useOutput
      ? {
          output: {
            verdict: jsonEquals(e.output, c.output) ? ("match" as const) : ("mismatch" as const),
            expected: e.output,
            actual: c.output,
          },
        }
      : {}),
  });
}

/** The full computation: the similarity matrix, the pairing, its details and the reason. */
function explainDeepevalScore(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedDeepevalToolCorrectnessOptions,
  quick: QuickScoreOptions,
): ExplainedDeepevalScore {
  const { expected, called } = input;
  const { mode, useParameters, useOutput } = quick;
  // Only calls of the same tool reach the score (the matrix groups them), as in the quick path.
  const score = (e: ToolCall, c: ToolCall): number => deepevalPairScore(e, c, quick);
  const classKey = (call: ToolCall) =>
    `${useParameters ? JSON.stringify(call.inputParameters) : ""}\u0000${useOutput ? JSON.stringify(call.output) : ""}`;
  const matrix = toolCallMatrix({
    expected,
    called,
    score,
    classKey,
    // Calls alike in what is compared score 1: large optimal assignments pair them first.
    perfectKeys: { expected: classKey, called: classKey },
    maxPairEvaluations: options.limits.maxPairEvaluations,
  });
  const algorithm = algorithmOf(quick, options);
  const pairing = pairToolCalls(matrix, algorithm, options.limits);

  let deterministic: number;
  if (expected.length === 0) {
    deterministic = called.length === 0 ? 1 : 0;
  } else if (mode === "exact") {
    deterministic =
      expected.length === called.length &&
      pairing.pairs.length === expected.length &&
      pairing.pairs.every((pair) => pair.score === 1)
        ? 1
        : 0;
  } else {
    deterministic = pairing.total / expected.length;
  }

  const details = buildMatchDetails({
    algorithm,
    expected,
    called,
    matrix,
    pairing,
    explainPair: pairExplainer(quick),
  });
  let reason: string | undefined;
  return {
    score: deterministic,
    details,
    get reason() {
      return (reason ??= buildReason(mode, deterministic, expected, called, details));
    },
  };
}

/**
 * The full computation of one case's score, always through the matrix and the pairing, with
 * the details and reason built at once. The quick path must agree with it to the bit; tests
 * hold the two together.
 */
export function explainDeepevalToolCorrectness(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedDeepevalToolCorrectnessOptions,
): ExplainedDeepevalScore {
  return explainDeepevalScore(input, options, quickOptions(options));
}

function quickOptions(options: ResolvedDeepevalToolCorrectnessOptions): QuickScoreOptions {
  return {
    mode: options.shouldExactMatch
      ? "exact"
      : options.shouldConsiderOrdering
        ? "ordering"
        : "default",
    useParameters: options.evaluationParams.includes("inputParameters"),
    useOutput: options.evaluationParams.includes("output"),
    greedy: options.matching === "greedy",
    maxPairEvaluations: options.limits.maxPairEvaluations,
    maxAlignmentCells: options.limits.maxAlignmentCells,
  };
}

/** Scores one case's calls; made once per set of options by {@link createDeepevalScorer}. */
export type DeepevalScorer = (input: {
  readonly expected: readonly ToolCall[];
  readonly called: readonly ToolCall[];
}) => DeepevalToolCorrectnessScore;

/**
 * deepeval's deterministic tool-calling score (`docs/reference/semantics.md` §1) for one set of
 * options, with toolscore's fixes: calls are used up by position, `null` parameters are `{}`,
 * values compare as JSON. Make it once and score many cases with it.
 *
 * Small cases are scored directly; `details` and `reason` are then worked out the first time they
 * are read (most runs read neither), by the full computation, which gives the same score.
 */
export function createDeepevalScorer(
  options: ResolvedDeepevalToolCorrectnessOptions,
): DeepevalScorer {
  const quick = quickOptions(options);
  const [pass, fail] = reasonKinds[quick.mode];
  const context: ScoringContext = { options, quick };
  return (input) => {
    // The pairing the reason is told from: only the order-free and ordered modes have one.
    // A plain array: allocating a typed one costs more than a small case's score.
    const pairing =
      quick.mode === "exact" ? undefined : new Array<number>(2 * input.expected.length + 1);
    const fast = quickDeepevalScore(input.expected, input.called, quick, pairing);
    if (fast !== undefined) {
      const kind = fast === 1 ? pass : fail;
      return new QuickDeepevalScore(quick.mode, fast, kind, input, context, pairing);
    }
    const explained = explainDeepevalScore(input, options, quick);
    return {
      mode: quick.mode,
      score: explained.score,
      reasonKind: explained.score === 1 ? pass : fail,
      ...(options.includeReason ? { reason: explained.reason } : {}),
      details: explained.details,
    };
  };
}

// Resolved options are immutable and long-lived (one per metric): one scorer each.
const scorers = new WeakMap<ResolvedDeepevalToolCorrectnessOptions, DeepevalScorer>();

/**
 * deepeval's deterministic tool-calling score of one case; see {@link createDeepevalScorer},
 * which saves a lookup per case when many cases share the options.
 */
export function scoreDeepevalToolCorrectness(
  input: { readonly expected: readonly ToolCall[]; readonly called: readonly ToolCall[] },
  options: ResolvedDeepevalToolCorrectnessOptions,
): DeepevalToolCorrectnessScore {
  let scorer = scorers.get(options);
  if (scorer === undefined) {
    scorer = createDeepevalScorer(options);
    scorers.set(options, scorer);
  }
  return scorer(input);
}

/** What a quick score needs to explain itself later. */
interface ScoringContext {
  readonly options: ResolvedDeepevalToolCorrectnessOptions;
  readonly quick: QuickScoreOptions;
}

/**
 * The pairs of a quick score's pairing, and why each other expected call went unpaired, by the
 * rule `buildMatchDetails` follows: out of order when an unpaired call of the same tool could have
 * paired with it (scored above 0), else missing.
 */
function quickView(
  input: Parameters<typeof explainDeepevalScore>[0],
  pairing: QuickPairing,
  quick: QuickScoreOptions,
): ReasonView & { readonly total: number } {
  const { expected, called } = input;
  const colPaired = new Array<boolean>(called.length).fill(false);
  for (let row = 0; row < expected.length; row++) {
    const col = pairing[2 * row];
    if (col >= 0) colPaired[col] = true;
  }
  const pairs: ReasonView["pairs"][number][] = [];
  const missing: { expectedIndex: number; name: string }[] = [];
  const outOfOrder: { expectedIndex: number; name: string }[] = [];
  for (let row = 0; row < expected.length; row++) {
    const call = expected[row];
    const col = pairing[2 * row];
    if (col >= 0) {
      const score = pairing[2 * row + 1];
      pairs.push({ expectedIndex: row, calledIndex: col, name: call.name, score });
      continue;
    }
    let couldPair = false;
    for (let other = 0; other < called.length && !couldPair; other++) {
      const candidate = called[other];
      couldPair =
        !colPaired[other] &&
        candidate.name === call.name &&
        candidate.type === call.type &&
        deepevalPairScore(call, candidate, quick) > 0;
    }
    (couldPair ? outOfOrder : missing).push({ expectedIndex: row, name: call.name });
  }
  return { pairs, missing, outOfOrder, total: pairing[2 * expected.length] };
}

/** The view exact mode's reason is told from: it names the calls, and reads no pairing. */
const noView: ReasonView = { pairs: [], missing: [], outOfOrder: [] };

/**
 * A score computed directly. Its reason comes from the pairing the score found; its details are
 * built from that pairing when first read (most runs read none), with only the pairs' argument
 * and output verdicts computed then.
 */
class QuickDeepevalScore implements DeepevalToolCorrectnessScore {
  readonly #input: Parameters<typeof explainDeepevalScore>[0];
  readonly #context: ScoringContext;
  readonly #pairing: QuickPairing | undefined;
  #view?: ReturnType<typeof quickView>;
  #details?: ToolCallMatchDetails;
  #reason?: string;

  constructor(
    readonly mode: DeepevalMode,
    readonly score: number,
    readonly reasonKind: DeepevalReasonKind,
    input: Parameters<typeof explainDeepevalScore>[0],
    context: ScoringContext,
    pairing: QuickPairing | undefined,
  ) {
    this.#input = input;
    this.#context = context;
    this.#pairing = pairing;
  }

  /** The view of the score's own pairing; exact mode's reason reads none (names and verdict only). */
  #viewOf(): ReasonView {
    const pairing = this.#pairing;
    if (pairing === undefined) return noView;
    return (this.#view ??= quickView(this.#input, pairing, this.#context.quick));
  }

  get details(): ToolCallMatchDetails {
    if (this.#details !== undefined) return this.#details;
    const { options, quick } = this.#context;
    const pairing = this.#pairing;
    if (pairing === undefined) {
      return (this.#details = explainDeepevalScore(this.#input, options, quick).details);
    }
    const { expected, called } = this.#input;
    const view = (this.#view ??= quickView(this.#input, pairing, quick));
    // Only the pairs the view holds, and near misses of the same tool, are compared again.
    const matrix = {
      candidates: (row: number) => {
        const call = expected[row];
        const cols: number[] = [];
        called.forEach((other, col) => {
          if (other.name === call.name && other.type === call.type) cols.push(col);
        });
        return cols;
      },
      score: (row: number, col: number) => deepevalPairScore(expected[row], called[col], quick),
    };
    const pairs = view.pairs.map((pair) => ({
      row: pair.expectedIndex,
      col: pair.calledIndex,
      score: pair.score,
    }));
    return (this.#details = buildMatchDetails({
      algorithm: algorithmOf(quick, options),
      expected,
      called,
      matrix,
      pairing: { pairs, total: view.total },
      explainPair: pairExplainer(quick),
    }));
  }

  get reason(): string | undefined {
    if (!this.#context.options.includeReason) return undefined;
    const { expected, called } = this.#input;
    return (this.#reason ??= buildReason(this.mode, this.score, expected, called, this.#viewOf()));
  }

  /** The same JSON as an eagerly computed score. */
  toJSON(): DeepevalToolCorrectnessScore {
    const { mode, score, reasonKind, reason, details } = this;
    return { mode, score, reasonKind, ...(reason === undefined ? {} : { reason }), details };
  }
}

/**
 * The final score of deepeval's metric: the minimum of the tool-calling score and the judged
 * selection score (when there is one), then strict mode (anything below 1 is 0, threshold 1).
 */
export function finalizeDeepevalScore(options: {
  readonly score: number;
  readonly selectionScore?: number;
  readonly strictMode: boolean;
  readonly threshold: number;
}): { score: number; threshold: number; success: boolean } {
  const threshold = options.strictMode ? 1 : options.threshold;
  const combined = Math.min(options.score, options.selectionScore ?? 1);
  const score = options.strictMode && combined < threshold ? 0 : combined;
  return { score, threshold, success: score >= threshold };
}
