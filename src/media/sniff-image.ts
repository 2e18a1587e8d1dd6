/** The image formats toolscore accepts. */
export type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "image/bmp";

/** What the bytes are: an image of a known format and size, or why not. */
export type ImageSniff =
  | {
      readonly ok: true;
      readonly mediaType: ImageMediaType;
      readonly width: number;
      readonly height: number;
    }
  | { readonly ok: false; readonly reason: string };

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string): number[] =>
  Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));

/** Little- and big-endian integers read from image headers (0 past the end). */
export const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
export const u32le = (b: Uint8Array, at: number) => (u24le(b, at) | ((b[at + 3] ?? 0) << 24)) >>> 0;
export const u32be = (b: Uint8Array, at: number) => ((u16be(b, at) << 16) | u16be(b, at + 2)) >>> 0;
const i32le = (b: Uint8Array, at: number) => u32le(b, at) | 0;

const sized = (mediaType: ImageMediaType, width: number, height: number): ImageSniff =>
  width > 0 && height > 0
    ? { ok: true, mediaType, width, height }
    : { ok: false, reason: `a ${mediaType} header with no size (${width}×${height}): corrupt` };

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const iend = [0x00, 0x00, 0x00, 0x00, ...ascii("IEND"), 0xae, 0x42, 0x60, 0x82];

function sniffPng(b: Uint8Array): ImageSniff {
  if (b.length < 33 || !startsWith(b, ascii("IHDR"), 12))
    return { ok: false, reason: "a PNG without its header chunk: corrupt" };
  if (!startsWith(b, iend, b.length - iend.length))
    return { ok: false, reason: "a PNG that does not end with IEND: truncated or corrupt" };
  return sized("image/png", u32be(b, 16), u32be(b, 20));
}

function sniffJpeg(b: Uint8Array): ImageSniff {
  // Walk the markers to the frame header (SOFn), which holds the size.
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return { ok: false, reason: "a JPEG whose markers break off: corrupt" };
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = u16be(b, at + 2);
    const isFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      const height = u16be(b, at + 5);
      const width = u16be(b, at + 7);
      // The image data ends with EOI (FF D9); a file cut short has none after the frame.
      let end = -1;
      for (let i = b.length - 2; i > at; i--) {
        if (b[i] === 0xff && b[i + 1] === 0xd9) {
          end = i;
          break;
        }
      }
      if (end < 0) return { ok: false, reason: "a JPEG without its end marker: truncated" };
      return sized("image/jpeg", width, height);
    }
    if (length < 2) return { ok: false, reason: "a JPEG with an empty segment: corrupt" };
    at += 2 + length;
  }
  return { ok: false, reason: "a JPEG without a frame header: truncated or corrupt" };
}

function sniffGif(b: Uint8Array): ImageSniff {
  if (b.length < 14) return { ok: false, reason: "a GIF cut short: truncated" };
  if (b[b.length - 1] !== 0x3b)
    return { ok: false, reason: "a GIF that does not end with its trailer: truncated" };
  return sized("image/gif", u16le(b, 6), u16le(b, 8));
}

function sniffWebp(b: Uint8Array): ImageSniff {
  const declared = u32le(b, 4) + 8;
  if (b.length < declared || b.length < 30)
    return { ok: false, reason: "a WebP shorter than its RIFF header says: truncated" };
  if (startsWith(b, ascii("VP8X"), 12))
    return sized("image/webp", u24le(b, 24) + 1, u24le(b, 27) + 1);
  if (startsWith(b, ascii("VP8L"), 12)) {
    if (b[20] !== 0x2f)
      return { ok: false, reason: "a lossless WebP with a bad signature: corrupt" };
    const bits = u32le(b, 21);
    return sized("image/webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (startsWith(b, ascii("VP8 "), 12)) {
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23))
      return { ok: false, reason: "a lossy WebP with a bad frame tag: corrupt" };
    return sized("image/webp", u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  return { ok: false, reason: "a WebP of an unknown kind: corrupt" };
}

function sniffBmp(b: Uint8Array): ImageSniff {
  if (b.length < 26) return { ok: false, reason: "a BMP cut short: truncated" };
  const fileSize = u32le(b, 2);
  const dataOffset = u32le(b, 10);
  if (fileSize > b.length || dataOffset >= b.length)
    return { ok: false, reason: "a BMP shorter than its header says: truncated" };
  return sized("image/bmp", Math.abs(i32le(b, 18)), Math.abs(i32le(b, 22)));
}

/** The image format that `bytes` start with (their magic number), or undefined. */
export function imageTypeOf(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, png)) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("BM"))) return "image/bmp";
  return undefined;
}

/**
 * The image format that base64 data starts with, from its first 12 bytes only (the data is not
 * decoded whole); undefined when unknown or not base64.
 */
export function base64ImageType(base64: string): ImageMediaType | undefined {
  let head: string;
  try {
    head = atob(base64.slice(0, 16));
  } catch {
    return undefined;
  }
  return imageTypeOf(Uint8Array.from(head, (char) => char.charCodeAt(0)));
}

const sniffers: Readonly<Record<ImageMediaType, (bytes: Uint8Array) => ImageSniff>> = {
  "image/png": sniffPng,
  "image/jpeg": sniffJpeg,
  "image/gif": sniffGif,
  "image/webp": sniffWebp,
  "image/bmp": sniffBmp,
};

/**
 * Reads an image's format and size from its bytes (magic numbers and headers), never from a name
 * or a declared type. JPEG, PNG, GIF, WebP and BMP are accepted; anything else, or a file cut
 * short or with a broken header, is refused with the reason. Pure: no decoding, no I/O.
 */
export function sniffImage(bytes: Uint8Array): ImageSniff {
  const type = imageTypeOf(bytes);
  if (type !== undefined) return sniffers[type](bytes);
  const head = [...bytes.slice(0, 16)]
    .map((byte) => (byte >= 32 && byte < 127 ? String.fromCharCode(byte) : "."))
    .join("");
  return {
    ok: false,
    reason:
      bytes.length === 0
        ? "empty"
        : `not an image (JPEG, PNG, GIF, WebP or BMP); it starts with ${JSON.stringify(head)}`,
  };
}
