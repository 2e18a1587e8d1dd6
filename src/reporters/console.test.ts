import { describe, expect, it } from "vitest";
import { sampleRecords, summaryOf } from "../../test/support/records.js";
import { formatConsoleReport } from "./console.js";
import { formatDuration, formatRate, formatRunTime, sparkline, turnsLine } from "./format.js";

describe("formatConsoleReport", () => {
  it("tabulates each metric and the case verdict", () => {
    const text = formatConsoleReport({
      summary: summaryOf(sampleRecords()),
      errors: [{ id: "case-4", line: 4, message: "bad line" }],
    });
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^metric\s+scored\s+mean\s+min\s+max\s+pass rate\s+failed\s+errors/);
    expect(lines[2]).toMatch(/^Tool Call Accuracy\s+2\s+0\.63\s+0\.25\s+1\.00\s+50%\s+1\s+1 /);
    expect(lines[3]).toMatch(/^Tool Correctness\s+2\s+0\.80\s+0\.60\s+1\.00\s+100%\s+0\s+0 /);
    expect(text).toContain("4 cases: 1 passed, 1 failed, 2 errors (25% passed) in 1.2 s");
    expect(text).toContain("! case-4 (line 4): bad line");
    expect(text).not.toContain("\u001b[");
  });

  it("lists cases that failed in the same words as one error (a judge no call reaches)", () => {
    const refused =
      "Argument Correctness: openai: the model API at http://127.0.0.1:9/v1 could not connect";
    const text = formatConsoleReport({
      summary: { ...summaryOf(sampleRecords()), errors: 40 },
      errors: [
        ...Array.from({ length: 12 }, (_, at) => ({
          id: `c${at}`,
          line: at + 1,
          message: refused,
        })),
        { id: "odd", message: "bad line" },
      ],
    });
    expect(text).toContain(`! 12 cases (c0 (line 1), c1 (line 2), c2 (line 3), …): ${refused}`);
    expect(text).toContain("! odd: bad line");
    expect(text.match(/could not connect/g)).toHaveLength(1);
    expect(text).toContain("… and 27 more in the results file");
  });

  it("names failed cases whole in a log, cut to a terminal's width, every reason line when verbose", () => {
    const records = sampleRecords();
    const reason = `called[1] refund: $.amount is 300, expected 30 (expected[1], score 0.5). ${"x".repeat(200)}\nsecond line`;
    const failed = records.map((record) =>
      record.status !== "failed"
        ? record
        : {
            ...record,
            metrics: Object.fromEntries(
              Object.entries(record.metrics).map(([name, entry]) => [
                name,
                entry.status === "scored" && !entry.success ? { ...entry, reason } : entry,
              ]),
            ),
          },
    );
    const failures = failed.filter((record) => record.status === "failed");
    const summary = summaryOf(failed);
    const lineOf = (text: string) => text.split("\n").find((line) => line.startsWith("✗")) ?? "";
    const whole = lineOf(formatConsoleReport({ summary, failures }));
    expect(whole).toContain("x".repeat(200));
    expect(whole).toMatch(/ 0\.25: called\[1\] refund: \$\.amount is 300, expected 30/);
    const cut = lineOf(formatConsoleReport({ summary, failures, width: 80 }));
    expect(cut).toHaveLength(80);
    expect(cut.endsWith("…")).toBe(true);
    const verbose = formatConsoleReport({ summary, failures, width: 80, verbose: true });
    expect(lineOf(verbose)).toContain("x".repeat(200));
    expect(verbose).toContain("\n    second line");
  });

  it("colours only when asked, and keeps columns aligned", () => {
    const text = formatConsoleReport({ summary: summaryOf(sampleRecords()), color: true });
    expect(text).toContain("\u001b[31m1 failed\u001b[0m");
  });
});

describe("formatting helpers", () => {
  it("formats rates, durations and sparklines", () => {
    expect(formatRate(null)).toBe("–");
    expect(formatRate(0.875)).toBe("87.5%");
    expect(formatDuration(61_500)).toBe("1 min 2 s");
    expect(sparkline([0, 1, 0, 4])).toBe("·▂·█");
    expect(sparkline([0, 0])).toBe("  ");
  });

  it("says when a run happened, leaving out a time that is not one", () => {
    expect(formatRunTime("2026-11-28T10:00:03.120Z", "2026-11-28T10:04:11.000Z")).toBe(
      "ran 2026-11-28 10:00:03 UTC → 10:04:11 UTC",
    );
    expect(formatRunTime("2026-11-28T23:59:00Z", "2026-11-29T00:01:00Z")).toBe(
      "ran 2026-11-28 23:59:00 UTC → 2026-11-29 00:01:00 UTC",
    );
    expect(formatRunTime("2026-11-28T10:00:03Z")).toBe(
      "ran from 2026-11-28 10:00:03 UTC (not finished)",
    );
    expect(formatRunTime("2026-11-28T10:00:03Z", "soon")).toBe(
      "ran from 2026-11-28 10:00:03 UTC (not finished)",
    );
    expect(formatRunTime("yesterday")).toBeUndefined();
    expect(formatRunTime(17)).toBeUndefined();
  });
});

describe("turnsLine", () => {
  it("names the first twenty turns and counts the rest", () => {
    const turns = Array.from({ length: 10_000 }, (_, at) => ({
      turn: at + 1,
      cases: 1,
      passed: at % 2,
      failed: 1 - (at % 2),
      errors: 0,
      notEvaluable: 0,
    }));
    const line = turnsLine(turns);
    expect(line).toMatch(
      /^by turn \(1 conversation\): turn 1 0 of 1 passed \(1 failed\), turn 2 1 of 1 passed, /,
    );
    expect(line).toContain(
      "turn 20 1 of 1 passed, 9980 more turns (the Markdown and HTML reports show each)",
    );
    expect(line).not.toContain("turn 21 ");
    expect(turnsLine(turns.slice(0, 20))).not.toContain("more turns");
  });
});
