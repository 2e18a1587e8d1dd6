import { boundValue, cutText } from "../core/bounded.js";
import { parseArgumentsText, readCallFields } from "../core/call-fields.js";
import { numberSpellings } from "../core/number-spellings.js";
import { redactCredentials } from "../core/redact.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { keepsDetails } from "../core/metric.js";
import type { KeptDetails } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import type { CaseTurn, Content, TestCase } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import type { CaseResult } from "../core/case-result.js";
import type { SummaryBuilder } from "../core/summary.js";
import type {
  CaseContent,
  CaseRecord,
  MetricEntry,
  RecordedCall,
  TurnContent,
} from "../core/case-record.js";

/** Characters of a reason kept in a results file. */
const MAX_REASON = 16_384;

/**
 * A call as a report shows it. Datasets may hold calls as users wrote them (`args`,
 * `input_parameters`, matcher objects), which metrics read leniently; so is this.
 */
function recordedCall(call: ToolCall): RecordedCall {
  let raw = call as unknown as Record<string, unknown>;
  let args: unknown;
  try {
    // The one call reader says where the arguments are; a call it refuses was the metrics'
    // error for this case already, and shows with what can be read of it.
    const fields = readCallFields(call, "expected", () => "call");
    raw = fields.record;
    args = fields.argumentsKey === undefined ? undefined : raw[fields.argumentsKey];
  } catch {
    args = raw.inputParameters;
  }
  let spellings: unknown = raw.numberSpellings;
  if (typeof args === "string") {
    const parsed = parseArgumentsText(args);
    if (parsed !== undefined && spellings === undefined) spellings = numberSpellings(args);
    args = parsed?.value;
  }
  const output = raw.output;
  return {
    name: typeof raw.name === "string" ? raw.name : String(raw.name),
    arguments:
      typeof args === "object" && args !== null && !Array.isArray(args) ? (args as JsonObject) : {},
    ...(output === null || output === undefined ? {} : { output: output as JsonValue }),
    ...(raw.isError === true ? { isError: true } : {}),
    ...(typeof raw.invalidArguments === "string" ? { invalidArguments: raw.invalidArguments } : {}),
    ...(isJsonObject(spellings) ? { numberSpellings: spellings as Record<string, string> } : {}),
  };
}

/** Text or parts as they are; anything else (an application's object input) as JSON text. */
function asContent(value: unknown): Content {
  if (typeof value === "string" || Array.isArray(value)) return value as Content;
  try {
    // undefined for a function or a symbol, whatever the declared type says.
    const text = JSON.stringify(value) as unknown;
    return typeof text === "string" ? text : "(not serializable)";
  } catch {
    return "(not serializable)";
  }
}

/** The parts of a case a report shows; absent fields stay absent. */
export function caseContentOf(testCase: TestCase & { metadata?: JsonObject }): CaseContent {
  // Long values are cut (with their length and a hash): reports show them bounded.
  return boundValue({
    ...turnContentOf(testCase),
    ...(testCase.retrievedContexts === undefined
      ? {}
      : { retrievedContexts: testCase.retrievedContexts }),
    ...(testCase.metadata === undefined ? {} : { metadata: testCase.metadata }),
    ...(testCase.turns === undefined ? {} : { turns: testCase.turns.map(turnContentOf) }),
  });
}

/** What a report shows of a case or a turn: its request, replies, calls and expectations. */
function turnContentOf(testCase: CaseTurn): TurnContent {
  return {
    ...(testCase.input === undefined ? {} : { input: asContent(testCase.input) }),
    ...(testCase.actualOutput === undefined
      ? {}
      : { actualOutput: asContent(testCase.actualOutput) }),
    ...(testCase.expectedOutput === undefined
      ? {}
      : { expectedOutput: asContent(testCase.expectedOutput) }),
    ...(testCase.expectedOutcome === undefined
      ? {}
      : { expectedOutcome: asContent(testCase.expectedOutcome) }),
    ...(testCase.toolsCalled === undefined
      ? {}
      : { toolsCalled: testCase.toolsCalled.map(recordedCall) }),
    ...(testCase.expectedTools === undefined
      ? {}
      : { expectedTools: testCase.expectedTools.map(recordedCall) }),
    ...(testCase.actualOutput !== undefined || testCase.replies === undefined
      ? {}
      : finalReplyOf(testCase.replies)),
  };
}

/** The last reply, when there is one. */
function finalReplyOf(replies: readonly string[]): { finalReply?: string } {
  const last = replies.at(-1);
  return last === undefined ? {} : { finalReply: last };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Keys of a metric's details that repeat the result's own fields, written once. */
const repeated = ["score", "threshold", "success", "reason"] as const;

/** The details without the fields that only repeat the result's (a match result's score...). */
function leanDetails(details: unknown, result: MetricResult & { status: "scored" }): unknown {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return details;
  const record = details as Record<string, unknown>;
  if (!repeated.some((key) => key in record && record[key] === result[key])) return details;
  const lean: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (
      (repeated as readonly string[]).includes(key) &&
      record[key] === result[key as (typeof repeated)[number]]
    ) {
      continue;
    }
    lean[key] = record[key];
  }
  return lean;
}

/**
 * The details a record keeps of a scored result: none for a metric left out (but for those
 * `keep` keeps), nor null ones. Details left out are never read: a metric may build them only
 * when they are.
 */
function keptDetails(
  result: MetricResult & { status: "scored" },
  leaveOut: ReadonlySet<string> | undefined,
  keep: KeptDetails,
): unknown {
  if (leaveOut?.has(result.metric) === true && !keepsDetails(result, keep)) return undefined;
  const details = result.details;
  return details === null ? undefined : details;
}

function entryOf(
  result: MetricResult,
  leaveOut: ReadonlySet<string> | undefined,
  keep: KeptDetails,
): MetricEntry {
  switch (result.status) {
    case "scored": {
      // Built key by key: conditional spreads cost more than the rest of a record (hot path of
      // every results file).
      const entry: Mutable<MetricEntry & { status: "scored" }> = {
        status: "scored",
        score: result.score,
        threshold: result.threshold,
        success: result.success,
      };
      // Long values are cut (with their length and a hash), so that a line stays readable.
      if (result.reason !== undefined) entry.reason = shownReason(result.reason);
      const details = keptDetails(result, leaveOut, keep);
      if (details !== undefined) entry.details = boundValue(leanDetails(details, result));
      return entry;
    }
    case "error":
      return { status: "error", error: withoutCredentials(result.error) };
    case "skipped":
      return { status: "skipped", reason: redactCredentials(result.reason) };
    case "not-evaluable":
      // The judge's samples and agreement: kept always, they say why it could not tell.
      return {
        status: "not-evaluable",
        reason: shownReason(result.reason),
        details: result.details === undefined ? undefined : boundValue(result.details),
      };
  }
}

/** A reason as a record keeps it: credentials taken out, long values cut. */
function shownReason(reason: string): string {
  return cutText(redactCredentials(reason), MAX_REASON);
}

/** An error as a record keeps it: its message without credentials (a server may echo a key). */
function withoutCredentials<T extends { readonly message: string }>(error: T): T {
  const message = redactCredentials(error.message);
  return message === error.message ? error : { ...error, message };
}

/** One metric result as a record stores it, with all its details. */
export function metricEntryOf(result: MetricResult): MetricEntry {
  return entryOf(result, undefined, "none");
}

export interface CaseRecordOptions {
  /**
   * Metrics whose details can be computed again exactly from the case's `source` (deterministic
   * metrics of a case that can be read again; reports do): their results leave details out of
   * the record, but for those `keep` keeps.
   */
  readonly recomputable?: ReadonlySet<string>;
  /** Which results of those metrics keep their details all the same. Default "none". */
  readonly keep?: KeptDetails;
}

/** The metrics whose details a record leaves out: only where its line can be read again. */
function leftOut(
  source: { readonly offset: number; readonly bytes: number } | undefined,
  options: CaseRecordOptions | undefined,
): ReadonlySet<string> | undefined {
  return source === undefined ? undefined : options?.recomputable;
}

/**
 * A case result as a results-file record, with the case's content, or where to read it again.
 * Details that repeat the result's score, threshold, success or reason keep them once.
 */
export function toCaseRecord(
  result: CaseResult,
  content?: CaseContent,
  source?: { readonly offset: number; readonly bytes: number },
  options?: CaseRecordOptions,
): CaseRecord {
  const leaveOut = leftOut(source, options);
  const keep = options?.keep ?? "none";
  const metrics: Record<string, MetricEntry> = {};
  for (const metric of result.results) metrics[metric.metric] = entryOf(metric, leaveOut, keep);
  // durationMs is set last, so that it stays the last key of every line.
  const record: Mutable<Omit<CaseRecord, "durationMs">> & { durationMs?: number } =
    result.line === undefined
      ? { index: result.index, id: result.id, status: result.status, metrics }
      : { index: result.index, id: result.id, line: result.line, status: result.status, metrics };
  if (result.turns !== undefined) record.turns = result.turns;
  if (result.run !== undefined) record.run = result.run;
  if (result.group !== undefined) record.group = result.group;
  if (result.error !== undefined) record.error = withoutCredentials(result.error);
  if (result.simulatorFault !== undefined) record.simulatorFault = result.simulatorFault;
  if (content !== undefined) record.case = content;
  if (source !== undefined) record.source = source;
  record.durationMs = result.durationMs;
  return record as CaseRecord;
}

/** A number as `JSON.stringify` writes it. */
const jsonNumber = (value: number): string => (Number.isFinite(value) ? String(value) : "null");

/** `,"key":value` as `JSON.stringify` writes a member, or "" for a value it leaves out. */
function member(key: string, value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? "" : `,"${key}":${text}`;
}

/** Each metric name's key as a record writes it, up to its score; undefined for a name an object would reorder or drop. */
const entryHeads = new Map<string, string | undefined>();

function entryHead(metric: string): string | undefined {
  let head = entryHeads.get(metric);
  if (head === undefined && !entryHeads.has(metric)) {
    // Array-index names come first among an object's keys, and __proto__ is no key at all.
    head =
      metric === "__proto__" || /^(?:0|[1-9]\d*)$/.test(metric)
        ? undefined
        : `${JSON.stringify(metric)}:{"status":"scored","score":`;
    if (entryHeads.size < 1024) entryHeads.set(metric, head);
  }
  return head;
}

/**
 * The record's metrics as JSON, written directly when every result is scored and keeps no
 * details, under distinct names; else undefined.
 */
function leanMetricsJson(
  results: readonly MetricResult[],
  leaveOut: ReadonlySet<string> | undefined,
  keep: KeptDetails,
): string | undefined {
  let json = "";
  for (let at = 0; at < results.length; at++) {
    const result = results[at];
    if (
      result.status !== "scored" ||
      typeof result.metric !== "string" ||
      typeof result.score !== "number" ||
      typeof result.threshold !== "number" ||
      typeof result.success !== "boolean" ||
      (result.reason !== undefined && typeof result.reason !== "string") ||
      // Details the record keeps go the general way.
      keptDetails(result, leaveOut, keep) !== undefined
    ) {
      return undefined;
    }
    const head = entryHead(result.metric);
    if (head === undefined) return undefined;
    for (let before = 0; before < at; before++) {
      if (results[before].metric === result.metric) return undefined;
    }
    const reason =
      result.reason === undefined ? "" : `,"reason":${JSON.stringify(shownReason(result.reason))}`;
    json += `${at === 0 ? "" : ","}${head}${jsonNumber(result.score)},"threshold":${jsonNumber(result.threshold)},"success":${result.success}${reason}}`;
  }
  return json;
}

const plainStatuses = new Set(["passed", "failed", "error"]);

/** A source of just `offset` then `bytes`, as a run makes it. */
function isPlaceOnly(source: object): boolean {
  const keys = Object.keys(source);
  return keys.length === 2 && keys[0] === "offset";
}

/**
 * A case's record as a results-file line (without its newline): `JSON.stringify` of
 * {@link toCaseRecord}'s record, written directly for the common record (its metrics scored,
 * their details left out), where the generic stringify was a sixth of a run's time.
 */
export function caseRecordLine(
  result: CaseResult,
  content?: CaseContent,
  source?: { readonly offset: number; readonly bytes: number },
  options?: CaseRecordOptions,
): string {
  const leaveOut = leftOut(source, options);
  const metrics =
    typeof result.index === "number" &&
    typeof result.id === "string" &&
    plainStatuses.has(result.status) &&
    typeof result.durationMs === "number"
      ? leanMetricsJson(result.results, leaveOut, options?.keep ?? "none")
      : undefined;
  if (metrics === undefined) return JSON.stringify(toCaseRecord(result, content, source, options));
  const where =
    source === undefined
      ? ""
      : typeof source.offset === "number" && typeof source.bytes === "number" && isPlaceOnly(source)
        ? `,"source":{"offset":${jsonNumber(source.offset)},"bytes":${jsonNumber(source.bytes)}}`
        : member("source", source);
  return `{"index":${jsonNumber(result.index)},"id":${JSON.stringify(result.id)}${
    result.line === undefined
      ? ""
      : typeof result.line === "number"
        ? `,"line":${jsonNumber(result.line)}`
        : member("line", result.line)
  },"status":"${result.status}","metrics":{${metrics}}${
    result.turns === undefined ? "" : member("turns", result.turns)
  }${
    result.run === undefined ? "" : member("run", result.run)
  }${result.group === undefined ? "" : member("group", result.group)}${
    result.error === undefined ? "" : member("error", withoutCredentials(result.error))
  }${content === undefined ? "" : member("case", content)}${where},"durationMs":${jsonNumber(result.durationMs)}}`;
}

type SummaryInput = Parameters<SummaryBuilder["add"]>[0];

/** What a summary needs of a record read back: its id, group, status and metric results. */
export function summaryInput(record: CaseRecord): SummaryInput {
  const input: Mutable<SummaryInput> = {
    id: record.id,
    status: record.status,
    results: metricResultsOf(record),
  };
  if (record.group !== undefined) input.group = record.group;
  if (record.turns !== undefined) input.turns = record.turns;
  if (record.simulatorFault !== undefined) input.simulatorFault = record.simulatorFault;
  return input;
}

/** The metric results of a record, in the order of its metrics. */
export function metricResultsOf(record: CaseRecord): MetricResult[] {
  return Object.entries(record.metrics).map(([metric, entry]): MetricResult => {
    switch (entry.status) {
      case "scored":
        return {
          status: "scored",
          metric,
          score: entry.score,
          threshold: entry.threshold,
          success: entry.success,
          ...(entry.reason === undefined ? {} : { reason: entry.reason }),
          details: entry.details ?? null,
        };
      case "error":
        return { status: "error", metric, error: entry.error };
      case "skipped":
        return { status: "skipped", metric, reason: entry.reason };
      case "not-evaluable":
        return { status: "not-evaluable", metric, reason: entry.reason, details: entry.details };
    }
  });
}
