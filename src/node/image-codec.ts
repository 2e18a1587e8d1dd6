import { createRequire } from "node:module";
import { createInflate } from "node:zlib";
import pLimit from "p-limit";
import { u16le, u32be, u32le } from "../media/sniff-image.js";
import { assertInstalled, loadOptional } from "../core/optional-dependency.js";
import type { OptionalDependency } from "../core/optional-dependency.js";

/**
 * Jimp's codecs and resizer, optional peer dependencies: only converting a BMP and scaling an
 * image down need them, and they load on first use.
 */
export const imageCodecs: OptionalDependency = {
  feature: "converting BMP images and scaling images down",
  packages: [
    "@jimp/core",
    "@jimp/js-bmp",
    "@jimp/js-gif",
    "@jimp/js-jpeg",
    "@jimp/js-png",
    "@jimp/plugin-resize",
  ],
};

// Packages are looked up from where toolscore is installed, as its own imports would be.
const fromHere = createRequire(import.meta.url);

/**
 * Throws a `MissingDependencyError` with the install command unless the image codecs are
 * installed: for a setting that will need them (`downscale`), so that it fails before any case.
 */
export function assertImageCodecsInstalled(): void {
  assertInstalled(imageCodecs, (id) => fromHere.resolve(id));
}

let jimp: Promise<JimpClass> | undefined;

type JimpImage = {
  readonly width: number;
  readonly height: number;
  clone(): JimpImage;
  resize(options: { w: number; h: number }): unknown;
  getBuffer(mime: "image/png" | "image/jpeg", options?: { quality: number }): Promise<Buffer>;
};
type JimpClass = { read(data: Buffer): Promise<JimpImage> };

/** A Jimp with just the codecs and the resizer toolscore needs (all pure JavaScript). */
function loadJimp(): Promise<JimpClass> {
  jimp ??= loadOptional(imageCodecs, () =>
    Promise.all([
      import("@jimp/core"),
      import("@jimp/js-bmp"),
      import("@jimp/js-gif"),
      import("@jimp/js-jpeg"),
      import("@jimp/js-png"),
      import("@jimp/plugin-resize"),
    ]),
  ).then(
    ([core, bmp, gif, jpeg, png, resize]) =>
      core.createJimp({
        formats: [bmp.default, gif.default, jpeg.default, png.default],
        plugins: [resize.methods],
      }) as unknown as JimpClass,
  );
  return jimp;
}

// One decoding at a time in the process: each may hold hundreds of megabytes of pixels.
const oneDecoding = pLimit(1);

/** A BMP as PNG, which every provider accepts. */
export async function bmpToPng(bytes: Uint8Array): Promise<Uint8Array> {
  return oneDecoding(async () => {
    const image = await (await loadJimp()).read(Buffer.from(bytes));
    return new Uint8Array(await image.getBuffer("image/png"));
  });
}

/** Bytes of filtered PNG data an image of this header holds, Adam7 passes included. */
function pngDataSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean) {
  const rows = (w: number, h: number) =>
    w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8));
  if (!interlaced) return rows(width, height);
  // Adam7: each pass's first column and row, and its steps.
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  let total = 0;
  for (const [x, y, dx, dy] of passes) {
    total += rows(Math.ceil((width - x) / dx), Math.ceil((height - y) / dy));
  }
  return total;
}

const channels: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Why a PNG's pixel data is not all there (its zlib stream ends early or holds too little). */
async function pngIncomplete(bytes: Uint8Array): Promise<string | undefined> {
  const idat: Uint8Array[] = [];
  let expected = -1;
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = u32be(bytes, at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length < length) return "a PNG chunk cut short: truncated";
    if (type === "IHDR") {
      const perChannel = data[8];
      const count = channels[data[9]] as number | undefined;
      if (count === undefined) return "a PNG of an unknown colour type: corrupt";
      expected = pngDataSize(u32be(data, 0), u32be(data, 4), perChannel * count, data[12] === 1);
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  if (expected < 0 || idat.length === 0) return "a PNG without pixel data: corrupt";
  // Inflated as a stream and counted, never held: the count says whether every row is there.
  const inflated = await new Promise<number | string>((resolve) => {
    let count = 0;
    const inflate = createInflate();
    inflate.on("data", (chunk: Buffer) => {
      count += chunk.length;
      if (count > expected) inflate.destroy();
    });
    inflate.on("close", () => {
      resolve(count);
    });
    inflate.on("error", (error) => {
      resolve(error.message);
    });
    for (const part of idat) inflate.write(part);
    inflate.end();
  });
  if (typeof inflated === "string")
    return `a PNG whose pixel data breaks off (${inflated}): truncated`;
  if (inflated < expected)
    return `a PNG with ${inflated} of its ${expected} bytes of pixel data: truncated`;
  return undefined;
}

/** Why an uncompressed BMP holds fewer pixel bytes than its header declares. */
function bmpIncomplete(bytes: Uint8Array, width: number, height: number): string | undefined {
  const offset = u32le(bytes, 10);
  const bitsPerPixel = u16le(bytes, 28);
  const compression = u32le(bytes, 30);
  // Run-length encoded data has no fixed size; the pixel limit still bounds its decoding.
  if (compression !== 0 && compression !== 3) return undefined;
  const needed = offset + Math.ceil((width * bitsPerPixel) / 32) * 4 * height;
  return bytes.length < needed
    ? `a BMP with ${bytes.length} of the ${needed} bytes its header declares: truncated`
    : undefined;
}

/**
 * The most pixels one byte can stand for, in the formats whose data is not checked row by row
 * before decoding: a run-length BMP (a run of 255 pixels in two bytes; its skips and early end
 * stand for any number, which is how a 60-byte BMP declares 36 million), GIF (LZW: a few thousand
 * at best), JPEG (an 8×8 block of one colour in a few bits). A decoder allocates and fills every
 * declared pixel, so this, with `maxPixels`, is what bounds the cost of decoding.
 */
export const maxPixelsPerByte = { bmp: 256, gif: 4096, jpeg: 1024 } as const;

/** Images this small are decoded whatever their size in bytes: it costs little. */
const smallImagePixels = 1_000_000;

/**
 * Why an image declares more pixels than its bytes can hold (see `maxPixelsPerByte`), decided
 * from its header and size before anything is decoded; undefined when it may.
 */
export function implausibleImage(
  bytes: Uint8Array,
  sniffed: { readonly mediaType: string; readonly width: number; readonly height: number },
): string | undefined {
  const pixels = sniffed.width * sniffed.height;
  if (pixels <= smallImagePixels) return undefined;
  let kind: keyof typeof maxPixelsPerByte;
  if (sniffed.mediaType === "image/gif") kind = "gif";
  else if (sniffed.mediaType === "image/jpeg") kind = "jpeg";
  else if (sniffed.mediaType === "image/bmp" && [1, 2].includes(u32le(bytes, 30))) kind = "bmp";
  else return undefined; // PNG and plain BMP: their data is counted (see incompleteImage)
  const most = maxPixelsPerByte[kind];
  if (pixels <= bytes.length * most) return undefined;
  return `declares ${sniffed.width}×${sniffed.height} pixels in ${bytes.length} bytes, more than the ${most} a byte that a ${kind === "bmp" ? "run-length encoded BMP" : kind.toUpperCase()} can hold: refused before decoding`;
}

/**
 * Why the image's pixel data is not all there, for the formats whose decoders would make up the
 * rest (PNG, BMP); JPEG and GIF are checked for their end markers when sniffed. Undefined when
 * it is complete.
 */
export async function incompleteImage(
  bytes: Uint8Array,
  sniffed: { readonly mediaType: string; readonly width: number; readonly height: number },
): Promise<string | undefined> {
  if (sniffed.mediaType === "image/png") return pngIncomplete(bytes);
  if (sniffed.mediaType === "image/bmp") return bmpIncomplete(bytes, sniffed.width, sniffed.height);
  return undefined;
}

/**
 * The image scaled down to fit `maxSide` pixels a side and, by lowering the size and then the
 * JPEG quality, `maxBytes`; re-encoded as JPEG. WebP cannot be decoded here (no pure decoder).
 */
export async function downscale(
  bytes: Uint8Array,
  target: { maxSide: number; maxBytes: number },
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  return oneDecoding(() => scaleDown(bytes, target));
}

async function scaleDown(
  bytes: Uint8Array,
  target: { maxSide: number; maxBytes: number },
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const image = await (await loadJimp()).read(Buffer.from(bytes));
  let scale = Math.min(1, target.maxSide / Math.max(image.width, image.height));
  for (let attempt = 0; attempt < 8; attempt++) {
    const width = Math.max(1, Math.floor(image.width * scale));
    const height = Math.max(1, Math.floor(image.height * scale));
    const copy = image.clone();
    copy.resize({ w: width, h: height });
    const encoded = new Uint8Array(
      await copy.getBuffer("image/jpeg", { quality: attempt < 4 ? 85 : 60 }),
    );
    if (encoded.length <= target.maxBytes) return { bytes: encoded, width, height };
    // Shrink by the square root of the overshoot (bytes go with area), with a margin.
    scale *= Math.min(0.9, Math.sqrt(target.maxBytes / encoded.length) * 0.95);
  }
  throw new Error(`could not bring the image under ${target.maxBytes} bytes`);
}
