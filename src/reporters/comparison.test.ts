import { describe, expect, it } from "vitest";
import type { RunComparison } from "../core/comparison.js";
import { createSummaryBuilder } from "../core/summary.js";
import { formatComparison } from "./comparison.js";
import { formatHtmlReport } from "./html.js";
import { formatMarkdownReport } from "./markdown.js";

const hostile = "<img src=x onerror=alert(1)>|`x`\u001b[2J";
const comparison: RunComparison = {
  tolerance: 0,
  metrics: [{ name: "m", meanBefore: 0.9, meanAfter: 0.8, passRateBefore: 1, passRateAfter: 0.5 }],
  newlyFailed: [
    {
      id: hostile,
      before: "passed",
      after: "failed",
      scores: [{ metric: "m", before: 1, after: 0 }],
    },
  ],
  newlyErrored: [],
  newlyPassed: [],
  scoreDropped: [],
  scoreRose: [],
  onlyInBaseline: [],
  onlyInCurrent: [],
  regressions: 1,
};
const summary = createSummaryBuilder(["m"]).summary({ durationMs: 1 });

describe("a comparison with a baseline", () => {
  it("prints the metrics, the verdict and the changed cases, escaping what the data holds", () => {
    const text = formatComparison(comparison, { baseline: "base.jsonl" });
    expect(text).toContain("m: mean 0.90 → 0.80 (−0.10), pass rate 100% → 50% (−50.0 pts)");
    expect(text).toContain("1 regressed (1 newly failed");
    expect(text).not.toContain("\u001b[2J");
  });

  it("is a Markdown section and an HTML section that nothing in the data can break", () => {
    const markdown = formatMarkdownReport({
      summary: summary,
      comparison: { comparison, baseline: "base.jsonl" },
    });
    expect(markdown).toContain("### ❌ Compared with base.jsonl");
    expect(markdown).not.toContain("<img");
    expect(markdown).not.toMatch(/\| <img|[^\\]\|`x`/);
    const html = formatHtmlReport({
      summary,
      metrics: ["m"],
      records: [],
      comparison: { comparison, baseline: "base<b>.jsonl" },
    });
    expect(html).toContain("<h2>Compared with base&lt;b&gt;.jsonl</h2>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img src=x");
  });
});
