import { decodeTranscript } from "../adapters/parse-trajectory.js";
import { InvalidInputError } from "../core/errors.js";
import { decodedAsWritten, notUtf8 } from "../core/jsonl-lines.js";
import { readRegularFile } from "./regular-file.js";

/** The largest transcript file read (JSON is parsed whole: a few times its size in memory). */
export const maxTranscriptBytes = 256 * 1024 * 1024;

/** Whether a transcript file is JSON Lines by its name (`.jsonl`, `.ndjson`). */
export function isJsonLinesFile(file: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(file);
}

/**
 * A transcript file's content as a value: every line of a `.jsonl` or `.ndjson` file, any other
 * file as JSON (or as JSON Lines when it is not JSON: exporters write lines to `.json` files).
 * Only a regular file is read (a FIFO would block for good). The one reader of transcript files:
 * datasets' `trajectoryFile`, `toolscore parse`, recordings. Throws `NotARegularFileError`, or
 * `InvalidInputError` naming the line that is not JSON.
 */
export async function readTranscriptFile(file: string): Promise<unknown> {
  const bytes = await readRegularFile(file, { maxBytes: maxTranscriptBytes });
  const text = bytes.toString("utf8");
  // A decoder would turn what is not UTF-8 into U+FFFD without a word.
  if (!decodedAsWritten(text, bytes)) {
    throw new InvalidInputError({
      field: "transcript",
      message: `the transcript ${notUtf8(bytes)}`,
    });
  }
  return decodeTranscript(text, { lines: isJsonLinesFile(file) });
}
