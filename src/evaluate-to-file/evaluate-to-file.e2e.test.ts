import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ToolCorrectness } from "../compat/axion/tool-correctness.js";
import { ErrorCode } from "../core/errors.js";
import { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";
import { scanResults } from "../node/results-file.js";
import { evaluateToFile } from "./evaluate-to-file.js";
import { comparableRecords } from "../../test/support/records.js";

const root = mkdtempSync(path.join(tmpdir(), "toolscore-runs-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
let counter = 0;
const folder = () => {
  const dir = path.join(root, `t${counter++}`);
  mkdirSync(dir);
  return dir;
};

const call = (name: string, inputParameters: Record<string, unknown> = {}) => ({
  name,
  inputParameters,
});
const line = (id: string, called: string[]) =>
  JSON.stringify({
    id,
    toolsCalled: called.map((name) => call(name)),
    expectedTools: [call("search"), call("book")],
  });

function dataset(dir: string, lines: string[], name = "runs.jsonl"): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

describe("evaluateToFile", () => {
  it("runs a JSONL dataset into a results file, batched and in a worker, with the same records", async () => {
    const dir = folder();
    const file = dataset(dir, [line("a", ["search", "book"]), line("b", ["book"]), "{oops"]);
    const outs: string[] = [];
    for (const workers of [0, 1]) {
      const out = path.join(dir, `w${workers}.jsonl`);
      const run = await evaluateToFile({
        dataset: file,
        metrics: [{ metric: "tool-call-accuracy", order: "in-order", threshold: 1 }],
        out,
        workers,
      });
      expect(run).toMatchObject({ datasetCases: 3, ran: 3, written: true, aborted: false });
      expect(run.summary).toMatchObject({ passed: 1, failed: 1, errors: 1 });
      expect(run.errors[0]).toMatchObject({ line: 3 });
      outs.push(comparableRecords(out));
    }
    expect(outs[0]).toBe(outs[1]);
  });

  it("scores a run its simulated user spoiled as not evaluable, counted apart, in a worker as in the run's thread", async () => {
    const dir = folder();
    const spoiled = JSON.stringify({
      id: "spoiled",
      user: { goal: "a refund for order A-1001" },
      turns: [{ input: "Order A-1002 please", toolsCalled: [call("search")] }],
      runError: { code: "USER_SIMULATOR", message: 'turn 1: the simulated user said "A-1002"' },
    });
    const file = dataset(dir, [line("a", ["search", "book"]), spoiled]);
    const outs: string[] = [];
    for (const workers of [0, 1]) {
      const out = path.join(dir, `w${workers}.jsonl`);
      const run = await evaluateToFile({
        dataset: file,
        metrics: [{ metric: "tool-call-accuracy", threshold: 1 }],
        out,
        workers,
      });
      expect(run.summary, `workers ${workers}: ${JSON.stringify(run.summary)}`).toMatchObject({
        passed: 1,
        notEvaluable: 1,
        simulatorFaults: 1,
      });
      const records: unknown[] = [];
      await scanResults(out, (record) => records.push(record));
      expect(records.at(-1)).toMatchObject({
        id: "spoiled",
        status: "not-evaluable",
        simulatorFault: true,
        metrics: { "Tool Call Accuracy": { status: "not-evaluable" } },
      });
      outs.push(comparableRecords(out));
    }
    expect(outs[0]).toBe(outs[1]);
  });

  it("runs cases in code with metric objects, compatible classes included, and resumes", async () => {
    const dir = folder();
    const out = path.join(dir, "results.jsonl");
    const testCases = [
      {
        id: "a",
        toolsCalled: [call("search"), call("book")],
        expectedTools: [call("search"), call("book")],
      },
      { id: "b", toolsCalled: [call("book")], expectedTools: [call("search"), call("book")] },
    ];
    const metrics = [toolCallAccuracy(), new ToolCorrectness({ threshold: 0.9 })];
    const first = await evaluateToFile({ testCases, metrics, out });
    expect(first.summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
    const scan = await scanResults(out);
    expect(scan.end?.complete).toBe(true);
    expect(scan.header.metrics).toEqual(["Tool Call Accuracy", "Tool Correctness"]);
    // The same cases again, resumed: nothing runs, the summary is the same.
    const again = await evaluateToFile({ testCases, metrics, out, resume: true });
    expect(again).toMatchObject({ carried: 2, ran: 0 });
    expect(again.summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
    // Summed up from the records as the file was checked: every figure as the first run's.
    expect({ ...again.summary, durationMs: 0 }).toEqual({ ...first.summary, durationMs: 0 });
    // Other cases: resuming is refused.
    await expect(
      evaluateToFile({ testCases: testCases.slice(0, 1), metrics, out, resume: true }),
    ).rejects.toMatchObject({ code: ErrorCode.RESULTS_FILE });
  });

  it("runs a shard of the cases in code, by position", async () => {
    const dir = folder();
    const testCases = ["a", "b", "c", "d", "e"].map((id) => ({
      id,
      toolsCalled: [],
      expectedTools: [],
    }));
    const run = await evaluateToFile({
      testCases,
      metrics: [{ metric: "tool-call-accuracy" }],
      out: path.join(dir, "shard.jsonl"),
      shard: { index: 1, count: 2 },
    });
    expect(run).toMatchObject({ datasetCases: 2, ran: 2 });
    const ids = readFileSync(path.join(dir, "shard.jsonl"), "utf8")
      .split("\n")
      .filter((text) => text.includes('"status"'))
      .map((text) => (JSON.parse(text) as { id: string; index: number }).index);
    expect(ids.sort()).toEqual([1, 3]);
  });
});

describe("a run that cannot start leaves the results file alone", () => {
  const earlier = (dir: string) => {
    const out = path.join(dir, "results.jsonl");
    writeFileSync(out, "an earlier run's results\n");
    return out;
  };

  it.each([
    ["an empty dataset", (dir: string) => dataset(dir, ["", "  "])],
    ["a dataset of blank lines only", (dir: string) => dataset(dir, ["\t"], "blank.jsonl")],
  ])("%s: nothing written, written: false", async (_, make) => {
    const dir = folder();
    const out = earlier(dir);
    const run = await evaluateToFile({
      dataset: make(dir),
      metrics: [{ metric: "tool-call-accuracy" }],
      out,
      overwrite: true,
    });
    expect(run).toMatchObject({ written: false, datasetCases: 0 });
    expect(readFileSync(out, "utf8")).toBe("an earlier run's results\n");
  });

  it.each([
    ["an unreadable format", { dataset: "runs.csv" }],
    ["an unknown metric", { metrics: [{ metric: "tool-call-acuracy" }] }],
    ["workers with cases in code", { workers: 2, dataset: undefined, testCases: [] }],
    ["a bad shard", { shard: { index: 2, count: 2 } }],
    ["a bad details value", { details: "some" }],
  ])("%s: an error, nothing written", async (_, change) => {
    const dir = folder();
    const out = earlier(dir);
    const file = dataset(dir, [line("a", ["search", "book"])]);
    writeFileSync(path.join(dir, "runs.csv"), "a,b\n");
    const options = {
      dataset: file,
      metrics: [{ metric: "tool-call-accuracy" }],
      out,
      overwrite: true,
      ...change,
    };
    if (typeof options.dataset === "string") options.dataset = path.resolve(dir, options.dataset);
    await expect(evaluateToFile(options as never)).rejects.toMatchObject({
      code: ErrorCode.INVALID_OPTION,
    });
    expect(readFileSync(out, "utf8")).toBe("an earlier run's results\n");
  });

  it("a results file that refuses the run starts no worker thread", async () => {
    const dir = folder();
    const out = earlier(dir);
    const started: unknown[] = [];
    const onWorker = (worker: unknown) => started.push(worker);
    process.on("worker", onWorker);
    try {
      for (const refused of [{}, { resume: true }]) {
        await expect(
          evaluateToFile({
            dataset: dataset(dir, [line("a", ["search", "book"])]),
            metrics: [{ metric: "tool-call-accuracy" }],
            out,
            workers: 2,
            ...refused,
          }),
        ).rejects.toMatchObject({ code: ErrorCode.RESULTS_FILE });
      }
      // The same run with the file out of the way does start its threads.
      await evaluateToFile({
        dataset: dataset(dir, [line("a", ["search", "book"])]),
        metrics: [{ metric: "tool-call-accuracy" }],
        out,
        workers: 2,
        overwrite: true,
      });
    } finally {
      process.off("worker", onWorker);
    }
    expect(started).toHaveLength(2);
  });

  it.each([
    ["resume without a results file", { out: undefined, resume: true }],
    ["a selection of cases given in code", { dataset: undefined, testCases: [], select: {} }],
  ])("%s: refused before the dataset is read", async (_, change) => {
    await expect(
      evaluateToFile({
        dataset: path.join(folder(), "missing.jsonl"),
        metrics: [{ metric: "tool-call-accuracy" }],
        ...change,
      } as never),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_OPTION });
  });

  it("a new file is not created for an empty dataset", async () => {
    const dir = folder();
    const out = path.join(dir, "new.jsonl");
    await evaluateToFile({
      dataset: dataset(dir, [""]),
      metrics: [{ metric: "tool-call-accuracy" }],
      out,
    });
    expect(existsSync(out)).toBe(false);
  });
});
