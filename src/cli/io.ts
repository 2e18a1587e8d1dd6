import { statSync } from "node:fs";
import path from "node:path";
import { InvalidOptionError, ToolscoreError } from "../core/errors.js";
import { shareOption } from "../core/options.js";
import type { ProgressStream } from "./progress.js";

/** Where a command reads and writes: the process's, or a test's. */
export interface CliIo {
  readonly stdout: ProgressStream;
  readonly stderr: ProgressStream;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The terminal's input, for a question asked only when it is one (`init`). */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Aborted with reason "SIGINT" or "SIGTERM" when the process is asked to stop. */
  readonly signal?: AbortSignal;
}

/**
 * - 0: every case passed (or the pass rate reached `--fail-under`);
 * - 1: some case failed its threshold;
 * - 2: a usage or configuration error (bad flag, config, dataset path, results file, a judge
 *   whose SDK is not installed);
 * - 3: a runtime error (a case that could not be read or scored, a failed merge);
 * - 130 / 143: stopped by SIGINT / SIGTERM, after saving what had finished.
 */
export const ExitCode = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  RUNTIME: 3,
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/** Resolves when the process is asked to stop (Ctrl-C): what a server waits for. */
export function untilStopped(io: Pick<CliIo, "signal">): Promise<void> {
  return new Promise<void>((resolve) => {
    if (io.signal?.aborted === true) resolve();
    io.signal?.addEventListener(
      "abort",
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** A bad command line; the message says what to type instead. */
export function usageError(message: string, option = "argv"): InvalidOptionError {
  return new InvalidOptionError({ option, value: undefined, message });
}

/** The exit code for an error that ended a command. */
export function exitCodeOf(error: unknown): number {
  if (ToolscoreError.isInstance(error)) {
    switch (error.code) {
      case "INVALID_OPTION":
      case "PROVIDER_CONFIG":
      case "MISSING_DEPENDENCY":
      case "RESULTS_FILE":
      case "DATASET_PARSE":
      case "INVALID_INPUT":
      case "UNKNOWN_FORMAT":
        return ExitCode.USAGE;
      default:
        return ExitCode.RUNTIME;
    }
  }
  return ExitCode.RUNTIME;
}

/**
 * The file a command line names, resolved from the current folder; a usage error that says what
 * is there instead when it is missing, a directory, or not a regular file.
 */
export function namedFile(
  given: string,
  what: { readonly noun: string; readonly kinds: string; readonly option: string },
  io: Pick<CliIo, "cwd">,
): string {
  const file = path.resolve(io.cwd, given);
  let stats;
  try {
    stats = statSync(file);
  } catch {
    throw usageError(`no ${what.noun} at ${given} (looked in ${io.cwd})`, what.option);
  }
  if (stats.isDirectory()) {
    throw usageError(
      `${given} is a directory; give the ${what.noun} file in it (${what.kinds})`,
      what.option,
    );
  }
  if (!stats.isFile())
    throw usageError(`${given} is not a regular file; give a ${what.noun} file`, what.option);
  return file;
}

/**
 * A number flag within [min, max] (a whole one with `whole`), or undefined when not given; a usage
 * error otherwise.
 */
export function numberFlag(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
  whole = false,
) {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (
    value.trim() === "" ||
    !Number.isFinite(number) ||
    number < min ||
    number > max ||
    (whole && !Number.isInteger(number))
  ) {
    throw usageError(
      `--${name} must be a ${whole ? "whole " : ""}number ${max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`}, got ${JSON.stringify(value)}`,
      `--${name}`,
    );
  }
  return number;
}

/** A share flag (a threshold, a pass rate): `0.9` or `90%`, or undefined when not given. */
export function shareFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  // A number as a number; anything else ("90%", a typo) as text, which shareOption reads or names.
  return shareOption(
    `--${name}`,
    value.trim() !== "" && Number.isFinite(number) ? number : value,
    0,
  );
}

/** A file as the user would write it: relative to the folder they run in. */
export function shownPath(file: string, io: Pick<CliIo, "cwd">): string {
  return path.relative(io.cwd, file) || file;
}
