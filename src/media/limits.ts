/** What a provider accepts per image. */
export interface ImageLimits {
  /** Largest file, in bytes. */
  readonly maxBytes: number;
  /** Longest side, in pixels. */
  readonly maxSide: number;
}

/**
 * Most pixels an image may declare for toolscore to decode it (to convert a BMP or scale an image
 * down): decoding costs about 10 bytes a pixel at its peak, so this bounds the memory of one
 * decoding (some 400 MB). Larger images are refused from their header, before any decoding.
 */
export const defaultMaxDecodePixels = 40_000_000;

/** toolscore's own default: 20 MiB and 8,000 pixels a side. */
export const defaultImageLimits: ImageLimits = { maxBytes: 20 * 1024 * 1024, maxSide: 8_000 };

/**
 * Each provider's per-image limit, as documented: OpenAI 20 MB, Anthropic 5 MB and 8,000 pixels a
 * side. Unknown providers get toolscore's default.
 */
export const providerImageLimits: Readonly<Record<string, ImageLimits>> = {
  openai: { maxBytes: 20 * 1024 * 1024, maxSide: 8_000 },
  azure: { maxBytes: 20 * 1024 * 1024, maxSide: 8_000 },
  anthropic: { maxBytes: 5 * 1024 * 1024, maxSide: 8_000 },
};

/** The stricter of toolscore's limits (or the caller's) and the provider's. */
export function imageLimitsFor(
  provider: string | undefined,
  own: Partial<ImageLimits> = {},
): ImageLimits {
  const base = { ...defaultImageLimits, ...own };
  const theirs = provider === undefined ? undefined : providerImageLimits[provider];
  if (theirs === undefined) return base;
  return {
    maxBytes: Math.min(base.maxBytes, theirs.maxBytes),
    maxSide: Math.min(base.maxSide, theirs.maxSide),
  };
}
