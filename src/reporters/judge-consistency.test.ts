import { describe, expect, it } from "vitest";
import type { MetricEntry } from "../core/case-record.js";
import { addConsistency, consistencyLine, noConsistency } from "./judge-consistency.js";

const scored = (details: unknown): MetricEntry => ({
  status: "scored",
  score: 1,
  threshold: 1,
  success: true,
  details,
});

describe("judge self-consistency", () => {
  it("counts each sampled verdict, a run's or a call's, and how many the samples were unanimous on", () => {
    const entries: MetricEntry[] = [
      // task-completion: the run's verdict, 2 of 3 samples.
      scored({
        verdict: "completed",
        agreement: 2 / 3,
        samples: ["completed", "completed", "not_completed"],
      }),
      // argument-correctness: each call's verdict.
      scored({
        calls: [
          { agreement: 1, samples: ["right", "right", "right"] },
          { agreement: 1, samples: ["wrong", "wrong", "wrong"] },
        ],
        samples: 3,
      }),
      // tool-selection: a score's agreement over its samples' scores.
      {
        status: "not-evaluable",
        reason: "r",
        details: { agreement: 0.4, scores: [0, 1, 0.5, 1, 0] },
      },
      // One sample: nothing to agree on; errors and skips have no verdict.
      scored({ verdict: "completed", agreement: 1, samples: ["completed"] }),
      { status: "skipped", reason: "no calls" },
    ];
    const tally = entries.reduce(addConsistency, noConsistency);
    expect(tally).toEqual({ verdicts: 4, unanimous: 2, agreementSum: 2 / 3 + 1 + 1 + 0.4 });
    expect(consistencyLine(tally)).toBe(
      "judge self-consistency: 2 of 4 sampled verdicts unanimous (50%), mean agreement 76.7%",
    );
  });

  it("says nothing when no verdict was sampled", () => {
    expect(
      consistencyLine(addConsistency(noConsistency, scored({ agreement: 1 }))),
    ).toBeUndefined();
  });
});
