import type { ErrorCode, MediaLoadReason } from "./errors.js";

/** An image ready for a judge: its bytes as base64, and what they are. */
export interface ReadyImage {
  readonly mediaType: string;
  readonly base64: string;
  readonly width: number;
  readonly height: number;
}

/**
 * One retrieved context, prepared for a judge, with how its loading went: text as it is, an
 * image loaded (and checked), or an image that failed to load, never to be sent as text.
 */
export type PreparedContext =
  | { readonly index: number; readonly kind: "text"; readonly text: string }
  | {
      readonly index: number;
      readonly kind: "image";
      readonly origin: string;
      readonly status: "loaded";
      readonly image: ReadyImage;
    }
  | {
      readonly index: number;
      readonly kind: "image";
      readonly origin: string;
      readonly status: "failed";
      readonly error: {
        readonly code: ErrorCode;
        readonly reason: MediaLoadReason | "unknown";
        readonly message: string;
      };
    };
