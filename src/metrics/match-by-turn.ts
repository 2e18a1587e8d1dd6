/**
 * Tool calls matched turn by turn: a conversation's calls, each attributed to the user turn it
 * followed, against each turn's expected calls. Every turn is matched as a case is
 * (`matchToolCalls`, with its own options over the shared ones); a call made at one turn that is
 * expected at another is named as such (`refund_order made at turn 2, expected at turn 3`), not
 * only as missing at one turn and unexpected at the other; the conversation's score aggregates
 * the turns' (mean, min, or all passing).
 */
import { combineTurnResults, findMisplacedCalls, readTurnAggregate } from "../core/turns.js";
import type { MisplacedCall, TurnAggregate } from "../core/turns.js";
import type { Content } from "../core/test-case.js";
import type { ExpectedCallsInput } from "./expected-calls.js";
import type { MatchOptions } from "./match-options.js";
import type { MatchResult } from "./match-result.js";
import { matchToolCalls } from "./match-tool-calls.js";

/** One turn: the calls made after its user message, and what was expected of it. */
export interface TurnInput {
  /** The calls made in the turn (in any form `matchToolCalls` reads). */
  readonly called: unknown;
  readonly expected: ExpectedCallsInput;
  /** This turn's options, over the conversation's. */
  readonly options?: MatchOptions;
  /** What the user said to open the turn, quoted in the reason of a call made at the wrong turn. */
  readonly input?: Content;
}

export type { MisplacedCall, TurnAggregate };

export interface MatchByTurnOptions extends MatchOptions {
  /** Default "mean". */
  readonly aggregate?: TurnAggregate;
}

export interface TurnsMatchResult {
  /** Each turn's match, in order. */
  readonly turns: readonly MatchResult[];
  readonly misplaced: readonly MisplacedCall[];
  readonly score: number;
  readonly success: boolean;
  readonly aggregate: TurnAggregate;
  /** The failing turns first, each with what went wrong; misplaced calls by their turns. */
  readonly reason: string;
}

/** A list's items, or none. */
function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Expected calls, groups (a partial order) taken apart in order, as match results count them. */
export function flatListOf(value: unknown): readonly unknown[] {
  return listOf(value).flatMap((item) => (Array.isArray(item) ? (item as unknown[]) : [item]));
}

/**
 * Matches a conversation turn by turn. Each turn's `called` and `expected` are matched with the
 * shared options and the turn's own; then each call a turn did not expect is tried against the
 * expected calls other turns missed (the same tool, arguments matching under that turn's rules):
 * such a call is misplaced, and the reason says where it was made and where it was expected.
 */
export function matchToolCallsByTurn(
  turns: readonly TurnInput[],
  options: MatchByTurnOptions = {},
): TurnsMatchResult {
  const { aggregate: given = "mean", ...shared } = options;
  const aggregate = readTurnAggregate(given, "aggregate");
  const results = turns.map((turn) =>
    matchToolCalls(turn.called, turn.expected, { ...shared, ...turn.options }),
  );
  const maxChecks = shared.limits?.maxMisplacedChecks;
  const misplaced = findMisplacedCalls(
    results,
    (made, calledIndex, at, expectedIndex) => {
      const call = listOf(turns[made].called)[calledIndex];
      const expected = flatListOf(turns[at].expected)[expectedIndex];
      return (
        matchToolCalls([call], [expected as never], { ...shared, ...turns[at].options }).score >= 1
      );
    },
    // Checked with the other limits by matchToolCalls.
    maxChecks === undefined ? {} : { maxChecks },
  );
  const combined = combineTurnResults({
    metric: "match",
    results: results.map((result) => ({
      status: "scored",
      metric: "match",
      score: result.score,
      threshold: result.threshold,
      success: result.success,
      reason: result.reason,
      details: null,
    })),
    aggregate,
    threshold: shared.threshold ?? 1,
    misplaced,
    inputs: turns.map((turn) => turn.input),
  });
  const score = combined.status === "scored" ? combined.score : 1;
  return {
    turns: results,
    misplaced,
    score,
    success: combined.status === "scored" ? combined.success : true,
    aggregate,
    reason: combined.status === "scored" ? (combined.reason ?? "") : "no turns.",
  };
}
