import pLimit from "p-limit";
import { ErrorCode, MediaLoadError } from "../core/errors.js";
import type { PreparedContext } from "../core/context.js";
import type { ImageSource } from "../core/test-case.js";
import { classifyContext } from "../media/classify-context.js";
import { describeSource, loadImage } from "./load-image.js";
import type { ImageLoadOptions } from "./load-image.js";

export interface PrepareContextsOptions extends ImageLoadOptions {
  /** Images loaded at once. Default 4. */
  concurrency?: number;
}

/**
 * Prepares retrieved contexts for a judge: each string is classified as text or an image
 * (docs/reference/semantics.md §3), and images are loaded safely (`loadImage`). Every context keeps
 * its place and its load status; an image that failed is marked failed, never turned into text.
 */
export async function prepareContexts(
  contexts: readonly (string | ImageSource)[],
  options: PrepareContextsOptions = {},
): Promise<PreparedContext[]> {
  const limit = pLimit(options.concurrency ?? 4);
  return Promise.all(
    contexts.map((context, index) =>
      limit(async (): Promise<PreparedContext> => {
        const classified =
          typeof context === "string"
            ? classifyContext(context)
            : { kind: "image" as const, source: context };
        if (classified.kind === "text") return { index, kind: "text", text: classified.text };
        const origin = describeSource(classified.source);
        try {
          const image = await loadImage(classified.source, options);
          return {
            index,
            kind: "image",
            origin,
            status: "loaded",
            image: {
              mediaType: image.mediaType,
              base64: image.base64,
              width: image.width,
              height: image.height,
            },
          };
        } catch (error) {
          if (options.signal?.aborted === true) throw error;
          return {
            index,
            kind: "image",
            origin,
            status: "failed",
            error: MediaLoadError.isInstance(error)
              ? { code: error.code, reason: error.reason, message: error.message }
              : {
                  code: ErrorCode.MEDIA_LOAD,
                  reason: "unknown",
                  message: error instanceof Error ? error.message : String(error),
                },
          };
        }
      }),
    ),
  );
}
