import { candidatesOf } from "./score-matrix.js";
import type { Pair, ScoreMatrix } from "./score-matrix.js";

/** The most columns one step may hold for `steppedOrderPairs` (its states are subsets of a step). */
export const maxStepColumns = 12;

/** A pairing built one pair at a time, sharing what came before. */
interface Path {
  readonly row: number;
  readonly col: number;
  readonly previous: Path | undefined;
}

interface Best {
  readonly total: number;
  readonly path: Path | undefined;
}

const start: Best = { total: 0, path: undefined };

/**
 * The best pairing of rows in sequence (expected calls, in order) with columns grouped in steps
 * (the calls of one assistant turn), where the columns of one step have no order among themselves:
 * when row `i` comes before row `j` and both are paired, `i`'s column is in the same step as `j`'s
 * or an earlier one. Unpaired rows and columns are allowed. `steps[col]` numbers each column's step
 * from 0, in order. Exact: a dynamic program over the rows whose state is the step of the last
 * pair and which of that step's columns are taken; steps of at most {@link maxStepColumns}.
 */
export function steppedOrderPairs(matrix: ScoreMatrix, steps: readonly number[]): Pair[] {
  let stepCount = 0;
  for (const step of steps) stepCount = Math.max(stepCount, step + 1);
  const bitOf = new Array<number>(matrix.cols);
  const filled = new Array<number>(stepCount).fill(0);
  for (let col = 0; col < matrix.cols; col++) {
    bitOf[col] = filled[steps[col]]++;
    if (bitOf[col] >= maxStepColumns) {
      throw new RangeError(`a step holds more than ${maxStepColumns} columns`);
    }
  }
  // The states of each step: which of its columns are taken, and the best pairing that got there.
  const states = Array.from({ length: stepCount }, () => new Map<number, Best>());
  // The best state of the steps before each one (a Fenwick tree of prefix maxima; totals only rise).
  const tree = new Array<Best>(stepCount + 1).fill(start);
  const raise = (step: number, best: Best): void => {
    for (let at = step + 1; at <= stepCount; at += at & -at) {
      if (best.total > tree[at].total) tree[at] = best;
    }
  };
  const bestBefore = (step: number): Best => {
    let best = start;
    for (let at = step; at > 0; at -= at & -at) if (tree[at].total > best.total) best = tree[at];
    return best;
  };

  const pending: { step: number; mask: number; total: number; from: Best; col: number }[] = [];
  for (let row = 0; row < matrix.rows; row++) {
    pending.length = 0;
    for (const col of candidatesOf(matrix, row)) {
      const score = matrix.score(row, col);
      if (score <= 0) continue;
      const step = steps[col];
      const bit = 1 << bitOf[col];
      // The first pair in this step, after the best of the steps before...
      const before = bestBefore(step);
      pending.push({ step, mask: bit, total: before.total + score, from: before, col });
      // ...or one more pair in a step already begun, with a column it has not taken.
      for (const [mask, best] of states[step]) {
        if ((mask & bit) === 0) {
          pending.push({ step, mask: mask | bit, total: best.total + score, from: best, col });
        }
      }
    }
    // Applied once the row's options are all read: a row pairs at most once.
    for (const { step, mask, total, from, col } of pending) {
      const current = states[step].get(mask);
      if (current !== undefined && current.total >= total) continue;
      const best: Best = {
        total,
        path: { row, col, previous: from.path },
      };
      states[step].set(mask, best);
      raise(step, best);
    }
  }

  const best = bestBefore(stepCount);
  const pairs: Pair[] = [];
  for (let path = best.path; path !== undefined; path = path.previous) {
    pairs.push({ row: path.row, col: path.col, score: matrix.score(path.row, path.col) });
  }
  return pairs.sort((a, b) => a.row - b.row);
}
