import { boundValue, cutText } from "../core/bounded.js";
import { unparsedArgumentsNote } from "../core/explanation.js";
import type { ArgumentVerdict, PairDetail } from "../core/explanation.js";
import type { JsonValue } from "../core/json.js";
import type { CallSchemaViolation, MatchResult, Violation } from "./match-result.js";

/** Joins reasons, naming at most `limit` of them (the result lists every one). */
function sentence(items: readonly string[], limit = 6): string {
  if (items.length <= limit) return items.join("; ");
  return `${items.slice(0, limit).join("; ")}; and ${items.length - limit} more (see mismatches)`;
}

/** A value in a reason: its JSON, long values cut with their length and a hash. */
const show = (value: JsonValue | undefined): string =>
  value === undefined ? "absent" : cutText(JSON.stringify(boundValue(value, 200)), 400);

function describeVerdict(verdict: ArgumentVerdict): string {
  if (verdict.note === unparsedArgumentsNote) {
    return `${unparsedArgumentsNote}: ${show(verdict.actual)}`;
  }
  // A judge's why stands as it is: `$.body: judged not to meet "...": it omits the amount`.
  if (verdict.verdict === "mismatch" && verdict.note?.startsWith("judged") === true) {
    return `${verdict.path}: ${verdict.note}`;
  }
  switch (verdict.verdict) {
    case "missing":
      return `${verdict.path} missing${verdict.note ? ` (${verdict.note})` : ""}`;
    case "unexpected":
      return `${verdict.path} = ${show(verdict.actual)} not expected`;
    default: {
      const wanted = verdict.note?.startsWith("expected ")
        ? verdict.note.slice("expected ".length)
        : show(verdict.expected);
      return `${verdict.path} is ${show(verdict.actual)}, expected ${wanted}`;
    }
  }
}

/** What differed between an expected call and a call made: arguments, output, error. */
function differences(
  verdicts: readonly ArgumentVerdict[],
  output: PairDetail["output"],
  isError: boolean | undefined,
): string {
  const parts: string[] = [];
  for (const verdict of verdicts)
    if (verdict.verdict !== "match") parts.push(describeVerdict(verdict));
  if (output?.verdict === "mismatch")
    parts.push(`output is ${show(output.actual)}, expected ${show(output.expected)}`);
  if (isError === true) parts.push("the tool reported an error");
  return parts.join(", ");
}

/** A violation of a constraint, or an error never retried, as reasons say it. */
export function violationText(violation: Violation): string {
  switch (violation.kind) {
    case "forbidden-tool":
      return `called[${violation.calledIndex}] ${violation.name} is a forbidden tool`;
    case "too-few-calls":
      return `${violation.name} called ${violation.count} time${violation.count === 1 ? "" : "s"}, at least ${violation.min} required`;
    case "too-many-calls":
      return `${violation.name} called ${violation.count} times, at most ${violation.max} allowed (from called[${violation.calledIndex}])`;
    case "too-many-total-calls":
      return `${violation.count} calls in all, at most ${violation.max} allowed (from called[${violation.calledIndex}])`;
    case "redundant-call":
      return `called[${violation.calledIndex}] ${violation.name} repeats called[${violation.previousIndex}]`;
    case "unretried-error":
      return `called[${violation.calledIndex}] ${violation.name} failed and was not retried`;
    case "extra-state-change":
      return `called[${violation.calledIndex}] ${violation.name}: an extra call of a tool that changes state (${violation.made} made, ${violation.expected === 0 ? "none" : violation.expected} expected)`;
  }
}

/** Arguments that break their tool's schema, as reasons say it. */
export function schemaViolationText(violation: CallSchemaViolation): string {
  return `called[${violation.calledIndex}] ${violation.name} ${violation.path} breaks its schema: ${violation.message}`;
}

const rounded = (n: number): number => Math.round(n * 1000) / 1000;
const calls = (n: number): string => (n === 1 ? "1 expected call" : `${n} expected calls`);

const scoreTextOf = (result: Pick<MatchResult, "order" | "scoreKind" | "score">): string =>
  `order: ${result.order}; ${result.scoreKind} ${rounded(result.score)}`;

/**
 * The score of a case its violations fail: the figure the calls earned, then the score, so that
 * "recall 0" never reads as calls gone missing.
 */
const failedScoreText = (
  result: Pick<MatchResult, "order" | "scoreKind" | "precision" | "recall" | "f1">,
): string =>
  `order: ${result.order}; ${result.scoreKind === "exact" ? "" : `${result.scoreKind} ${rounded(result[result.scoreKind])}, `}score 0`;

const wasWere = (n: number): string => (n === 1 ? "was" : "were");

/**
 * The reason of an exact match without violations: it needs nothing but the numbers and the
 * counts. Calls made besides the expected ones (an order of the `all-expected` family) or expected
 * calls not made (`only-expected`) are said, with whether the order allowed them or the score counted them.
 */
export function exactReason(
  result: Pick<MatchResult, "order" | "scoreKind" | "score">,
  counts: { readonly expected: number; readonly made: number },
): string {
  const scoreText = scoreTextOf(result);
  const { expected: n, made: m } = counts;
  const how =
    result.score < 1
      ? `which lowers the ${result.scoreKind} score`
      : `which order ${result.order} allows`;
  if (m > n) {
    const others = `${m - n} ${n === 0 ? "" : "other "}call${m - n === 1 ? "" : "s"}`;
    if (n === 0)
      return `No calls were expected; ${others} ${wasWere(m)} made, ${how} (${scoreText}).`;
    return `${n === 1 ? "The" : "All"} ${calls(n)} ${wasWere(n)} made as expected, and ${others}, ${how} (${scoreText}).`;
  }
  if (m < n) {
    if (m === 0) {
      const none =
        n === 1 ? "The 1 expected call was not made" : `None of the ${n} expected calls was made`;
      return `${none}, ${how} (${scoreText}).`;
    }
    return `${m} of ${calls(n)} ${wasWere(m)} made as expected; the other ${n - m} ${wasWere(n - m)} not, ${how} (${scoreText}).`;
  }
  if (n === 0) return `No calls were expected and none were made (${scoreText}).`;
  return `${n === 1 ? "The" : "All"} ${calls(n)} ${wasWere(n)} made as expected (${scoreText}).`;
}

/** The calls the order let go, in one item: `called[1] b, called[3] d made besides ...`. */
function allowedText(result: Pick<MatchResult, "order" | "missing" | "unexpected">): string[] {
  const items: string[] = [];
  const extra = result.unexpected.filter((u) => u.allowed === true);
  if (extra.length > 0) {
    const names = extra.map((u) => `called[${u.calledIndex}] ${u.name}`);
    items.push(
      `${listed(names, "unexpected")} made besides the expected calls, which order ${result.order} allows`,
    );
  }
  const unmade = result.missing.filter((m) => m.allowed === true);
  if (unmade.length > 0) {
    const names = unmade.map((m) => `expected[${m.expectedIndex}] ${m.name}`);
    items.push(`${listed(names, "missing")} not made, which order ${result.order} allows`);
  }
  return items;
}

/** Names in a list, at most four of them and the count of the rest (in the result's `field`). */
function listed(names: readonly string[], field: string): string {
  if (names.length <= 4) return names.join(", ");
  return `${names.slice(0, 4).join(", ")} and ${names.length - 4} more (see ${field})`;
}

/**
 * The reason sentence: how many expected calls matched, then every reason the score is below 1,
 * located by `expected[i]` / `called[j]` and argument path.
 */
/**
 * A call left out of the scoring: a failed call under `toolErrors: "fail"`, a retried attempt, or
 * a call whose arguments did not parse under `unparsedArguments: "no-call"`.
 */
export interface LeftOutCall {
  readonly calledIndex: number;
  readonly name: string;
  readonly why: "failed" | "retried" | "skipped" | "unparsed";
}

function leftOutText(call: LeftOutCall): string {
  switch (call.why) {
    case "failed":
      return `called[${call.calledIndex}] ${call.name} failed and counts as not made`;
    case "skipped":
      return `called[${call.calledIndex}] ${call.name} failed and is left out`;
    case "unparsed":
      return `called[${call.calledIndex}] ${call.name}: ${unparsedArgumentsNote}; counts as no call`;
    default:
      return `called[${call.calledIndex}] ${call.name} failed and was retried; the attempt is left out`;
  }
}

/** The calls of tools out of scope, counted, as the reason's last item. */
function outOfScopeText(count: { called: number; expected: number }): string | undefined {
  if (count.called === 0 && count.expected === 0) return undefined;
  const parts = [
    ...(count.called === 0 ? [] : [`${count.called} call${count.called === 1 ? "" : "s"} made`]),
    ...(count.expected === 0
      ? []
      : [`${count.expected} expected call${count.expected === 1 ? "" : "s"}`]),
  ];
  return `${parts.join(" and ")} of tools out of scope left out`;
}

export function buildReason(
  result: Omit<MatchResult, "reason">,
  expectedCount: number,
  /** The last sentence, when violations fail the case. */
  failed: string | undefined,
  leftOut: readonly LeftOutCall[] = [],
  outOfScope: { called: number; expected: number } = { called: 0, expected: 0 },
  outOfOrderNote?: (expectedIndex: number) => string,
): string {
  const scopeText = outOfScopeText(outOfScope);
  if (result.exact && result.violations.length === 0 && result.schemaViolations.length === 0) {
    const made = result.pairs.length + result.unexpected.length;
    const exact = exactReason(result, { expected: expectedCount, made });
    const notes = [...leftOut.map(leftOutText), ...(scopeText === undefined ? [] : [scopeText])];
    return notes.length === 0 ? exact : `${exact} ${sentence(notes)}.`;
  }
  const scoreText = failed === undefined ? scoreTextOf(result) : failedScoreText(result);
  const items: string[] = [];
  let matched = 0;
  for (const pair of result.pairs) {
    if (pair.score === 1 && pair.output?.verdict !== "mismatch") {
      matched++;
      continue;
    }
    const what = differences(pair.arguments, pair.output, pair.isError);
    // The difference first: what a reader cut at a terminal's width needs to see.
    items.push(
      what
        ? `called[${pair.calledIndex}] ${pair.name}: ${what} (expected[${pair.expectedIndex}], score ${rounded(pair.score)})`
        : `called[${pair.calledIndex}] ${pair.name} paired with expected[${pair.expectedIndex}] (score ${rounded(pair.score)})`,
    );
  }
  for (const m of result.missing) {
    if (m.allowed === true) continue;
    if (m.nearest) {
      const what = differences(m.nearest.arguments, m.nearest.output, m.nearest.isError);
      items.push(
        what
          ? `called[${m.nearest.calledIndex}] ${m.name}: ${what} (expected[${m.expectedIndex}] ${m.name} counts as missing)`
          : `expected[${m.expectedIndex}] ${m.name} missing; called[${m.nearest.calledIndex}] differs`,
      );
    } else {
      items.push(`expected[${m.expectedIndex}] ${m.name} missing`);
    }
  }
  for (const m of result.outOfOrder) {
    const notes = [
      m.calledIndex === undefined ? "" : `called[${m.calledIndex}]`,
      outOfOrderNote === undefined ? "" : outOfOrderNote(m.expectedIndex),
    ].filter((note) => note !== "");
    items.push(
      `expected[${m.expectedIndex}] ${m.name} made out of order${notes.length === 0 ? "" : ` (${notes.join(", ")})`}`,
    );
  }
  // An extra call that changes state is said by its violation.
  for (const u of result.unexpected)
    if (u.allowed !== true && u.changesState !== true)
      items.push(`called[${u.calledIndex}] ${u.name} not expected`);
  items.push(...allowedText(result));
  for (const call of leftOut) items.push(leftOutText(call));
  if (scopeText !== undefined) items.push(scopeText);
  for (const v of result.violations) items.push(violationText(v));
  for (const v of result.schemaViolations) items.push(schemaViolationText(v));
  const head =
    expectedCount === 0
      ? `No calls were expected (${scoreText})`
      : `${matched} of ${calls(expectedCount)} matched exactly (${scoreText})`;
  const tail = failed === undefined ? "" : ` ${failed}`;
  // What differed first, then the count.
  return items.length === 0 ? `${head}.${tail}` : `${sentence(items)}. ${head}.${tail}`;
}
