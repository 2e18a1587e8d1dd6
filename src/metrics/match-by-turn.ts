/**
 * Tool calls matched turn by turn: a conversation's calls, each attributed to the user turn it
 * followed, against each turn's expected calls. Every turn is matched as a case is
 * (`matchToolCalls`, with its own options over the shared ones); a call made at one turn that is
 * expected at another is named as such (`refund_order made at turn 2, expected at turn 3`), not
 * only as missing at one turn and unexpected at the other; the conversation's score aggregates
 * the turns' (mean, min, or all passing).
 */
import { InvalidOptionError } from "../core/errors.js";
import { plural } from "../core/words.js";
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
}

/** How turns' scores make the conversation's: their mean, their minimum, or 1 only if all pass. */
export type TurnAggregate = "mean" | "min" | "all";

export interface MatchByTurnOptions extends MatchOptions {
  /** Default "mean". */
  readonly aggregate?: TurnAggregate;
}

/** A call made at one turn and expected at another. */
export interface MisplacedCall {
  readonly name: string;
  /** 1-based turns. */
  readonly madeAt: number;
  readonly expectedAt: number;
  readonly calledIndex: number;
  readonly expectedIndex: number;
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

const aggregates: readonly TurnAggregate[] = ["mean", "min", "all"];

/** The calls of a turn as a list, for finding one again by its index. */
function listOf(called: unknown): readonly unknown[] {
  return Array.isArray(called) ? called : [];
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
  const { aggregate = "mean", ...shared } = options;
  if (!aggregates.includes(aggregate)) {
    throw new InvalidOptionError({
      option: "aggregate",
      value: aggregate,
      message: `aggregate must be ${aggregates.join(", ")}`,
    });
  }
  const results = turns.map((turn) =>
    matchToolCalls(turn.called, turn.expected, { ...shared, ...turn.options }),
  );
  const misplaced: MisplacedCall[] = [];
  const taken = new Set<string>();
  results.forEach((result, made) => {
    for (const extra of result.unexpected) {
      if (extra.allowed === true) continue;
      const call = listOf(turns[made].called)[extra.calledIndex];
      const found = results
        .flatMap((other, at) =>
          at === made
            ? []
            : other.missing
                .filter((missing) => missing.name === extra.name && missing.allowed !== true)
                .map((missing) => ({ at, missing })),
        )
        .find(({ at, missing }) => {
          const key = `${at}:${missing.expectedIndex}`;
          if (taken.has(key)) return false;
          const expected = listOf(turns[at].expected)[missing.expectedIndex];
          return (
            matchToolCalls([call], [expected as never], { ...shared, ...turns[at].options })
              .score >= 1
          );
        });
      if (found === undefined) continue;
      taken.add(`${found.at}:${found.missing.expectedIndex}`);
      misplaced.push({
        name: extra.name,
        madeAt: made + 1,
        expectedAt: found.at + 1,
        calledIndex: extra.calledIndex,
        expectedIndex: found.missing.expectedIndex,
      });
    }
  });
  const scores = results.map((result) => result.score);
  const score =
    scores.length === 0
      ? 1
      : aggregate === "min"
        ? Math.min(...scores)
        : aggregate === "all"
          ? results.every((result) => result.success)
            ? 1
            : 0
          : scores.reduce((sum, value) => sum + value, 0) / scores.length;
  const success = results.every((result) => result.success) && misplaced.length === 0;
  return {
    turns: results,
    misplaced,
    score,
    success,
    aggregate,
    reason: turnsReason(results, misplaced),
  };
}

/** The failing turns first, misplaced calls named by their turns, then how many passed. */
function turnsReason(results: readonly MatchResult[], misplaced: readonly MisplacedCall[]): string {
  const lines = misplaced.map(
    (call) =>
      `turn ${call.madeAt}: ${call.name} made ${call.madeAt < call.expectedAt ? "too early" : "too late"} (expected at turn ${call.expectedAt})`,
  );
  results.forEach((result, at) => {
    if (!result.success) lines.push(`turn ${at + 1}: ${result.reason}`);
  });
  const passed = results.filter((result) => result.success).length;
  lines.push(`${passed} of ${plural(results.length, "turn")} matched.`);
  return lines.join(" ");
}
