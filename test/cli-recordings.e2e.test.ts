/**
 * Recorded runs as a dataset, through the built CLI: `toolscore dataset`, `toolscore eval` on a
 * folder, a glob or transcript files, and `toolscore parse --trace-id`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonl, testFolders } from "./support/folders.js";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { anthropicRun, openAiRun, otlpExport } from "./support/transcripts.js";

const folder = testFolders("toolscore-cli-recordings-");

const weather = (city: string) => [{ name: "get_weather", inputParameters: { city } }];

/** Three recordings (one an export of two traces) and their expected cases, one missing. */
function recordings(): string {
  return folder({
    "runs/paris.json": openAiRun,
    "runs/oslo.json": anthropicRun,
    "runs/export.json": otlpExport({
      "run-1": [{ name: "get_weather", args: { city: "Rome" } }],
      "run-2": [{ name: "get_weather", args: { city: "Nice" } }],
    }),
    "expected.jsonl": jsonl([
      { id: "runs/paris.json", expectedTools: weather("Paris") },
      { id: "runs/oslo.json", expectedTools: weather("Bergen") },
      { id: "runs/export.json#run-1", expectedTools: weather("Rome") },
      { id: "runs/gone.json", expectedTools: weather("Lima") },
    ]),
  });
}

function ids(results: string): Map<string, string> {
  return new Map(
    [...recordsByIndex(results).values()].map((record) => [
      record.id as string,
      record.status as string,
    ]),
  );
}

describe("toolscore dataset", () => {
  it("writes a case per recording and trace, merged with the expected cases by id", async () => {
    const cwd = recordings();
    const run = await runCliProcess(
      ["dataset", "runs", "--expected", "expected.jsonl", "--out", "set.jsonl"],
      { cwd },
    );
    expect(run.stderr).toContain(
      "warning: 1 case without an expected case: runs/export.json#run-2",
    );
    expect(run.stderr).toContain("warning: 1 expected case that no recording has: runs/gone.json");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "wrote 4 cases from 3 recordings to set.jsonl; 3 with an expected case\n",
    );
    const lines = readFileSync(path.join(cwd, "set.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([
      "runs/export.json#run-1",
      "runs/export.json#run-2",
      "runs/oslo.json",
      "runs/paris.json",
    ]);

    // The dataset runs as any other: its transcripts are read where it names them.
    const evaluated = await runCliProcess(["eval", "set.jsonl", "-o", "results.jsonl"], { cwd });
    expect(evaluated.code).toBe(3);
    expect(ids(path.join(cwd, "results.jsonl"))).toEqual(
      new Map([
        ["runs/export.json#run-1", "passed"],
        ["runs/export.json#run-2", "error"],
        ["runs/oslo.json", "failed"],
        ["runs/paris.json", "passed"],
      ]),
    );

    // Never overwritten without being asked.
    writeFileSync(path.join(cwd, "set.jsonl"), "kept\n");
    const again = await runCliProcess(["dataset", "runs", "-o", "set.jsonl"], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("set.jsonl exists; give another --out, or --overwrite");
    expect(readFileSync(path.join(cwd, "set.jsonl"), "utf8")).toBe("kept\n");
    const replaced = await runCliProcess(["dataset", "runs", "-o", "set.jsonl", "--overwrite"], {
      cwd,
    });
    expect(replaced.code).toBe(0);
    expect(readFileSync(path.join(cwd, "set.jsonl"), "utf8")).toContain('"traceId":"run-2"');
  });

  it("exits 3 when a transcript cannot be read, its case written all the same", async () => {
    const cwd = folder({ "runs/good.json": openAiRun, "runs/torn.json": '[{"role": "us' });
    const run = await runCliProcess(["dataset", "runs"], { cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error: runs\/torn\.json: .*line 1 is not valid JSON/m);
    const written = readFileSync(path.join(cwd, "toolscore-dataset.jsonl"), "utf8");
    expect(written).toContain('"id":"runs/torn.json"');
  });

  it("refuses what it cannot do, with exit 2 and what to do instead", async () => {
    const cwd = folder({
      "data/runs/a.json": openAiRun,
      "elsewhere/b.json": openAiRun,
      "clash.jsonl": jsonl([{ id: "data/runs/a.json", trajectory: openAiRun }]),
    });
    const outside = await runCliProcess(["dataset", "elsewhere", "-o", "data/set.jsonl"], { cwd });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("elsewhere/b.json is outside data, the folder of the dataset");
    const clash = await runCliProcess(["dataset", "data/runs", "-e", "clash.jsonl"], { cwd });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("clash.jsonl line 1 (data/runs/a.json) gives trajectory");
    const empty = await runCliProcess(["dataset", "data/*.yaml"], { cwd });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("data/*.yaml holds no transcript");
    const none = await runCliProcess(["dataset"], { cwd });
    expect(none.code).toBe(2);
    expect(existsSync(path.join(cwd, "toolscore-dataset.jsonl"))).toBe(false);
  });
});

describe("toolscore eval on recordings", () => {
  it("scores a folder, a quoted glob or several files, and reports read the cases again", async () => {
    const cwd = recordings();
    const folderRun = await runCliProcess(["eval", "runs", "-e", "expected.jsonl"], { cwd });
    expect(folderRun.code).toBe(3);
    expect(folderRun.stderr).toContain(
      "dataset from 3 recordings: 4 cases in toolscore-results.dataset.jsonl",
    );
    expect(ids(path.join(cwd, "toolscore-results.jsonl")).get("runs/oslo.json")).toBe("failed");
    const report = await runCliProcess(
      ["report", "toolscore-results.jsonl", "--report", "r.html"],
      { cwd },
    );
    expect(report.code).toBe(0);
    expect(report.stderr).not.toContain("not at hand");
    // A passing case's calls come back from the dataset and its transcript.
    expect(readFileSync(path.join(cwd, "r.html"), "utf8")).toContain("Paris");

    const glob = await runCliProcess(
      ["eval", "runs/[op]*.json", "-e", "expected.jsonl", "-o", "glob.jsonl"],
      { cwd },
    );
    expect(glob.code).toBe(1);
    expect([...ids(path.join(cwd, "glob.jsonl")).keys()]).toEqual([
      "runs/oslo.json",
      "runs/paris.json",
    ]);
    const files = await runCliProcess(
      ["eval", "runs/paris.json", "runs/oslo.json", "-e", "expected.jsonl", "-o", "two.jsonl"],
      { cwd },
    );
    expect(files.code).toBe(1);
    expect(ids(path.join(cwd, "two.jsonl")).size).toBe(2);
  });

  it("never takes its own files for recordings, nor rewrites the dataset of a run it resumes", async () => {
    const cwd = recordings();
    writeFileSync(
      path.join(cwd, "toolscore.config.json"),
      JSON.stringify({ metrics: ["tool-call-accuracy"] }),
    );
    const first = await runCliProcess(
      ["eval", ".", "-e", "expected.jsonl", "--limit", "2", "--junit", "j.xml"],
      { cwd },
    );
    expect(first.stderr).toContain("dataset from 3 recordings: 4 cases");
    const built = readFileSync(path.join(cwd, "toolscore-results.dataset.jsonl"), "utf8");
    // A new recording after the run began: the run cannot resume on these recordings.
    writeFileSync(path.join(cwd, "runs/late.json"), JSON.stringify(openAiRun));
    const resumed = await runCliProcess(["eval", ".", "-e", "expected.jsonl", "--resume"], { cwd });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("holds a run on other recordings");
    expect(readFileSync(path.join(cwd, "toolscore-results.dataset.jsonl"), "utf8")).toBe(built);
    rmSync(path.join(cwd, "runs/late.json"));
    const finished = await runCliProcess(["eval", ".", "-e", "expected.jsonl", "--resume"], {
      cwd,
    });
    expect(finished.code).toBe(3);
    expect(ids(path.join(cwd, "toolscore-results.jsonl")).size).toBe(4);

    const dataset = await runCliProcess(["eval", "expected.jsonl", "-e", "expected.jsonl"], {
      cwd,
    });
    expect(dataset.code).toBe(2);
    expect(dataset.stderr).toContain("--expected goes with recordings");
  });
});

describe("toolscore parse --trace-id", () => {
  it("reads one trace of an export, and warns when a file mixes several", async () => {
    const cwd = folder({
      "export.json": otlpExport({
        a: [{ name: "search", args: { q: 1 } }],
        b: [{ name: "book", args: { id: 2 } }],
      }),
    });
    const one = await runCliProcess(["parse", "export.json", "--trace-id", "b"], { cwd });
    expect(one.code).toBe(0);
    expect(one.stdout).toBe('format: otel; 1 tool calls\n1. book({"id":2})\n');
    const both = await runCliProcess(["parse", "export.json"], { cwd });
    expect(both.stdout).toContain("2 tool calls");
    expect(both.stderr).toContain('the spans belong to 2 traces ("a", "b")');
  });
});
