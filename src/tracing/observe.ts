import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { InvalidOptionError } from "../core/errors.js";
import type { Metric } from "../core/metric.js";
import type { TestCase } from "../core/test-case.js";
import type { Span, SpanType, Trace } from "./span.js";

interface Context {
  readonly trace: Trace;
  readonly span?: Span;
}

/**
 * The trace and span of the code running now. AsyncLocalStorage keeps them per asynchronous
 * context, so two runs at once (two requests, two goldens) never see each other's spans.
 */
const storage = new AsyncLocalStorage<Context>();

// Ids: a random prefix per process and a counter, as cheap as ids can be and unique enough.
const prefix = randomBytes(4).toString("hex");
let counter = 0;
const nextSpanId = () => `${prefix}${(++counter).toString(16).padStart(8, "0")}`;
const nextTraceId = () => `${randomBytes(8).toString("hex")}${nextSpanId()}`;
const now = () => performance.timeOrigin + performance.now();

/** Listeners told of every trace that ends outside `captureTrace` (an observed entry point). */
const traceListeners = new Set<(trace: Trace) => void>();

/**
 * Calls `listener` with every trace that ends when an outermost observed function returns
 * (outside `captureTrace`); returns the function that stops it.
 */
export function onTraceEnd(listener: (trace: Trace) => void): () => void {
  traceListeners.add(listener);
  return () => traceListeners.delete(listener);
}

function newTrace(name?: string): Trace {
  return {
    id: nextTraceId(),
    ...(name === undefined ? {} : { name }),
    roots: [],
    spans: [],
    startTime: now(),
  };
}

export interface ObserveOptions {
  /** The span's name. Default: the function's name. */
  name?: string;
  /** Default "custom"; "tool" makes each call a tool call of the trace. */
  type?: SpanType;
  /** Metrics that score this component, on the test case set with `updateCurrentSpan`. */
  metrics?: readonly Metric[];
  /**
   * The tool call's id from the function's arguments (for AI SDK tools, the second argument's
   * `toolCallId`).
   */
  toolCallId?: (args: readonly unknown[]) => string | undefined;
}

function errorOf(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: "Error", message: String(error) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Wraps a function (sync or async) so that every call is recorded as a span: its arguments,
 * what it returned or threw, and when, nested under the span of the observed function that called
 * it. The wrapper returns and throws exactly what the function does (the same promise object
 * for an async function); recording never changes the outcome.
 *
 * @example
 * const getWeather = observe(async ({ city }: { city: string }) => fetchWeather(city), {
 *   name: "get_weather",
 *   type: "tool",
 * });
 */
export function observe<F extends (...args: never[]) => unknown>(
  fn: F,
  options: ObserveOptions = {},
): F {
  if (typeof fn !== "function") {
    throw new InvalidOptionError({
      option: "fn",
      value: fn,
      message: "observe wraps a function",
    });
  }
  const name = options.name ?? (fn.name === "" ? "anonymous" : fn.name);
  const type = options.type ?? "custom";
  const { metrics, toolCallId } = options;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const parent = storage.getStore();
    const outermost = parent === undefined;
    const trace = parent?.trace ?? newTrace(name);
    const span: Span = {
      id: nextSpanId(),
      traceId: trace.id,
      ...(parent?.span === undefined ? {} : { parentId: parent.span.id }),
      name,
      type,
      // A tool's arguments are its first argument (the AI SDK passes call options second).
      input: type === "tool" || args.length === 1 ? args[0] : args,
      startTime: now(),
      ...(metrics === undefined ? {} : { metrics }),
      children: [],
    };
    const id = toolCallId?.(args);
    if (id !== undefined) span.toolCallId = id;
    trace.spans.push(span);
    if (parent?.span === undefined) trace.roots.push(span);
    else parent.span.children.push(span);
    const end = (output: unknown, error?: unknown, failed = false) => {
      span.endTime = now();
      if (failed) span.error = errorOf(error);
      else span.output = output;
      if (outermost) {
        trace.endTime = span.endTime;
        for (const listener of traceListeners) listener(trace);
      }
    };
    return storage.run({ trace, span }, () => {
      let result: unknown;
      try {
        result = (fn as unknown as (...input: unknown[]) => unknown).apply(this, args);
      } catch (error) {
        end(undefined, error, true);
        throw error;
      }
      if (isThenable(result)) {
        // A side branch records the outcome; the caller gets the very same promise.
        result.then(
          (value) => {
            end(value);
          },
          (error: unknown) => {
            end(undefined, error, true);
          },
        );
        return result;
      }
      end(result);
      return result;
    });
  };
  Object.defineProperty(wrapped, "name", { value: fn.name, configurable: true });
  return wrapped as unknown as F;
}

/** `observe(fn, { name, type: "tool" })`: every call becomes a tool call of the trace. */
export function traceTool<F extends (...args: never[]) => unknown>(
  name: string,
  fn: F,
  options: Omit<ObserveOptions, "name" | "type"> = {},
): F {
  return observe(fn, { ...options, name, type: "tool" });
}

/** The span of the observed function running now, if any. */
export function currentSpan(): Span | undefined {
  return storage.getStore()?.span;
}

/** The trace running now, if any. */
export function currentTrace(): Trace | undefined {
  return storage.getStore()?.trace;
}

export interface SpanUpdate {
  testCase?: TestCase;
  input?: unknown;
  output?: unknown;
  name?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Sets data on the span of the observed function running now: above all its `testCase`, which
 * the component's metrics score. Outside an observed function it does nothing and returns false.
 */
export function updateCurrentSpan(update: SpanUpdate): boolean {
  const span = currentSpan();
  if (span === undefined) return false;
  if (update.testCase !== undefined) span.testCase = update.testCase;
  if (update.input !== undefined) span.input = update.input;
  if (update.output !== undefined) span.output = update.output;
  if (update.name !== undefined) span.name = update.name;
  if (update.metadata !== undefined) span.metadata = { ...span.metadata, ...update.metadata };
  return true;
}

/** Sets the end-to-end test case (and name, metadata) of the trace running now. */
export function updateCurrentTrace(update: Omit<SpanUpdate, "input" | "output">): boolean {
  const trace = currentTrace();
  if (trace === undefined) return false;
  if (update.testCase !== undefined) trace.testCase = update.testCase;
  if (update.name !== undefined) trace.name = update.name;
  if (update.metadata !== undefined) trace.metadata = { ...trace.metadata, ...update.metadata };
  return true;
}

/**
 * Runs `fn` in a trace of its own (even inside another trace) and returns what it returned with
 * the trace, once `fn` and every observed call it started have settled. If `fn` throws, the
 * error is rethrown with the trace on it as `trace`.
 */
export async function captureTrace<T>(
  fn: () => T | Promise<T>,
  options: { name?: string } = {},
): Promise<{ result: T; trace: Trace }> {
  const trace = newTrace(options.name);
  try {
    const result = await storage.run({ trace }, fn);
    trace.endTime = now();
    return { result, trace };
  } catch (error) {
    trace.endTime = now();
    if (typeof error === "object" && error !== null && !("trace" in error)) {
      Object.defineProperty(error, "trace", { value: trace, enumerable: false });
    }
    throw error;
  }
}
