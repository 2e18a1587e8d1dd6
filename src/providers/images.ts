import { InvalidInputError } from "../core/errors.js";
import type { ImageSource } from "../core/test-case.js";
import { base64ImageType } from "../media/sniff-image.js";

/** An image as a provider takes it: a URL, or base64 data with its media type. */
export type ProviderImage =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "base64"; readonly data: string; readonly mediaType: string };

/**
 * An image source as a provider can send it. Data URIs become base64; local paths are refused:
 * files are read at the edge (`toolscore/node`), never by a provider.
 */
export function toProviderImage(source: ImageSource, field: string): ProviderImage {
  if (source.kind === "path") {
    throw new InvalidInputError({
      field,
      message: `${field} is a local file (${source.path}); judges send URLs or base64 data, so load the file first`,
    });
  }
  if (source.kind === "url") {
    const data = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/is.exec(source.url);
    if (data) return { kind: "base64", mediaType: data[1], data: data[2] };
    return { kind: "url", url: source.url };
  }
  const mediaType = source.mimeType ?? base64ImageType(source.data);
  if (mediaType === undefined) {
    throw new InvalidInputError({
      field,
      message: `${field} is base64 data of an unknown image type; give its mimeType`,
    });
  }
  return { kind: "base64", data: source.data, mediaType };
}
