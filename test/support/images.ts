/**
 * Images made by the tests themselves, in every format toolscore accepts, plus broken ones.
 */
import { createJimp } from "@jimp/core";
import bmp from "@jimp/js-bmp";
import gif from "@jimp/js-gif";
import jpeg from "@jimp/js-jpeg";
import png from "@jimp/js-png";

const Jimp = createJimp({ formats: [bmp, gif, jpeg, png] });

export type Format = "png" | "jpeg" | "gif" | "bmp" | "webp";

/** A 1×1 lossless WebP (no pure encoder is at hand, so its bytes are written out). */
const webp1x1 = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");

/** An image of the given format and size, filled with one colour. */
export async function makeImage(
  format: Format,
  width = 4,
  height = 3,
  color = 0x3366ccff,
): Promise<Buffer> {
  if (format === "webp") {
    if (width !== 1 || height !== 1) throw new Error("only a 1×1 WebP is available");
    return webp1x1;
  }
  const image = new Jimp({ width, height, color });
  const mime = { png: "image/png", jpeg: "image/jpeg", gif: "image/gif", bmp: "image/bmp" }[
    format
  ] as "image/png" | "image/jpeg" | "image/gif" | "image/bmp";
  return Buffer.from(await image.getBuffer(mime));
}

/** Noise, so that JPEG cannot compress it away (for size limits). */
export async function makeNoise(width: number, height: number): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0x000000ff });
  let state = 7;
  for (let i = 0; i < image.bitmap.data.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    image.bitmap.data[i] = i % 4 === 3 ? 255 : state & 0xff;
  }
  return Buffer.from(await image.getBuffer("image/png"));
}
