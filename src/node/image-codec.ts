import { createRequire } from "node:module";
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

/** A BMP as PNG, which every provider accepts. */
export async function bmpToPng(bytes: Uint8Array): Promise<Uint8Array> {
  const image = await (await loadJimp()).read(Buffer.from(bytes));
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
