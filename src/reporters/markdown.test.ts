import { describe, expect, it } from "vitest";
import { sampleRecords, summaryOf } from "../../test/support/records.js";
import { formatMarkdownReport } from "./markdown.js";

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
