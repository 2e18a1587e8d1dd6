import { decodeTranscript } from "../adapters/parse-trajectory.js";
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
  const text = (await readRegularFile(file, { maxBytes: maxTranscriptBytes })).toString("utf8");
  return decodeTranscript(text, { lines: isJsonLinesFile(file) });
}
