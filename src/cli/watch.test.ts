import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../core/errors.js";
import { watchLoop } from "./watch.js";

/** A writable that keeps what is written. */
const sink = () => {
  let text = "";
  return { write: (chunk: string) => ((text += chunk), true), text: () => text, isTTY: false };
};

describe("watchLoop", () => {
  it("keeps watching when a run cannot start (a dataset mid-save), and runs again when it is back (issue 48, item 8)", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "toolscore-watch-"));
    const dataset = path.join(folder, "dataset.jsonl");
    writeFileSync(dataset, "{}\n");
    const controller = new AbortController();
    const stderr = sink();
    const runs: string[] = [];
    let missing = 0;
    const loop = watchLoop({
      folders: [],
      files: [dataset],
      ignore: [],
      debounceMs: 50,
      io: { stdout: sink(), stderr, cwd: folder, env: {}, signal: controller.signal },
      run: (changed) => {
        runs.push(changed.length === 0 ? "first" : "again");
        if (!existsSync(dataset)) {
          missing++;
          return Promise.reject(
            new InvalidOptionError({
              option: "dataset",
              value: dataset,
              message: `no dataset at ${dataset}`,
            }),
          );
        }
        return Promise.resolve(0);
      },
    });
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await until(() => runs.length === 1);
    // An editor's save: the file goes away for a moment, then comes back.
    rmSync(dataset);
    await until(() => missing === 1);
    expect(stderr.text()).toContain(
      `toolscore: this run could not start: INVALID_OPTION: no dataset at ${dataset}`,
    );
    writeFileSync(dataset, "{}\n");
    await until(() => runs.length === 3);
    expect(runs).toEqual(["first", "again", "again"]);
    controller.abort("SIGINT");
    expect(await loop).toBe(0);
    expect(stderr.text()).toContain("toolscore: watch stopped");
  });
});
