/** References for the pairing algorithms' tests: small inputs solved by trying everything. */

/** A seeded pseudo-random source in [0, 1) (a linear congruential one): the same draws every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The rows that must be paired before `row`, directly or through others. */
function ancestorsOf(row: number, predecessors: readonly (readonly number[])[]): Set<number> {
  const set = new Set<number>();
  const stack = [...(predecessors[row] ?? [])];
  while (stack.length > 0) {
    const r = stack.pop() as number;
    if (!set.has(r)) {
      set.add(r);
      stack.push(...(predecessors[r] ?? []));
    }
  }
  return set;
}

/**
 * The best total of a partial one-to-one pairing of rows with columns (a pair scores its value;
 * a zero never pairs), by trying every pairing; with `predecessors`, a row's ancestors must take
 * earlier columns than it.
 */
export function bruteForceBest(
  values: readonly (readonly number[])[],
  predecessors: readonly (readonly number[])[] = [],
): number {
  const rows = values.length;
  const cols = values[0]?.length ?? 0;
  const ancestors = Array.from({ length: rows }, (_, row) => ancestorsOf(row, predecessors));
  const ordered = (assignment: readonly number[]): boolean =>
    assignment.every(
      (col, row) =>
        col === -1 || [...ancestors[row]].every((a) => assignment[a] === -1 || assignment[a] < col),
    );
  let best = 0;
  const assignment = new Array<number>(rows).fill(-1);
  const used = new Array<boolean>(cols).fill(false);
  const visit = (row: number, total: number): void => {
    if (row === rows) {
      if (ordered(assignment)) best = Math.max(best, total);
      return;
    }
    visit(row + 1, total);
    for (let c = 0; c < cols; c++) {
      const w = values[row][c];
      if (!used[c] && w > 0) {
        used[c] = true;
        assignment[row] = c;
        visit(row + 1, total + w);
        assignment[row] = -1;
        used[c] = false;
      }
    }
  };
  visit(0, 0);
  return best;
}

/** A `rows` × `cols` matrix of scores: 0 at a `zeros` share of cells, else a multiple of 1 / `steps`. */
export function randomScores(
  random: () => number,
  rows: number,
  cols: number,
  { zeros, steps }: { readonly zeros: number; readonly steps: number },
): number[][] {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () =>
      random() < zeros ? 0 : Math.max(1, Math.ceil(random() * steps)) / steps,
    ),
  );
}
