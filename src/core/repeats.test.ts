import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createRepeatTally,
  groupKeyOf,
  maxListedRepeats,
  passAtK,
  passHatK,
  readGroupBy,
} from "./repeats.js";
import { createSummaryBuilder, FlatOutcome } from "./summary.js";

const near = (value: number): unknown => expect.closeTo(value, 12);

/** Every way to draw k of n runs (c of them passing): the shares where some, and all, passed. */
function drawn(n: number, c: number, k: number): { some: number; all: number } {
  let draws = 0;
  let some = 0;
  let all = 0;
  const pick = (from: number, left: number, passes: number) => {
    if (left === 0) {
      draws++;
      if (passes > 0) some++;
      if (passes === k) all++;
      return;
    }
    for (let run = from; run <= n - left; run++)
      pick(run + 1, left - 1, passes + (run < c ? 1 : 0));
  };
  pick(0, k, 0);
  return { some: some / draws, all: all / draws };
}

describe("pass@k and pass^k", () => {
  it("are the shares of all draws of k runs where some, and every, run passed", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 9 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.integer({ min: 0, max: n }),
              fc.integer({ min: 1, max: n }),
            ),
          ),
        ([n, c, k]) => {
          const { some, all } = drawn(n, c, k);
          expect(passAtK(n, c, k)).toBeCloseTo(some, 12);
          expect(passHatK(n, c, k)).toBeCloseTo(all, 12);
        },
      ),
    );
  });

  it("stay finite for many runs", () => {
    expect(passHatK(1000, 500, 3)).toBeCloseTo((500 * 499 * 498) / (1000 * 999 * 998), 12);
    expect(passAtK(1000, 0, 50)).toBe(0);
    expect(passHatK(1000, 1000, 1000)).toBe(1);
  });
});

describe("groups of runs", () => {
  it("groups by id when a case has a run number, or by what groupBy names", () => {
    expect(groupKeyOf({ run: 0 }, "a", undefined)).toBe("a");
    expect(groupKeyOf({}, "a", undefined)).toBeUndefined();
    expect(groupKeyOf({}, "a", "id")).toBe("a");
    const metadata = { task: { id: 7 }, ok: true, list: [1], empty: "" };
    expect(groupKeyOf({ metadata }, "a", "metadata.task.id")).toBe("7");
    expect(groupKeyOf({ metadata }, "a", "metadata.ok")).toBe("true");
    expect(groupKeyOf({ metadata }, "a", "metadata.list")).toBeUndefined();
    expect(groupKeyOf({ metadata }, "a", "metadata.empty")).toBeUndefined();
    expect(groupKeyOf({ metadata }, "a", "metadata.toString")).toBeUndefined();
    expect(groupKeyOf({}, "a", "metadata.task")).toBeUndefined();
  });

  it("reads groupBy, and says what it takes", () => {
    expect(readGroupBy("metadata.task_id")).toBe("metadata.task_id");
    for (const bad of ["task_id", "metadata.", "metadata..x", "", 3]) {
      expect(() => readGroupBy(bad, "--group-by")).toThrow(/--group-by takes id or metadata/);
    }
  });

  it("sums runs into pass@k, pass^k and the flaky cases", () => {
    const tally = createRepeatTally();
    const runs: [string | undefined, boolean][] = [
      ["a", true],
      ["b", false],
      ["a", true],
      ["c", true],
      ["b", false],
      ["c", false],
      ["c", true],
      [undefined, true],
    ];
    for (const [key, passed] of runs) tally.add(key, passed);
    const summary = tally.summary("id");
    expect(summary).toEqual({
      by: "id",
      cases: 3,
      runs: 7,
      ungrouped: 1,
      passAtK: 2 / 3,
      passHatK: 1 / 3,
      flaky: 1,
      byK: [
        { k: 1, cases: 3, passAtK: near((1 + 0 + 2 / 3) / 3), passHatK: near((1 + 0 + 2 / 3) / 3) },
        { k: 2, cases: 3, passAtK: near((1 + 0 + 1) / 3), passHatK: near((1 + 0 + 1 / 3) / 3) },
        { k: 3, cases: 1, passAtK: 1, passHatK: 0 },
      ],
      flakyCases: [{ key: "c", runs: 3, passed: 2 }],
      listed: [
        { key: "a", runs: 2, passed: 2 },
        { key: "b", runs: 2, passed: 0 },
        { key: "c", runs: 3, passed: 2 },
      ],
    });
    expect(createRepeatTally().summary()).toBeUndefined();
  });

  it("lists at most maxListedRepeats cases, and counts them all", () => {
    const tally = createRepeatTally();
    for (let at = 0; at <= maxListedRepeats; at++) {
      tally.add(`case-${at}`, true);
      tally.add(`case-${at}`, false);
    }
    const summary = tally.summary();
    expect(summary?.cases).toBe(maxListedRepeats + 1);
    expect(summary?.flaky).toBe(maxListedRepeats + 1);
    expect(summary?.listed).toHaveLength(maxListedRepeats);
    expect(summary?.flakyCases).toHaveLength(maxListedRepeats);
  });

  it("are the same whether the summary gets results or a worker's flat figures", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            group: fc.option(fc.constantFrom("a", "b", "c"), { nil: undefined }),
            status: fc.constantFrom("passed" as const, "failed" as const, "error" as const),
          }),
          { maxLength: 30 },
        ),
        (cases) => {
          const results = createSummaryBuilder(["m"], { groupBy: "id" });
          const flat = createSummaryBuilder(["m"], { groupBy: "id" });
          cases.forEach(({ group, status }, at) => {
            const success = status === "passed";
            results.add({
              id: `x${at}`,
              status,
              ...(group === undefined ? {} : { group }),
              results:
                status === "error"
                  ? [
                      {
                        status: "error",
                        metric: "m",
                        error: { code: "METRIC_FAILED", message: "x" },
                      },
                    ]
                  : [
                      {
                        status: "scored",
                        metric: "m",
                        score: success ? 1 : 0,
                        threshold: 1,
                        success,
                        details: null,
                      },
                    ],
            });
            flat.addFlat({
              id: `x${at}`,
              group,
              status,
              kinds: [status === "error" ? FlatOutcome.error : FlatOutcome.scored],
              scores: [success ? 1 : 0],
              successes: [success ? 1 : 0],
              at: 0,
            });
          });
          expect(flat.summary({ durationMs: 0 })).toEqual(results.summary({ durationMs: 0 }));
        },
      ),
    );
  });
});
