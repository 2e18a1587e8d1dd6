import { describe, expect, it } from "vitest";
import { sampleRecords, summaryOf } from "../../test/support/records.js";
import type { JsonObject } from "../core/json.js";
import { resolveDiffOptions } from "../diff/diff-rules.js";
import { divergeRuns } from "../diff/diverge.js";
import { divergenceMarkdown, formatMarkdownReport } from "./markdown.js";

describe("formatMarkdownReport", () => {
  const records = sampleRecords();
  const text = formatMarkdownReport({
    summary: summaryOf(records),
    title: "agent evals",
    failures: records.filter((record) => record.status !== "passed"),
  });

  it("states the verdict and a row per metric", () => {
    expect(text).toMatch(/^## ❌ agent evals\n/);
    expect(text).toContain("**4** cases: **1** passed, **1** failed, **2** errors");
    expect(text).toMatch(
      /\| Tool Call Accuracy \| 2 \| 0\.63 \| 0\.25 \| 1\.00 \| 50% \| 1 \| 1 \|/,
    );
  });

  it("lists failing cases with reasons that cannot break the table or inject HTML", () => {
    const row = text.split("\n").find((line) => line.startsWith("| fail"));
    expect(row).toBeDefined();
    expect(row).not.toContain("<script>");
    expect(row).not.toContain("<img");
    expect(row).toContain("&lt;img src=x onerror=alert(1)&gt;");
    // Every unescaped pipe is a cell border: 4 of them for 3 cells.
    expect(row?.replace(/\\\|/g, "").split("|")).toHaveLength(5);
    expect(text).toContain("| case-4 | error | line 4: not valid JSON |");
  });
});

describe("divergenceMarkdown", () => {
  const rules = resolveDiffOptions();
  const call = (name: string, args: JsonObject) => ({ name, arguments: args });
  const comparison = divergeRuns({
    baseline: new Map([
      [
        "a|b",
        [{ turns: [{ calls: [call("lookup", { q: "x" }), call("refund", { amount: 30 })] }] }],
      ],
      ["same", [{ turns: [{ calls: [call("lookup", { q: "x" })] }] }]],
    ]),
    candidate: new Map([
      // An argument holding a fence: the block's own fence must be longer.
      [
        "a|b",
        [{ turns: [{ calls: [call("lookup", { q: "```x" }), call("refund", { amount: 30 })] }] }],
      ],
      ["same", [{ turns: [{ calls: [call("lookup", { q: "x" })] }] }]],
    ]),
    rules,
    flakyRate: 0,
  });
  const lines = divergenceMarkdown(comparison, 20);

  it("shows each case that parts as a diff of its calls, the place marked", () => {
    expect(lines[0]).toBe("#### ❌ Calls compared with the baseline");
    expect(lines).toContain(
      "1 of 2 cases part from the baseline: 1 regression, no noise set aside",
    );
    const open = lines.indexOf("````diff");
    expect(open).toBeGreaterThan(0);
    expect(lines.slice(open + 1, open + 5)).toEqual([
      '- 1.1 lookup({"q":"x"})',
      '+ 1.1 lookup({"q":"```x"})   ← parts here',
      '  1.2 refund({"amount":30})',
      "````",
    ]);
  });

  it("keeps a case id from breaking the Markdown around it", () => {
    expect(lines.find((line) => line.startsWith("**"))).toMatch(/^\*\*a\\\|b\*\* parts from/);
  });
});
