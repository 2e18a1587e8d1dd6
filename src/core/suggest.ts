/**
 * Edit distance counting a swap of two neighbouring characters as one edit (the commonest typo,
 * `junti` for `junit`), stopping early once it is over `limit` (then `limit + 1`).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], before[j - 2] + 1);
      }
      if (current[j] < best) best = current[j];
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** A name as compared for suggestions: lower case, without `_` and `-`. */
function simple(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/**
 * The known name closest to `given`, for a "did you mean": the same name in another case or with
 * other separators, else one within a few edits; `undefined` when none is close.
 */
export function closestName(given: string, known: Iterable<string>): string | undefined {
  const target = simple(given);
  const limit = Math.max(1, Math.min(3, Math.floor(target.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of known) {
    const d = editDistance(target, simple(name), limit);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` for the known name closest to `given`, or "" when none is close. */
export function didYouMean(given: string, known: Iterable<string>): string {
  const guess = closestName(given, known);
  return guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`;
}
