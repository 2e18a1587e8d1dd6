/** What a run reports as it reads and scores, for a progress bar. */
export interface RunProgress {
  /** A case finished (`status` tallies), or was skipped as already done. */
  tick(status: "passed" | "failed" | "error" | "skipped"): void;
  /** Bytes of the dataset read so far. */
  bytes(read: number): void;
}

export const noProgress: RunProgress = {
  tick() {
    // Nothing to show.
  },
  bytes() {
    // Nothing to show.
  },
};
