import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "../../test/support/cli.js";

/** Issue 22, item 9: escape sequences from data never reach the terminal raw, through the CLI. */
describe("printable, in a run of the command line", () => {
  it("keeps a run's console output free of escapes from case ids and reasons", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-term-"));
    const id = "\u001b]0;owned\u0007\u001b[2J";
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      [
        JSON.stringify({ id, toolsCalled: [{ name: "\u001b[31mx" }], expectedTools: [] }),
        JSON.stringify({ id: `${id}2`, toolsCalled: "not a list", expectedTools: [] }),
        JSON.stringify({ id: "c", "\u001b[8mhidden": 1, toolsCalled: [], expectedTools: [] }),
      ].join("\n"),
    );
    const run = await runCliProcess(["eval", "runs.jsonl", "--out", "out.jsonl"], { cwd });
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).not.toContain("\u001b");
    expect(run.stdout + run.stderr).not.toContain("\u0007");
    expect(run.stdout).toContain("\\x1b]0;owned\\x07");
  });
});
