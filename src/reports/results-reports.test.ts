import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
import { jsonl, testFolders } from "../../test/support/folders.js";
import { compareResults, summarizeResults, writeResultsReports } from "./results-reports.js";
import { datasetsDiffer, formatComparison } from "../reporters/comparison.js";

const folder = testFolders("toolscore-results-reports-");
const call = (city: string) => ({ name: "get_weather", arguments: { city } });
const cases = (secondCity: string) =>
  jsonl([
    { id: "a", toolsCalled: [call("Paris")], expectedTools: [call("Paris")] },
    { id: "b", toolsCalled: [call(secondCity)], expectedTools: [call("Rome")] },
  ]);

/** A dataset and the results file eval would write for it, in a fresh folder. */
async function run(directory: string, name: string, secondCity: string): Promise<string> {
  const dataset = path.join(directory, `${name}.jsonl`);
  writeFileSync(dataset, cases(secondCity));
  const out = path.join(directory, `${name}.results.jsonl`);
  await evaluateToFile({
    dataset,
    metrics: [{ metric: "tool-call-accuracy" }],
    out,
    workers: 0,
  });
  return out;
}

describe("reports from a results file (toolscore/node)", () => {
  it("summarizes a results file, compares two, and writes every report with the gate", async () => {
    const directory = folder();
    const before = await run(directory, "before", "Oslo");
    const after = await run(directory, "after", "Rome");
    const { summary, metrics, dataset } = await summarizeResults(after);
    expect([summary.cases, summary.passed, summary.failed]).toEqual([2, 2, 0]);
    expect(metrics).toEqual(["Tool Call Accuracy"]);
    expect(dataset).toBe(path.join(directory, "after.jsonl"));

    const comparison = await compareResults(before, after, { tolerance: 0 });
    expect(comparison.newlyPassed.map((change) => change.id)).toEqual(["b"]);
    expect(comparison.regressions).toBe(0);
    // Two datasets: said, in the console and the Markdown (issue 49, item 4).
    expect(comparison.datasets?.baseline.dataset).toBe(path.join(directory, "before.jsonl"));
    expect(datasetsDiffer(comparison)).toContain("the runs scored different datasets");
    expect(formatComparison(comparison, { baseline: "before" })).toContain(
      "cases are matched by id, and a case's change may be the case's own",
    );
    // The same content under another name is the same dataset.
    const again = await run(directory, "after-again", "Rome");
    expect((await compareResults(after, again)).datasets).toBeUndefined();

    const warnings: string[] = [];
    const files = {
      html: path.join(directory, "out", "report.html"),
      junit: path.join(directory, "out", "junit.xml"),
      markdown: path.join(directory, "out", "summary.md"),
    };
    const written = await writeResultsReports({
      results: after,
      summary,
      metrics,
      dataset,
      source: "after.jsonl",
      ...files,
      comparison: { comparison, baseline: "before.results.jsonl" },
      gate: { passed: true, exitCode: 0, text: "gate: the 2 cases passed: exit 0" },
      onWarning: (message) => warnings.push(message),
    });
    expect(written.map((entry) => entry.kind)).toEqual(["junit", "markdown", "html"]);
    expect(readFileSync(files.junit, "utf8")).toMatch(/<testsuites[^>]*tests="2"/);
    const markdown = readFileSync(files.markdown, "utf8");
    expect(markdown).toContain("toolscore: after.jsonl");
    expect(markdown).toContain("gate: the 2 cases passed: exit 0");
    expect(readFileSync(files.html, "utf8")).toContain("<script>");
    expect(warnings).toEqual([]);
  });

  it("writes nothing when no report is asked for, and warns when the dataset changed", async () => {
    const directory = folder();
    const results = await run(directory, "cases", "Oslo");
    const { summary, metrics, dataset } = await summarizeResults(results);
    const base = { results, summary, metrics, dataset, source: "cases.jsonl" };
    expect(await writeResultsReports(base)).toEqual([]);
    writeFileSync(dataset, cases("Lima"));
    const warnings: string[] = [];
    await writeResultsReports({
      ...base,
      html: path.join(directory, "report.html"),
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([
      `${dataset} is not the dataset of this run any more; the report shows results without the cases' calls`,
    ]);
  });
});
