/** `toolscore view` as a user starts it: it says its address, serves, and ends cleanly on Ctrl-C. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess, startCli, viewerUrl } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-view-cli-");

describe("toolscore view", () => {
  it("prints its loopback address, serves the folder's runs, and ends with exit 0 on SIGINT", async () => {
    const cwd = folder();
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      jsonl([
        {
          id: "a",
          toolsCalled: [{ name: "search", arguments: {} }],
          expectedTools: [{ name: "search", arguments: {} }],
        },
      ]),
    );
    expect((await runCliProcess(["eval", "runs.jsonl", "-o", "results.jsonl"], { cwd })).code).toBe(
      0,
    );
    const { child, done } = startCli(["view"], { cwd });
    const url = await viewerUrl(child);
    const list = await fetch(url);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('<a href="/runs/results">results</a>');
    child.kill("SIGINT");
    const ended = await done;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain("SIGINT: stopping cleanly");
  });

  it("refuses what is not a results file, and a folder that does not exist", async () => {
    const cwd = folder();
    writeFileSync(path.join(cwd, "notes.txt"), "hello\n");
    const notResults = await runCliProcess(["view", "notes.txt"], { cwd });
    expect(notResults.code).toBe(2);
    expect(notResults.stderr).toContain("is not a toolscore results file");
    const missing = await runCliProcess(["view", "nowhere"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file or folder");
  });
});
