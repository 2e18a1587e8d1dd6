import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";

/**
 * A case with a 64 MiB argument is scored like any other: its results line and the HTML report
 * stay bounded (long values cut, with their full length and a hash), and no report dies with a
 * RangeError.
 */
const root = mkdtempSync(path.join(tmpdir(), "toolscore-huge-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("huge values", () => {
  it("scores, records and reports a 64 MiB argument, bounded", async () => {
    const big = "x".repeat(64 * 1024 * 1024);
    const huge = {
      id: "huge",
      toolsCalled: [{ name: "write", arguments: { text: big } }],
      expectedTools: [{ name: "write", arguments: { text: `y${big.slice(1)}` } }],
    };
    const small = { id: "small", toolsCalled: [{ name: "a" }], expectedTools: [{ name: "a" }] };
    writeFileSync(
      path.join(root, "runs.jsonl"),
      `${JSON.stringify(huge)}\n${JSON.stringify(small)}\n`,
    );
    writeFileSync(path.join(root, "runs.json"), JSON.stringify([huge, small]));
    for (const dataset of ["runs.jsonl", "runs.json"]) {
      const out = `${dataset}.results.jsonl`;
      const report = `${dataset}.html`;
      const run = await runCliProcess(["eval", dataset, "--out", out, "--report", report], {
        cwd: root,
      });
      expect(run.stderr).not.toMatch(/RangeError|Invalid string length/);
      expect(run.code, run.stderr).toBe(1);
      expect(statSync(path.join(root, out)).size).toBeLessThan(256 * 1024);
      const html = readFileSync(path.join(root, report), "utf8");
      expect(html.length).toBeLessThan(2 * 1024 * 1024);
      expect(html).toMatch(/cut: 67108864 characters in all, hash [0-9a-f]{14}/);
      const again = await runCliProcess(["report", out, "--report", `again-${report}`], {
        cwd: root,
      });
      expect(again.code, again.stderr).not.toBe(2);
      expect(again.stderr).not.toMatch(/RangeError/);
    }
  });
});
