import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../core/errors.js";
import type { CaseRecord } from "../core/case-record.js";
import {
  createResultsWriter,
  firstFailures,
  holdsFinishedRun,
  readRecords,
  scanResults,
} from "./results-file.js";
import { mergeResults } from "./merge-results.js";
import type { ResultsHeader } from "./results-file.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-results-"));
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const header = (extra: Partial<ResultsHeader> = {}): ResultsHeader => ({
  toolscore: "results",
  version: 1,
  dataset: "runs.jsonl",
  fingerprint: "1:abc",
  config: "cfg",
  metrics: ["m"],
  startedAt: "2026-11-21T00:00:00.000Z",
  ...extra,
});

function record(index: number, status: CaseRecord["status"] = "passed"): CaseRecord {
  return {
    index,
    id: `case-${index + 1}`,
    status,
    metrics:
      status === "error"
        ? { m: { status: "error", error: { code: ErrorCode.METRIC_FAILED, message: "boom" } } }
        : {
            m: {
              status: "scored",
              score: status === "passed" ? 1 : 0,
              threshold: 0.5,
              success: status === "passed",
            },
          },
    durationMs: 1,
  };
}

async function all(file: string): Promise<CaseRecord[]> {
  const scan = await scanResults(file);
  const records: CaseRecord[] = [];
  for await (const item of readRecords(file, scan)) records.push(item);
  return records;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("results files", () => {
  it("writes records as they finish and reads them back in case order", async () => {
    const file = path.join(directory, "order.jsonl");
    const writer = createResultsWriter(file, header());
    for (const index of [2, 0, 3, 1]) writer.write(record(index));
    await tick();
    // Written at the end of the tick, before any end line: a kill now keeps all four.
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(5);
    writer.close({ complete: true, cases: 4, datasetCases: 4, durationMs: 5 });
    const scan = await scanResults(file);
    expect(scan).toMatchObject({ cases: 4, torn: false, end: { complete: true, cases: 4 } });
    expect((await all(file)).map((item) => item.index)).toEqual([0, 1, 2, 3]);
  });

  it("finds the first failed cases, in the order they finished, and stops there", async () => {
    const file = path.join(directory, "failures.jsonl");
    const writer = createResultsWriter(file, header());
    const statuses = ["passed", "failed", "error", "failed", "passed", "failed"] as const;
    statuses.forEach((status, index) => {
      writer.write({
        ...record(index, status),
        id: index === 4 ? '"status":"failed"' : `c${index}`,
      });
    });
    writer.close({ complete: true, cases: 6, datasetCases: 6, durationMs: 5 });
    expect((await firstFailures(file, 10)).map((item) => item.id)).toEqual(["c1", "c3", "c5"]);
    expect((await firstFailures(file, 2)).map((item) => item.id)).toEqual(["c1", "c3"]);
    expect(await firstFailures(file, 0)).toEqual([]);
    // A line torn by a kill is passed over.
    appendFileSync(file, '{"index":9,"status":"failed","metr');
    expect(await firstFailures(file, 10)).toHaveLength(3);
  });

  it("drops a line torn by a kill and appends after the last whole line", async () => {
    const file = path.join(directory, "torn.jsonl");
    const writer = createResultsWriter(file, header());
    writer.write(record(0));
    writer.write(record(1, "error"));
    writer.flush();
    appendFileSync(file, JSON.stringify(record(2)).slice(0, 20));
    const scan = await scanResults(file);
    expect(scan.torn).toBe(true);
    expect(scan.cases).toBe(2);
    expect(scan.statusOf(1)).toBe("error");
    expect(scan.has(2)).toBe(false);

    const resumed = createResultsWriter(file, header(), {
      append: { validBytes: scan.validBytes },
    });
    resumed.write(record(2));
    resumed.write(record(1, "failed")); // a retried case: the later line wins
    resumed.close({ complete: true, cases: 3, datasetCases: 3, durationMs: 1 });
    const records = await all(file);
    expect(records.map((item) => [item.index, item.status])).toEqual([
      [0, "passed"],
      [1, "failed"],
      [2, "passed"],
    ]);
  });

  it("refuses a file that is not a results file, or is damaged in the middle", async () => {
    const other = path.join(directory, "other.jsonl");
    writeFileSync(other, '{"input":"hi"}\n');
    await expect(scanResults(other)).rejects.toMatchObject({
      code: ErrorCode.RESULTS_FILE,
      message: expect.stringMatching(/not a toolscore results file/) as unknown,
    });
    const damaged = path.join(directory, "damaged.jsonl");
    writeFileSync(
      damaged,
      `${JSON.stringify(header())}\n{"index":0,\n${JSON.stringify(record(1))}\n`,
    );
    await expect(scanResults(damaged)).rejects.toThrow(/line 2 is not valid JSON/);
    await expect(scanResults(path.join(directory, "nope.jsonl"))).rejects.toMatchObject({
      code: ErrorCode.RESULTS_FILE,
    });
  });

  it("merges shards in dataset order, and names a missing shard", async () => {
    const shard = (index: number, cases: number[], count = 2, selection?: string) => {
      const file = path.join(directory, `shard-${index}-${count}${selection ?? ""}.jsonl`);
      const writer = createResultsWriter(
        file,
        header({ shard: { index, count }, ...(selection === undefined ? {} : { selection }) }),
      );
      for (const at of cases) writer.write(record(at));
      writer.close({
        complete: true,
        cases: cases.length,
        datasetCases: cases.length,
        durationMs: 1,
      });
      return file;
    };
    const a = shard(0, [4, 0, 2]);
    const b = shard(1, [1, 3]);
    const out = path.join(directory, "merged.jsonl");
    await expect(mergeResults({ inputs: [b, a], out })).resolves.toEqual({
      cases: 5,
      datasetCases: 5,
    });
    const merged = await scanResults(out);
    expect(merged.header.shard).toBeUndefined();
    expect(merged.end).toMatchObject({ complete: true, cases: 5, datasetCases: 5 });
    expect((await all(out)).map((item) => item.index)).toEqual([0, 1, 2, 3, 4]);

    const third = shard(0, [0, 3], 3);
    await expect(mergeResults({ inputs: [third], out })).rejects.toThrow(
      /shards 2\/3, 3\/3 missing/,
    );
    await expect(mergeResults({ inputs: [a, a], out })).rejects.toThrow(/are the same shard/);
    await expect(mergeResults({ inputs: [a, third], out })).rejects.toThrow(
      /splits the dataset in 2/,
    );
    const filtered = shard(1, [1, 3], 2, "filter tau-*");
    await expect(mergeResults({ inputs: [a, filtered], out })).rejects.toThrow(
      /was run on another selection of cases/,
    );
  });

  it("refuses to merge an unfinished shard", async () => {
    const file = path.join(directory, "unfinished.jsonl");
    const writer = createResultsWriter(file, header({ shard: { index: 0, count: 1 } }));
    writer.write(record(0));
    writer.close({ complete: false, cases: 1, datasetCases: 1, durationMs: 1 });
    await expect(
      mergeResults({ inputs: [file], out: path.join(directory, "m2.jsonl") }),
    ).rejects.toThrow(/unfinished .*--resume/);
  });
});

describe("holdsFinishedRun: a finished run told from the first and last lines", () => {
  const written = (name: string, complete: boolean | undefined, cases = 3): string => {
    const file = path.join(directory, name);
    const writer = createResultsWriter(file, header());
    for (let index = 0; index < cases; index++) writer.write(record(index));
    if (complete !== undefined) {
      writer.close({ complete, cases, datasetCases: cases, durationMs: 1 });
    } else {
      writer.close({ complete: true, cases, datasetCases: cases, durationMs: 1 });
      const text = readFileSync(file, "utf8");
      writeFileSync(file, text.slice(0, text.lastIndexOf('{"toolscore":"end"')));
    }
    return file;
  };

  it("is true for a complete end line after a results header, whatever lies between", async () => {
    const file = written("finished.jsonl", true);
    expect(await holdsFinishedRun(file)).toBe(true);
    // The lines between are not read: a damaged one does not change the answer.
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = "{not json";
    writeFileSync(file, lines.join("\n"));
    expect(await holdsFinishedRun(file)).toBe(true);
    // Nor do records past the first 64 KiB.
    expect(await holdsFinishedRun(written("long.jsonl", true, 2_000))).toBe(true);
  });

  it("is false for an unfinished run, a torn or missing end, or a file that is not results", async () => {
    expect(await holdsFinishedRun(written("stopped.jsonl", false))).toBe(false);
    expect(await holdsFinishedRun(written("cut.jsonl", undefined))).toBe(false);
    const torn = written("torn.jsonl", true);
    writeFileSync(torn, readFileSync(torn, "utf8").trimEnd());
    expect(await holdsFinishedRun(torn)).toBe(false);
    const notes = path.join(directory, "notes.jsonl");
    writeFileSync(notes, '{"mine":true}\n{"toolscore":"end","complete":true}\n');
    expect(await holdsFinishedRun(notes)).toBe(false);
    const only = path.join(directory, "only-end.jsonl");
    writeFileSync(only, '{"toolscore":"end","complete":true}\n');
    expect(await holdsFinishedRun(only)).toBe(false);
    expect(await holdsFinishedRun(path.join(directory, "absent.jsonl"))).toBe(false);
    // An end line longer than the tail read: left to the whole scan.
    const long = written("long-end.jsonl", true);
    const text = readFileSync(long, "utf8");
    writeFileSync(
      long,
      text.replace('"complete":true', `"note":"${"x".repeat(70_000)}","complete":true`),
    );
    expect(await holdsFinishedRun(long)).toBe(false);
  });
});

describe("results files: indices from anywhere (issue 48)", () => {
  it("holds cases at far indices without sizing anything by them, in case order", async () => {
    const file = path.join(directory, "far.jsonl");
    const far = [2 ** 31, Number.MAX_SAFE_INTEGER, 5_000_000];
    writeFileSync(
      file,
      `${[
        header(),
        record(1),
        ...far.map((index) => record(index)),
        record(0),
        record(2 ** 31, "failed"),
      ]
        .map((line) => JSON.stringify(line))
        .join("\n")}\n`,
    );
    const scan = await scanResults(file);
    expect(scan.cases).toBe(5);
    expect([...scan.indices()]).toEqual([0, 1, 5_000_000, 2 ** 31, Number.MAX_SAFE_INTEGER]);
    expect(scan.statusOf(2 ** 31)).toBe("failed");
    expect(scan.has(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(scan.has(3)).toBe(false);
    const read: number[] = [];
    for await (const found of readRecords(file, scan)) read.push(found.index);
    expect(read).toEqual([0, 1, 5_000_000, 2 ** 31, Number.MAX_SAFE_INTEGER]);
  });
});
