import { ProviderCallError } from "../core/errors.js";
import { createRedactor, endpointShown, redactCredentials } from "../core/redact.js";

/** HTTP statuses that a later attempt may get past. */
export function isRetryableStatus(status: number | undefined): boolean {
  return (
    status === undefined || status === 408 || status === 409 || status === 429 || status >= 500
  );
}

/**
 * A provider SDK's error as a `ProviderCallError`, or the abort reason when the call was
 * abandoned. The SDKs have already retried what they retry; the message says so. What the server
 * said is `redact`ed (credentials, the call's own key): a server may echo the key it was sent.
 */
export function toProviderCallError(
  provider: string,
  error: unknown,
  signal: AbortSignal | undefined,
  redact: (text: string) => string = redactCredentials,
  /** The URL the call was sent to, when known: said when it could not be reached. */
  endpoint?: string,
): unknown {
  if (signal?.aborted === true) return signal.reason;
  if (ProviderCallError.isInstance(error)) return error;
  const status = statusOf(error);
  const detail = redact(error instanceof Error ? error.message : String(error));
  const kind =
    status === undefined
      ? /timed? ?out/i.test(detail)
        ? "timed out"
        : "could not connect"
      : `answered ${status}`;
  return new ProviderCallError({
    provider,
    ...(status === undefined ? {} : { status }),
    retryable: isRetryableStatus(status),
    unreachable: kind === "could not connect",
    message: `${provider}: the model API${endpoint === undefined ? "" : ` at ${endpointShown(endpoint)}`} ${kind} (${detail})`,
    cause: error,
  });
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const record = error as { status?: unknown; statusCode?: unknown };
  if (typeof record.status === "number") return record.status;
  if (typeof record.statusCode === "number") return record.statusCode;
  return undefined;
}

/** The answer text parsed as JSON, or `undefined` when it is not JSON. */
export function parseJsonAnswer(text: string): unknown {
  const trimmed = text.trim();
  // Some servers wrap JSON in a Markdown fence even when asked for JSON.
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  try {
    return JSON.parse(fenced ? fenced[1] : trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Runs one call to a provider's SDK, turning its errors into toolscore's, with what the server
 * said `redact`ed. With `totalMs`, the call, every try and every wait between tries included,
 * ends by then: `run` is given a signal that aborts at the deadline, and the call fails as timed
 * out (retryable) whatever the SDK is still waiting for.
 */
export async function calling<T>(
  provider: string,
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal | undefined) => Promise<T>,
  options: {
    readonly totalMs?: number;
    readonly redact?: (text: string) => string;
    readonly endpoint?: string;
  } = {},
): Promise<T> {
  const { totalMs, redact, endpoint } = options;
  if (totalMs === undefined) {
    try {
      return await run(signal);
    } catch (error) {
      throw toProviderCallError(provider, error, signal, redact, endpoint);
    }
  }
  const deadline = new AbortController();
  const combined =
    signal === undefined ? deadline.signal : AbortSignal.any([signal, deadline.signal]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ProviderCallError({
        provider,
        retryable: true,
        message: `${provider}: the model API gave no answer within ${totalMs} ms (the call's total: every try, the read of its answer and the waits between tries)`,
      });
      deadline.abort(error);
      reject(error);
    }, totalMs);
  });
  try {
    return await Promise.race([run(combined), expired]);
  } catch (error) {
    if (deadline.signal.aborted && signal?.aborted !== true) throw deadline.signal.reason;
    throw toProviderCallError(provider, error, signal, redact, endpoint);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How a provider built on an SDK client of toolscore's makes its calls (see `calling`): what the
 * server says is redacted with the call's own secrets (its key and headers: a server may echo
 * them), and a call ends within `timeoutMs × (maxRetries + 1)`, unless the client is the
 * caller's own, which keeps its own deadlines.
 */
export function providerCalls(options: {
  readonly provider: string;
  readonly secrets: readonly (string | undefined)[];
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly ownClient: boolean;
  /** Where the calls go, named when one cannot reach it. */
  readonly endpoint?: string;
}): <T>(
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal | undefined) => Promise<T>,
) => Promise<T> {
  const redact = createRedactor(
    options.secrets.filter((secret): secret is string => typeof secret === "string"),
  );
  const endpoint = options.endpoint === undefined ? {} : { endpoint: options.endpoint };
  const settings = options.ownClient
    ? { redact, ...endpoint }
    : { totalMs: options.timeoutMs * (options.maxRetries + 1), redact, ...endpoint };
  return (signal, run) => calling(options.provider, signal, run, settings);
}
