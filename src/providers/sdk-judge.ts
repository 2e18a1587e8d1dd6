import { ProviderCallError } from "../core/errors.js";
import type {
  JudgeBatchApi,
  JudgeCallOptions,
  JudgeModel,
  JudgeRequest,
  JudgeResponse,
} from "../core/judge.js";
import { boundedFetch } from "./bounded-fetch.js";
import { callTarget } from "./call-target.js";
import { providerCalls } from "./provider-errors.js";
import { judgeSetup } from "./sdk-packages.js";

/** What every SDK client toolscore makes is given: deadlines, retries, the bounded fetch, headers. */
export interface ClientSettings {
  readonly timeout: number;
  readonly maxRetries: number;
  readonly fetch: typeof fetch;
  readonly defaultHeaders?: Record<string, string>;
}

/** One call through the judge's client: errors turned into toolscore's, within the deadline. */
export type ClientCall<Client> = <T>(
  signal: AbortSignal | undefined,
  run: (client: Client, signal: AbortSignal | undefined) => Promise<T>,
) => Promise<T>;

/** What a provider's judge says of itself; `sdkJudge` does the rest. */
export interface SdkJudgeSpec<Module, Client, Answer> {
  readonly provider: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  /** Where to set the key, named when there is none (`OPENAI_API_KEY`). */
  readonly keyVariable: string;
  /** The options every SDK judge takes (see `OpenAIJudgeOptions`). */
  readonly options: {
    readonly client?: unknown;
    readonly headers?: Record<string, string>;
    readonly timeoutMs?: number;
    readonly maxRetries?: number;
    readonly supportsImages?: boolean;
  };
  readonly endpoint: string;
  /** Everything that names the account besides the headers (key, organization, project). */
  readonly credentials: readonly (string | undefined)[];
  readonly sdk: () => () => Promise<Module>;
  readonly newClient: (module: Module, settings: ClientSettings) => Client;
  readonly ownClient: (module: Module, client: unknown) => Client;
  readonly create: (
    client: Client,
    request: JudgeRequest,
    signal: AbortSignal | undefined,
  ) => Promise<Answer>;
  /** The answer to `request` read, or what it lacks (`"choices"`) when it cannot be. */
  readonly read: (answer: Answer, request: JudgeRequest) => JudgeResponse | string;
  /** `"decisions"` for a decision model's API (see `JudgeModel.answers`). */
  readonly answers?: "decisions";
  readonly batch?: (call: ClientCall<Client>) => JudgeBatchApi;
}

/**
 * A judge on a provider's official SDK: the setup checked whole at once (SDK and key), the SDK
 * loaded on the first call so that importing toolscore stays quick, one client, and every call
 * redacted and held to `timeoutMs × (maxRetries + 1)`.
 */
export function sdkJudge<Module, Client, Answer>(
  spec: SdkJudgeSpec<Module, Client, Answer>,
): JudgeModel {
  const { provider, options } = spec;
  const ownClient = options.client !== undefined;
  const loadSdk = judgeSetup({
    provider,
    sdk: spec.sdk,
    keyProblem:
      !ownClient && (spec.apiKey === undefined || spec.apiKey === "")
        ? `no API key; set ${spec.keyVariable} or pass apiKey`
        : undefined,
  });
  const timeout = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const settings: ClientSettings = {
    timeout,
    maxRetries,
    fetch: boundedFetch({ provider, maxWaitMs: timeout }),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  };
  const calls = providerCalls({
    provider,
    secrets: [spec.apiKey, ...Object.values(options.headers ?? {})],
    timeoutMs: timeout,
    maxRetries,
    ownClient,
    endpoint: spec.endpoint,
  });
  let loaded: Promise<Client> | undefined;
  const client = (): Promise<Client> =>
    (loaded ??= loadSdk().then((module) =>
      ownClient ? spec.ownClient(module, options.client) : spec.newClient(module, settings),
    ));
  const call: ClientCall<Client> = (signal, run) =>
    calls(signal, async (signal) => run(await client(), signal));
  const batch = spec.batch?.(call);
  return {
    specificationVersion: "v1",
    provider,
    modelId: spec.model,
    supportsImages: options.supportsImages ?? true,
    ...callTarget({
      client: options.client,
      endpoint: spec.endpoint,
      credentials: spec.credentials,
      headers: options.headers,
    }),
    async generate(request: JudgeRequest, callOptions: JudgeCallOptions = {}) {
      const answer = await call(callOptions.signal, (client, signal) =>
        spec.create(client, request, signal),
      );
      const response = spec.read(answer, request);
      if (typeof response === "string") {
        throw new ProviderCallError({
          provider,
          retryable: true,
          message: `${provider}: the model API answered without ${response}`,
        });
      }
      return response;
    },
    ...(batch === undefined ? {} : { batch }),
    ...(spec.answers === undefined ? {} : { answers: spec.answers }),
  };
}
