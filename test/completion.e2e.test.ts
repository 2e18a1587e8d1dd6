/**
 * `toolscore completion`: each script run in the shell it is for. bash and fish complete a
 * command line for real (bash's COMP_WORDS, fish's `complete -C`); zsh checks the script's syntax
 * and that it registers its completion function with compinit.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { optionalTool } from "./support/optional-tools.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "toolscore-completion-"));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The script for `shell`, written to a file. */
async function script(shell: string): Promise<string> {
  const run = await runCliProcess(["completion", shell], { cwd: folder });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const file = path.join(folder, `toolscore.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

/** Runs a shell's command line; its output, or the failure. */
function shell(program: string, args: readonly string[]): string {
  const ran = spawnSync(program, args, { encoding: "utf8", cwd: folder });
  expect(ran.stderr, `${program} ${args.join(" ")}`).toBe("");
  expect(ran.status).toBe(0);
  return ran.stdout;
}

describe("toolscore completion", () => {
  it("bash: commands, a command's flags, the words a flag takes, metric ids", async () => {
    const file = await script("bash");
    const complete = (...words: string[]) =>
      shell("bash", [
        "-c",
        `source ${file}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _toolscore; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ])
        .split("\n")
        .filter(Boolean);
    expect(complete("toolscore", "com")).toEqual(["compare", "completion"]);
    expect(complete("toolscore", "eval", "--not-")).toEqual(["--not-evaluable"]);
    expect(complete("toolscore", "eval", "--details", "")).toEqual(["none", "failed", "all"]);
    expect(complete("toolscore", "eval", "--metric", "task-")).toEqual(["task-completion"]);
    // A flag another command lacks is not offered there.
    expect(complete("toolscore", "parse", "--metr")).toEqual([]);
  });

  const zsh = optionalTool("zsh");
  (zsh.runs ? it : it.skip)(
    `zsh: a script zsh reads, registered with compinit${zsh.runs ? "" : ` [skipped: ${zsh.missing}]`}`,
    async () => {
      expect(zsh.present, zsh.missing).toBe(true);
      const file = await script("zsh");
      shell(zsh.path, ["-n", file]);
      expect(
        shell(zsh.path, [
          "-f",
          "-c",
          `autoload -U compinit && compinit -u -D; source ${file}; print -r -- $_comps[toolscore]`,
        ]),
      ).toBe("_toolscore\n");
    },
  );

  const fish = optionalTool("fish");
  (fish.runs ? it : it.skip)(
    `fish: commands with their summaries, flags, and the words a flag takes${fish.runs ? "" : ` [skipped: ${fish.missing}]`}`,
    async () => {
      expect(fish.present, fish.missing).toBe(true);
      const file = await script("fish");
      const complete = (line: string) =>
        shell(fish.path, ["--no-config", "-c", `source ${file}; complete -C '${line}'`])
          .split("\n")
          .filter(Boolean)
          .map((entry) => entry.split("\t")[0]);
      expect(complete("toolscore ev")).toEqual(["eval"]);
      expect(complete("toolscore eval --not-eval")).toEqual(["--not-evaluable"]);
      expect(complete("toolscore eval --details ").sort()).toEqual(["all", "failed", "none"]);
    },
  );

  it("refuses a shell it does not know", async () => {
    const run = await runCliProcess(["completion", "powershell"], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("completion takes one shell: bash, zsh or fish, got powershell");
  });
});
