import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MediaLoadError } from "../core/errors.js";
import type { ImageSource } from "../core/test-case.js";
import { makeImage } from "../../test/support/images.js";
import { inlineRecordImages } from "./inline-images.js";
import { loadImage } from "./load-image.js";
import type { ImageLoadOptions } from "./load-image.js";

/**
 * Issue 22, item 1: images that declare far more pixels than they hold are refused from their
 * header, and truncated ones are never decoded into an image, on every path that decodes.
 */

/**
 * A 60-byte BMP declaring width×height: run-length encoded (8 bits, one palette colour, an
 * end-of-bitmap mark), which a decoder expands to every declared pixel; or, with `rle` false,
 * uncompressed 24-bit with 6 bytes of pixels.
 */
function bmpBomb(width: number, height: number, rle = true): Buffer {
  const bytes = Buffer.alloc(60);
  bytes.write("BM", 0, "latin1");
  bytes.writeUInt32LE(bytes.length, 2);
  bytes.writeUInt32LE(rle ? 58 : 54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(rle ? 8 : 24, 28);
  if (rle) {
    bytes.writeUInt32LE(1, 30); // BI_RLE8
    bytes.writeUInt32LE(1, 46); // one palette colour, at 54
    bytes[59] = 1; // 00 01: end of bitmap
  }
  return bytes;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A grey PNG of width×height whose pixel data is `idat` (compressed rows, whole or cut). */
function png(width: number, height: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The compressed rows of a grey width×height image (filter byte 0 on each row). */
function greyRows(width: number, height: number): Buffer {
  const rows = Buffer.alloc(height * (width + 1), 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0;
  return deflateSync(rows);
}

const folder = mkdtempSync(path.join(tmpdir(), "toolscore-bombs-"));
function file(name: string, bytes: Buffer): ImageSource {
  writeFileSync(path.join(folder, name), bytes);
  return { kind: "path", path: name };
}

async function refusal(source: ImageSource, options: ImageLoadOptions = {}): Promise<string> {
  try {
    await loadImage(source, { baseDirectory: folder, ...options });
  } catch (error) {
    if (MediaLoadError.isInstance(error)) return `${error.reason}: ${error.message}`;
    throw error;
  }
  throw new Error("the image was accepted");
}

describe("image bombs", () => {
  const bomb = file("bomb.bmp", bmpBomb(16_000, 16_000));

  it("refuses a 60-byte BMP declaring 16000×16000 from its header", async () => {
    expect(await refusal(bomb)).toMatch(/^too-large: .*16000×16000 pixels: over the limit of 8000/);
    expect(await refusal(bomb, { downscale: true })).toMatch(
      /^too-large: .*declares 16000×16000 pixels, over the 40,000,000 that may be decoded/,
    );
  });

  it("refuses a 60-byte run-length BMP within the pixel limits before decoding (issue 34, item 7)", async () => {
    const within = file("within.bmp", bmpBomb(6_000, 6_000));
    expect(await refusal(within, { downscale: true })).toMatch(
      /^too-large: .*declares 6000×6000 pixels in 60 bytes, more than the 256 a byte that a run-length encoded BMP can hold: refused before decoding/,
    );
    // And in a report, which decodes thumbnails of at most 16 million pixels.
    const thumbnail = file("thumbnail.bmp", bmpBomb(3_000, 3_000));
    expect(await refusal(thumbnail, { downscale: true, maxPixels: 16_000_000 })).toMatch(
      /declares 3000×3000 pixels in 60 bytes, .*refused before decoding/,
    );
    // A small one is cheap to decode whatever its bytes: converted.
    const small = file("small.bmp", bmpBomb(800, 600));
    expect(await loadImage(small, { baseDirectory: folder })).toMatchObject({
      changed: "bmp-to-png",
      width: 800,
      height: 600,
    });
  });

  it("refuses a BMP within the pixel limit that holds fewer bytes than it declares", async () => {
    const short = file("short.bmp", bmpBomb(4_000, 4_000, false));
    expect(await refusal(short, { downscale: true })).toMatch(
      /^not-an-image: .*a BMP with 60 of the 48000054 bytes its header declares: truncated/,
    );
  });

  it("refuses a truncated 20000² PNG before decoding it, with downscale", async () => {
    const huge = file("huge.png", png(20_000, 20_000, greyRows(100, 100)));
    expect(await refusal(huge, { downscale: true })).toMatch(/declares 20000×20000 pixels/);
  });

  it("never returns an image from a truncated PNG", async () => {
    const rows = greyRows(600, 600);
    const cut = file("cut.png", png(600, 600, rows.subarray(0, rows.length >> 1)));
    // Over maxBytes, so that it would be decoded to be scaled down.
    expect(await refusal(cut, { downscale: true, maxBytes: 100 })).toMatch(
      /^not-an-image: .*a PNG whose pixel data breaks off .*: truncated/,
    );
    const whole = file("whole.png", png(600, 600, rows));
    const loaded = await loadImage(whole, {
      baseDirectory: folder,
      downscale: true,
      maxBytes: 100_000,
      maxSide: 300,
    });
    expect(loaded).toMatchObject({ changed: "downscaled", width: 300, height: 300 });
  });

  it("still converts a real BMP", async () => {
    const real = file("real.bmp", await makeImage("bmp", 5, 4));
    expect(await loadImage(real, { baseDirectory: folder })).toMatchObject({
      changed: "bmp-to-png",
      width: 5,
      height: 4,
    });
  });

  it("leaves a bomb in a report as a path, named", async () => {
    const errors: string[] = [];
    const record = await inlineRecordImages(
      {
        index: 0,
        id: "a",
        status: "passed",
        metrics: {},
        case: { input: [{ type: "image", source: bomb }] },
        durationMs: 0,
      },
      { baseDirectory: folder, onImageError: (_source, error) => errors.push(String(error)) },
    );
    expect(record.case?.input).toEqual([{ type: "image", source: bomb }]);
    expect(errors).toEqual([expect.stringMatching(/16000×16000 pixels/)]);
  });

  it("checks images the data embeds before a report shows them (issue 22, item 8)", async () => {
    const embedded = { kind: "base64", data: bmpBomb(16_000, 16_000).toString("base64") } as const;
    const record = await inlineRecordImages(
      {
        index: 0,
        id: "a",
        status: "passed",
        metrics: {},
        case: {
          input: [{ type: "image", source: embedded }],
          retrievedContexts: [embedded, `data:image/bmp;base64,${embedded.data}`],
        },
        durationMs: 0,
      },
      { baseDirectory: folder },
    );
    expect(record.case?.input).toEqual([
      { type: "text", text: expect.stringMatching(/^\(image not shown: .*16000×16000/) as unknown },
    ]);
    expect(record.case?.retrievedContexts).toEqual([
      expect.stringMatching(/^\(image not shown: /),
      expect.stringMatching(/^\(image not shown: /),
    ]);
  });
});
