import { checkAddress } from "./address-policy.js";

/** A URL that may be fetched, or why not. */
export type UrlCheck =
  | {
      readonly ok: true;
      readonly url: URL;
      /** The host without IPv6 brackets. */
      readonly host: string;
      /** Set when the host is an IP address (already checked). */
      readonly address?: string;
    }
  | {
      readonly ok: false;
      /** `address` when the URL names a refused address, `url` for everything else. */
      readonly refused: "url" | "address";
      readonly reason: string;
    };

/**
 * Checks an image URL before any connection: http or https only, no userinfo (`user@host`), no
 * backslash in the authority, and a host that is not a refused address. Numeric spellings of an
 * address (`http://2130706433/`, `http://0x7f.1/`, `http://[::ffff:127.0.0.1]/`) are parsed into
 * their address by the WHATWG URL parser and refused as such. A host name is checked later, on
 * each address it resolves to.
 */
export function checkImageUrl(raw: string, allow: readonly string[] = []): UrlCheck {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https") {
    return {
      ok: false,
      refused: "url",
      reason: `only http and https URLs are fetched, not ${scheme ? `${scheme}:` : "this"}`,
    };
  }
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]*([^/?#]*)/i.exec(raw)?.[1] ?? "";
  if (authority.includes("\\") || /^[a-z][a-z0-9+.-]*:(?:\/\\|\\)/i.test(raw)) {
    return {
      ok: false,
      refused: "url",
      reason:
        "a backslash in the URL's authority is refused (it is read differently by different parsers)",
    };
  }
  if (authority.includes("@"))
    return { ok: false, refused: "url", reason: "URLs with a user name or password are refused" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, refused: "url", reason: "not a valid URL" };
  }
  if (url.username !== "" || url.password !== "")
    return { ok: false, refused: "url", reason: "URLs with a user name or password are refused" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "") return { ok: false, refused: "url", reason: "the URL has no host" };
  const isAddress = /^[0-9.]+$/.test(host) || host.includes(":");
  if (!isAddress) return { ok: true, url, host };
  const verdict = checkAddress(host, allow);
  if (!verdict.allowed) {
    return {
      ok: false,
      refused: "address",
      reason: `${verdict.address} is in the ${verdict.range} range; only public addresses are fetched unless allowed`,
    };
  }
  return { ok: true, url, host, address: verdict.address };
}
