import type { CaseError, CaseStatus } from "./case-result.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ErroredResult } from "./metric-result.js";
import type { Content, ImageSource } from "./test-case.js";

/** One metric's outcome on one case, as a results file stores it. */
export type MetricEntry =
  | {
      readonly status: "scored";
      readonly score: number;
      readonly threshold: number;
      readonly success: boolean;
      readonly reason?: string;
      readonly details?: unknown;
    }
  | { readonly status: "error"; readonly error: ErroredResult["error"] }
  | { readonly status: "skipped"; readonly reason: string }
  | { readonly status: "not-evaluable"; readonly reason: string; readonly details?: unknown };

/** A call as reports show it. */
export interface RecordedCall {
  readonly name: string;
  readonly arguments: JsonObject;
  readonly output?: JsonValue;
  readonly isError?: boolean;
  readonly invalidArguments?: string;
  /** How whole numbers were written in the arguments' text (`{ "$.n": "3.0" }`), when it mattered. */
  readonly numberSpellings?: Readonly<Record<string, string>>;
}

/** What a report shows of a case, or of one user turn of a conversation. */
export interface TurnContent {
  readonly input?: Content;
  readonly actualOutput?: Content;
  readonly expectedOutput?: Content;
  readonly expectedOutcome?: Content;
  readonly toolsCalled?: readonly RecordedCall[];
  readonly expectedTools?: readonly RecordedCall[];
  /** The agent's last text reply, from its transcript, when the case gives no `actualOutput`. */
  readonly finalReply?: string;
}

/** What a report shows of the case itself: the request, the answer, the calls, the contexts. */
export interface CaseContent extends TurnContent {
  readonly retrievedContexts?: readonly (string | ImageSource)[];
  readonly metadata?: JsonObject;
  /** A conversation's user turns, each with its own calls, replies and expectations. */
  readonly turns?: readonly TurnContent[];
}

/**
 * One finished case as a results file holds it (one JSON line): where it came from, its status,
 * per metric name the score, success, reason and details, and what the case was.
 */
export interface CaseRecord {
  readonly index: number;
  readonly id: string;
  readonly line?: number;
  /** Which run of the case this was, and the case it is a run of (see `CaseResult`). */
  readonly run?: number;
  readonly group?: string;
  readonly status: CaseStatus;
  /** A conversation's status turn by turn (see `CaseResult.turns`). */
  readonly turns?: readonly CaseStatus[];
  readonly metrics: Readonly<Record<string, MetricEntry>>;
  readonly error?: CaseError;
  /** The run was spoiled by its simulated user (see `CaseResult.simulatorFault`). */
  readonly simulatorFault?: true;
  /** What the case was, for reports; left out when `source` says where to read it again. */
  readonly case?: CaseContent;
  /** Where the case's line sits in a JSONL dataset (bytes), to read it again for reports. */
  readonly source?: { readonly offset: number; readonly bytes: number };
  readonly durationMs: number;
}
