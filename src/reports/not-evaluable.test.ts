import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gateVerdict } from "../core/gate.js";
import type { Metric } from "../core/metric.js";
import type { MetricResult } from "../core/metric-result.js";
import { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
import { formatConsoleReport } from "../reporters/console.js";
import { testFolders } from "../../test/support/folders.js";
import { readJsonl } from "../../test/support/folders.js";
import { summarizeResults, writeResultsReports } from "./results-reports.js";

const folder = testFolders("toolscore-not-evaluable-");

/** A judged metric's stand-in: passes, fails, or cannot tell, as the case's input says. */
const verdicts: Metric = {
  name: "Judged",
  measure(testCase): Promise<MetricResult> {
    const said = testCase.input as string;
    if (said === "unsure") {
      return Promise.resolve({
        status: "not-evaluable",
        metric: "Judged",
        reason: "the tool output was cut off",
        details: { samples: 3, agreement: 1 / 3 },
      });
    }
    const score = said === "right" ? 1 : 0;
    return Promise.resolve({
      status: "scored",
      metric: "Judged",
      score,
      threshold: 0.5,
      success: score >= 0.5,
      reason: said,
      details: null,
    });
  },
};

describe("a case a judge could not tell", () => {
  it("is counted apart in the results file, the summary, every report and the gate", async () => {
    const directory = folder();
    const out = path.join(directory, "results.jsonl");
    const testCases = ["right", "unsure", "right", "wrong"].map((input, index) => ({
      id: `case-${index}`,
      input,
    }));
    const { summary } = await evaluateToFile({ testCases, metrics: [verdicts], out });
    expect(summary).toMatchObject({ cases: 4, passed: 2, failed: 1, errors: 0, notEvaluable: 1 });
    expect(summary.metrics[0]).toMatchObject({ scored: 3, notEvaluable: 1, failed: 1 });

    const records = readJsonl(out).filter((line) => (line as { id?: string }).id === "case-1");
    expect(records).toEqual([
      expect.objectContaining({
        status: "not-evaluable",
        metrics: {
          Judged: {
            status: "not-evaluable",
            reason: "the tool output was cut off",
            details: { samples: 3, agreement: 1 / 3 },
          },
        },
      }),
    ]);

    // Read back from the file, as report and --resume read it.
    const read = await summarizeResults(out);
    expect(read.summary).toMatchObject({ passed: 2, failed: 1, notEvaluable: 1 });
    expect(formatConsoleReport({ summary: read.summary })).toContain(
      "4 cases: 2 passed, 1 failed, 0 errors, 1 not evaluable",
    );

    const failing = gateVerdict(read.summary, {});
    expect(failing.text).toBe(
      "gate: 1 of 4 cases failed, 1 not evaluable; every case must pass (no fail_under): exit 1",
    );
    expect(
      gateVerdict(read.summary, { failUnder: 0.6, notEvaluable: "ignore", maxNotEvaluable: 0.5 })
        .text,
    ).toBe("gate: 66.7% passed (1 not evaluable, left out) ≥ fail_under 60%: exit 0");

    const files = {
      junit: path.join(directory, "junit.xml"),
      markdown: path.join(directory, "summary.md"),
      html: path.join(directory, "report.html"),
    };
    await writeResultsReports({ results: out, ...read, source: "cases", ...files, gate: failing });
    expect(readFileSync(files.junit, "utf8")).toContain(
      '<skipped message="not evaluable: the tool output was cut off"/>',
    );
    const markdown = readFileSync(files.markdown, "utf8");
    expect(markdown).toContain("**1** not evaluable");
    expect(markdown).toContain("Judged not evaluable: the tool output was cut off");
    expect(readFileSync(files.html, "utf8")).toContain('"status":"not-evaluable"');
  });
});
