import { createWriteStream } from "node:fs";
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { inlineRecordImages } from "../node/inline-images.js";
import { readRecords, scanResults } from "../node/results-file.js";
import { createCaseSelector, renderHtmlReport } from "../reporters/html.js";
import { writeJUnitReport } from "../reporters/junit.js";
import { markdownSummary } from "../reporters/markdown.js";
import type { CaseRecord } from "../runner/record.js";
import type { EvaluationSummary } from "../runner/summary.js";
import type { CliIo } from "./io.js";

export interface ReportTargets {
  readonly report?: string | undefined;
  readonly junit?: string | undefined;
  readonly markdown?: string | undefined;
}

async function writeJUnitFile(
  file: string,
  input: {
    out: string;
    summary: EvaluationSummary;
    metrics: readonly string[];
    timestamp?: string;
  },
) {
  const scan = await scanResults(input.out);
  const stream = createWriteStream(file);
  const finished = new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
  });
  await writeJUnitReport({
    summary: input.summary,
    metrics: input.metrics,
    records: readRecords(input.out, scan),
    ...(input.timestamp === undefined ? {} : { timestamp: input.timestamp }),
    write: (chunk) =>
      stream.write(chunk)
        ? undefined
        : new Promise<void>((resolve) =>
            stream.once("drain", () => {
              resolve();
            }),
          ),
  });
  stream.end();
  await finished;
}

/**
 * Writes the reports asked for from a results file: each reads the file in case order, in
 * bounded memory (the HTML report keeps at most `maxCases` cases, failures first).
 */
export async function writeReports(input: {
  out: string;
  summary: EvaluationSummary;
  metrics: readonly string[];
  reports: ReportTargets;
  io: CliIo;
  datasetDirectory: string;
  source: string;
  maxCases?: number;
}): Promise<void> {
  const { out, summary, metrics, reports, io } = input;
  const relative = (file: string) => path.relative(io.cwd, file) || file;
  const ensureFolder = (file: string) => mkdir(path.dirname(file), { recursive: true });
  const markdownTarget = reports.markdown ?? io.env.GITHUB_STEP_SUMMARY;
  const wanted =
    reports.junit !== undefined ||
    reports.report !== undefined ||
    (markdownTarget !== undefined && markdownTarget !== "");
  if (!wanted) return;
  const scan = await scanResults(out);
  if (reports.junit !== undefined) {
    await ensureFolder(reports.junit);
    await writeJUnitFile(reports.junit, {
      out,
      summary,
      metrics,
      timestamp: scan.header.startedAt,
    });
    io.stdout.write(`junit: ${relative(reports.junit)}\n`);
  }
  if (markdownTarget !== undefined && markdownTarget !== "") {
    const failures: CaseRecord[] = [];
    for await (const record of readRecords(out, scan)) {
      if (record.status !== "passed") failures.push(record);
      if (failures.length >= 50) break;
    }
    const text = markdownSummary(summary, { title: `toolscore: ${input.source}`, failures });
    if (reports.markdown !== undefined) {
      await ensureFolder(reports.markdown);
      await writeFile(reports.markdown, text);
      io.stdout.write(`markdown: ${relative(reports.markdown)}\n`);
    }
    if (io.env.GITHUB_STEP_SUMMARY !== undefined && io.env.GITHUB_STEP_SUMMARY !== "") {
      await appendFile(io.env.GITHUB_STEP_SUMMARY, text);
    }
  }
  if (reports.report !== undefined) {
    const max = input.maxCases ?? 2000;
    const selector = createCaseSelector<CaseRecord>(max);
    for await (const record of readRecords(out, scan)) selector.add(record);
    const chosen = selector.chosen();
    const records = await Promise.all(
      chosen.map((record) => inlineRecordImages(record, { baseDirectory: input.datasetDirectory })),
    );
    await ensureFolder(reports.report);
    await writeFile(
      reports.report,
      renderHtmlReport({
        summary,
        metrics,
        records,
        totalCases: summary.cases,
        title: `toolscore: ${input.source}`,
        source: input.source,
        generatedAt: new Date().toISOString(),
      }),
    );
    io.stdout.write(`report: ${relative(reports.report)}\n`);
  }
}
