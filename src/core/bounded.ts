/**
 * Long values, shown bounded: results files, reasons and reports show at most so many characters
 * of a value, with its full length and a hash, so that a case with a 64 MiB argument is scored and
 * reported like any other.
 */

/** Characters of a string kept in results files and reports. */
export const MAX_SHOWN_STRING = 4096;
/** Elements of an array kept in results files and reports. */
export const MAX_SHOWN_ITEMS = 1000;
/** Levels of nesting kept in results files and reports: deeper values are cut (said so). */
export const MAX_SHOWN_DEPTH = 1000;

/** A 53-bit hash of a text (cyrb53), in hex: enough to tell two long values apart. */
export function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

/** `text` itself, or its start with its full length and hash when it is longer than `max`. */
export function cutText(text: string, max = MAX_SHOWN_STRING): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [cut: ${text.length} characters in all, hash ${textHash(text)}]`;
}

function needsCut(value: unknown, maxString: number, depth: number): boolean {
  if (typeof value === "string") return value.length > maxString;
  if (typeof value !== "object" || value === null) return false;
  if (depth >= MAX_SHOWN_DEPTH) return true;
  if (Array.isArray(value)) {
    if (value.length > MAX_SHOWN_ITEMS) return true;
    for (const item of value) if (needsCut(item, maxString, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (needsCut((value as Record<string, unknown>)[key], maxString, depth + 1)) return true;
  }
  return false;
}

function cut(value: unknown, maxString: number, depth: number): unknown {
  if (typeof value === "string") return cutText(value, maxString);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_SHOWN_DEPTH) {
    return `… [cut: ${Array.isArray(value) ? "a list" : "an object"} nested more than ${MAX_SHOWN_DEPTH} levels deep]`;
  }
  if (Array.isArray(value)) {
    const kept = value.length > MAX_SHOWN_ITEMS ? value.slice(0, MAX_SHOWN_ITEMS) : value;
    const out = kept.map((item: unknown) => cut(item, maxString, depth + 1));
    if (value.length > MAX_SHOWN_ITEMS) {
      out.push(`… [cut: ${value.length} items in all]`);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = cut((value as Record<string, unknown>)[key], maxString, depth + 1);
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = item;
  }
  return out;
}

/**
 * `value` as it is when it holds no string longer than `maxString`, no array longer than
 * {@link MAX_SHOWN_ITEMS} and nothing nested deeper than {@link MAX_SHOWN_DEPTH}; else a copy
 * with those cut ({@link cutText}; arrays keep their first elements and say how many there were;
 * what is nested too deep becomes a note saying so). Other values pass through untouched.
 */
export function boundValue<T>(value: T, maxString = MAX_SHOWN_STRING): T {
  return needsCut(value, maxString, 0) ? (cut(value, maxString, 0) as T) : value;
}
