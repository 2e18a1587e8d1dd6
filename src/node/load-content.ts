import type { Content, ContentPart } from "../core/test-case.js";
import { loadImage } from "./load-image.js";
import type { ImageLoadOptions } from "./load-image.js";

/**
 * Content with every image loaded safely and replaced by its checked bytes (base64, with the
 * media type read from them), ready for any judge. Text is unchanged. An image that cannot be
 * loaded rejects with its `MediaLoadError`: it is never passed on as a name or a link.
 */
export async function loadContentImages(
  content: Content,
  options: ImageLoadOptions = {},
): Promise<Content> {
  if (typeof content === "string") return content;
  return Promise.all(
    content.map(async (part): Promise<ContentPart> => {
      if (part.type === "text") return part;
      const image = await loadImage(part.source, options);
      return {
        type: "image",
        source: { kind: "base64", data: image.base64, mimeType: image.mediaType },
      };
    }),
  );
}
