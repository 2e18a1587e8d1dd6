import { InvalidInputError } from "../core/errors.js";
import { asArray, asRecord, asString, at } from "./read.js";
import type { Record_ } from "./read.js";
import { agentsTraceIds } from "./openai-agents.js";
import { mastraTraceIds } from "./mastra.js";
import type { RawResult, TrajectoryBuilder } from "./trajectory-builder.js";

/** A span, decoded from OTLP JSON or a plain span export, with its attributes as values. */
export interface DecodedSpan {
  readonly name: string;
  /** The trace (run) the span belongs to, when the export says. */
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
  readonly parentSpanId: string | undefined;
  /** Start and end in nanoseconds since the epoch, when known. */
  readonly start: bigint | undefined;
  readonly end: bigint | undefined;
  readonly attributes: ReadonlyMap<string, unknown>;
  readonly isError: boolean;
  /** Where the span is in the input. */
  readonly path: string;
  /** Its position in the input, to keep the order of spans that started together. */
  readonly order: number;
}

/** An OTLP `AnyValue` (`{stringValue}`, `{intValue}`, `{arrayValue: {values}}`, ...) as a plain value. */
function anyValue(value: unknown): unknown {
  const record = asRecord(value);
  if (!record) return value;
  if ("stringValue" in record) return record.stringValue;
  if ("boolValue" in record) return record.boolValue;
  if ("intValue" in record)
    return typeof record.intValue === "string" ? Number(record.intValue) : record.intValue;
  if ("doubleValue" in record) return record.doubleValue;
  if ("bytesValue" in record) return record.bytesValue;
  const array = asRecord(record.arrayValue);
  if (array) return (asArray(array.values) ?? []).map(anyValue);
  const kvlist = asRecord(record.kvlistValue);
  if (kvlist) return Object.fromEntries(attributePairs(kvlist.values));
  return value;
}

function attributePairs(attributes: unknown): [string, unknown][] {
  const list = asArray(attributes);
  if (list) {
    return list.flatMap((item) => {
      const record = asRecord(item);
      const key = record && asString(record.key);
      return key === undefined ? [] : [[key, anyValue(record?.value)] as [string, unknown]];
    });
  }
  const record = asRecord(attributes);
  return record ? Object.entries(record) : [];
}

function nanoseconds(span: Record_, unixKey: string, isoKey: string): bigint | undefined {
  const unix = span[unixKey];
  if (typeof unix === "string" && /^\d+$/.test(unix)) return BigInt(unix);
  if (typeof unix === "number" && Number.isFinite(unix)) return BigInt(Math.trunc(unix));
  const iso = asString(span[isoKey]);
  if (iso !== undefined) {
    const ms = Date.parse(iso);
    if (!Number.isNaN(ms)) return BigInt(ms) * 1_000_000n;
  }
  return undefined;
}

function statusIsError(span: Record_): boolean {
  const status = asRecord(span.status);
  const code = status?.code ?? span.status_code ?? span.statusCode;
  return code === 2 || code === "STATUS_CODE_ERROR" || code === "ERROR";
}

/**
 * Every span in an OTLP JSON export (`{resourceSpans: [{scopeSpans: [{spans}]}]}`, or a list of
 * such exports), a `{spans}` object, or a list of spans; sorted by start time (spans without one
 * keep their place).
 */
export function decodeSpans(input: unknown, onSkip: (path: string) => void): DecodedSpan[] {
  const raw: { span: unknown; path: string }[] = [];
  const fromExport = (value: Record_, path: string): boolean => {
    const resourceSpans = asArray(value.resourceSpans ?? value.resource_spans);
    if (!resourceSpans) return false;
    resourceSpans.forEach((resource, r) => {
      const resourcePath = at(at(path, "resourceSpans"), r);
      const scopes =
        asArray(
          asRecord(resource)?.scopeSpans ?? asRecord(resource)?.instrumentationLibrarySpans,
        ) ?? [];
      scopes.forEach((scope, s) => {
        const scopePath = at(at(resourcePath, "scopeSpans"), s);
        asArray(asRecord(scope)?.spans)?.forEach((span, i) =>
          raw.push({ span, path: at(at(scopePath, "spans"), i) }),
        );
      });
    });
    return true;
  };
  const record = asRecord(input);
  const list = asArray(input);
  if (record) {
    if (!fromExport(record, "$")) {
      const spans = asArray(record.spans) ?? asArray(record.data);
      if (!spans)
        throw new InvalidInputError({
          field: "$",
          message: "a trace must hold resourceSpans (OTLP JSON) or a list of spans",
        });
      spans.forEach((span, i) => raw.push({ span, path: at("$.spans", i) }));
    }
  } else if (list) {
    list.forEach((item, i) => {
      const itemRecord = asRecord(item);
      if (itemRecord && fromExport(itemRecord, at("$", i))) return;
      raw.push({ span: item, path: at("$", i) });
    });
  } else {
    throw new InvalidInputError({
      field: "$",
      message: `a trace must be an object or a list, got ${input === null ? "null" : typeof input}`,
    });
  }

  const spans: DecodedSpan[] = [];
  raw.forEach(({ span, path }, order) => {
    const record = asRecord(span);
    if (!record) {
      onSkip(path);
      return;
    }
    const context = asRecord(record.context);
    spans.push({
      name: asString(record.name) ?? "",
      traceId: asString(record.traceId) ?? asString(record.trace_id) ?? asString(context?.trace_id),
      spanId: asString(record.spanId) ?? asString(record.span_id) ?? asString(context?.span_id),
      parentSpanId:
        asString(record.parentSpanId) ??
        asString(record.parent_span_id) ??
        asString(record.parent_id) ??
        undefined,
      start: nanoseconds(record, "startTimeUnixNano", "start_time"),
      end: nanoseconds(record, "endTimeUnixNano", "end_time"),
      attributes: new Map(attributePairs(record.attributes)),
      isError: statusIsError(record),
      path,
      order,
    });
  });
  spans.sort((a, b) => {
    if (a.start !== undefined && b.start !== undefined && a.start !== b.start)
      return a.start < b.start ? -1 : 1;
    return a.order - b.order;
  });
  return spans;
}

/**
 * Groups tool spans into steps. Spans whose calls appear in the same model response (`step`)
 * are one step; spans without that knowledge are one step when they share a parent and overlap
 * in time (tools the agent ran in parallel).
 */
export function stepGroups<T extends { span: DecodedSpan; step?: number | undefined }>(
  items: readonly T[],
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let groupEnd: bigint | undefined;
  for (const item of items) {
    const previous = current.at(-1);
    let together = false;
    if (previous !== undefined) {
      if (item.step !== undefined || previous.step !== undefined) {
        together = item.step === previous.step;
      } else {
        together =
          previous.span.parentSpanId === item.span.parentSpanId &&
          item.span.start !== undefined &&
          groupEnd !== undefined &&
          item.span.start < groupEnd;
      }
    }
    if (!together && current.length > 0) {
      groups.push(current);
      current = [];
      groupEnd = undefined;
    }
    current.push(item);
    const end = item.span.end;
    if (end !== undefined && (groupEnd === undefined || end > groupEnd)) groupEnd = end;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** The traces spans belong to, each once, in the order the input first names them. */
function traceIdsIn(spans: readonly DecodedSpan[]): string[] {
  const byOrder = [...spans].sort((a, b) => a.order - b.order);
  const ids = new Set<string>();
  for (const span of byOrder) if (span.traceId !== undefined) ids.add(span.traceId);
  return [...ids];
}

/**
 * The traces of an export of spans (OTLP JSON, or a list of spans), in the order the input first
 * names them: one per run of the agent, when an exporter wrote several runs to one file.
 */
export function traceIdsOf(input: unknown): string[] {
  const agents = agentsTraceIds(input);
  if (agents.length > 0) return agents;
  const mastra = mastraTraceIds(input);
  if (mastra.length > 0) return mastra;
  return traceIdsIn(decodeSpans(input, () => undefined));
}

/** Trace ids for a message: the first few, quoted. */
function listed(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => JSON.stringify(id));
  return ids.length > 5 ? `${shown.join(", ")} and ${ids.length - 5} more` : shown.join(", ");
}

/**
 * The spans of a trace, with a warning for each entry that is not a span. With the builder's
 * `traceId`, only that trace's spans; without it, spans of several traces are read as one run,
 * with a warning, never mixed in silence.
 */
export function readSpans(input: unknown, builder: TrajectoryBuilder): DecodedSpan[] {
  const spans = decodeSpans(input, (path) => {
    builder.warn("not-an-object", "a span that is not an object was skipped", path);
  });
  const ids = traceIdsIn(spans);
  const chosen = builder.traceId;
  if (chosen !== undefined) {
    const own = spans.filter((span) => span.traceId === chosen);
    if (own.length === 0) {
      throw new InvalidInputError({
        field: "traceId",
        message: `no span belongs to trace ${JSON.stringify(chosen)}; ${ids.length === 0 ? "the spans carry no trace ids" : `the traces are ${listed(ids)}`}`,
      });
    }
    setRoot(own, builder);
    setExtent(own, builder);
    return own;
  }
  if (ids.length === 1) setRoot(spans, builder);
  setExtent(spans, builder);
  if (ids.length > 1) {
    builder.warn(
      "several-traces",
      `the spans belong to ${ids.length} traces (${listed(ids)}), read here as one run; choose one with traceId (toolscore dataset makes a case of each)`,
      "$",
    );
  }
  return spans;
}

/** How long a span lasted in milliseconds, when it says when it started and ended. */
export function spanMs(span: Pick<DecodedSpan, "start" | "end">): number | undefined {
  const { start, end } = span;
  if (start === undefined || end === undefined || end < start) return undefined;
  return Number(end - start) / 1e6;
}

/** The run's duration: from the first span's start to the last one's end, when they are timed. */
function setExtent(spans: readonly DecodedSpan[], builder: TrajectoryBuilder): void {
  let first: bigint | undefined;
  let last: bigint | undefined;
  for (const { start, end } of spans) {
    if (start === undefined || end === undefined || end < start) continue;
    if (first === undefined || start < first) first = start;
    if (last === undefined || end > last) last = end;
  }
  if (first !== undefined && last !== undefined) {
    builder.setDuration(spanMs({ start: first, end: last }) as number);
  }
}

/**
 * The run's root span, for the scores that belong to the whole run: the first span (by start)
 * whose parent is not among the trace's spans.
 */
function setRoot(spans: readonly DecodedSpan[], builder: TrajectoryBuilder): void {
  const ids = new Set(spans.map((span) => span.spanId));
  const roots = spans
    .filter((span) => span.parentSpanId === undefined || !ids.has(span.parentSpanId))
    .sort((a, b) =>
      (a.start ?? 0n) < (b.start ?? 0n)
        ? -1
        : (a.start ?? 0n) > (b.start ?? 0n)
          ? 1
          : a.order - b.order,
    );
  const root = roots.at(0);
  if (root?.traceId !== undefined && root.spanId !== undefined)
    builder.setTrace({ traceId: root.traceId, spanId: root.spanId });
}

/** A tool call found in a model span's output messages; `step` numbers the message. */
export interface MessageCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly arguments: unknown;
  readonly step: number;
  readonly path: string;
}

/** A call found in a chat span's input history: the span, and the message it is in. */
export interface HistoryCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly arguments: unknown;
  readonly span: number;
  readonly message: number;
  readonly path: string;
}

/**
 * The calls of a conversation held only in chat spans' input histories (no tool span and no
 * output message gave any): every span repeats the history so far, so calls with ids are joined
 * across spans by id, in the order they first appear; when some call has no id, the fullest
 * history (the span with the most calls) stands for the conversation. One step per assistant
 * message.
 */
export function historyCalls(calls: readonly HistoryCall[]): MessageCall[] {
  if (calls.length === 0) return [];
  let chosen: readonly HistoryCall[];
  if (calls.every((call) => call.id !== undefined)) {
    const seen = new Set<string>();
    chosen = calls.filter((call) => {
      if (seen.has(call.id as string)) return false;
      seen.add(call.id as string);
      return true;
    });
  } else {
    const perSpan = new Map<number, HistoryCall[]>();
    for (const call of calls) {
      const list = perSpan.get(call.span);
      if (list === undefined) perSpan.set(call.span, [call]);
      else list.push(call);
    }
    chosen = [...perSpan.values()].reduce((best, list) =>
      list.length > best.length ? list : best,
    );
  }
  const steps = new Map<string, number>();
  return chosen.map((call) => {
    const key = `${call.span}:${call.message}`;
    let step = steps.get(key);
    if (step === undefined) steps.set(key, (step = steps.size));
    return { id: call.id, name: call.name, arguments: call.arguments, step, path: call.path };
  });
}

/**
 * For traces without tool spans: the calls of the model's output messages, one step per message,
 * and their results (taken from later input messages) joined by id.
 */
export function addMessageCalls(
  builder: TrajectoryBuilder,
  calls: readonly MessageCall[],
  results: ReadonlyMap<string, RawResult & { path: string }>,
): void {
  let current: number | undefined;
  for (const call of calls) {
    if (call.step !== current) {
      builder.startStep();
      current = call.step;
    }
    builder.addCall({ name: call.name, arguments: call.arguments, id: call.id, path: call.path });
  }
  builder.endStep();
  for (const [id, result] of results) builder.addResult({ id, ...result });
}

/**
 * The tokens of a trace of spans, counted once: `usage` maps a usage spelling's keys (see
 * `usageOf`) to the attributes that hold them, `model` names the attributes naming the model, first
 * found wins. A span with a descendant that reports tokens too (an agent's span over its model
 * calls) holds their sum, and is left out.
 */
export function addSpanUsage(
  spans: readonly DecodedSpan[],
  builder: TrajectoryBuilder,
  keys: { readonly usage: Readonly<Record<string, string>>; readonly model: readonly string[] },
): void {
  const usageKeys = Object.entries(keys.usage);
  const read: { span: DecodedSpan; usage: Record_ | undefined; model: unknown }[] = [];
  for (const span of spans) {
    let usage: Record_ | undefined;
    for (const [key, attribute] of usageKeys) {
      const value = span.attributes.get(attribute);
      if (value !== undefined) (usage ??= {})[key] = value;
    }
    let model: unknown;
    for (const attribute of keys.model) model ??= span.attributes.get(attribute);
    if (usage !== undefined || model !== undefined) read.push({ span, usage, model });
  }
  if (read.length === 0) return;
  const parents = new Map(spans.map((span) => [span.spanId, span.parentSpanId]));
  const covered = new Set<string>();
  for (const { span, usage } of read) {
    if (usage === undefined) continue;
    // Every ancestor of a span with tokens holds them already; the walk stops at a loop.
    for (let up = span.parentSpanId; up !== undefined && !covered.has(up); up = parents.get(up))
      covered.add(up);
  }
  for (const { span, usage, model } of read) {
    const counted = span.spanId === undefined || !covered.has(span.spanId);
    builder.addUsage(counted ? usage : undefined, model, `${span.path}.attributes`);
  }
}
