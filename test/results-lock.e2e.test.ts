/**
 * Issue 22, item 9: one run writes a results file at a time. A second run on the same file is
 * refused with a clear error, and the first one's file stays whole.
 */
import { execFile } from "node:child_process";
import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ResultsFileError } from "../src/entries/index.js";
import { lockResultsFile } from "../src/node/results-lock.js";
import { mergeResults } from "../src/node/merge-results.js";
import { recordsByIndex, runCliProcess, startCli } from "./support/cli.js";
import { testFolders } from "./support/folders.js";

const cwd = testFolders("toolscore-lock-")();
const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("the results file lock", () => {
  it("refuses a second holder in the same process, and takes over a dead one's lock", () => {
    const file = path.join(cwd, "unit.jsonl");
    const release = lockResultsFile(file);
    expect(() => lockResultsFile(file)).toThrow(ResultsFileError);
    expect(() => lockResultsFile(file)).toThrow(
      new RegExp(`another toolscore run \\(process ${process.pid} on `),
    );
    release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    // A lock whose process is gone (pid 2^22 + 1 is above Linux's limit) is stale.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 4_194_305, host: hostname() }));
    const again = lockResultsFile(file);
    again();
  });

  it("locks the file itself: a hard link is the same file, a symbolic link is refused (issue 34, item 8)", () => {
    const file = path.join(cwd, "itself.jsonl");
    writeFileSync(file, "");
    const twin = path.join(cwd, "twin.jsonl");
    linkSync(file, twin);
    const release = lockResultsFile(file);
    expect(() => lockResultsFile(twin)).toThrow(/the same file by another name/);
    release();
    lockResultsFile(twin)();
    const pointer = path.join(cwd, "pointer.jsonl");
    symlinkSync(file, pointer);
    expect(() => lockResultsFile(pointer)).toThrow(/is a symbolic link/);
    // A new file is created to be locked, and removed again when the run wrote nothing.
    const fresh = path.join(cwd, "fresh.jsonl");
    const held = lockResultsFile(fresh);
    expect(existsSync(fresh)).toBe(true);
    held();
    expect(existsSync(fresh)).toBe(false);
  });

  it("locks the file a merge writes, like a run's", async () => {
    const out = path.join(cwd, "merged.jsonl");
    const held = lockResultsFile(out);
    await expect(mergeResults({ inputs: [path.join(cwd, "none.jsonl")], out })).rejects.toThrow(
      /another toolscore run/,
    );
    held();
    // Not held: the merge goes on (and fails on its missing input), and lets its lock go.
    await expect(mergeResults({ inputs: [path.join(cwd, "none.jsonl")], out })).rejects.toThrow(
      /none\.jsonl/,
    );
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("refuses a second eval on the same results file while the first runs", async () => {
    const n = 650;
    const slow = (at: number) =>
      JSON.stringify({
        id: `slow-${at}`,
        toolsCalled: Array.from({ length: n }, (_, i) => ({
          name: "t",
          arguments: { q: `v${i}` },
        })),
        expectedTools: Array.from({ length: n }, (_, i) => ({
          name: "t",
          arguments: { q: `v${(i * 7) % n}x` },
        })),
      });
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      `${Array.from({ length: 6 }, (_, at) => slow(at)).join("\n")}\n`,
    );
    const args = ["eval", "runs.jsonl", "--out", "shared.jsonl", "--workers", "0"];
    const first = startCli(args, { cwd });
    const lock = path.join(cwd, "shared.jsonl.lock");
    while (!existsSync(lock)) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await runCliProcess([...args, "--overwrite"], { cwd });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      /another toolscore run \(process \d+ on .*\) is writing .*shared\.jsonl;/,
    );
    const done = await first.done;
    expect([0, 1]).toContain(done.code);
    expect(recordsByIndex(path.join(cwd, "shared.jsonl")).size).toBe(6);
    for (const line of readFileSync(path.join(cwd, "shared.jsonl"), "utf8").trim().split("\n")) {
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a stale lock raced by many runs: one holds it at a time, the rest are told why (issue 48, item 8)", async () => {
    const file = path.join(cwd, "raced.jsonl");
    const lockModule = pathToFileURL(path.join(root, "dist", "node", "results-lock.js")).href;
    // Each process waits for the same moment, then takes the lock, holds it a little, lets go.
    const script = `
      import { lockResultsFile } from ${JSON.stringify(lockModule)};
      const start = Number(process.argv[1]);
      while (Date.now() < start) {}
      try {
        const release = lockResultsFile(${JSON.stringify(file)});
        const until = Date.now() + 20;
        while (Date.now() < until) {}
        release();
        console.log("took");
      } catch (error) {
        console.log(error.code ?? error.message);
      }
    `;
    for (let round = 0; round < 10; round++) {
      writeFileSync(`${file}.lock`, JSON.stringify({ pid: 4_194_305, host: hostname() }));
      const start = Date.now() + 1500;
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const { stdout } = await run(process.execPath, [
            "--input-type=module",
            "-e",
            script,
            String(start),
          ]);
          return stdout.trim();
        }),
      );
      for (const outcome of outcomes) expect(["took", "RESULTS_FILE"]).toContain(outcome);
      expect(outcomes).toContain("took");
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
  });
});
