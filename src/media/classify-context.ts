import type { ImageSource } from "../core/test-case.js";

/** A retrieved context as ragas reads it: text, or an image and where it comes from. */
export type ClassifiedContext =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "image"; readonly source: ImageSource };

const imageExtension = /\.(jpe?g|png|gif|webp|bmp)$/i;

/**
 * Tells image contexts from text (docs/reference/semantics.md §3): a data URI of an image type, an
 * http(s) URL, or a local file path with an image extension (jpg, jpeg, png, gif, webp, bmp) is an
 * image; everything else is text. A path is one line ending in such an extension that either contains a
 * separator or has no spaces (so "see photo.jpg" stays text).
 */
export function classifyContext(value: string): ClassifiedContext {
  const trimmed = value.trim();
  if (/^data:/i.test(trimmed)) {
    const image = /^data:(image\/[a-z0-9.+-]+)(?:;[^,]*)?;base64,(.*)$/is.exec(trimmed);
    return image
      ? {
          kind: "image",
          source: { kind: "base64", data: image[2], mimeType: image[1].toLowerCase() },
        }
      : { kind: "text", text: value };
  }
  if (/^https?:\/\//i.test(trimmed) && !/\s/.test(trimmed))
    return { kind: "image", source: { kind: "url", url: trimmed } };
  const looksLikePath =
    !/[\r\n]/.test(trimmed) &&
    imageExtension.test(trimmed) &&
    (/[/\\]/.test(trimmed) || !/\s/.test(trimmed));
  if (looksLikePath) return { kind: "image", source: { kind: "path", path: trimmed } };
  return { kind: "text", text: value };
}
