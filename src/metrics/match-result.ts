import type { AlignmentAlgorithm, ToolCallMatchDetails } from "../core/explanation.js";
import type { SchemaViolation } from "../matchers/schema-validation.js";
import type { OrderMode, ScoreKind } from "./match-options.js";

/** A constraint the calls broke, located by call index where there is one. */
export type Violation =
  | { readonly kind: "forbidden-tool"; readonly calledIndex: number; readonly name: string }
  | {
      readonly kind: "too-few-calls";
      readonly name: string;
      readonly count: number;
      readonly min: number;
    }
  | {
      readonly kind: "too-many-calls";
      readonly calledIndex: number;
      readonly name: string;
      readonly count: number;
      readonly max: number;
    }
  | {
      readonly kind: "too-many-total-calls";
      readonly calledIndex: number;
      readonly count: number;
      readonly max: number;
    }
  | {
      readonly kind: "redundant-call";
      readonly calledIndex: number;
      readonly previousIndex: number;
      readonly name: string;
    }
  | { readonly kind: "unretried-error"; readonly calledIndex: number; readonly name: string }
  | {
      /** A call of a tool that changes state, beyond as many as were expected of it. */
      readonly kind: "extra-state-change";
      readonly calledIndex: number;
      readonly name: string;
      /** Calls of the tool made, and expected. */
      readonly made: number;
      readonly expected: number;
    };

/** A schema violation of one call made. */
export type CallSchemaViolation = SchemaViolation & {
  readonly calledIndex: number;
  readonly name: string;
};

/**
 * The numbers of a match without its explanation (`scoreToolCalls`): the same values as the
 * fields of the same name in a {@link MatchResult}.
 */
export interface ToolCallScore {
  readonly algorithm: AlignmentAlgorithm;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly score: number;
  readonly scoreKind: ScoreKind;
  readonly exact: boolean;
  readonly success: boolean;
  readonly threshold: number;
  readonly order: OrderMode;
}

/**
 * Every view of one alignment: the score and the numbers it comes from, whether the calls match
 * exactly, the pairs with per-argument verdicts, what is missing, extra or out of order, the
 * constraints and schemas broken, and a sentence saying why.
 */
/** Calls left out of the scoring, by their index in the lists given, and why. */
export interface IgnoredCalls {
  readonly called: readonly {
    readonly calledIndex: number;
    readonly name: string;
    /**
     * Out of `onlyTools` / `ignoreTools`, a tool error left out under `toolErrors`, or arguments
     * that did not parse under `unparsedArguments: "no-call"`.
     */
    readonly why: "out-of-scope" | "failed" | "retried" | "skipped" | "unparsed";
  }[];
  /** Expected calls of tools out of scope. */
  readonly expected: readonly { readonly expectedIndex: number; readonly name: string }[];
}

export interface MatchResult extends ToolCallMatchDetails, ToolCallScore {
  readonly violations: readonly Violation[];
  readonly schemaViolations: readonly CallSchemaViolation[];
  /** Calls left out of the scoring (out of scope, or tool errors under `toolErrors`), when any. */
  readonly ignored?: IgnoredCalls;
  readonly reason: string;
}
