import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../core/errors.js";
import { jsonl, testFolders } from "../../test/support/folders.js";
import { dryRun } from "./dry-run.js";

const folder = testFolders("toolscore-dry-run-");
const call = { name: "lookup", arguments: { id: 1 } };

describe("dryRun", () => {
  it("reads every case of the shard, counts the unreadable ones, and writes nothing", async () => {
    const directory = folder({
      "cases.jsonl": `${jsonl([
        { id: "a", toolsCalled: [call], expectedTools: [call] },
        { id: "b", toolsCalled: [call], expectedTools: [call] },
        { id: "c", toolsCalled: [call], expectedTools: [call] },
      ])}not json\n`,
    });
    const options = {
      dataset: path.join(directory, "cases.jsonl"),
      metrics: [{ metric: "tool-call-accuracy", name: "Calls" }],
      out: path.join(directory, "results.jsonl"),
    };
    const all = await dryRun(options);
    expect([all.cases, all.unreadable, all.metrics]).toEqual([3, 1, ["Calls"]]);
    expect(all.errors[0]?.message).toMatch(/line 4/);
    const half = await dryRun({ ...options, shard: { index: 1, count: 2 } });
    expect([half.cases, half.unreadable]).toEqual([1, 1]);
    expect(existsSync(options.out)).toBe(false);
  });

  it("refuses what the run would refuse, with the run's own errors", async () => {
    const directory = folder({
      "cases.json": JSON.stringify([{ toolsCalled: [], expectedTools: [] }]),
    });
    const dataset = path.join(directory, "cases.json");
    const base = { dataset, metrics: [{ metric: "tool-call-accuracy" }] };
    await expect(dryRun({ ...base, workers: 2 })).rejects.toMatchObject({
      code: ErrorCode.INVALID_OPTION,
      option: "workers",
    });
    await expect(dryRun({ ...base, limit: 0.5 })).rejects.toMatchObject({ option: "limit" });
    await expect(dryRun({ testCases: [], metrics: base.metrics })).rejects.toMatchObject({
      option: "testCases",
    });
    await expect(dryRun({ ...base, metrics: [{ metric: "tool-cal-accuracy" }] })).rejects.toThrow(
      /did you mean "tool-call-accuracy"/,
    );
    expect(await dryRun(base)).toMatchObject({ cases: 1, unreadable: 0 });
  });
});
