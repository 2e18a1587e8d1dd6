import { createJimp } from "@jimp/core";
import bmp from "@jimp/js-bmp";
import gif from "@jimp/js-gif";
import jpeg from "@jimp/js-jpeg";
import png from "@jimp/js-png";
import { methods as resize } from "@jimp/plugin-resize";

// A Jimp with just the codecs and the resizer toolscore needs (all pure JavaScript).
const Jimp = createJimp({ formats: [bmp, gif, jpeg, png], plugins: [resize] });

/** A BMP as PNG, which every provider accepts. */
export async function bmpToPng(bytes: Uint8Array): Promise<Uint8Array> {
  const image = await Jimp.read(Buffer.from(bytes));
  return new Uint8Array(await image.getBuffer("image/png"));
}

/**
 * The image scaled down to fit `maxSide` pixels a side and, by lowering the size and then the
 * JPEG quality, `maxBytes`; re-encoded as JPEG. WebP cannot be decoded here (no pure decoder).
 */
export async function downscale(
  bytes: Uint8Array,
  target: { maxSide: number; maxBytes: number },
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const image = await Jimp.read(Buffer.from(bytes));
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
