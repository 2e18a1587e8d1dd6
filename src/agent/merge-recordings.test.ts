import path from "node:path";
import { describe, expect, it } from "vitest";
import { ResultsFileError } from "../core/errors.js";
import { jsonl, readJsonl, testFolders } from "../../test/support/folders.js";
import type { Agent } from "./agent.js";
import { mergeRecordings } from "./merge-recordings.js";
import { recordAgentRuns } from "./record-runs.js";

const folder = testFolders("toolscore-merge-recordings-");

const dataset = [
  { id: "a", input: "one" },
  { id: "b", input: "two", toolsCalled: [] },
  { input: "three, without an id" },
  { id: "d", input: "four" },
  { id: "e", input: "five" },
];

const echo: Agent = {
  name: "echo",
  run: (request) => Promise.resolve([{ role: "user", content: request.input }]),
};

async function shards(directory: string, count: number, repeat: number): Promise<string[]> {
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    const recordings = path.join(directory, `runs-${index + 1}.jsonl`);
    await recordAgentRuns({
      dataset: path.join(directory, "dataset.jsonl"),
      recordings,
      agent: echo,
      repeat,
      concurrency: 3,
      timeoutMs: 60_000,
      resume: false,
      shard: { index, count },
    });
    files.push(recordings);
  }
  return files;
}

const keys = (file: string) =>
  readJsonl(file).map((line) => `${String(line.id)}#${JSON.stringify(line.run ?? 0)}`);

describe("mergeRecordings", () => {
  it("joins the shards' recordings in the dataset's order, each case's runs in order", async () => {
    const directory = folder({ "dataset.jsonl": jsonl(dataset) });
    const files = await shards(directory, 3, 2);
    // Each shard holds its own cases only.
    expect(keys(files[0]).sort()).toEqual(["a#0", "a#1", "d#0", "d#1"]);
    const out = path.join(directory, "runs.jsonl");
    const merged = await mergeRecordings({
      dataset: path.join(directory, "dataset.jsonl"),
      inputs: [...files].reverse(),
      out,
    });
    expect(merged).toEqual({ cases: 5, runs: 9 });
    expect(keys(out)).toEqual([
      "a#0",
      "a#1",
      "b#0",
      "case-3#0",
      "case-3#1",
      "d#0",
      "d#1",
      "e#0",
      "e#1",
    ]);
  });

  it("refuses a missing shard, a shard given twice, and a case the dataset does not hold", async () => {
    const directory = folder({
      "dataset.jsonl": jsonl(dataset),
      "stranger.jsonl": jsonl([{ id: "zz" }]),
    });
    const files = await shards(directory, 2, 1);
    const attempt = async (inputs: string[]) => {
      const error = await mergeRecordings({
        dataset: path.join(directory, "dataset.jsonl"),
        inputs,
        out: path.join(directory, "out.jsonl"),
      }).catch((caught: unknown) => caught);
      expect(ResultsFileError.isInstance(error)).toBe(true);
      return (error as Error).message;
    };
    expect(await attempt([files[0]])).toMatch(
      /^2 of 5 cases of .*dataset\.jsonl are in none of the recordings \("b", "d"\): give every shard's recordings$/,
    );
    expect(await attempt([files[0], files[1], files[0]])).toMatch(
      /runs-1\.jsonl:1 records run 0 of case "a", which .*runs-1\.jsonl:1 records too: give each shard once/,
    );
    expect(await attempt([...files, path.join(directory, "stranger.jsonl")])).toMatch(
      /stranger\.jsonl:1 records case "zz", which .*dataset\.jsonl does not hold/,
    );
  });
});
