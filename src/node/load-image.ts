import { lookup as dnsLookup } from "node:dns/promises";
import { realpath } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { createHash } from "node:crypto";
import path from "node:path";
import { InvalidOptionError, MediaLoadError } from "../core/errors.js";
import type { MediaLoadReason } from "../core/errors.js";
import type { ImageSource } from "../core/test-case.js";
import { checkAddress, invalidCidr } from "../media/address-policy.js";
import { defaultMaxDecodePixels, imageLimitsFor } from "../media/limits.js";
import { sniffImage } from "../media/sniff-image.js";
import type { ImageMediaType } from "../media/sniff-image.js";
import { checkImageUrl } from "../media/url-policy.js";
import { bmpToPng, downscale, implausibleImage, incompleteImage } from "./image-codec.js";
import { NotARegularFileError, openRegularFile } from "./regular-file.js";

export interface ImageLoadOptions {
  /** Largest image in bytes (before and after any conversion). Default 20 MiB. */
  maxBytes?: number;
  /** Longest side in pixels. Default 8,000. */
  maxSide?: number;
  /** The provider the image is for: its own per-image limits apply too (Anthropic: 5 MB). */
  provider?: string;
  /** Scale an image over the limits down (to JPEG) instead of refusing it. Default false. */
  downscale?: boolean;
  /**
   * Most pixels an image may declare to be decoded (a BMP converted, an image scaled down);
   * larger ones are refused from their header, before any decoding. Default 40,000,000.
   */
  maxPixels?: number;
  /**
   * Most bytes read from a source, before any scaling. Default: `maxBytes`, or 50 MiB with
   * `downscale` (a larger image can then still be brought under the limit).
   */
  maxReadBytes?: number;
  /** Folders local files must lie under, symlinks resolved. Default: `baseDirectory`. */
  allowedRoots?: readonly string[];
  /** Where relative paths start. Default: the current directory. */
  baseDirectory?: string;
  /**
   * Addresses (CIDR) that may be fetched although they are loopback, private, link-local or
   * otherwise internal: an explicit opt-in, such as `["127.0.0.1/32"]` for a local test server.
   */
  allowAddresses?: readonly string[];
  /** The deadline for the whole load, redirects included, in ms. Default 15,000. */
  timeoutMs?: number;
  /** Redirects followed at most, each checked like the first URL. Default 3. */
  maxRedirects?: number;
  /** How host names become addresses. Default: the system resolver (every address). */
  resolve?: (hostname: string) => Promise<readonly string[]>;
  signal?: AbortSignal;
}

/** An image read, checked and ready for a provider. */
export interface LoadedImage {
  readonly mediaType: ImageMediaType;
  readonly base64: string;
  /** Size in bytes of what is sent. */
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
  /** Where it came from, for reports (a data URI shortened). */
  readonly origin: string;
  /** Set when the image was changed to be accepted: `bmp-to-png` or `downscaled`. */
  readonly changed?: "bmp-to-png" | "downscaled";
}

/** The image source as a short text for messages. */
export function describeSource(source: ImageSource): string {
  if (source.kind === "url") {
    return source.url.startsWith("data:") ? `${source.url.slice(0, 40)}…` : source.url;
  }
  if (source.kind === "path") return source.path;
  return `base64 data (${source.data.length} characters)`;
}

function fail(source: string, reason: MediaLoadReason, message: string): never {
  throw new MediaLoadError({ source, reason, message: `${source}: ${message}` });
}

interface Resolved {
  readonly maxBytes: number;
  readonly maxReadBytes: number;
  readonly maxSide: number;
  readonly maxPixels: number;
  readonly allow: readonly string[];
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly roots: readonly string[];
  readonly base: string;
  readonly resolve: (hostname: string) => Promise<readonly string[]>;
}

async function systemResolve(hostname: string): Promise<readonly string[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

function resolveOptions(options: ImageLoadOptions): Resolved {
  const limits = imageLimitsFor(options.provider, {
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.maxSide === undefined ? {} : { maxSide: options.maxSide }),
  });
  const allow = options.allowAddresses ?? [];
  const bad = invalidCidr(allow);
  if (bad !== undefined) {
    throw new InvalidOptionError({
      option: "allowAddresses",
      value: bad,
      message: `allowAddresses: ${JSON.stringify(bad)} is not an address or CIDR`,
    });
  }
  const base = path.resolve(options.baseDirectory ?? ".");
  return {
    ...limits,
    maxReadBytes:
      options.maxReadBytes ??
      (options.downscale === true ? Math.max(limits.maxBytes, 50 * 1024 * 1024) : limits.maxBytes),
    maxPixels: options.maxPixels ?? defaultMaxDecodePixels,
    allow,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxRedirects: options.maxRedirects ?? 3,
    roots: (options.allowedRoots ?? [base]).map((root) => path.resolve(base, root)),
    base,
    resolve: options.resolve ?? systemResolve,
  };
}

/** The addresses a host resolves to, every one checked; the first is the one connected to. */
async function checkedAddress(host: string, origin: string, settings: Resolved): Promise<string> {
  let addresses: readonly string[];
  try {
    addresses = await settings.resolve(host);
  } catch (error) {
    return fail(
      origin,
      "network",
      `cannot resolve ${host} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (addresses.length === 0) return fail(origin, "network", `${host} resolves to no address`);
  for (const address of addresses) {
    const verdict = checkAddress(address, settings.allow);
    if (!verdict.allowed) {
      return fail(
        origin,
        "refused-address",
        `${host} resolves to ${verdict.address}, in the ${verdict.range} range; only public addresses are fetched unless allowed (allowAddresses)`,
      );
    }
  }
  return addresses[0];
}

interface Fetched {
  readonly status: number;
  readonly location?: string;
  readonly body: Uint8Array;
}

/** One GET, connecting to `address` (already checked: no second lookup), reading at most `max` bytes. */
function get(
  url: URL,
  address: string,
  max: number,
  signal: AbortSignal,
  origin: string,
): Promise<Fetched> {
  return new Promise<Fetched>((resolve, reject) => {
    const family = isIP(address);
    // The connection goes to the address that was checked, whatever the host name resolves to now.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all === true) {
        (callback as (error: null, addresses: { address: string; family: number }[]) => void)(
          null,
          [{ address, family }],
        );
      } else {
        callback(null, address, family);
      }
    };
    const library = url.protocol === "https:" ? https : http;
    const request = library.request(
      url,
      {
        method: "GET",
        headers: { accept: "image/*", "user-agent": "toolscore-image-loader" },
        lookup: pinned,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          const location = response.headers.location;
          resolve({
            status,
            ...(location === undefined ? {} : { location }),
            body: new Uint8Array(),
          });
          return;
        }
        const declared = Number(response.headers["content-length"]);
        if (Number.isFinite(declared) && declared > max) {
          response.destroy();
          reject(
            new MediaLoadError({
              source: origin,
              reason: "too-large",
              message: `${origin}: the server announces ${declared} bytes, over the ${max}-byte limit`,
            }),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) {
            response.destroy();
            reject(
              new MediaLoadError({
                source: origin,
                reason: "too-large",
                message: `${origin}: more than ${max} bytes; stopped reading`,
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          resolve({ status, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

async function fetchUrl(raw: string, settings: Resolved, signal: AbortSignal): Promise<Uint8Array> {
  let current = raw;
  for (let redirects = 0; ; redirects++) {
    const check = checkImageUrl(current, settings.allow);
    if (!check.ok) {
      return fail(
        raw,
        check.refused === "address" ? "refused-address" : "refused-url",
        redirects === 0 ? check.reason : `redirected to ${current}: ${check.reason}`,
      );
    }
    const address = check.address ?? (await checkedAddress(check.host, raw, settings));
    let response: Fetched;
    try {
      response = await get(check.url, address, settings.maxReadBytes, signal, raw);
    } catch (error) {
      if (MediaLoadError.isInstance(error)) throw error;
      if (signal.aborted)
        return fail(raw, "timed-out", `not loaded within ${settings.timeoutMs} ms`);
      return fail(
        raw,
        "network",
        `cannot be fetched (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (response.location !== undefined) {
      if (redirects >= settings.maxRedirects) {
        return fail(raw, "too-many-redirects", `more than ${settings.maxRedirects} redirects`);
      }
      current = new URL(response.location, check.url).toString();
      continue;
    }
    if (response.status !== 200)
      return fail(raw, "http-status", `the server answered ${response.status}`);
    return response.body;
  }
}

/** Whether `target` lies inside `root` (both already real paths). */
function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

async function readLocal(file: string, settings: Resolved): Promise<Uint8Array> {
  const full = path.resolve(settings.base, file);
  const refused = (where: string, roots: readonly string[]) =>
    fail(
      file,
      "refused-path",
      `resolves to ${where}, outside the allowed folders (${roots.join(", ")}); add its folder to allowedRoots to read it`,
    );
  const roots = await Promise.all(settings.roots.map((root) => realpath(root).catch(() => root)));
  // Outside as written: refused without touching the file (no probing what exists out there).
  if (![...settings.roots, ...roots].some((root) => isInside(root, full))) {
    return refused(full, settings.roots);
  }
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    return fail(file, "not-found", `no such file (${full})`);
  }
  // Outside once symlinks are followed: refused too.
  if (!roots.some((root) => isInside(root, real))) return refused(real, roots);
  let opened: Awaited<ReturnType<typeof openRegularFile>>;
  try {
    opened = await openRegularFile(real);
  } catch (error) {
    if (error instanceof NotARegularFileError) return fail(file, "not-found", error.message);
    throw error;
  }
  try {
    if (opened.size > settings.maxReadBytes)
      return fail(
        file,
        "too-large",
        `${opened.size} bytes, over the ${settings.maxReadBytes}-byte limit`,
      );
    return new Uint8Array(await opened.handle.readFile());
  } finally {
    await opened.handle.close();
  }
}

function decodeBase64(data: string, origin: string, settings: Resolved): Uint8Array {
  const compact = data.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) && !/^[A-Za-z0-9_-]*={0,2}$/.test(compact)) {
    return fail(origin, "not-an-image", "is not valid base64");
  }
  if (Math.floor((compact.length * 3) / 4) > settings.maxReadBytes + 3) {
    return fail(
      origin,
      "too-large",
      `about ${Math.floor((compact.length * 3) / 4)} bytes, over the ${settings.maxReadBytes}-byte limit`,
    );
  }
  return new Uint8Array(
    Buffer.from(compact, compact.includes("-") || compact.includes("_") ? "base64url" : "base64"),
  );
}

/**
 * Loads an image safely and makes it ready for a judge: from a URL (http/https only, public
 * addresses only unless allowed, the connection pinned to the checked address, every redirect
 * checked, a deadline and a streaming size cap), a local file (only under allowed folders, after
 * symlinks), or base64 data. The format is read from the bytes; BMP becomes PNG; an image over
 * the limits (the provider's own included) is refused, or scaled down with `downscale`.
 * Failures are `MediaLoadError`s with the reason.
 */
export async function loadImage(
  source: ImageSource,
  options: ImageLoadOptions = {},
): Promise<LoadedImage> {
  const settings = resolveOptions(options);
  const origin = describeSource(source);
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let bytes: Uint8Array;
  if (source.kind === "path") {
    bytes = await readLocal(source.path, settings);
  } else if (source.kind === "base64") {
    bytes = decodeBase64(source.data, origin, settings);
  } else {
    const data = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/is.exec(source.url);
    if (data) bytes = decodeBase64(data[2], origin, settings);
    else if (/^data:/i.test(source.url))
      return fail(origin, "not-an-image", "a data URI must be base64-encoded image data");
    else bytes = await fetchUrl(source.url, settings, signal);
  }
  if (options.signal?.aborted === true) throw options.signal.reason;
  const outcome = await checkedOnce(bytes, settings, options);
  if ("refused" in outcome) return fail(origin, outcome.refused.reason, outcome.refused.message);
  return { ...outcome.image, origin };
}

/** An image checked and made acceptable, or why it is refused (whatever its origin). */
type Checked =
  | { readonly image: Omit<LoadedImage, "origin"> }
  | { readonly refused: { readonly reason: MediaLoadReason; readonly message: string } };

/**
 * Images checked (and converted or scaled down) in this process, by their bytes' hash and the
 * settings that decide the outcome: an image that 60 cases name is decoded once. Bounded by the
 * bytes it holds, the oldest dropped first.
 */
const checkedImages = new Map<
  string,
  { readonly outcome: Promise<Checked>; readonly size: number }
>();
let checkedBytes = 0;
const maxCheckedBytes = 64 * 1024 * 1024;

function checkedOnce(
  bytes: Uint8Array,
  settings: Resolved,
  options: ImageLoadOptions,
): Promise<Checked> {
  const key = [
    createHash("sha256").update(bytes).digest("hex"),
    settings.maxBytes,
    settings.maxSide,
    settings.maxPixels,
    options.downscale === true,
    options.provider ?? "",
  ].join(":");
  const known = checkedImages.get(key);
  if (known !== undefined) {
    // Used again: kept as the newest.
    checkedImages.delete(key);
    checkedImages.set(key, known);
    return known.outcome;
  }
  const outcome = checkImage(bytes, settings, options);
  const entry = { outcome, size: bytes.length };
  checkedImages.set(key, entry);
  checkedBytes += entry.size;
  const forget = () => {
    if (checkedImages.get(key) !== entry) return;
    checkedImages.delete(key);
    checkedBytes -= entry.size;
  };
  outcome.then(
    (checked) => {
      // What is kept is the result: its own size, once known.
      if ("image" in checked && checkedImages.get(key) === entry) {
        forget();
        const kept = { outcome, size: checked.image.base64.length };
        checkedImages.set(key, kept);
        checkedBytes += kept.size;
      }
      for (const [old, { size }] of checkedImages) {
        if (checkedBytes <= maxCheckedBytes) break;
        checkedImages.delete(old);
        checkedBytes -= size;
      }
    },
    // A failure that is not the image's (a codec missing): asked again next time.
    forget,
  );
  return outcome;
}

/** Refuses an image, for `checkImage`. */
function refuse(reason: MediaLoadReason, message: string): Checked {
  return { refused: { reason, message } };
}

/**
 * Checks an image's bytes against the settings, from its header before anything is decoded,
 * then converts a BMP and scales a large image down when asked. Never throws for the image.
 */
async function checkImage(
  given: Uint8Array,
  settings: Resolved,
  options: ImageLoadOptions,
): Promise<Checked> {
  let bytes = given;
  const sniff = sniffImage(bytes);
  if (!sniff.ok) return refuse("not-an-image", sniff.reason);
  let mediaType = sniff.mediaType;
  let { width, height } = sniff;
  let changed: LoadedImage["changed"];
  const overSide = Math.max(width, height) > settings.maxSide;
  // Refused from the header, before anything is decoded: a few bytes can declare gigapixels.
  if (overSide && options.downscale !== true) {
    return refuse(
      "too-large",
      `${width}×${height} pixels: over the limit of ${settings.maxSide} pixels a side${options.provider ? ` (${options.provider}'s included)` : ""}; shrink it, or pass downscale: true`,
    );
  }
  const decodes = mediaType === "image/bmp" || overSide || bytes.length > settings.maxBytes;
  if (decodes && width * height > settings.maxPixels) {
    return refuse(
      "too-large",
      `declares ${width}×${height} pixels, over the ${settings.maxPixels.toLocaleString("en-US")} that may be decoded (maxPixels); shrink it first`,
    );
  }
  if (decodes) {
    const implausible = implausibleImage(bytes, sniff);
    if (implausible !== undefined) return refuse("too-large", implausible);
    const missing = await incompleteImage(bytes, sniff);
    if (missing !== undefined) return refuse("not-an-image", missing);
  }
  if (mediaType === "image/bmp") {
    try {
      bytes = await bmpToPng(bytes);
    } catch (error) {
      return refuse(
        "conversion",
        `is a BMP that could not be converted (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    mediaType = "image/png";
    changed = "bmp-to-png";
  }
  const tooBig = bytes.length > settings.maxBytes || Math.max(width, height) > settings.maxSide;
  if (tooBig) {
    if (options.downscale !== true) {
      return refuse(
        "too-large",
        `${bytes.length} bytes, ${width}×${height} pixels: over the limit of ${settings.maxBytes} bytes and ${settings.maxSide} pixels a side${options.provider ? ` (${options.provider}'s included)` : ""}; shrink it, or pass downscale: true`,
      );
    }
    if (mediaType === "image/webp") {
      return refuse(
        "too-large",
        "is a WebP over the limits, and WebP cannot be scaled down here; shrink it first",
      );
    }
    try {
      const smaller = await downscale(bytes, settings);
      bytes = smaller.bytes;
      width = smaller.width;
      height = smaller.height;
    } catch (error) {
      return refuse(
        "conversion",
        `could not be scaled down (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    mediaType = "image/jpeg";
    changed = "downscaled";
  }
  return {
    image: {
      mediaType,
      base64: Buffer.from(bytes).toString("base64"),
      bytes: bytes.length,
      width,
      height,
      ...(changed === undefined ? {} : { changed }),
    },
  };
}
