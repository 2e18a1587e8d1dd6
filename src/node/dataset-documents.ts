/**
 * Datasets read whole: a JSON document (an array of cases, or an object holding one) and a YAML
 * one (aliases bounded), each case a record as a JSONL line gives it.
 */
import { adkDatasetCases } from "../adapters/adk.js";
import { decodedAsWritten, notUtf8 } from "../core/jsonl-lines.js";
import { readRegularFile } from "./regular-file.js";
import { DatasetParseError } from "../core/errors.js";
import { jsonErrorPosition } from "../core/json.js";
import type { Context, DatasetRecord } from "./dataset.js";

/** The largest JSON or YAML dataset read (whole, so a few times its size in memory). */
export const maxDocumentBytes = 256 * 1024 * 1024;

/** A JSON syntax error's message on one line, with its line and column where V8 tells them. */
function jsonErrorLocation(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The quoted snippet may span lines; keep the message on one.
  const oneLine = message.replace(/\r?\n/g, "\\n");
  const at = jsonErrorPosition(text, error);
  return at === undefined ? oneLine : `${oneLine} (line ${at.line}, column ${at.column})`;
}

/** The list of cases in a parsed JSON or YAML document: an array, or `{ cases: [...] }`. */
function itemsOf(value: unknown, source: string): unknown[] {
  if (Array.isArray(value)) return value;
  // Google ADK's eval sets and eval results are datasets as ADK writes them.
  const adk = adkDatasetCases(value);
  if (adk !== undefined) return adk;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of ["cases", "testCases", "test_cases"]) {
      if (Array.isArray(record[key])) return record[key] as unknown[];
    }
  }
  throw new DatasetParseError({
    message: `${source} must hold a list of test cases (or an object with a "cases" list)`,
    source,
  });
}

/** A dataset read whole as UTF-8 text; one that is not UTF-8 is refused by name. */
async function documentText(file: string, context: Context): Promise<string> {
  const bytes = await readRegularFile(file, { maxBytes: maxDocumentBytes });
  const text = bytes.toString("utf8");
  if (!decodedAsWritten(text, bytes)) {
    throw new DatasetParseError({
      message: `${context.source} ${notUtf8(bytes)}`,
      source: context.source,
    });
  }
  return text;
}

export async function* jsonRecords(file: string, context: Context): AsyncGenerator<DatasetRecord> {
  const text = await documentText(file, context);
  context.options.onProgress?.(Buffer.byteLength(text));
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (error) {
    throw new DatasetParseError({
      message: `${context.source} is not valid JSON: ${jsonErrorLocation(text, error)}`,
      source: context.source,
      cause: error,
    });
  }
  const items = itemsOf(value, context.source);
  for (let index = 0; index < items.length; index++) {
    yield { value: items[index], place: { index } };
  }
}

/** Aliases a YAML dataset may expand (YAML's own default: 100). */
const yamlAliasLimit = 100;

export async function* yamlRecords(file: string, context: Context): AsyncGenerator<DatasetRecord> {
  const read = await documentText(file, context);
  // A byte-order mark is accepted, as in JSON and JSONL datasets.
  const text = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
  context.options.onProgress?.(Buffer.byteLength(text));
  // Loaded here: JSONL runs (and their worker threads) never need it.
  const { isMap, isSeq, LineCounter, parseDocument } = await import("yaml");
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  if (document.errors.length > 0) {
    const [error] = document.errors;
    throw new DatasetParseError({
      message: `${context.source} is not valid YAML: ${error.message}`,
      source: context.source,
      line: lineCounter.linePos(error.pos[0]).line,
      cause: error,
    });
  }
  let sequence: unknown = document.contents;
  if (isMap(sequence)) {
    sequence =
      sequence.get("cases", true) ??
      sequence.get("testCases", true) ??
      sequence.get("test_cases", true);
  }
  let value: unknown;
  try {
    // YAML's own alias limit: a few lines of nested aliases ("billion laughs") expand to
    // billions of nodes; past the limit it is an error, not an expansion.
    value = document.toJS({ maxAliasCount: yamlAliasLimit });
  } catch (error) {
    throw new DatasetParseError({
      message: `${context.source} cannot be read: ${error instanceof Error ? error.message : String(error)} (at most ${yamlAliasLimit} alias expansions)`,
      source: context.source,
      cause: error,
    });
  }
  const items = itemsOf(value, context.source);
  const nodes = isSeq(sequence) ? sequence.items : [];
  for (let index = 0; index < items.length; index++) {
    const node = nodes[index] as { range?: [number, number, number] } | undefined;
    const line = node?.range === undefined ? undefined : lineCounter.linePos(node.range[0]).line;
    yield { value: items[index], place: line === undefined ? { index } : { index, line } };
  }
}
