import type { Content, ContentPart, ImageSource } from "../core/test-case.js";
import { classifyContext } from "../media/classify-context.js";
import type { CaseRecord } from "../core/case-record.js";
import { loadImage } from "./load-image.js";

export interface InlineImagesOptions {
  /** Relative image paths are read from here, and no file outside it is read. */
  readonly baseDirectory: string;
  /**
   * Largest image embedded, in bytes; larger ones are scaled down, where the image codecs are
   * installed (an optional peer dependency). Default 1 MiB.
   */
  readonly maxBytes?: number;
  /** Told of each image that stays a path, and why (a `MediaLoadError`). */
  readonly onImageError?: (source: ImageSource, error: unknown) => void;
}

/**
 * A record whose images are embedded as base64 after toolscore loaded them itself, under the
 * loading policy (sizes from the header, pixels bounded, scaled down to `maxBytes`): local paths
 * and the data the case already held. A single-file report then shows them and fetches nothing.
 * URLs stay URLs, which the report shows as links. An image that cannot be loaded becomes a
 * text saying so (a path stays a path, which the report names), so no unchecked image is shown.
 */
export async function inlineRecordImages(
  record: CaseRecord,
  options: InlineImagesOptions,
): Promise<CaseRecord> {
  const content = record.case;
  if (content === undefined) return record;
  /** The image embedded, or why not (as text). */
  const load = async (source: ImageSource): Promise<ImageSource | string> => {
    if (source.kind === "url" && !source.url.startsWith("data:")) return source;
    try {
      const image = await loadImage(source, {
        baseDirectory: options.baseDirectory,
        allowedRoots: [options.baseDirectory],
        maxBytes: options.maxBytes ?? 1 << 20,
        downscale: true,
        // A report shows a thumbnail: what it reads and decodes stays small, whatever the data says.
        maxReadBytes: 16 << 20,
        maxPixels: 16_000_000,
      });
      return { kind: "base64", data: image.base64, mimeType: image.mediaType };
    } catch (error) {
      options.onImageError?.(source, error);
      if (source.kind === "path") return source;
      return `(image not shown: ${error instanceof Error ? error.message : String(error)})`;
    }
  };
  const inContent = async (value: Content | undefined): Promise<Content | undefined> => {
    const parts: unknown = value;
    if (!Array.isArray(parts)) return value;
    return Promise.all(
      (parts as readonly (ContentPart | null)[]).map(async (part): Promise<ContentPart> => {
        if (part?.type !== "image") return part as ContentPart;
        const loaded = await load(part.source);
        return typeof loaded === "string"
          ? { type: "text", text: loaded }
          : { type: "image", source: loaded };
      }),
    );
  };
  const contexts =
    content.retrievedContexts === undefined
      ? undefined
      : await Promise.all(
          content.retrievedContexts.map(async (context) => {
            if (typeof context !== "string") return load(context);
            const classified = classifyContext(context);
            if (classified.kind !== "image" || classified.source.kind === "url") return context;
            const loaded = await load(classified.source);
            return typeof loaded !== "string" && loaded.kind === "path" ? context : loaded;
          }),
        );
  const [input, actualOutput] = await Promise.all([
    inContent(content.input),
    inContent(content.actualOutput),
  ]);
  return {
    ...record,
    case: {
      ...content,
      ...(input === undefined ? {} : { input }),
      ...(actualOutput === undefined ? {} : { actualOutput }),
      ...(contexts === undefined ? {} : { retrievedContexts: contexts }),
    },
  };
}
