import { escapeRegExp } from "./words.js";
/**
 * Text with credentials taken out, for every message toolscore writes (results, reports, the
 * console): a server may echo the key it was sent in an error, and a transcript may hold one.
 */
export const redactedMark = "[redacted]";

// Keys by their vendors' prefixes, an Authorization header's token, a PEM private key.
const credentialPattern =
  /\b(?:sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})|\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;

/** The shortest configured secret taken out wherever it appears (shorter ones are too common). */
const minimumSecretLength = 8;

/**
 * A function that takes out of a text what looks like a credential (vendors' key formats, an
 * Authorization header's token, a private key) and each of `secrets` exactly (the keys a run was
 * configured with), writing `[redacted]` instead.
 *
 * @example
 * const redact = createRedactor([apiKey]);
 * redact("401: Incorrect API key provided: sk-abc...xyz"); // "401: Incorrect API key provided: [redacted]"
 */
export function createRedactor(secrets: readonly string[] = []): (text: string) => string {
  const exact = [...new Set(secrets.filter((secret) => secret.length >= minimumSecretLength))]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const known = exact.length === 0 ? undefined : new RegExp(exact.join("|"), "g");
  return (text) => {
    let out = text;
    if (known !== undefined) out = out.replace(known, redactedMark);
    credentialPattern.lastIndex = 0;
    if (!credentialPattern.test(out)) return out;
    return out.replace(credentialPattern, (_match, scheme: string | undefined) =>
      scheme === undefined ? redactedMark : `${scheme} ${redactedMark}`,
    );
  };
}

/** Takes out what looks like a credential (see {@link createRedactor}). */
export const redactCredentials: (text: string) => string = createRedactor();

/** An endpoint as messages name it: its scheme, host and path, never user, password or query. */
export function endpointShown(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return redactCredentials(endpoint);
  }
}
