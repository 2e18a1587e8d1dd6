import type { JsonValue } from "./json.js";
import type { ToolCallType } from "./tool-call.js";

/**
 * The verdict on one argument of a paired call, located by a JSON path into the arguments
 * (`$.query`, `$.filters.date`, `$["odd key"]`).
 * - `match`: equal (or accepted by the matching rule);
 * - `mismatch`: present on both sides with different values;
 * - `missing`: expected but not passed;
 * - `unexpected`: passed but not expected (and the rule counts extras against the call).
 */
export interface ArgumentVerdict {
  readonly path: string;
  readonly verdict: "match" | "mismatch" | "missing" | "unexpected";
  readonly expected?: JsonValue;
  readonly actual?: JsonValue;
  /** A similarity in [0, 1], where the rule computes one (fuzzy matching). */
  readonly similarity?: number;
  /** How the verdict was reached, when a rule or a schema decided it (a matcher, a default, ...). */
  readonly note?: string;
}

/** The note of the verdict on a call whose arguments were text that did not parse as JSON. */
export const unparsedArgumentsNote = "the arguments did not parse as JSON";

/** One expected call paired with one call the agent made. Indices point into the input lists. */
export interface PairDetail {
  readonly expectedIndex: number;
  readonly calledIndex: number;
  readonly name: string;
  /** The pair's score in [0, 1] under the metric's rules. */
  readonly score: number;
  /** Verdicts on the arguments; empty when arguments were not compared. */
  readonly arguments: readonly ArgumentVerdict[];
  /** The verdict on the output; absent when outputs were not compared. */
  readonly output?: {
    readonly verdict: "match" | "mismatch";
    readonly expected: JsonValue;
    readonly actual: JsonValue;
  };
  /** Set when the tool reported an error for this call. */
  readonly isError?: boolean;
}

/**
 * The call of the same tool that came closest to an expected call that went unmatched, and what
 * kept them apart: the answer to "it was called, so why is it missing?".
 */
export interface NearMiss {
  readonly calledIndex: number;
  readonly arguments: readonly ArgumentVerdict[];
  readonly output?: PairDetail["output"];
  /** Set when the tool reported an error for this call. */
  readonly isError?: boolean;
}

/**
 * One reason a score is below 1, typed by kind. Paths are JSON paths into the arguments. A call
 * the order allows (an extra call under `superset`, an unmade one under `subset`) is none.
 */
export type Mismatch =
  | { readonly kind: "missing-call"; readonly expectedIndex: number; readonly name: string }
  | { readonly kind: "unexpected-call"; readonly calledIndex: number; readonly name: string }
  | {
      readonly kind: "out-of-order";
      readonly expectedIndex: number;
      readonly name: string;
    }
  | { readonly kind: "count-mismatch"; readonly expected: number; readonly actual: number }
  | {
      readonly kind: "name-mismatch";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly expected: string;
      readonly actual: string;
    }
  | {
      readonly kind: "type-mismatch";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly expected: ToolCallType;
      readonly actual: ToolCallType;
    }
  | {
      readonly kind: "args-mismatch";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly path: string;
      readonly expected: JsonValue;
      readonly actual: JsonValue;
    }
  | {
      readonly kind: "args-missing";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly path: string;
      readonly expected: JsonValue;
    }
  | {
      readonly kind: "args-unexpected";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly path: string;
      readonly actual: JsonValue;
    }
  | {
      readonly kind: "output-mismatch";
      readonly expectedIndex: number;
      readonly calledIndex: number;
      readonly path: "$";
      readonly expected: JsonValue;
      readonly actual: JsonValue;
    };

/** The pairing algorithm behind a result, named for what it computes or reproduces. */
export type AlignmentAlgorithm =
  | "optimal-assignment"
  | "weighted-lcs"
  | "positional"
  | "partial-order"
  | "deepeval-greedy"
  | "axion-first-fit"
  | "ragas-sequence"
  | "ragas-set";

/**
 * Everything behind a tool-call score, from one alignment: the pairs with their per-argument
 * verdicts, the expected calls left unpaired (`missing`, or `outOfOrder` when a matching call
 * exists but the order forbade pairing it), the calls nobody expected, a typed list of
 * mismatches, and precision, recall and F1 on the same pairs.
 */
export interface ToolCallMatchDetails {
  readonly algorithm: AlignmentAlgorithm;
  readonly pairs: readonly PairDetail[];
  /**
   * Expected calls left unpaired; `nearest` explains the closest unpaired call of the same tool.
   * `allowed`: the order lets an expected call go unmade (`subset`) and the score does not count it.
   */
  readonly missing: readonly {
    readonly expectedIndex: number;
    readonly name: string;
    readonly nearest?: NearMiss;
    readonly allowed?: true;
  }[];
  /**
   * Calls made that no expected call pairs with. `allowed`: the order lets calls be made besides
   * the expected ones (`superset`, `in-order`, `partial`) and the score does not count them.
   */
  readonly unexpected: readonly {
    readonly calledIndex: number;
    readonly name: string;
    readonly allowed?: true;
    /**
     * A call of a tool that changes state, beyond as many as were expected of it, where the order
     * lets extra calls go: not let go, but an `extra-state-change` violation.
     */
    readonly changesState?: true;
  }[];
  /** With `calledIndex`, in toolscore's own results: the call made out of order (not unexpected). */
  readonly outOfOrder: readonly {
    readonly expectedIndex: number;
    readonly name: string;
    readonly calledIndex?: number;
  }[];
  readonly mismatches: readonly Mismatch[];
  /** Sum of pair scores over the number of calls made (0 when none were made but some expected). */
  readonly precision: number;
  /** Sum of pair scores over the number of expected calls (1 when none were expected). */
  readonly recall: number;
  readonly f1: number;
}
