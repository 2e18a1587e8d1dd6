/**
 * Whether `text` matches a glob: `*` any run of characters (none included), and, with
 * `question`, `?` exactly one; every other character stands for itself. Greedy with one
 * backtrack point (the last `*`), so at most |glob| × |text| steps whatever the input, never the
 * exponential backtracking of a regular expression built from the glob.
 */
export function globMatches(glob: string, text: string, question = true): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const char = glob[g] as string | undefined;
    if (char === "*") {
      star = g++;
      resume = t;
    } else if (char !== undefined && (char === text[t] || (question && char === "?"))) {
      g++;
      t++;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (glob[g] === "*") g++;
  return g === glob.length;
}
