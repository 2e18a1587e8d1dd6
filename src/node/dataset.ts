import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { realpath } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { readDatasetCase } from "../adapters/dataset-case.js";
import { JsonlCursor, decodedAsWritten, isOverlongLine, notUtf8 } from "../core/jsonl-lines.js";
import { NotARegularFileError, openRegularFile, readRegularFile } from "./regular-file.js";
import { maxTranscriptBytes, readTranscriptFile } from "./transcript-file.js";
import type { DatasetCase, ReadDatasetCaseOptions } from "../adapters/dataset-case.js";
import type { NameNormalizationOptions } from "../core/normalize-tool-name.js";
import { DatasetParseError, InvalidOptionError } from "../core/errors.js";
import { maxDocumentBytes, jsonRecords, yamlRecords } from "./dataset-documents.js";

/** The dataset formats, by the file extensions that select them. */
export type DatasetFormat = "jsonl" | "json" | "yaml";

export interface ReadDatasetOptions {
  /** Default: from the extension (`.jsonl`/`.ndjson`, `.json`, `.yaml`/`.yml`). */
  format?: DatasetFormat;
  /** Normalize tool names read from transcripts. Default false. */
  normalizeNames?: boolean | NameNormalizationOptions;
  /**
   * Folders that `trajectoryFile` and `expectedTrajectoryFile` may name files in. Default: the
   * dataset's own folder.
   */
  allowedRoots?: readonly string[];
  /** Told how many bytes of the file have been read, as reading goes (for progress bars). */
  onProgress?: (bytesRead: number) => void;
}

/** A case read from the dataset, or the error that kept one from being read. */
export type DatasetEntry = DatasetCase | DatasetParseError;

/** Guesses the format from the file name. */
export function datasetFormatOf(file: string): DatasetFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".jsonl" || extension === ".ndjson") return "jsonl";
  if (extension === ".json") return "json";
  if (extension === ".yaml" || extension === ".yml") return "yaml";
  throw new InvalidOptionError({
    option: "dataset",
    value: file,
    message: `cannot tell the format of ${file} from its extension; use .jsonl, .json, .yaml or .yml (or give the format)`,
  });
}

/**
 * A dataset's fingerprint: a SHA-256 of all its bytes and of every transcript file its cases
 * name (`trajectoryFile`, `expectedTrajectoryFile`: their names and contents, read as the cases
 * read them), so that a resumed run is refused when any byte the cases read changed, wherever it
 * is. The next chunk is read while the last one is hashed; the cases are parsed for the files
 * they name only when the bytes may name one.
 */
export async function datasetFingerprint(
  file: string,
  options: Pick<ReadDatasetOptions, "format" | "allowedRoots"> = {},
): Promise<string> {
  await datasetSize(file);
  const hash = createHash("sha256");
  const format = options.format ?? datasetFormatOf(file);
  // Before any case is read, on every path that reads one (a batched run reads no other way).
  if (format === "jsonl") await refuseUtf16(file, contextOf(file, options));
  const mayNameFiles = await hashBytes(file, hash);
  if (mayNameFiles || format === "yaml") {
    const context = contextOf(file, options);
    const digests = new Map<string, string>();
    for await (const { value } of records(file, context)) {
      if (!hasFileField(value)) continue;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(fileFields)) {
        if (!(key in record)) continue;
        const name = record[key];
        hash.update(`\u0000${key}\u0000${JSON.stringify(name)}\u0000`);
        hash.update(await fileDigest(name, key, context, digests));
      }
    }
  }
  return `sha256:${hash.digest("hex")}`;
}

/**
 * Whether bytes may name a transcript file: a file field's name, or a `\u` escape that could
 * spell one (JSON keys may be written with escapes). Searched as bytes: most datasets name none.
 */
function mayNameFile(bytes: Buffer): boolean {
  return (
    bytes.includes("rajectoryFile") || bytes.includes("rajectory_file") || bytes.includes("\\u")
  );
}

/** Hashes a file's bytes; whether they may name a transcript file (see `mayNameFile`). */
async function hashBytes(file: string, hash: Hash): Promise<boolean> {
  const { handle } = await openDataset(file);
  try {
    const chunk = 1 << 20;
    let spare = Buffer.allocUnsafe(chunk);
    let position = 0;
    let mayName = false;
    /** The end of the last chunk, where a name may have begun. */
    let tail = Buffer.alloc(0);
    let reading = handle.read(Buffer.allocUnsafe(chunk), 0, chunk, position);
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      position += bytesRead;
      reading = handle.read(spare, 0, chunk, position);
      const bytes = buffer.subarray(0, bytesRead);
      hash.update(bytes);
      if (!mayName) {
        mayName = mayNameFile(bytes) || mayNameFile(Buffer.concat([tail, bytes.subarray(0, 16)]));
        tail = Buffer.from(bytes.subarray(-16));
      }
      spare = buffer;
    }
    return mayName;
  } finally {
    await handle.close();
  }
}

/** A transcript file's digest as a case names it, or why it cannot be read (hashed all the same). */
async function fileDigest(
  name: unknown,
  field: string,
  context: Context,
  digests: Map<string, string>,
): Promise<string> {
  let real: string;
  try {
    real = await resolveNamedFile(name, field, context.directory, context.roots);
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
  const known = digests.get(real);
  if (known !== undefined) return known;
  let digest: string;
  try {
    const bytes = await readRegularFile(real, { maxBytes: maxTranscriptBytes });
    digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  } catch (error) {
    digest = `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
  digests.set(real, digest);
  return digest;
}

const fileFields = {
  trajectoryFile: "trajectory",
  trajectory_file: "trajectory",
  expectedTrajectoryFile: "expectedTrajectory",
  expected_trajectory_file: "expectedTrajectory",
} as const;

function within(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Where a transcript file named by a case is, inside the folders files may come from. */
async function resolveNamedFile(
  name: unknown,
  field: string,
  directory: string,
  roots: readonly string[],
): Promise<string> {
  if (typeof name !== "string" || name === "") throw new Error(`${field} must be a file path`);
  const target = path.resolve(directory, name);
  if (!roots.some((root) => within(root, target))) {
    throw new Error(`${field} ${JSON.stringify(name)} is outside the dataset's folder`);
  }
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    throw new Error(`${field} ${JSON.stringify(name)} does not exist`);
  }
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  if (!realRoots.some((root) => within(root, real))) {
    throw new Error(`${field} ${JSON.stringify(name)} leads outside the dataset's folder`);
  }
  return real;
}

/** A transcript file named by a case, inside the folders files may come from, read. */
async function namedTranscript(
  name: unknown,
  field: string,
  directory: string,
  roots: readonly string[],
): Promise<unknown> {
  const real = await resolveNamedFile(name, field, directory, roots);
  try {
    return await readTranscriptFile(real);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const how = error instanceof NotARegularFileError ? detail : `cannot be read: ${detail}`;
    throw new Error(`${field} ${JSON.stringify(name)} ${how}`, { cause: error });
  }
}

export interface Context {
  readonly source: string;
  readonly directory: string;
  readonly roots: readonly string[];
  readonly options: ReadDatasetOptions;
}

/** What reading a dataset's items needs: its name, its folder, the folders files may come from. */
function contextOf(file: string, options: ReadDatasetOptions): Context {
  const directory = path.dirname(path.resolve(file));
  return {
    source: file,
    directory,
    roots: (options.allowedRoots ?? [directory]).map((root) => path.resolve(root)),
    options,
  };
}

function hasFileField(record: unknown): boolean {
  if (typeof record !== "object" || record === null) return false;
  for (const key in fileFields) if (key in record) return true;
  return false;
}

/** Replaces `trajectoryFile`-like fields with the transcripts they name. */
async function withFiles(
  record: Record<string, unknown>,
  context: Context,
): Promise<Record<string, unknown>> {
  const out = new Map(Object.entries(record));
  for (const [key, field] of Object.entries(fileFields)) {
    if (!(key in record)) continue;
    out.delete(key);
    if (record[field] !== undefined) throw new Error(`give ${field} or ${key}, not both`);
    out.set(field, await namedTranscript(record[key], key, context.directory, context.roots));
  }
  return Object.fromEntries(out);
}

/** Where an item sits: its position, and for JSONL its line and bytes. */
export interface Place {
  readonly index: number;
  readonly line?: number;
  readonly offset?: number;
  readonly bytes?: number;
  /** True for a JSONL line whose bytes are not UTF-8 (its text is not read). */
  readonly notUtf8?: boolean;
}

/** Where a JSONL line sits: every place but whether it is UTF-8, which only a bad line says. */
export type LinePlace = Place & {
  readonly line: number;
  readonly offset: number;
  readonly bytes: number;
};

/** The reader's options for one item, built key by key (this runs per line). */
function readOptionsOf(place: Place, context: Context): ReadDatasetCaseOptions {
  const options: { -readonly [K in keyof ReadDatasetCaseOptions]: ReadDatasetCaseOptions[K] } = {
    index: place.index,
  };
  if (place.line !== undefined) options.line = place.line;
  if (place.offset !== undefined) options.offset = place.offset;
  if (place.bytes !== undefined) options.bytes = place.bytes;
  options.source = context.source;
  if (context.options.normalizeNames !== undefined) {
    options.normalizeNames = context.options.normalizeNames;
  }
  return options;
}

function entryOf(record: unknown, place: Place, context: Context): DatasetEntry {
  try {
    return readDatasetCase(record, readOptionsOf(place, context));
  } catch (error) {
    if (DatasetParseError.isInstance(error)) return withCaseId(error, record);
    throw error;
  }
}

/** The error with the item's own id, when it has a usable one, so results name the case. */
function withCaseId(error: DatasetParseError, record: unknown): DatasetParseError {
  const id = (record as { id?: unknown } | null)?.id;
  if (typeof id !== "string" || id === "" || error.caseId !== undefined) return error;
  return new DatasetParseError({
    message: error.message,
    cause: error.cause,
    caseId: id,
    ...(error.source === undefined ? {} : { source: error.source }),
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.item === undefined ? {} : { item: error.item }),
    ...(error.field === undefined ? {} : { field: error.field }),
  });
}

async function entryWithFiles(
  record: unknown,
  place: Place,
  context: Context,
): Promise<DatasetEntry> {
  if (!hasFileField(record)) return entryOf(record, place, context);
  const { index, line } = place;
  try {
    return entryOf(await withFiles(record as Record<string, unknown>, context), place, context);
  } catch (error) {
    const where = line === undefined ? `item ${index}` : `line ${line}`;
    return withCaseId(
      new DatasetParseError({
        message: `${where}: ${error instanceof Error ? error.message : String(error)}`,
        source: context.source,
        item: index,
        ...(line === undefined ? {} : { line }),
        cause: error,
      }),
      record,
    );
  }
}

/** One JSONL line: a case, or why it is not one. */
function parseLine(text: string, index: number, line: number, context: Context): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new DatasetParseError({
      message: `line ${line}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      source: context.source,
      item: index,
      line,
      cause: error,
    });
  }
}

/** One line of a JSONL file: its text, 1-based number, and where its bytes sit in the file. */
export interface JsonlLine {
  readonly text: string;
  readonly line: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Bytes from `offset` to the end of the line, its newline included when it has one. */
  readonly bytes: number;
  /** True when the line's bytes are not UTF-8: its `text` is empty, and it is that line's error. */
  readonly notUtf8?: boolean;
}

/**
 * The lines of a JSONL file, in constant memory whatever its size: blank lines are skipped, a
 * byte-order mark and `\r\n` endings are accepted. `from` starts at a byte offset (a line start).
 * A line over `JsonlCursor.maxLineBytes` is yielded with no text and its true `bytes`, never
 * held: its reader makes it that line's error.
 */
export async function* jsonlLines(file: string, from = 0): AsyncGenerator<JsonlLine> {
  const { handle } = await openRegularFile(file);
  const stream = handle.createReadStream({ highWaterMark: 1 << 20, start: from });
  /** The start of a line not ended yet, chunk by chunk (joined once, when it ends). */
  let rest: Buffer[] = [];
  let restBytes = 0;
  let base = from;
  /** Bytes of an over-long line passed over so far, while there is one. */
  let skipped: number | undefined;
  const cursor = new JsonlCursor({ startsFile: from === 0 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let newline = chunk.indexOf(10);
    if (newline === -1) {
      if (skipped !== undefined) skipped += chunk.length;
      else {
        rest.push(chunk);
        restBytes += chunk.length;
        if (isOverlongLine(restBytes)) {
          skipped = restBytes;
          rest = [];
          restBytes = 0;
        }
      }
      continue;
    }
    if (skipped !== undefined) {
      cursor.skip();
      yield { text: "", line: cursor.line, offset: base, bytes: skipped + newline + 1 };
      // From here the chunk is read on its own; it starts where the skipped bytes end.
      base += skipped;
      skipped = undefined;
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    let buffer = chunk;
    if (restBytes > 0) {
      buffer = Buffer.concat([...rest, chunk]);
      newline += restBytes;
      rest = [];
      restBytes = 0;
    }
    while (newline !== -1) {
      const bytes = newline + 1 - start;
      if (isOverlongLine(bytes)) {
        cursor.skip();
        yield { text: "", line: cursor.line, offset: base + start, bytes };
      } else if (cursor.take(buffer, start, newline)) {
        yield lineOf(buffer, cursor, base + start, bytes);
      }
      start = newline + 1;
      newline = buffer.indexOf(10, start);
    }
    base += start;
    if (start < buffer.length) {
      rest = [buffer.subarray(start)];
      restBytes = buffer.length - start;
    }
  }
  if (skipped !== undefined) {
    cursor.skip();
    yield { text: "", line: cursor.line, offset: base, bytes: skipped };
  } else if (restBytes > 0) {
    const last = Buffer.concat(rest);
    if (cursor.take(last, 0, last.length)) yield lineOf(last, cursor, base, last.length);
  }
}

/** The line the cursor took from `buffer`, its text decoded, or marked when it is not UTF-8. */
function lineOf(buffer: Buffer, cursor: JsonlCursor, offset: number, bytes: number): JsonlLine {
  const text = buffer.toString("utf8", cursor.begin, cursor.stop);
  return decodedAsWritten(text, buffer.subarray(cursor.begin, cursor.stop))
    ? { text, line: cursor.line, offset, bytes }
    : { text: "", line: cursor.line, offset, bytes, notUtf8: true };
}

/** A line that is not UTF-8, as the error of its case (a decoder would change it in silence). */
function notUtf8Line(place: Place & { line: number }, context: Context): DatasetParseError {
  return new DatasetParseError({
    message: `line ${place.line} is not UTF-8 (Latin-1 or another encoding?); save the dataset as UTF-8`,
    source: context.source,
    item: place.index,
    line: place.line,
  });
}

/** Refuses a JSONL file that starts with a UTF-16 byte-order mark: every line would be wrong. */
async function refuseUtf16(file: string, context: Context): Promise<void> {
  const { handle } = await openDataset(file);
  const head = Buffer.alloc(2);
  try {
    await handle.read(head, 0, 2, 0);
  } finally {
    await handle.close();
  }
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new DatasetParseError({
      message: `${context.source} ${notUtf8(head)}`,
      source: context.source,
    });
  }
}

/** A line over the longest read, as the error of its case. */
function overlongLine(place: Place & { line: number; bytes: number }, context: Context) {
  return new DatasetParseError({
    message: `line ${place.line}: ${place.bytes} bytes, over the ${JsonlCursor.maxLineBytes}-byte limit of a dataset line (see docs/reference/limits.md); not read`,
    source: context.source,
    item: place.index,
    line: place.line,
  });
}

/** A case from one JSONL line; a promise only when the line names transcript files. */
function lineEntry(
  text: string,
  place: LinePlace,
  context: Context,
): DatasetEntry | Promise<DatasetEntry> {
  if (isOverlongLine(place.bytes)) return overlongLine(place, context);
  if (place.notUtf8 === true) return notUtf8Line(place, context);
  const record = parseLine(text, place.index, place.line, context);
  if (DatasetParseError.isInstance(record)) return record;
  return hasFileField(record)
    ? entryWithFiles(record, place, context)
    : entryOf(record, place, context);
}

/** An item of a dataset as written (a parsed JSONL line, a JSON or YAML item), or why not. */
export interface DatasetRecord {
  /** The item; a `DatasetParseError` when a JSONL line is not JSON. */
  readonly value: unknown;
  readonly place: Place;
}

async function* jsonlRecords(file: string, context: Context): AsyncGenerator<DatasetRecord> {
  let index = 0;
  for await (const { text, line, offset, bytes, notUtf8 } of jsonlLines(file)) {
    context.options.onProgress?.(offset + bytes);
    const place = { index, line, offset, bytes };
    yield {
      value: isOverlongLine(bytes)
        ? overlongLine(place, context)
        : notUtf8 === true
          ? notUtf8Line(place, context)
          : parseLine(text, index, line, context),
      place,
    };
    index++;
  }
}

/**
 * Reads JSONL lines of a dataset one by one, as `readDataset` does, for callers that split the
 * file themselves (worker threads): the same cases, the same errors, the same file rules.
 */
export function createLineReader(
  file: string,
  options: ReadDatasetOptions = {},
): (text: string, place: LinePlace) => DatasetEntry | Promise<DatasetEntry> {
  const context = contextOf(file, options);
  return (text, place) => lineEntry(text, place, context);
}

/**
 * Reads a dataset of test cases: JSONL streamed line by line in constant memory, JSON and YAML
 * whole. Each case is yielded as it is read; a line or item that cannot be read is yielded as a
 * `DatasetParseError` (with its line) and reading goes on. A file that cannot be read at all (or
 * a JSON or YAML file that does not parse) throws.
 *
 * @example
 * for await (const entry of readDataset("runs.jsonl")) {
 *   if (DatasetParseError.isInstance(entry)) console.error(entry.message);
 *   else use(entry); // a DatasetCase
 * }
 */
export async function* readDataset(
  file: string,
  options: ReadDatasetOptions = {},
): AsyncGenerator<DatasetEntry> {
  const context = contextOf(file, options);
  for await (const { value, place } of records(file, context)) {
    if (DatasetParseError.isInstance(value)) yield value;
    else
      yield hasFileField(value)
        ? await entryWithFiles(value, place, context)
        : entryOf(value, place, context);
  }
}

/**
 * A dataset item with the transcripts its `trajectoryFile`-like fields name read in, as reading a
 * case does (relative to the dataset's folder, within the allowed roots): an item copied elsewhere
 * then keeps its run. An item without such fields is returned as it is; a file that cannot be read
 * throws, saying which.
 */
export async function withNamedFiles(
  record: Record<string, unknown>,
  dataset: string,
  options: ReadDatasetOptions = {},
): Promise<Record<string, unknown>> {
  return hasFileField(record) ? withFiles(record, contextOf(dataset, options)) : record;
}

/**
 * The items of a dataset as written, before they are read as cases: JSONL line by line, JSON and
 * YAML whole, with each item's place. A JSONL line that is not JSON is a `DatasetParseError`
 * value, and reading goes on; a file that cannot be read at all throws. For tools that pass items
 * on (`toolscore dataset` merges expected cases into recordings).
 */
export async function* readDatasetRecords(
  file: string,
  options: ReadDatasetOptions = {},
): AsyncGenerator<DatasetRecord> {
  yield* records(file, contextOf(file, options));
}

/**
 * Opens a dataset file, which must be a regular file: a FIFO or a device (a link to `/dev/zero`
 * named by a results file) would block or never end. A `DatasetParseError` saying what is there
 * otherwise.
 */
async function openDataset(file: string): Promise<{ handle: FileHandle; size: number }> {
  try {
    return await openRegularFile(path.resolve(file));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new DatasetParseError({
      message:
        error instanceof NotARegularFileError
          ? `cannot read the dataset ${file}: it ${error.message}`
          : code === "ENOENT"
            ? `cannot read the dataset ${file}: no such file`
            : `cannot read the dataset ${file}: ${error instanceof Error ? error.message : String(error)}`,
      source: file,
      cause: error,
    });
  }
}

/** The size of a dataset file (see `openDataset`). */
export async function datasetSize(file: string): Promise<number> {
  const { handle, size } = await openDataset(file);
  await handle.close();
  return size;
}

async function* records(file: string, context: Context): AsyncGenerator<DatasetRecord> {
  const format = context.options.format ?? datasetFormatOf(file);
  const absolute = path.resolve(file);
  const size = await datasetSize(file);
  if (format !== "jsonl" && size > maxDocumentBytes) {
    throw new DatasetParseError({
      message: `${file} is ${size} bytes, over the ${maxDocumentBytes}-byte limit of a ${format.toUpperCase()} dataset, which is read whole; write it as JSONL (one case a line, read line by line at any size; see docs/reference/limits.md)`,
      source: file,
    });
  }
  if (format === "jsonl") {
    await refuseUtf16(absolute, context);
    yield* jsonlRecords(absolute, context);
  } else if (format === "json") yield* jsonRecords(absolute, context);
  else yield* yamlRecords(absolute, context);
}

/**
 * One case of a JSONL dataset, read again from where a results record says its line sits (its
 * `offset` and `bytes`): reports use it to show a case's calls without keeping them in the
 * results file.
 */
export async function readDatasetLine(
  file: string,
  place: { index: number; line?: number; offset: number; bytes: number },
  options: ReadDatasetOptions = {},
): Promise<DatasetEntry> {
  // The place comes from a results file, which may come from anywhere.
  if (!Number.isSafeInteger(place.bytes) || place.bytes < 0 || isOverlongLine(place.bytes)) {
    return overlongLine({ ...place, line: place.line ?? 0 }, contextOf(file, options));
  }
  let handle: FileHandle;
  try {
    ({ handle } = await openDataset(file));
  } catch (error) {
    if (!DatasetParseError.isInstance(error)) throw error;
    return error;
  }
  const buffer = Buffer.alloc(place.bytes);
  try {
    await handle.read(buffer, 0, place.bytes, place.offset);
  } finally {
    await handle.close();
  }
  const cursor = new JsonlCursor({ startsFile: place.offset === 0 });
  cursor.take(buffer, 0, buffer.at(-1) === 10 ? buffer.length - 1 : buffer.length);
  const text = buffer.toString("utf8", cursor.begin, cursor.stop);
  const read = createLineReader(file, options);
  return decodedAsWritten(text, buffer.subarray(cursor.begin, cursor.stop))
    ? read(text, { line: 0, ...place })
    : read("", { line: 0, ...place, notUtf8: true });
}
