/**
 * The framework recipes (docs/guides/recipes/), run: each page's `npx toolscore` commands in a
 * copy of the example folder it links, through the built command line, with the exit code each
 * line's comment states (0 when it states none), and its CI step's flags checked by docs-flags.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { docPages } from "./support/doc-pages.js";
import { testFolders } from "./support/folders.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const { pages, blocksOf } = docPages();
const recipes = pages.filter((page) => page.includes(`${path.sep}recipes${path.sep}`));
const folder = testFolders("toolscore-recipes-");

/** A command line's words, as a shell splits these simple ones. */
const words = (line: string) => line.trim().split(/\s+/);

describe("docs: the framework recipes", () => {
  it("has a page for each framework", () => {
    expect(recipes.map((page) => path.basename(page)).sort()).toEqual([
      "langgraph.md",
      "mastra.md",
      "openai-agents-sdk.md",
      "vercel-ai-sdk.md",
    ]);
  });

  for (const page of recipes) {
    it(`runs ${path.basename(page)}'s commands on its example`, async () => {
      const name = path.basename(page, ".md");
      const example = path.join(root, "examples", "recipes", name);
      expect(existsSync(example), example).toBe(true);
      const cwd = folder();
      cpSync(example, cwd, { recursive: true });
      const lines = blocksOf(page)
        .filter((block) => block.language === "sh")
        .flatMap((block) => block.code.split("\n"))
        .filter((line) => line.startsWith("npx toolscore "));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) {
        const [command, comment = ""] = line.split("#");
        const expected = Number(/exit (\d+)/.exec(comment)?.[1] ?? 0);
        const run = await runCliProcess(words(command).slice(2), { cwd });
        expect(run.code, `${line}\n${run.stdout}${run.stderr}`).toBe(expected);
      }
      // The run-it form: the stand-in agent asked each case, its runs recorded and scored.
      expect(lines.some((line) => line.includes("--agent replay.mjs"))).toBe(true);
      const runs = readFileSync(path.join(cwd, "agent-results.runs.jsonl"), "utf8");
      expect(runs.trim().split("\n")).toHaveLength(3);
      // The run the page describes: the refund of 300 for 30 named, the others passing.
      const scored = await runCliProcess(["eval", "runs/", "--expected", "expected.jsonl"], {
        cwd,
      });
      expect(scored.stdout).toContain(
        "runs/refund-300.json  Tool Call Accuracy 0.75: called[1] refund_order: $.amount is 300, expected 30",
      );
      expect(scored.stdout).toContain("3 cases: 2 passed, 1 failed");
    });
  }
});
