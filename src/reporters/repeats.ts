import type { RepeatedCase, RepeatSummary } from "../core/repeats.js";
import { formatRate } from "./format.js";

/** How many runs the cases had: "4 runs each", or "2–5 runs each". */
function runsEach(repeats: RepeatSummary): string {
  const most = repeats.byK.length;
  let fewest = most;
  while (fewest > 1 && repeats.byK[fewest - 1].cases < repeats.cases) fewest--;
  const span = fewest === most ? String(most) : `${fewest}–${most}`;
  return `${span} run${most === 1 ? "" : "s"} each`;
}

/**
 * Repeated runs in a sentence: cases and runs, pass@k (some run passed) and pass^k (every run
 * passed) with k each case's runs, and the flaky cases.
 */
export function repeatsVerdict(repeats: RepeatSummary): string {
  const by = repeats.by === undefined ? "" : ` by ${repeats.by}`;
  const ungrouped =
    repeats.ungrouped > 0
      ? `; ${repeats.ungrouped} run${repeats.ungrouped === 1 ? "" : "s"} without a group`
      : "";
  return `repeated runs${by}: ${repeats.cases} cases, ${runsEach(repeats)}: pass@k ${formatRate(repeats.passAtK)}, pass^k ${formatRate(repeats.passHatK)}, ${repeats.flaky} flaky${ungrouped}`;
}

/** The estimates at each k, as table rows: k, cases with at least k runs, pass@k, pass^k. */
export function repeatsRows(repeats: RepeatSummary): string[][] {
  return repeats.byK.map((row) => [
    String(row.k),
    String(row.cases),
    formatRate(row.passAtK),
    formatRate(row.passHatK),
  ]);
}

/** A case of repeated runs by name: its id, or its metadata field and value ("task_id 3"). */
export function repeatedCaseName(item: RepeatedCase, by: RepeatSummary["by"]): string {
  return by === undefined || by === "id" ? item.key : `${by.slice("metadata.".length)} ${item.key}`;
}

/** A flaky case in a few words: "task_id 3: 1 of 4 runs passed". */
export function flakyCase(item: RepeatedCase, by: RepeatSummary["by"]): string {
  return `${repeatedCaseName(item, by)}: ${item.passed} of ${item.runs} runs passed`;
}
