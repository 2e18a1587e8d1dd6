import { readFileSync } from "node:fs";
import { ErrorCode } from "../../src/core/errors.js";
import type { CaseRecord } from "../../src/core/case-record.js";
import { metricResultsOf } from "../../src/evaluate/record.js";
import { createSummaryBuilder } from "../../src/core/summary.js";
import type { EvaluationSummary } from "../../src/core/summary.js";

export const metricNames = ["Tool Call Accuracy", "Tool Correctness"];

const details = {
  algorithm: "optimal-assignment",
  pairs: [
    {
      expectedIndex: 0,
      calledIndex: 0,
      name: "search",
      score: 0.5,
      arguments: [
        { path: "$.q", verdict: "match", expected: "x", actual: "x" },
        {
          path: "$.filters.date",
          verdict: "mismatch",
          expected: "2026-05-03",
          actual: "<script>alert(1)</script>",
        },
      ],
    },
  ],
  missing: [{ expectedIndex: 1, name: "book" }],
  unexpected: [{ calledIndex: 1, name: "delete_all" }],
  outOfOrder: [],
  mismatches: [
    {
      kind: "args-mismatch",
      expectedIndex: 0,
      calledIndex: 0,
      path: "$.filters.date",
      expected: "2026-05-03",
      actual: "<script>alert(1)</script>",
    },
    { kind: "missing-call", expectedIndex: 1, name: "book" },
    { kind: "unexpected-call", calledIndex: 1, name: "delete_all" },
  ],
  precision: 0.25,
  recall: 0.25,
  f1: 0.25,
};

/** Records covering every status, with hostile text where users' data can reach a report. */
export function sampleRecords(): CaseRecord[] {
  return [
    {
      index: 0,
      id: "ok-1",
      line: 1,
      status: "passed",
      metrics: {
        [metricNames[0]]: { status: "scored", score: 1, threshold: 0.5, success: true },
        [metricNames[1]]: { status: "scored", score: 1, threshold: 0.5, success: true },
      },
      case: {
        input: "Find flights",
        toolsCalled: [{ name: "search", arguments: { q: "x" } }],
        expectedTools: [{ name: "search", arguments: { q: "x" } }],
      },
      durationMs: 2,
    },
    {
      index: 1,
      id: 'fail <script>alert("id")</script> & "quotes"',
      line: 2,
      status: "failed",
      metrics: {
        [metricNames[0]]: {
          status: "scored",
          score: 0.25,
          threshold: 0.5,
          success: false,
          reason: "<img src=x onerror=alert(1)> | pipes | `ticks` \u0001 \ud800",
          details,
        },
        [metricNames[1]]: { status: "skipped", reason: "no expected output" },
      },
      case: {
        input: [
          { type: "text", text: "What is on this receipt? <b>bold</b>" },
          { type: "image", source: { kind: "url", url: "javascript:alert(1)" } },
        ],
        actualOutput: "</script><script>alert('out')</script>",
        toolsCalled: [
          { name: "search", arguments: { q: "x", filters: { date: "<script>alert(1)</script>" } } },
          { name: "delete_all", arguments: {} },
        ],
        expectedTools: [
          { name: "search", arguments: { q: "x", filters: { date: "2026-05-03" } } },
          { name: "book", arguments: { seat: "12A" } },
        ],
      },
      durationMs: 3,
    },
    {
      index: 2,
      id: "metric-error",
      line: 3,
      status: "error",
      metrics: {
        [metricNames[0]]: {
          status: "error",
          error: { code: ErrorCode.MISSING_PARAMS, message: "expectedTools is missing" },
        },
        [metricNames[1]]: { status: "scored", score: 0.6, threshold: 0.5, success: true },
      },
      durationMs: 1,
    },
    {
      index: 3,
      id: "case-4",
      line: 4,
      status: "error",
      metrics: {},
      error: { code: ErrorCode.DATASET_PARSE, message: "line 4: not valid JSON", line: 4 },
      durationMs: 0,
    },
  ];
}

export function summaryOf(records: readonly CaseRecord[]): EvaluationSummary {
  const builder = createSummaryBuilder(metricNames);
  for (const record of records) {
    builder.add({ id: record.id, status: record.status, results: metricResultsOf(record) });
  }
  return builder.summary({ durationMs: 1234 });
}

/** A results file's case lines, sorted, without their durations: equal for equal runs. */
export function comparableRecords(file: string): string {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((text) => text.includes('"index"'))
    .map((text) => text.replace(/"durationMs":[\d.e-]+/, ""))
    .sort()
    .join("\n");
}
