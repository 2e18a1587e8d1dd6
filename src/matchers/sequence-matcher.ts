/**
 * Python's `difflib.SequenceMatcher(None, a, b).ratio()`, ported faithfully: Ratcliff/Obershelp
 * matching (longest matching block, then recursively the parts left and right of it), with the
 * "auto-junk" rule that ignores, in `b`, characters that make up more than 1% of a `b` of 200 or
 * more characters when looking for the longest block. Strings are compared by Unicode code point,
 * as Python does, not by UTF-16 unit.
 *
 * @returns 2·M / T where M is the number of matching characters and T the total length; 1 when
 * both strings are empty.
 */
export function sequenceMatcherRatio(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const length = left.length + right.length;
  if (length === 0) return 1;
  return (2 * matchingCharacters(left, right)) / length;
}

function matchingCharacters(a: readonly string[], b: readonly string[]): number {
  // Where each character of b occurs, ascending.
  const positions = new Map<string, number[]>();
  b.forEach((character, index) => {
    const list = positions.get(character);
    if (list) list.push(index);
    else positions.set(character, [index]);
  });
  if (b.length >= 200) {
    const popular = Math.floor(b.length / 100) + 1;
    for (const [character, list] of positions) {
      if (list.length > popular) positions.delete(character);
    }
  }

  // The longest matching block in a[aLow, aHigh) and b[bLow, bHigh), written to `match` as
  // [i, j, size] (an out-parameter: tuples returned and destructured in this loop cost more than
  // the matching itself).
  const match = [0, 0, 0];
  const longestMatch = (aLow: number, aHigh: number, bLow: number, bHigh: number): void => {
    let bestI = aLow;
    let bestJ = bLow;
    let bestSize = 0;
    // Length of the match ending at a[i - 1] and b[j], by j.
    let runs = new Map<number, number>();
    for (let i = aLow; i < aHigh; i++) {
      const next = new Map<number, number>();
      const list = positions.get(a[i]);
      if (list) {
        for (const j of list) {
          if (j < bLow) continue;
          if (j >= bHigh) break;
          const size = (runs.get(j - 1) ?? 0) + 1;
          next.set(j, size);
          if (size > bestSize) {
            bestI = i - size + 1;
            bestJ = j - size + 1;
            bestSize = size;
          }
        }
      }
      runs = next;
    }
    // Extend over characters the auto-junk rule hid (no character is junk without a junk function).
    while (bestI > aLow && bestJ > bLow && a[bestI - 1] === b[bestJ - 1]) {
      bestI--;
      bestJ--;
      bestSize++;
    }
    while (
      bestI + bestSize < aHigh &&
      bestJ + bestSize < bHigh &&
      a[bestI + bestSize] === b[bestJ + bestSize]
    ) {
      bestSize++;
    }
    match[0] = bestI;
    match[1] = bestJ;
    match[2] = bestSize;
  };

  let matches = 0;
  // Pending ranges, four numbers each: aLow, aHigh, bLow, bHigh.
  const queue: number[] = [0, a.length, 0, b.length];
  while (queue.length > 0) {
    const bHigh = queue.pop() as number;
    const bLow = queue.pop() as number;
    const aHigh = queue.pop() as number;
    const aLow = queue.pop() as number;
    longestMatch(aLow, aHigh, bLow, bHigh);
    const i = match[0];
    const j = match[1];
    const size = match[2];
    if (size === 0) continue;
    matches += size;
    if (aLow < i && bLow < j) queue.push(aLow, i, bLow, j);
    if (i + size < aHigh && j + size < bHigh) queue.push(i + size, aHigh, j + size, bHigh);
  }
  return matches;
}
