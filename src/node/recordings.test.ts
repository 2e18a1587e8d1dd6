import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testFolders } from "../../test/support/folders.js";
import { anthropicRun, openAiRun, otlpExport } from "../../test/support/transcripts.js";
import { DatasetParseError } from "../core/errors.js";
import { readDataset } from "./dataset.js";
import { buildRecordingsDataset, findTranscripts } from "./recordings.js";

const folder = testFolders("toolscore-recordings-");

const relative = (cwd: string, files: string[]) => files.map((file) => path.relative(cwd, file));

describe("findTranscripts", () => {
  it("takes a folder's transcript files, globs and named files, sorted, each once", async () => {
    const cwd = folder({
      "runs/b.json": openAiRun,
      "runs/a.jsonl": "{}\n",
      "runs/deep/c.ndjson": "{}\n",
      "runs/notes.txt": "not a transcript",
      "runs/.hidden.json": "{}",
      "runs/node_modules/pkg/package.json": "{}",
      "other/d.json": "{}",
    });
    expect(relative(cwd, await findTranscripts({ inputs: ["runs"], cwd }))).toEqual([
      "runs/a.jsonl",
      "runs/b.json",
      "runs/deep/c.ndjson",
    ]);
    expect(
      relative(
        cwd,
        await findTranscripts({ inputs: ["runs/*.json", "other/d.json", "runs"], cwd }),
      ),
    ).toEqual(["other/d.json", "runs/a.jsonl", "runs/b.json", "runs/deep/c.ndjson"]);
    expect(
      relative(cwd, await findTranscripts({ inputs: ["runs"], cwd, exclude: ["runs/b.json"] })),
    ).toEqual(["runs/a.jsonl", "runs/deep/c.ndjson"]);
  });

  it("says when a name is missing or a glob or folder holds no transcript", async () => {
    const cwd = folder({ "empty/notes.txt": "", "runs/a.json": "{}" });
    await expect(findTranscripts({ inputs: ["nope"], cwd })).rejects.toThrow(
      "nope: no such file or folder",
    );
    await expect(findTranscripts({ inputs: ["empty"], cwd })).rejects.toThrow(
      "empty holds no transcript",
    );
    await expect(findTranscripts({ inputs: ["runs/*.jsonl"], cwd })).rejects.toThrow(
      "runs/*.jsonl holds no transcript",
    );
  });
});

describe("buildRecordingsDataset", () => {
  it("makes a case of each recording and each trace of an export, named by its path", async () => {
    const cwd = folder({
      "runs/a.json": openAiRun,
      "runs/b.json": anthropicRun,
      "runs/export.json": otlpExport({
        t1: [{ name: "search", args: { q: "x" } }],
        t2: [{ name: "book", args: { id: 7 } }],
      }),
      "runs/single.json": otlpExport({ t9: [{ name: "cancel", args: {} }] }),
    });
    const built = await buildRecordingsDataset({ inputs: ["runs"], cwd, dataset: "data.jsonl" });
    expect(built.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { id: "runs/a.json", trajectoryFile: "runs/a.json" },
      { id: "runs/b.json", trajectoryFile: "runs/b.json" },
      { id: "runs/export.json#t1", trajectoryFile: "runs/export.json", traceId: "t1" },
      { id: "runs/export.json#t2", trajectoryFile: "runs/export.json", traceId: "t2" },
      { id: "runs/single.json", trajectoryFile: "runs/single.json" },
    ]);
    expect(built.transcripts).toBe(4);
    // Read back as a dataset, each case holds its own run's calls, and only those.
    writeFileSync(path.join(cwd, "data.jsonl"), `${built.lines.join("\n")}\n`);
    const cases = [];
    for await (const entry of readDataset(path.join(cwd, "data.jsonl"))) cases.push(entry);
    expect(
      cases.map((entry) =>
        DatasetParseError.isInstance(entry)
          ? entry.message
          : [entry.id, entry.toolsCalled?.map((call) => call.name), entry.trajectory?.warnings],
      ),
    ).toEqual([
      ["runs/a.json", ["get_weather"], []],
      ["runs/b.json", ["get_weather"], []],
      ["runs/export.json#t1", ["search"], []],
      ["runs/export.json#t2", ["book"], []],
      ["runs/single.json", ["cancel"], []],
    ]);
  });

  it("names transcripts from the dataset's folder, and refuses one outside it", async () => {
    const cwd = folder({ "data/runs/a.json": openAiRun, "elsewhere/b.json": openAiRun });
    const built = await buildRecordingsDataset({
      inputs: ["data/runs"],
      cwd,
      dataset: "data/set.jsonl",
    });
    expect(JSON.parse(built.lines[0])).toEqual({
      id: "data/runs/a.json",
      trajectoryFile: "runs/a.json",
    });
    await expect(
      buildRecordingsDataset({ inputs: ["elsewhere"], cwd, dataset: "data/set.jsonl" }),
    ).rejects.toThrow(/elsewhere\/b\.json is outside data, the folder of the dataset/);
  });

  it("merges expected cases by id or by folder, and lists what is one-sided", async () => {
    const cwd = folder({
      "runs/a.json": openAiRun,
      "runs/task-1/run-1.json": openAiRun,
      "runs/task-1/run-2.json": anthropicRun,
      "runs/lonely.json": openAiRun,
      "expected.jsonl": [
        { id: "runs/a.json", expectedTools: [{ name: "get_weather" }], metadata: { n: 1 } },
        { id: "runs/task-1", expected_tools: [{ name: "get_weather" }], metadata: { task: 1 } },
        { id: "runs/gone.json", expectedTools: [] },
        { id: "runs/a.json", expectedTools: [] },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n"),
    });
    const built = await buildRecordingsDataset({
      inputs: ["runs"],
      cwd,
      dataset: "set.jsonl",
      expected: "expected.jsonl",
    });
    expect(built.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        id: "runs/a.json",
        trajectoryFile: "runs/a.json",
        expectedTools: [{ name: "get_weather" }],
        metadata: { n: 1 },
      },
      { id: "runs/lonely.json", trajectoryFile: "runs/lonely.json" },
      {
        id: "runs/task-1/run-1.json",
        trajectoryFile: "runs/task-1/run-1.json",
        expected_tools: [{ name: "get_weather" }],
        metadata: { task: 1 },
      },
      {
        id: "runs/task-1/run-2.json",
        trajectoryFile: "runs/task-1/run-2.json",
        expected_tools: [{ name: "get_weather" }],
        metadata: { task: 1 },
      },
    ]);
    expect(built.withExpected).toBe(3);
    expect(built.withoutExpected).toEqual(["runs/lonely.json"]);
    expect(built.unmatchedExpected).toEqual(["runs/gone.json"]);
    expect(built.repeatedExpected).toEqual(["runs/a.json"]);
  });

  it("refuses expected cases that say what the agent did, or have no id", async () => {
    const cwd = folder({
      "runs/a.json": openAiRun,
      "clash.jsonl": JSON.stringify({ id: "runs/a.json", tools_called: [] }),
      "noid.yaml": "- expectedTools: []\n",
    });
    const build = (expected: string) =>
      buildRecordingsDataset({ inputs: ["runs"], cwd, dataset: "set.jsonl", expected });
    await expect(build("clash.jsonl")).rejects.toThrow(
      /line 1 \(runs\/a\.json\) gives tools_called/,
    );
    await expect(build("noid.yaml")).rejects.toThrow(
      /^noid\.yaml line 1: an expected case needs the id/,
    );
  });

  it("keeps a case for a transcript it cannot read, and lists it", async () => {
    const cwd = folder({ "runs/good.json": openAiRun, "runs/torn.json": '[{"role": "us' });
    symlinkSync(path.join(cwd, "runs/good.json"), path.join(cwd, "runs/link.json"));
    const built = await buildRecordingsDataset({ inputs: ["runs"], cwd, dataset: "set.jsonl" });
    expect(built.lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([
      "runs/good.json",
      "runs/link.json",
      "runs/torn.json",
    ]);
    expect(built.unreadable).toHaveLength(1);
    expect(built.unreadable[0]).toMatch(/^runs\/torn\.json: .*line 1 is not valid JSON/);
  });

  it("follows no link out of the folder, nor into a linked folder (issue 34, item 8)", async () => {
    const cwd = folder({ "runs/good.json": openAiRun, "elsewhere/secret.json": openAiRun });
    symlinkSync(path.join(cwd, "elsewhere/secret.json"), path.join(cwd, "runs/out.json"));
    symlinkSync(path.join(cwd, "elsewhere"), path.join(cwd, "runs/folder"));
    symlinkSync("/dev/zero", path.join(cwd, "runs/zero.json"));
    const built = await buildRecordingsDataset({
      inputs: ["runs"],
      cwd,
      dataset: "runs/set.jsonl",
    });
    expect(built.lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([
      "runs/good.json",
    ]);
    expect(built.links).toEqual(["runs/folder", "runs/out.json", "runs/zero.json"]);
    // A glob follows no link at all, and says so.
    const globbed = await buildRecordingsDataset({
      inputs: ["runs/*.json"],
      cwd,
      dataset: "runs/set.jsonl",
    });
    expect(globbed.lines).toHaveLength(1);
    expect(globbed.links).toEqual(["runs/folder", "runs/out.json", "runs/zero.json"]);
  });
});
