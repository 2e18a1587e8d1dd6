import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testFolders } from "../../test/support/folders.js";
import { agentCommit } from "./commit.js";

const folder = testFolders("toolscore-agent-commit-");

describe("agentCommit", () => {
  it("names the commit a folder is at, marked when tracked files changed; nothing outside git", async () => {
    const directory = folder({ "agent.py": "print(1)\n" });
    // git is what a checkout of this repository was made with.
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.test", ...args], {
        cwd: directory,
      })
        .toString()
        .trim();
    expect(await agentCommit(directory)).toBeUndefined();
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "agent");
    const head = git("rev-parse", "HEAD");
    expect(await agentCommit(directory)).toBe(head);
    writeFileSync(path.join(directory, "agent.py"), "print(2)\n");
    expect(await agentCommit(directory)).toBe(`${head}+dirty`);
  });
});
