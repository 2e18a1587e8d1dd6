import type { DecisionBand } from "../decisions.js";

/** A decision model's probability that a unit passes, and whether its label passes it. */
export interface LabelledProbability {
  readonly probability: number;
  readonly passes: boolean;
}

/** How well probabilities match labels: the mean squared gap, 0 for a perfect and certain judge. */
export function brierScore(points: readonly LabelledProbability[]): number | undefined {
  if (points.length === 0) return undefined;
  let sum = 0;
  for (const { probability, passes } of points) sum += (probability - (passes ? 1 : 0)) ** 2;
  return sum / points.length;
}

/**
 * Expected calibration error over `bins` equal bins of probability: the gap between how often
 * units of a bin pass and the probability the judge gave them, weighted by the bin's share.
 */
export function expectedCalibrationError(
  points: readonly LabelledProbability[],
  bins = 10,
): number | undefined {
  if (points.length === 0) return undefined;
  const count = new Array<number>(bins).fill(0);
  const passed = new Array<number>(bins).fill(0);
  const given = new Array<number>(bins).fill(0);
  for (const { probability, passes } of points) {
    const bin = Math.min(bins - 1, Math.floor(probability * bins));
    count[bin]++;
    given[bin] += probability;
    if (passes) passed[bin]++;
  }
  let error = 0;
  for (let bin = 0; bin < bins; bin++) {
    if (count[bin] === 0) continue;
    error +=
      (count[bin] / points.length) * Math.abs(passed[bin] / count[bin] - given[bin] / count[bin]);
  }
  return error;
}

/**
 * The band that holds false passes and false fails to `target` on labelled units: `high` the
 * lowest line with at most `target` of the units the labels fail at or above it, `low` the
 * highest with at most `target` of the units they pass at or below it; between them the judge
 * cannot tell. When the two cross, the judge separates the sides well enough to need no band:
 * `high` is then both. A probability of exactly 0 always fails and one of 1 always passes.
 */
export function fitDecisionBand(
  points: readonly LabelledProbability[],
  target: number,
): DecisionBand {
  const failing = points.filter((point) => !point.passes).map((point) => point.probability);
  const passing = points.filter((point) => point.passes).map((point) => point.probability);
  const values = [...new Set([0, 1, ...points.map((point) => point.probability)])].sort(
    (a, b) => a - b,
  );
  // Lines at every probability and midway between neighbours (rounded where that stays between).
  const lines = [...values];
  for (let i = 1; i < values.length; i++) lines.push(between(values[i - 1], values[i]));
  lines.sort((a, b) => a - b);
  const share = (of: readonly number[], inside: (p: number) => boolean) =>
    of.length === 0 ? 0 : of.filter(inside).length / of.length;
  let high = 1;
  for (const line of lines) {
    if (line < high && share(failing, (p) => p >= line) <= target) high = line;
  }
  let low = 0;
  for (const line of lines) {
    if (line > low && share(passing, (p) => p <= line) <= target) low = line;
  }
  // Crossed: one line holds both sides (below high, fewer passing units than below low).
  return low > high ? { low: high, high } : { low, high };
}

/** A line strictly between `a` and `b`: their midpoint, to four decimals when that stays between. */
function between(a: number, b: number): number {
  const middle = (a + b) / 2;
  const rounded = Math.round(middle * 10_000) / 10_000;
  return rounded > a && rounded < b ? rounded : middle;
}
