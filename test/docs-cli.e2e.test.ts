/**
 * The docs against the built command line: the results-file example is what toolscore writes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { docPages } from "./support/doc-pages.js";

const { pages, blocksOf } = docPages();

describe("docs: the results-file reference", () => {
  it("shows the lines toolscore writes for its example dataset", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-docs-results-"));
    try {
      writeFileSync(
        path.join(directory, "runs.jsonl"),
        [
          '{"id":"ok","toolsCalled":[{"name":"a","arguments":{"x":1}}],"expectedTools":[{"name":"a","arguments":{"x":1}}]}',
          '{"id":"bad","toolsCalled":[{"name":"b","arguments":{}}],"expectedTools":[{"name":"a","arguments":{"x":1}}]}',
          "not json",
          "",
        ].join("\n"),
      );
      expect((await runCliProcess(["eval", "runs.jsonl"], { cwd: directory })).code).toBe(3);
      const written = readFileSync(path.join(directory, "toolscore-results.jsonl"), "utf8")
        .trimEnd()
        .split("\n");
      const page = pages.find((file) => file.endsWith("results-file.md")) ?? "";
      const shown = blocksOf(page).find((block) => block.language === "jsonl");
      const patterns = (shown?.code ?? "").split("\n");
      expect(patterns).toHaveLength(written.length);
      patterns.forEach((pattern, at) => {
        const regex = new RegExp(
          `^${pattern
            .split("…")
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*?")}$`,
        );
        expect(written[at], `line ${at + 1}`).toMatch(regex);
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
