import { credentialFingerprint } from "./cache-key.js";

/**
 * Where a provider's calls go and the fingerprint of the account they are made with (see
 * `JudgeModel.endpoint` and `.account`): from a client of the caller's own when given (the SDKs'
 * clients carry `baseURL` and `apiKey`), else from the options the client is made of.
 */
export function callTarget(input: {
  readonly client: unknown;
  readonly endpoint: string;
  readonly credentials: readonly (string | undefined)[];
  readonly headers: Readonly<Record<string, string>> | undefined;
}): { endpoint?: string; account?: string } {
  const client = input.client as { baseURL?: unknown; apiKey?: unknown } | undefined;
  const own = client !== undefined;
  const endpoint = own
    ? typeof client.baseURL === "string"
      ? client.baseURL
      : undefined
    : input.endpoint;
  const account = credentialFingerprint(
    own
      ? [typeof client.apiKey === "string" ? client.apiKey : undefined]
      : [
          ...input.credentials,
          // Headers may carry a gateway's key: they name the account too.
          ...Object.entries(input.headers ?? {})
            .map(([name, value]) => `${name.toLowerCase()}: ${value}`)
            .sort(),
        ],
  );
  return {
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(account === undefined ? {} : { account }),
  };
}
