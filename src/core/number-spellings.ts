import { childPath } from "./json.js";

/**
 * How whole numbers were written in JSON text when written with a fraction or an exponent
 * (`3.0`, `3e0`, `1.5e1`), by JSON path (`$.limit`, `$.ids[2]`): what `JSON.parse` forgets, and
 * what tells a float from an integer for a schema that declares `integer`.
 */
export type NumberSpellings = Readonly<Record<string, string>>;

// A fraction of zeros (3.0, 3.00e1), or an exponent (1.5e1): text without either has no such
// number, and most text with decimals (120.5) has neither.
const mayHaveSpelling = /\d\.0+(?![0-9])|\d[eE]/;

interface Frame {
  readonly array: boolean;
  readonly path: string;
  index: number;
  key: string;
  expectsKey: boolean;
}

/**
 * The spellings of whole numbers written with a fraction or an exponent in `text`, which must be
 * valid JSON (parse it first); undefined when there is none, which is the common case and costs
 * one regular-expression test.
 */
export function numberSpellings(text: string): NumberSpellings | undefined {
  if (!mayHaveSpelling.test(text)) return undefined;
  let found: Record<string, string> | undefined;
  const stack: Frame[] = [];
  const valuePath = (): string => {
    const top = stack.at(-1);
    if (top === undefined) return "$";
    return top.array ? childPath(top.path, top.index) : childPath(top.path, top.key);
  };
  const length = text.length;
  let at = 0;
  while (at < length) {
    const char = text.charCodeAt(at);
    if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      const array = char === 0x5b;
      stack.push({ array, path: valuePath(), index: 0, key: "", expectsKey: !array });
      at++;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      stack.pop();
      at++;
    } else if (char === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top !== undefined) {
        if (top.array) top.index++;
        else top.expectsKey = true;
      }
      at++;
    } else if (char === 0x22 /* " */) {
      let end = at + 1;
      let escaped = false;
      while (end < length) {
        const inner = text.charCodeAt(end);
        if (inner === 0x5c /* \ */) {
          escaped = true;
          end += 2;
        } else if (inner === 0x22) break;
        else end++;
      }
      const top = stack.at(-1);
      if (top !== undefined && !top.array && top.expectsKey) {
        const raw = text.slice(at, end + 1);
        top.key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        top.expectsKey = false;
      }
      at = end + 1;
    } else if (char === 0x2d /* - */ || (char >= 0x30 && char <= 0x39)) {
      let end = at + 1;
      let spelled = false;
      while (end < length) {
        const inner = text.charCodeAt(end);
        if (inner === 0x2e || inner === 0x65 || inner === 0x45) spelled = true;
        else if (!(inner === 0x2b || inner === 0x2d || (inner >= 0x30 && inner <= 0x39))) break;
        end++;
      }
      if (spelled) {
        const token = text.slice(at, end);
        if (Number.isInteger(Number(token))) (found ??= {})[valuePath()] = token;
      }
      at = end;
    } else {
      // Whitespace, a colon, or a letter of true, false or null.
      at++;
    }
  }
  return found;
}

/**
 * The spellings found under `prefix` (a path such as `$[3].params.arguments`), as paths from
 * there (`$.limit`); undefined when there is none.
 */
export function spellingsUnder(
  spellings: NumberSpellings | undefined,
  prefix: string,
): NumberSpellings | undefined {
  if (spellings === undefined) return undefined;
  if (prefix === "$") return spellings;
  let found: Record<string, string> | undefined;
  for (const path of Object.keys(spellings)) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    if (rest === "" || rest.startsWith(".") || rest.startsWith("[")) {
      (found ??= {})[`$${rest}`] = spellings[path];
    }
  }
  return found;
}

// Documents parsed from text, to the text they were parsed from: readers that get a value ask
// here, only when the format keeps numbers outside of argument strings (MCP).
const sources = new WeakMap<object, { text: string; spellings?: NumberSpellings | null }>();

/**
 * Remembers that `value` was parsed from `text`, so {@link sourceSpellings} can find how its
 * numbers were written. Costs nothing when the text has no number with a fraction or exponent.
 */
export function rememberSource(value: unknown, text: string): void {
  if (typeof value !== "object" || value === null || !mayHaveSpelling.test(text)) return;
  sources.set(value, { text });
}

/** The spellings of the text `value` was parsed from, when it was remembered; scanned once. */
export function sourceSpellings(value: unknown): NumberSpellings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const source = sources.get(value);
  if (source === undefined) return undefined;
  if (source.spellings === undefined) source.spellings = numberSpellings(source.text) ?? null;
  return source.spellings ?? undefined;
}
