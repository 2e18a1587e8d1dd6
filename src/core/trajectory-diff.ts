import type { JsonObject, JsonValue } from "./json.js";

/**
 * Where two runs of a case part, located the way a code diff is: the user turn and the call
 * (1-based, as people count), on the new run's side (`call`) and the baseline's
 * (`baselineCall`). `place` names the spot by tool and occurrence rather than by position
 * (`2|arguments|refund_order#1|$.amount`), so the same spot in other runs of the case has the same
 * place, whatever else they did before it.
 */
interface DifferenceAt {
  readonly turn: number;
  readonly place: string;
}

/** A call both runs made, as the diff paired it: its place in each run. */
interface PairedAt extends DifferenceAt {
  readonly name: string;
  readonly call: number;
  readonly baselineCall: number;
}

/**
 * One way two runs of a case differ:
 * - `added`: a call the new run made that the baseline did not;
 * - `dropped`: a call the baseline made that the new run did not;
 * - `arguments`: a call both made, one argument different (`before` or `after` absent when that
 *   run left the key out);
 * - `output`: a call both made with the same arguments whose tool answered differently (or
 *   failed in one run only);
 * - `moved`: a call both made, in another place in the order;
 * - `serial`: a call the baseline made together with others (in one step) and the new run apart;
 * - `parallel`: a call the baseline made apart from others and the new run together with them;
 * - `answer`: the agent's final text of the turn.
 */
export type Difference =
  | (DifferenceAt & {
      readonly kind: "added";
      readonly name: string;
      readonly call: number;
      readonly arguments: JsonObject;
    })
  | (DifferenceAt & {
      readonly kind: "dropped";
      readonly name: string;
      readonly baselineCall: number;
      readonly arguments: JsonObject;
    })
  | (PairedAt & {
      readonly kind: "arguments";
      readonly path: string;
      readonly before?: JsonValue;
      readonly after?: JsonValue;
    })
  | (PairedAt & {
      readonly kind: "output";
      readonly before: JsonValue;
      readonly after: JsonValue;
      /** Whether the tool reported an error, in each run, when either did. */
      readonly error?: { readonly before: boolean; readonly after: boolean };
    })
  | (PairedAt & { readonly kind: "moved" })
  | (PairedAt & {
      readonly kind: "serial" | "parallel";
      /** The calls it was made together with (serial: in the baseline; parallel: now). */
      readonly with: readonly string[];
    })
  | (DifferenceAt & {
      readonly kind: "answer";
      readonly before: string | undefined;
      readonly after: string | undefined;
    });

export type DifferenceKind = Difference["kind"];

/**
 * How one run of a case differs from another: every difference in the order a reader meets it
 * (turn by turn, call by call). The first is where the runs part, everything before it being
 * identical under the rules; the others follow from it or come later.
 */
export interface TrajectoryDiff {
  readonly differences: readonly Difference[];
  /** The two runs call by call, when asked for (`align`): what reports show side by side. */
  readonly rows?: readonly AlignedRow[];
}

/** A call as an aligned row shows it: its place in its run (1-based) and what it was. */
export interface AlignedCall {
  readonly call: number;
  readonly name: string;
  readonly arguments: JsonObject;
  readonly output?: JsonValue;
  readonly isError?: boolean;
}

/**
 * One row of two runs aligned: a call both made (`same`, `changed` in its arguments, output or
 * grouping, `moved`), or a call one of them made (`added`, `dropped`). `first` marks the row where
 * the runs part.
 */
export interface AlignedRow {
  readonly turn: number;
  readonly kind: "same" | "changed" | "moved" | "added" | "dropped";
  readonly baseline?: AlignedCall;
  readonly current?: AlignedCall;
  readonly first?: true;
}

/** One place where the new runs of a case part from the baseline, with how often each side does. */
export interface DivergenceAt {
  /** The difference as the first new run that shows it has it. */
  readonly difference: Difference;
  /** How many of the new runs differ from the baseline here. */
  readonly runs: number;
  /**
   * How many of the baseline's own runs differ here from the run the others are compared with
   * (the baseline's most typical run): its flap count.
   */
  readonly baselineRuns: number;
  /**
   * `regression`: the baseline's runs do not differ here (or not more often than the rate the run
   * allows); `flaky`: they do, so the difference is the noise the baseline already had.
   */
  readonly verdict: "regression" | "flaky";
}

/** How the new runs of one case compare with the baseline's runs of it. */
export interface CaseDivergence {
  readonly id: string;
  /** Runs on each side. */
  readonly baselineRuns: number;
  readonly runs: number;
  /** The places the new runs part from the baseline, the first divergence first. */
  readonly places: readonly DivergenceAt[];
  /**
   * The baseline's reference run and the first new run that parts from it, call by call (see
   * `AlignedRow`), when they part.
   */
  readonly rows?: readonly AlignedRow[];
  readonly regressions: number;
  readonly flaky: number;
  /** Why the case could not be compared (a run too large to align), when it could not. */
  readonly error?: string;
}

/** The trajectories of two runs compared case by case (matched by id). */
export interface TrajectoryComparison {
  /** The rate of the baseline's own runs that may differ at a place before it counts as flaky. */
  readonly flakyRate: number;
  /** Cases both runs have. */
  readonly compared: number;
  /** The cases whose new runs part from the baseline somewhere, in the new run's order. */
  readonly diverged: readonly CaseDivergence[];
  /** Places that differ, over every case: counted as regressions, and set aside as noise. */
  readonly regressions: number;
  readonly flaky: number;
  /** Cases the diff could not compare, with why (see `CaseDivergence.error`). */
  readonly errors: number;
  /** Runs left out because they could not be read (a line, a transcript), on either side. */
  readonly unreadable: number;
  /**
   * Cases of a results file whose calls are not at hand (the dataset it names is gone or has
   * changed since the run), on either side: not compared, and said so.
   */
  readonly withoutCalls: number;
  readonly onlyInBaseline: readonly string[];
  readonly onlyInCurrent: readonly string[];
}

/** Whether calls that part from a baseline's fail a run (`fail`) or are only reported. */
export const divergenceModes = ["fail", "report"] as const;
export type Divergences = (typeof divergenceModes)[number];
