/** One of `count` shards of a dataset: the cases whose position mod `count` is `index`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Whether the case at a dataset position belongs to the shard (every case, without one). */
export function inShard(shard: Shard | undefined, position: number): boolean {
  return shard === undefined || position % shard.count === shard.index;
}

/** Where a case at a dataset position stands in a run. */
export type CasePlace =
  /** Another shard's. */
  | "outside"
  /** Finished by the run this one resumes. */
  | "done"
  /** Past the run's limit: left for a later run (`--resume`). */
  | "later"
  | "run";

/**
 * Places each case of a run in dataset order, and counts them: the cases of the shard
 * (`datasetCases`), and whether the limit left any for later. The one rule for every path.
 */
export function createCasePlacer(input: {
  readonly shard?: Shard | undefined;
  /** The positions a selection chose, when the run has one: the others are outside it. */
  readonly chosen?: ReadonlySet<number> | undefined;
  readonly done: (position: number) => boolean;
  /** Cases to run at most (those not done). */
  readonly limit?: number | undefined;
  readonly onDone: () => void;
}) {
  let datasetCases = 0;
  let selected = 0;
  let limited = false;
  return {
    place(position: number): CasePlace {
      if (!inShard(input.shard, position)) return "outside";
      if (input.chosen !== undefined && !input.chosen.has(position)) return "outside";
      datasetCases++;
      if (input.done(position)) {
        input.onDone();
        return "done";
      }
      if (input.limit !== undefined && selected >= input.limit) {
        limited = true;
        return "later";
      }
      selected++;
      return "run";
    },
    /** Cases of the shard seen so far. */
    datasetCases: () => datasetCases,
    /** Whether a case was left for later by the limit (reading may stop there). */
    limited: () => limited,
  };
}

export type CasePlacer = ReturnType<typeof createCasePlacer>;
