import type { CaseRecord } from "../core/case-record.js";
import type { CaseStatus } from "../core/case-result.js";
import { contentText } from "../core/test-case.js";
import { isTurnsDetails } from "../core/turns.js";
import type { TurnOutcome } from "../core/turns.js";
import { scoreText } from "./format.js";

/** One turn of a conversation as reports show it: the user's words, each metric's verdict, why. */
export interface TurnRow {
  readonly turn: number;
  readonly status: CaseStatus | undefined;
  /** What the user said, on one line. */
  readonly input: string | undefined;
  readonly verdicts: readonly { readonly metric: string; readonly text: string }[];
  /** Calls made here and expected at another turn (or the reverse), then failing reasons. */
  readonly why: readonly string[];
}

/** A metric's verdict on a turn: its score with a mark, or what it came to. */
function verdictText(outcome: TurnOutcome | undefined): string {
  if (outcome === undefined) return "–";
  switch (outcome.status) {
    case "scored":
      return `${outcome.success ? "✅" : "❌"} ${scoreText(outcome.score)}`;
    case "error":
      return "⚠️ error";
    case "skipped":
      return "skipped";
    default:
      return "❔ not evaluable";
  }
}

/**
 * A conversation's turns as rows, from its record: the turns' statuses, the requests the record
 * keeps, and each metric's turn-by-turn details (when the record keeps them); none for a case
 * without turns.
 */
export function turnRows(record: Pick<CaseRecord, "turns" | "metrics" | "case">): TurnRow[] {
  const count = Math.max(record.turns?.length ?? 0, record.case?.turns?.length ?? 0);
  if (count === 0) return [];
  // Each metric's turns and misplaced calls by turn, so a long conversation costs its length.
  const metrics = Object.entries(record.metrics).map(([metric, entry]) => {
    const details = "details" in entry && isTurnsDetails(entry.details) ? entry.details : undefined;
    const outcomes = new Map<number, TurnOutcome>();
    for (const outcome of details?.turns ?? []) {
      if (!outcomes.has(outcome.turn)) outcomes.set(outcome.turn, outcome);
    }
    const moved = new Map<number, string[]>();
    const note = (turn: number, text: string) => {
      const list = moved.get(turn);
      if (list === undefined) moved.set(turn, [text]);
      else list.push(text);
    };
    for (const call of details?.misplaced ?? []) {
      note(call.madeAt, `${call.name} made here, expected at turn ${call.expectedAt}`);
      note(call.expectedAt, `${call.name} expected here, made at turn ${call.madeAt}`);
    }
    return { metric, outcomes, moved };
  });
  return Array.from({ length: count }, (_, at): TurnRow => {
    const turn = at + 1;
    const why: string[] = [];
    const verdicts = metrics.map(({ metric, outcomes, moved }) => {
      const outcome = outcomes.get(turn);
      why.push(...(moved.get(turn) ?? []));
      if (outcome?.status === "scored" && !outcome.success && outcome.reason !== undefined) {
        why.push(`${metric}: ${outcome.reason}`);
      } else if (outcome?.status === "error") {
        why.push(`${metric}: ${outcome.error.message}`);
      } else if (outcome?.status === "not-evaluable") {
        why.push(`${metric}: ${outcome.reason}`);
      }
      return { metric, text: verdictText(outcome) };
    });
    const given = record.case?.turns?.[at]?.input;
    return {
      turn,
      status: record.turns?.[at],
      input: given === undefined ? undefined : contentText(given).replace(/\s+/g, " ").trim(),
      verdicts,
      why,
    };
  });
}
