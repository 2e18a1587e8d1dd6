/**
 * Issue 22, item 2: a signal stops a run within a second, whatever a worker is busy with, and
 * keeps every batch that had come back; --resume finishes the rest.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess, startCli } from "./support/cli.js";

const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-stop-"));
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

const fast = 1024; // one batch of quick cases
const slow = 20; // then batches of cases that take a good part of a second each
const lines: string[] = [];
for (let at = 0; at < fast; at++) {
  lines.push(
    JSON.stringify({
      id: `fast-${at}`,
      toolsCalled: [{ name: "t", arguments: { q: at } }],
      expectedTools: [{ name: "t", arguments: { q: at } }],
    }),
  );
}
// 650 different calls of one tool on each side: an optimal pairing that takes a while.
for (let at = 0; at < slow; at++) {
  const n = 650;
  lines.push(
    JSON.stringify({
      id: `slow-${at}`,
      toolsCalled: Array.from({ length: n }, (_, i) => ({
        name: "t",
        arguments: { q: `v${i}`, k: i % 7 },
      })),
      expectedTools: Array.from({ length: n }, (_, i) => ({
        name: "t",
        arguments: { q: `v${(i * 7) % n}x`, k: i % 5 },
      })),
    }),
  );
}
writeFileSync(path.join(cwd, "runs.jsonl"), `${lines.join("\n")}\n`);

describe("stopping a run", () => {
  it("stops a worker run on SIGTERM without waiting for the slow batches, keeping those that came back", async () => {
    const out = path.join(cwd, "stopped.jsonl");
    const args = [
      "eval",
      "runs.jsonl",
      "--out",
      "stopped.jsonl",
      "--workers",
      "1",
      "-m",
      "tool-call-accuracy",
    ];
    const { child, done } = startCli(args, { cwd });
    // Wait for the quick batch's records: the worker is then on the slow ones.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        if (statSync(out).size > 0 && recordsByIndex(out).size >= fast) break;
      } catch {
        continue;
      }
    }
    child.kill("SIGTERM");
    const run = await done;
    expect(run.code).toBe(143);
    // It did not wait for the slow batches (how soon it stopped is a benchmark's question).
    const kept = recordsByIndex(out);
    expect(kept.size).toBeGreaterThanOrEqual(fast);
    expect(kept.size).toBeLessThan(fast + slow);
    const last = readFileSync(out, "utf8").trim().split("\n").at(-1) ?? "";
    expect(JSON.parse(last)).toMatchObject({ toolscore: "end", complete: false });

    const resumed = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--out",
        "stopped.jsonl",
        "-m",
        "tool-call-accuracy",
        "--workers",
        "2",
        "--resume",
      ],
      { cwd },
    );
    expect(resumed.code).toBe(1);
    expect(recordsByIndex(out).size).toBe(fast + slow);
  });
});
