import { DatasetParseError, InvalidOptionError } from "../core/errors.js";
import { readDataset } from "../node/dataset.js";
import { describeEntry, keepError } from "./batch.js";
import type { RunError } from "./batch.js";
import { planRun } from "./plan-run.js";
import { resolveRunOptions } from "./resolve-run.js";
import type { EvaluateToFileOptions } from "./run-options.js";
import { inShard } from "./shard.js";

/** What a dry run found: the cases it read, the ones it could not, and the metrics it made. */
export interface DryRunResult {
  /** Cases read (of this shard, when the run has one). */
  readonly cases: number;
  /** Cases that cannot be read, and the first few of them. */
  readonly unreadable: number;
  readonly errors: readonly RunError[];
  /** The metrics the run would score, by name. */
  readonly metrics: readonly string[];
}

/**
 * Everything `evaluateToFile` would check before it scores, and nothing more: its options, its
 * metrics (made, judges set up but never asked), and every case of the dataset read. The results
 * file is left alone. Notes on cases go to `onNote`, as in a run.
 */
export async function dryRun<TCase extends object>(
  options: EvaluateToFileOptions<TCase>,
): Promise<DryRunResult> {
  const resolved = resolveRunOptions(options);
  const { metrics } = planRun(options, resolved);
  const names = metrics.map((metric) => metric.name);
  const { file, shard, normalizeNames } = resolved;
  if (file === undefined) {
    throw new InvalidOptionError({
      option: "testCases",
      value: undefined,
      message:
        "dryRun reads a dataset file: give dataset (cases given in code are checked as they are scored)",
    });
  }
  let cases = 0;
  let unreadable = 0;
  let position = 0;
  const errors: RunError[] = [];
  for await (const entry of readDataset(file, { normalizeNames })) {
    const where = describeEntry(entry, position++);
    if (!inShard(shard, where.index)) continue;
    if (DatasetParseError.isInstance(entry)) {
      unreadable++;
      keepError(errors, { id: where.id, message: entry.message });
      continue;
    }
    cases++;
    for (const note of entry.notes ?? []) options.onNote?.(`${entry.id}: ${note}`);
  }
  return { cases, unreadable, errors, metrics: names };
}
