/**
 * An agent behind an HTTP endpoint: each run posts the case as JSON (the same object a command
 * agent reads on stdin) and reads the transcript from the answer's JSON body. The endpoint and its
 * headers come from the run, never from a dataset. Retries of infrastructure failures (429, 5xx,
 * a dropped connection) with backoff are ky's: a well-kept client, not a loop of ours.
 */
import type { HTTPError } from "ky";
import { AgentFailure, requestBody } from "./agent.js";
import type { Agent, AgentRequest } from "./agent.js";

/** Most of an answer read: a transcript past it is refused, not cut. */
const maxBodyBytes = 64 * 1024 * 1024;
/** The end of a failed answer's body a failure shows. */
const bodyTail = 2000;

export interface HttpAgentOptions {
  /** Headers sent with each request (an API key, say), as the run gave them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Retries of a request that met 408, 429, a 5xx or a dropped connection. Default 3. */
  readonly retries?: number;
  /** The first retry's wait, doubled at each retry (a `Retry-After` wins). Default 500 ms. */
  readonly retryDelayMs?: number;
}

interface HttpSettings {
  readonly headers: Readonly<Record<string, string>>;
  readonly retries: number;
  readonly firstDelayMs: number;
}

/** The statuses retried: the endpoint was busy or down, not the agent's answer. */
const retriedStatuses = [408, 429, 500, 502, 503, 504];

/** An agent reached by POSTing each run's case to `url`. */
export function httpAgent(url: string, options: HttpAgentOptions = {}): Agent {
  // Defaults resolved once: the retry count is also said in a failure's message.
  const resolved: HttpSettings = {
    headers: options.headers ?? {},
    retries: options.retries ?? 3,
    firstDelayMs: options.retryDelayMs ?? 500,
  };
  return {
    name: url,
    run: async (request, { signal, log }) => {
      const response = await post(url, request, signal, resolved, log);
      return readAnswer(response);
    },
  };
}

async function post(
  url: string,
  request: AgentRequest,
  signal: AbortSignal,
  options: HttpSettings,
  log: (message: string) => void,
): Promise<Response> {
  // Loaded when the first request goes: ky's first load makes a fetch Request, which loads
  // Node's HTTP client, a cost every other command and run would pay for nothing.
  const { default: ky, isHTTPError } = await import("ky");
  try {
    return await ky.post(url, {
      json: requestBody(request),
      headers: { accept: "application/json", ...options.headers },
      signal,
      // The run's deadline bounds the request and its retries.
      timeout: false,
      retry: {
        limit: options.retries,
        methods: ["post"],
        statusCodes: retriedStatuses,
        afterStatusCodes: [429, 503],
        delay: (attempt) => options.firstDelayMs * 2 ** (attempt - 1),
        backoffLimit: 30_000,
        jitter: true,
      },
      hooks: {
        beforeRetry: [
          ({ error, retryCount }) => {
            log(`retry ${retryCount}: ${describe(error, isHTTPError)}`);
          },
        ],
      },
    });
  } catch (error) {
    if (isHTTPError(error)) {
      const body = await error.response.text().catch(() => "");
      const said = body.trim() === "" ? "" : `: ${body.trim().slice(-bodyTail)}`;
      const retried = retriedStatuses.includes(error.response.status)
        ? ` (after ${options.retries} retries)`
        : "";
      throw new AgentFailure(
        `the agent's endpoint answered ${describe(error, isHTTPError)}${retried}${said}`,
      );
    }
    if (signal.aborted) throw error;
    throw new AgentFailure(
      `the agent's endpoint could not be reached: ${describe(error, isHTTPError)}`,
    );
  }
}

function describe(error: unknown, isHTTPError: (error: unknown) => error is HTTPError): string {
  if (isHTTPError(error)) {
    return `${error.response.status}${error.response.statusText === "" ? "" : ` ${error.response.statusText}`}`;
  }
  if (!(error instanceof Error)) return String(error);
  // fetch's "fetch failed" says little; its cause says what (ECONNREFUSED, a reset).
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** The transcript an answer carries: its JSON body; nothing, or not JSON, is the run's failure. */
async function readAnswer(response: Response): Promise<unknown> {
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > maxBodyBytes) {
    await response.body?.cancel();
    throw new AgentFailure(`the agent's endpoint answered more than ${maxBodyBytes} bytes`);
  }
  const text = (await response.text()).trim();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AgentFailure(
      `the agent's endpoint did not answer JSON (${error instanceof Error ? error.message : String(error)}): answer the transcript as one JSON value; it begins ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
}
