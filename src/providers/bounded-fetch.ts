import { ProviderCallError } from "../core/errors.js";

/** The largest answer a model API may send for one request (a batch's results file included). */
export const maxAnswerBytes = 256 * 1024 * 1024;

/** Statuses whose responses have no body (a `Response` refuses one). */
const bodiless = new Set([101, 204, 205, 304]);

/** Reads a response's body whole, refusing one over `maxAnswerBytes`. */
async function readWhole(response: Response, provider: string): Promise<Uint8Array | null> {
  if (response.body === null) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxAnswerBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ProviderCallError({
        provider,
        retryable: false,
        message: `${provider}: the model API sent an answer over ${maxAnswerBytes / 1024 / 1024} MiB; refused`,
      });
    }
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks, size);
}

/** `retry-after-ms` as the wait a server asked for, held to `maxWaitMs`; undefined if none. */
function askedWait(headers: Headers, maxWaitMs: number): number | undefined {
  const inMs = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  const given = headers.get("retry-after");
  const inSeconds =
    given === null
      ? NaN
      : /^\s*[\d.]+\s*$/.test(given)
        ? Number.parseFloat(given) * 1000
        : Date.parse(given) - Date.now();
  const wait = Number.isFinite(inMs) ? inMs : inSeconds;
  if (!Number.isFinite(wait)) return undefined;
  return Math.min(Math.max(wait, 0), maxWaitMs);
}

/**
 * The `fetch` toolscore gives a provider SDK's client. Each try's answer is read whole before the
 * SDK sees it, so that the SDK's per-try timeout bounds the read of the answer too (the SDKs stop
 * their timer at the headers: a server that sends its answer a byte at a time would hold a call
 * as long as it liked). A wait the server asks for between tries (`Retry-After`) is held to
 * `maxWaitMs`, and an answer over `maxAnswerBytes` is refused.
 */
export function boundedFetch(options: { provider: string; maxWaitMs: number }): typeof fetch {
  const { provider, maxWaitMs } = options;
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = await readWhole(response, provider);
    const headers = new Headers(response.headers);
    // The body is read and decoded: its length and encoding are no longer the wire's.
    headers.delete("content-length");
    headers.delete("content-encoding");
    const wait = askedWait(headers, maxWaitMs);
    headers.delete("retry-after");
    headers.delete("retry-after-ms");
    if (wait !== undefined) headers.set("retry-after-ms", String(Math.round(wait)));
    return new Response(bodiless.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
