/**
 * A tool output as a judge is shown it, within a length: what decides a call often sits at the
 * end of a long output (a total after the items, the last rows of a listing), so a cut keeps the
 * head and the tail, and JSON is shortened by its values (long strings, long lists), never its
 * keys, before any text is cut.
 */

/** How hard each round shortens JSON values: strings to this length, lists to this many items. */
const rounds: readonly { readonly text: number; readonly items: number }[] = [
  { text: 2000, items: 100 },
  { text: 500, items: 40 },
  { text: 160, items: 16 },
  { text: 60, items: 6 },
  { text: 24, items: 2 },
];

/**
 * `output` as text of at most about `max` characters (the marks of what was cut included): as it
 * is when it fits; JSON (a value, or text that parses as an object or a list) with its long
 * strings and lists shortened in the middle; else the text's head and tail around a mark that
 * says how much was cut.
 */
export function shortenOutput(output: unknown, max: number): string {
  const json = typeof output === "string" ? parsedStructure(output) : output;
  const text = typeof output === "string" ? output : JSON.stringify(output);
  if (text.length <= max) return text;
  if (json !== undefined && typeof json === "object" && json !== null) {
    for (const round of rounds) {
      const shortened = JSON.stringify(shrink(json, round.text, round.items));
      if (shortened.length <= max) return shortened;
    }
  }
  return headAndTail(text, max);
}

/** An object or a list the text is, or undefined. */
function parsedStructure(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `value` with strings over `text` characters and lists over `items` items cut in the middle. */
function shrink(value: unknown, text: number, items: number): unknown {
  if (typeof value === "string") return value.length <= text ? value : headAndTail(value, text);
  if (Array.isArray(value)) {
    const list = value.map((item: unknown) => shrink(item, text, items));
    if (list.length <= items) return list;
    const half = Math.max(1, items >> 1);
    return [
      ...list.slice(0, half),
      `… ${list.length - 2 * half} items cut …`,
      ...list.slice(list.length - half),
    ];
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, shrink(inner, text, items)]),
    );
  }
  return value;
}

/** The text's head and tail, about `max` characters with the mark between them. */
function headAndTail(text: string, max: number): string {
  const keep = Math.max(2, max - 40);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)} … (${cut} characters cut) … ${text.slice(text.length - tail)}`;
}
