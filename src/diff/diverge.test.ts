import { describe, expect, it } from "vitest";
import type { JsonObject } from "../core/json.js";
import { resolveDiffOptions } from "./diff-rules.js";
import type { DiffCall, DiffRun } from "./diff-run.js";
import { divergeCase, divergeRuns, resolveFlakyRate } from "./diverge.js";

const call = (name: string, args: JsonObject = {}): DiffCall => ({ name, arguments: args });
const run = (...calls: DiffCall[]): DiffRun => ({ turns: [{ calls }] });
const rules = resolveDiffOptions();

const lookup = call("lookup_order", { order: "A1" });
const refund = (amount: number) => call("refund_order", { order: "A1", amount });
const search = call("search_faq", { q: "refunds" });

describe("divergeCase", () => {
  it("calls a divergence the baseline never shows a regression, with both counts", () => {
    const baseline = Array.from({ length: 5 }, () => run(lookup, refund(30)));
    const result = divergeCase({
      id: "c1",
      baseline,
      candidate: [run(lookup, refund(300)), run(lookup, refund(300))],
      rules,
      flakyRate: 0,
    });
    expect(result).toMatchObject({ baselineRuns: 5, runs: 2, regressions: 1, flaky: 0 });
    expect(result.places[0]).toMatchObject({
      runs: 2,
      baselineRuns: 0,
      verdict: "regression",
      difference: { kind: "arguments", path: "$.amount", before: 30, after: 300 },
    });
  });

  it("sets aside a call the baseline made in 2 of 5 runs as flaky", () => {
    const baseline = [
      run(lookup, refund(30)),
      run(lookup, search, refund(30)),
      run(lookup, refund(30)),
      run(lookup, search, refund(30)),
      run(lookup, refund(30)),
    ];
    const result = divergeCase({
      id: "c1",
      baseline,
      candidate: [run(lookup, search, refund(30))],
      rules,
      flakyRate: 0,
    });
    expect(result.places).toHaveLength(1);
    expect(result.places[0]).toMatchObject({
      baselineRuns: 2,
      verdict: "flaky",
      difference: { kind: "added", name: "search_faq" },
    });
    expect(result).toMatchObject({ regressions: 0, flaky: 1 });
    // Allowed up to 40% of the baseline's runs, the same place is a regression again.
    const strict = divergeCase({
      id: "c1",
      baseline,
      candidate: [run(lookup, search, refund(30))],
      rules,
      flakyRate: 0.4,
    });
    expect(strict).toMatchObject({ regressions: 1, flaky: 0 });
  });

  it("compares with the baseline's most typical run, not its first", () => {
    const baseline = [
      run(lookup, search, refund(30)),
      run(lookup, refund(30)),
      run(lookup, refund(30)),
    ];
    const result = divergeCase({
      id: "c1",
      baseline,
      candidate: [run(lookup, refund(30))],
      rules,
      flakyRate: 0,
    });
    expect(result.places).toEqual([]);
  });

  it("keeps the first divergence of the first new run that parts first, and counts the others", () => {
    const result = divergeCase({
      id: "c1",
      baseline: [run(lookup, refund(30))],
      candidate: [run(lookup, refund(30)), run(refund(30)), run(refund(30), call("escalate"))],
      rules,
      flakyRate: 0,
    });
    expect(result.places.map((at) => [at.difference.kind, at.runs])).toEqual([
      ["dropped", 2],
      ["added", 1],
    ]);
  });

  it("records a case too large to align as an error, and goes on", () => {
    const many = (name: string) => Array.from({ length: 1500 }, (_, n) => call(name, { n }));
    const huge = run(...many("a"));
    const other = run(...many("a").map((c) => ({ ...c, arguments: { n: -1 } })));
    const result = divergeRuns({
      baseline: new Map([
        ["big", [huge]],
        ["small", [run(lookup)]],
      ]),
      candidate: new Map([
        ["big", [other]],
        ["small", [run(lookup, search)]],
        ["new", [run(lookup)]],
      ]),
      rules,
      flakyRate: 0,
    });
    expect(result).toMatchObject({
      compared: 2,
      errors: 1,
      regressions: 1,
      onlyInCurrent: ["new"],
    });
    expect(result.diverged[0].error).toMatch(/too large to align/);
    expect(result.diverged[1]).toMatchObject({ id: "small", regressions: 1 });
  });

  it("refuses a flaky rate outside [0, 1)", () => {
    expect(resolveFlakyRate(undefined)).toBe(0);
    expect(() => resolveFlakyRate(1)).toThrow(/flakyRate/);
    expect(() => resolveFlakyRate("0.2")).toThrow(/flakyRate/);
  });
});
