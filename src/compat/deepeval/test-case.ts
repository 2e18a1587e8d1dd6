import type { ImagePart } from "../../core/test-case.js";

/** deepeval's `ToolCallParams`: the fields compared besides the name. */
export const ToolCallParams = {
  INPUT_PARAMETERS: "inputParameters",
  OUTPUT: "output",
} as const;
export type ToolCallParams = (typeof ToolCallParams)[keyof typeof ToolCallParams];

/** deepeval's `ToolCallType`. */
export const ToolCallType = {
  FUNCTION: "FUNCTION",
  MCP: "MCP",
} as const;
export type ToolCallType = (typeof ToolCallType)[keyof typeof ToolCallType];

/** The shape of a tool call: a `ToolCall` instance or a plain object with these fields. */
export interface ToolCallInit {
  name: string;
  description?: string;
  type?: ToolCallType;
  reasoning?: string;
  output?: unknown;
  inputParameters?: Record<string, unknown> | null;
}

/**
 * A tool call, as deepeval's TypeScript package shapes it. A plain object with the same fields
 * works wherever an instance does.
 */
export class ToolCall implements ToolCallInit {
  name: string;
  description?: string;
  type?: ToolCallType;
  reasoning?: string;
  output?: unknown;
  inputParameters?: Record<string, unknown> | null;

  constructor(params: ToolCallInit) {
    this.name = params.name;
    if (params.description !== undefined) this.description = params.description;
    if (params.type !== undefined) this.type = params.type;
    if (params.reasoning !== undefined) this.reasoning = params.reasoning;
    if (params.output !== undefined) this.output = params.output;
    if (params.inputParameters !== undefined) this.inputParameters = params.inputParameters;
  }
}

/** The shape of a test case: an `LLMTestCase` instance or a plain object with these fields. */
export interface LLMTestCaseInit {
  input: string;
  actualOutput?: string;
  expectedOutput?: string;
  context?: string[];
  retrievalContext?: string[];
  toolsCalled?: ToolCallInit[];
  expectedTools?: ToolCallInit[];
  additionalMetadata?: Record<string, unknown>;
  comments?: string;
  name?: string;
}

/** A single-turn test case, as deepeval's TypeScript package shapes it. */
export class LLMTestCase implements LLMTestCaseInit {
  input: string;
  actualOutput?: string;
  expectedOutput?: string;
  context?: string[];
  retrievalContext?: string[];
  toolsCalled?: ToolCallInit[];
  expectedTools?: ToolCallInit[];
  additionalMetadata?: Record<string, unknown>;
  comments?: string;
  name?: string;

  constructor(params: LLMTestCaseInit) {
    this.input = params.input;
    Object.assign(this, params);
  }
}

export interface MLLMImageInit {
  /** An http(s) URL, a `data:` URI, or a local file path. */
  url?: string;
  /** The image itself, base64-encoded, instead of a URL. */
  dataBase64?: string;
  /** toolscore: the image's bytes, instead of a URL (kept as base64). */
  bytes?: Uint8Array;
  mimeType?: string;
  /** Whether `url` is a local path; detected from the URL when not given. */
  local?: boolean;
  filename?: string;
}

/**
 * An image inside a multimodal test case, as deepeval's TypeScript package shapes it. It only
 * records where the image is; nothing is read or fetched when it is created.
 */
export class MLLMImage {
  url?: string;
  dataBase64?: string;
  mimeType?: string;
  local: boolean;
  filename?: string;

  constructor(params: MLLMImageInit = {}) {
    if (params.url === undefined && params.dataBase64 === undefined && params.bytes === undefined) {
      throw new TypeError(
        "MLLMImage needs a url (http(s), data: URI or local path), dataBase64 or bytes",
      );
    }
    const { bytes, ...rest } = params;
    Object.assign(this, rest);
    if (bytes !== undefined) this.dataBase64 ??= Buffer.from(bytes).toString("base64");
    this.local =
      params.local ?? (params.url !== undefined && !/^(https?:|data:)/i.test(params.url));
  }

  /** The image as toolscore's content part. */
  toImagePart(): ImagePart {
    if (this.dataBase64 !== undefined) {
      return {
        type: "image",
        source: {
          kind: "base64",
          data: this.dataBase64,
          ...(this.mimeType ? { mimeType: this.mimeType } : {}),
        },
      };
    }
    const url = this.url as string;
    return {
      type: "image",
      source: this.local ? { kind: "path", path: url } : { kind: "url", url },
    };
  }
}

/** Text and images, in order; a plain string is one text part. */
export type MultimodalContent = string | (string | MLLMImage)[];

/** The shape of a multimodal test case: an `MLLMTestCase` or a plain object. */
export interface MLLMTestCaseInit {
  input: MultimodalContent;
  actualOutput?: MultimodalContent;
  expectedOutput?: MultimodalContent;
  context?: MultimodalContent;
  retrievalContext?: MultimodalContent;
  toolsCalled?: ToolCallInit[];
  expectedTools?: ToolCallInit[];
  additionalMetadata?: Record<string, unknown>;
  name?: string;
}

/** A multimodal test case: input and output are lists of text and images. */
export class MLLMTestCase implements MLLMTestCaseInit {
  input: MultimodalContent;
  actualOutput?: MultimodalContent;
  expectedOutput?: MultimodalContent;
  context?: MultimodalContent;
  retrievalContext?: MultimodalContent;
  toolsCalled?: ToolCallInit[];
  expectedTools?: ToolCallInit[];
  additionalMetadata?: Record<string, unknown>;
  name?: string;

  constructor(params: MLLMTestCaseInit) {
    this.input = params.input;
    Object.assign(this, params);
  }
}
