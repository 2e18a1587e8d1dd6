/** Every `npx toolscore` command and flag the docs show is in that command's flag table. */
import { describe, expect, it } from "vitest";
import { loadCommand } from "../src/cli/main.js";
import { docPages } from "./support/doc-pages.js";

const { blocks, where } = docPages();

describe("docs: command lines", () => {
  it("uses only commands and flags the command line has", async () => {
    const lines = blocks
      .filter((block) => block.language === "sh" || block.language === "yaml")
      .flatMap((block) =>
        block.code
          .replace(/\\\n\s*/g, " ")
          .split("\n")
          .map((line) => ({ block, line: /npx toolscore (\w+)(.*)/.exec(line) }))
          .filter(({ line }) => line !== null),
      );
    expect(lines.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const { block, line } of lines) {
      const [, name, rest] = line as RegExpExecArray;
      const command = await loadCommand(name);
      if (command === undefined) {
        missing.push(`${where(block)}: toolscore ${name} (no such command)`);
        continue;
      }
      const words = rest.split("#")[0] ?? "";
      for (const [, flag] of words.matchAll(/--([a-z][a-z-]*)/g)) {
        if (!Object.hasOwn(command.flags, flag))
          missing.push(`${where(block)}: toolscore ${name} --${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
