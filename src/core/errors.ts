/**
 * Every error toolscore throws is a `ToolscoreError` with a stable `code`, so callers (and the CLI's
 * exit codes) can branch on the code rather than on message text.
 *
 * `isInstance` works across copies of the package (two versions installed side by side), where
 * `instanceof` would not: it checks a symbol shared through the global registry.
 */
const marker = Symbol.for("toolscore.error");

/** The stable error codes. New codes may be added; existing ones never change meaning. */
export const ErrorCode = {
  /** A value given to toolscore is not of the expected shape (a tool call without a name, ...). */
  INVALID_INPUT: "INVALID_INPUT",
  /** An option has an unknown name or a value outside its domain. */
  INVALID_OPTION: "INVALID_OPTION",
  /** A test case lacks fields a metric requires. */
  MISSING_PARAMS: "MISSING_PARAMS",
  /** A metric needs an LLM judge for what it was asked to do, and none was configured. */
  JUDGE_REQUIRED: "JUDGE_REQUIRED",
  /** An input is larger than a configured limit (nesting depth, alignment size). */
  LIMIT_EXCEEDED: "LIMIT_EXCEEDED",
  /** A metric threw something that is not a toolscore error (a bug in a custom metric, or ours). */
  METRIC_FAILED: "METRIC_FAILED",
  /** A transcript's format could not be recognized (and none was given). */
  UNKNOWN_FORMAT: "UNKNOWN_FORMAT",
  /** A judge model cannot be set up: unknown provider, missing API key, bad model string. */
  PROVIDER_CONFIG: "PROVIDER_CONFIG",
  /**
   * A feature needs an optional package that is not installed (a model SDK, the image codecs);
   * the message names the packages and the command that installs them.
   */
  MISSING_DEPENDENCY: "MISSING_DEPENDENCY",
  /** A call to a model API failed for good (after the SDK's retries), or was refused. */
  PROVIDER_CALL: "PROVIDER_CALL",
  /** A judge answered something unusable (not JSON, not the schema, a score out of range). */
  JUDGE_RESPONSE: "JUDGE_RESPONSE",
  /** An image could not be loaded: refused URL or path, not an image, too large, too slow. */
  MEDIA_LOAD: "MEDIA_LOAD",
  /** A dataset file, line or item could not be read as a test case. */
  DATASET_PARSE: "DATASET_PARSE",
  /**
   * A results file cannot be used as asked: damaged, not a results file, from another dataset or
   * configuration (resume), or shards that do not fit together (merge).
   */
  RESULTS_FILE: "RESULTS_FILE",
  /** The results file could not be written during a run (a full disk): what was written is kept. */
  RESULTS_WRITE: "RESULTS_WRITE",
  /** An observed application threw while it ran for a golden (`evaluateObserved` of toolscore/tracing). */
  CALLBACK_FAILED: "CALLBACK_FAILED",
  AGENT_RUN: "AGENT_RUN",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ToolscoreErrorOptions {
  message: string;
  cause?: unknown;
}

/** Base class of every error toolscore throws. */
export class ToolscoreError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;

  constructor(code: ErrorCode, options: ToolscoreErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }

  /** True for any toolscore error, from this copy of the package or another. */
  static isInstance(error: unknown): error is ToolscoreError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }

  /** A plain, JSON-serializable form for results and reports. */
  toJSON(): { name: string; code: ErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

function hasCode(error: unknown, code: ErrorCode): boolean {
  return ToolscoreError.isInstance(error) && error.code === code;
}

/**
 * A value does not have the shape toolscore needs. `field` locates it in the caller's input,
 * e.g. `toolsCalled[2].inputParameters.filters`.
 */
export class InvalidInputError extends ToolscoreError {
  readonly field: string;

  constructor(options: ToolscoreErrorOptions & { field: string }) {
    super(ErrorCode.INVALID_INPUT, options);
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is InvalidInputError {
    return hasCode(error, ErrorCode.INVALID_INPUT);
  }
}

/** An option has an unknown name or an invalid value; thrown when the options are resolved. */
export class InvalidOptionError extends ToolscoreError {
  readonly option: string;
  readonly value: unknown;

  constructor(options: ToolscoreErrorOptions & { option: string; value: unknown }) {
    super(ErrorCode.INVALID_OPTION, options);
    this.option = options.option;
    this.value = options.value;
  }

  static override isInstance(error: unknown): error is InvalidOptionError {
    return hasCode(error, ErrorCode.INVALID_OPTION);
  }
}

/** A test case lacks fields that a metric requires. */
export class MissingParamsError extends ToolscoreError {
  readonly fields: readonly string[];

  constructor(options: ToolscoreErrorOptions & { fields: readonly string[] }) {
    super(ErrorCode.MISSING_PARAMS, options);
    this.fields = options.fields;
  }

  static override isInstance(error: unknown): error is MissingParamsError {
    return hasCode(error, ErrorCode.MISSING_PARAMS);
  }
}

/** A metric was configured to do something that needs an LLM judge, and no judge was given. */
export class JudgeRequiredError extends ToolscoreError {
  readonly option: string;

  constructor(options: ToolscoreErrorOptions & { option: string }) {
    super(ErrorCode.JUDGE_REQUIRED, options);
    this.option = options.option;
  }

  static override isInstance(error: unknown): error is JudgeRequiredError {
    return hasCode(error, ErrorCode.JUDGE_REQUIRED);
  }
}

/** An input exceeds a limit: nesting depth, or the size of an alignment problem. */
export class LimitExceededError extends ToolscoreError {
  /** The name of the limit, as an option name (`maxDepth`, `maxAssignmentWork`). */
  readonly limit: string;
  readonly maximum: number;
  /** Where the limit was hit, when it concerns one field of the input. */
  readonly field: string | undefined;

  constructor(options: ToolscoreErrorOptions & { limit: string; maximum: number; field?: string }) {
    super(ErrorCode.LIMIT_EXCEEDED, options);
    this.limit = options.limit;
    this.maximum = options.maximum;
    this.field = options.field;
  }

  static override isInstance(error: unknown): error is LimitExceededError {
    return hasCode(error, ErrorCode.LIMIT_EXCEEDED);
  }
}

/** A transcript's format could not be recognized; `options.format` names it explicitly. */
export class UnknownFormatError extends ToolscoreError {
  constructor(options: ToolscoreErrorOptions) {
    super(ErrorCode.UNKNOWN_FORMAT, options);
  }

  static override isInstance(error: unknown): error is UnknownFormatError {
    return hasCode(error, ErrorCode.UNKNOWN_FORMAT);
  }
}

/** A judge model cannot be set up; thrown before any case runs. */
export class ProviderConfigError extends ToolscoreError {
  /** The provider concerned, when known (`openai`, `anthropic`, ...). */
  readonly provider: string | undefined;

  constructor(options: ToolscoreErrorOptions & { provider?: string }) {
    super(ErrorCode.PROVIDER_CONFIG, options);
    this.provider = options.provider;
  }

  static override isInstance(error: unknown): error is ProviderConfigError {
    return hasCode(error, ErrorCode.PROVIDER_CONFIG);
  }
}

/**
 * A feature needs optional packages that are not installed: the model SDKs and the image codecs
 * are optional peer dependencies, installed by those who use them. Thrown when the feature is set
 * up (a judge created, image scaling asked for), so before any case runs.
 */
export class MissingDependencyError extends ToolscoreError {
  /** What needs them: `the openai judge`, `scaling images down`. */
  readonly feature: string;
  /** The packages that are missing. */
  readonly packages: readonly string[];
  /** The command that installs them: `npm install openai`. */
  readonly install: string;

  constructor(options: { feature: string; packages: readonly string[]; cause?: unknown }) {
    const install = `npm install ${options.packages.join(" ")}`;
    const names = options.packages.map((name) => `"${name}"`).join(", ");
    const are = options.packages.length === 1 ? "is" : "are";
    super(ErrorCode.MISSING_DEPENDENCY, {
      message: `${options.feature} needs ${names}, which ${are} not installed: run \`${install}\``,
      cause: options.cause,
    });
    this.feature = options.feature;
    this.packages = options.packages;
    this.install = install;
  }

  static override isInstance(error: unknown): error is MissingDependencyError {
    return hasCode(error, ErrorCode.MISSING_DEPENDENCY);
  }
}

/** A model API call failed for good: after the SDK's retries, or with an error no retry fixes. */
export class ProviderCallError extends ToolscoreError {
  readonly provider: string;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** Whether trying again later may succeed (rate limits, server errors, timeouts). */
  readonly retryable: boolean;
  /** Whether the server could not be reached at all (no connection was made). */
  readonly unreachable: boolean;

  constructor(
    options: ToolscoreErrorOptions & {
      provider: string;
      status?: number;
      retryable: boolean;
      unreachable?: boolean;
    },
  ) {
    super(ErrorCode.PROVIDER_CALL, options);
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable;
    this.unreachable = options.unreachable ?? false;
  }

  static override isInstance(error: unknown): error is ProviderCallError {
    return hasCode(error, ErrorCode.PROVIDER_CALL);
  }
}

/** A judge's answer could not be used, even after the allowed retries. */
export class JudgeResponseError extends ToolscoreError {
  /** The last answer's text, for the record. */
  readonly text: string;
  /** How many answers were tried. */
  readonly attempts: number;

  constructor(options: ToolscoreErrorOptions & { text: string; attempts: number }) {
    super(ErrorCode.JUDGE_RESPONSE, options);
    this.text = options.text;
    this.attempts = options.attempts;
  }

  static override isInstance(error: unknown): error is JudgeResponseError {
    return hasCode(error, ErrorCode.JUDGE_RESPONSE);
  }
}

/** Why an image could not be loaded. */
export type MediaLoadReason =
  | "refused-url"
  | "refused-address"
  | "refused-path"
  | "not-found"
  | "not-an-image"
  | "too-large"
  | "timed-out"
  | "http-status"
  | "too-many-redirects"
  | "network"
  | "conversion";

/** An image could not be loaded; `source` says which, `reason` why, the message how to fix it. */
export class MediaLoadError extends ToolscoreError {
  /** The image as given (a data URI is shortened). */
  readonly source: string;
  readonly reason: MediaLoadReason;

  constructor(options: ToolscoreErrorOptions & { source: string; reason: MediaLoadReason }) {
    super(ErrorCode.MEDIA_LOAD, options);
    this.source = options.source;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is MediaLoadError {
    return hasCode(error, ErrorCode.MEDIA_LOAD);
  }
}

/**
 * A dataset (or one of its lines or items) could not be read as a test case. `line` (JSONL, YAML)
 * or `item` (JSON) says where, `field` which field, when one is to blame.
 */
export class DatasetParseError extends ToolscoreError {
  /** The dataset file, as given. */
  readonly source: string | undefined;
  /** 1-based line number, when the format has lines. */
  readonly line: number | undefined;
  /** 0-based position of the case in the dataset. */
  readonly item: number | undefined;
  readonly field: string | undefined;
  /** The case's own id, when the item had one that could be read. */
  readonly caseId: string | undefined;

  constructor(
    options: ToolscoreErrorOptions & {
      source?: string;
      line?: number;
      item?: number;
      field?: string;
      caseId?: string;
    },
    code: ErrorCode = ErrorCode.DATASET_PARSE,
  ) {
    super(code, options);
    this.source = options.source;
    this.line = options.line;
    this.item = options.item;
    this.field = options.field;
    this.caseId = options.caseId;
  }

  /** A dataset item that could not be read, or its `AgentRunError` (the item's run that failed). */
  static override isInstance(error: unknown): error is DatasetParseError {
    return hasCode(error, ErrorCode.DATASET_PARSE) || hasCode(error, ErrorCode.AGENT_RUN);
  }
}

/**
 * The agent under test failed on a case (threw, exited non-zero, timed out, or answered with no
 * transcript toolscore reads): that case's error, placed as a dataset item is, so the run goes on.
 */
export class AgentRunError extends DatasetParseError {
  constructor(options: ConstructorParameters<typeof DatasetParseError>[0]) {
    super(options, ErrorCode.AGENT_RUN);
  }

  static override isInstance(error: unknown): error is AgentRunError {
    return hasCode(error, ErrorCode.AGENT_RUN);
  }
}

/** A results file that cannot be used as asked; the message says what to do instead. */
/**
 * Results could not be written during a run: the disk is full, or the file became unwritable.
 * Every line written before is kept; the run can go on with `--resume` once the cause is gone.
 */
export class ResultsWriteError extends ToolscoreError {
  /** The results file. */
  readonly file: string;
  /** The system's error code (`ENOSPC` for a full disk), when there is one. */
  readonly systemCode?: string;

  constructor(options: ToolscoreErrorOptions & { file: string; systemCode?: string }) {
    super(ErrorCode.RESULTS_WRITE, options);
    this.file = options.file;
    if (options.systemCode !== undefined) this.systemCode = options.systemCode;
  }

  static override isInstance(error: unknown): error is ResultsWriteError {
    return hasCode(error, ErrorCode.RESULTS_WRITE);
  }
}

export class ResultsFileError extends ToolscoreError {
  /** The results file, as given. */
  readonly file: string;

  constructor(options: ToolscoreErrorOptions & { file: string }) {
    super(ErrorCode.RESULTS_FILE, options);
    this.file = options.file;
  }

  static override isInstance(error: unknown): error is ResultsFileError {
    return hasCode(error, ErrorCode.RESULTS_FILE);
  }
}
