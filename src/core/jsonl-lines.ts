/**
 * The one rule for what a JSONL line is, for every path that reads one (datasets streamed or in
 * batches, transcript files, results files): lines end at `\n`, a `\r` before it is not part of
 * the line, a UTF-8 byte-order mark is skipped at the start of the file only, and a line is blank
 * (not a case) when it holds nothing but JSON whitespace (space, tab, CR, LF). Anything else,
 * a form feed or a no-break space included, is content: a line that is not JSON is an error,
 * never skipped.
 */
export class JsonlCursor {
  /**
   * The longest line read, in bytes: a longer one is an error for its line, told from its length
   * alone (its bytes are never held: a 1 GiB line would not fit in a string).
   */
  static readonly maxLineBytes = 256 * 1024 * 1024;

  /** The 1-based number of the last line taken. */
  line: number;
  /** Where the last line's content starts and ends in the buffer it was taken from. */
  begin = 0;
  stop = 0;
  private atFileStart: boolean;

  /**
   * `startsFile`: the first line taken is the file's first (its BOM is skipped). `line`: lines
   * before the first one taken, when reading starts further on.
   */
  constructor(options: { startsFile: boolean; line?: number } = { startsFile: true }) {
    this.atFileStart = options.startsFile;
    this.line = options.line ?? 0;
  }

  /**
   * Takes the line from `start` up to `end` (its `\n`, or the end of the file), setting
   * `begin` and `stop` to its content; false when the line is blank.
   */
  take(buffer: Uint8Array, start: number, end: number): boolean {
    this.line++;
    let begin = start;
    if (this.atFileStart) {
      this.atFileStart = false;
      if (buffer[begin] === 0xef && buffer[begin + 1] === 0xbb && buffer[begin + 2] === 0xbf) {
        begin += 3;
      }
    }
    let stop = end;
    if (stop > begin && buffer[stop - 1] === 13) stop--;
    this.begin = begin;
    this.stop = stop;
    for (let at = begin; at < stop; at++) {
      const byte = buffer[at];
      if (byte !== 32 && byte !== 9 && byte !== 13 && byte !== 10) return true;
    }
    return false;
  }

  /** Counts a line over `maxLineBytes`, whose bytes were not kept: never blank. */
  skip(): void {
    this.line++;
    this.atFileStart = false;
    this.begin = 0;
    this.stop = 0;
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Whether `text`, decoded from `bytes`, says what they say: a decoder turns bytes that are not
 * UTF-8 (Latin-1's "é", say) into U+FFFD without a word, and "André" would then match "Andrè".
 * Looked at only when the text holds a U+FFFD.
 */
export function decodedAsWritten(text: string, bytes: Uint8Array): boolean {
  if (!text.includes("\ufffd")) return true;
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The message for text that is not UTF-8, naming what it is when a byte-order mark says so. */
export function notUtf8(bytes: Uint8Array): string {
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return utf16
    ? "is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"
    : "is not UTF-8 (Latin-1 or another encoding?); save it as UTF-8";
}

/** Whether a line of `bytes` bytes (its newline included) is longer than any line read. */
export function isOverlongLine(bytes: number): boolean {
  return bytes > JsonlCursor.maxLineBytes;
}

/** The non-blank lines of a JSONL text held in memory, by the same rule, with their numbers. */
export function jsonlTextLines(text: string): { text: string; line: number }[] {
  const bytes = new TextEncoder().encode(text);
  // ignoreBOM keeps a mid-file BOM as content, as the byte rule does.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const cursor = new JsonlCursor();
  const lines: { text: string; line: number }[] = [];
  let start = 0;
  while (start < bytes.length) {
    let newline = bytes.indexOf(10, start);
    if (newline === -1) newline = bytes.length;
    if (cursor.take(bytes, start, newline)) {
      lines.push({
        text: decoder.decode(bytes.subarray(cursor.begin, cursor.stop)),
        line: cursor.line,
      });
    }
    start = newline + 1;
  }
  return lines;
}
