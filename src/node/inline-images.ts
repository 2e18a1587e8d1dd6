import type { Content, ContentPart, ImageSource } from "../core/test-case.js";
import { classifyContext } from "../media/classify-context.js";
import type { CaseRecord } from "../runner/record.js";
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
 * A record whose local images (paths in its input, answer and contexts) are embedded as base64,
 * so a single-file report can show them. URLs stay links (the browser loads them); an image that
 * cannot be read stays a path, and the report names it instead of showing it.
 */
export async function inlineRecordImages(
  record: CaseRecord,
  options: InlineImagesOptions,
): Promise<CaseRecord> {
  const content = record.case;
  if (content === undefined) return record;
  const load = async (source: ImageSource): Promise<ImageSource> => {
    if (source.kind !== "path") return source;
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
      return source;
    }
  };
  const inContent = async (value: Content | undefined): Promise<Content | undefined> => {
    const parts: unknown = value;
    if (!Array.isArray(parts)) return value;
    return Promise.all(
      (parts as readonly (ContentPart | null)[]).map(async (part) =>
        part?.type === "image"
          ? ({ type: "image", source: await load(part.source) } satisfies ContentPart)
          : (part as ContentPart),
      ),
    );
  };
  const contexts =
    content.retrievedContexts === undefined
      ? undefined
      : await Promise.all(
          content.retrievedContexts.map(async (context) => {
            if (typeof context !== "string") return load(context);
            const classified = classifyContext(context);
            return classified.kind === "image" && classified.source.kind === "path"
              ? load(classified.source).then((source) =>
                  source.kind === "path" ? context : source,
                )
              : context;
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
