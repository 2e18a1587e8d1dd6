import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { InvalidOptionError } from "../core/errors.js";
import { createFileJudgeCache } from "../node/file-judge-cache.js";
import { configFor, judgeCacheDirectory } from "./config.js";
import { ExitCode, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore cache`: what parseArgs reads, and what --help lists. */
export const cacheFlags = {
  config: {
    type: "string",
    short: "c",
    value: "<file>",
    help: "toolscore.config.json / .yaml (default: one in the current folder)",
    group: "Options",
  },
  help: { type: "boolean", short: "h", group: "Options" },
} as const satisfies Readonly<Record<string, Flag>>;

export const cacheHelp = `Usage: toolscore cache clear [options]

Empties the judge cache: every answer cached in the folder the config names (judge.cache), else
in toolscore/judge-cache in your cache folder ($XDG_CACHE_HOME, else ~/.cache). Nothing else in
that folder is touched. eval --no-cache runs without the cache instead.

${flagsHelp(cacheFlags)}
`;

/** Runs `toolscore cache`; resolves to the exit code. */
export async function cacheCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, cacheFlags, cacheHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length !== 1 || positionals[0] !== "clear") {
    throw usageError("cache takes one action: toolscore cache clear (see toolscore cache --help)");
  }
  const directory = judgeCacheDirectory(await configFor(values.config, io), io);
  if (directory === undefined) {
    io.stdout.write(
      "the config turns the judge cache off (judge.cache: false); nothing to clear\n",
    );
    return ExitCode.OK;
  }
  const deleted = await createFileJudgeCache(directory).clear();
  io.stdout.write(
    `removed ${deleted} cached judge answer${deleted === 1 ? "" : "s"} from ${shownCache(directory, io)}\n`,
  );
  return ExitCode.OK;
}

/** A cache folder as the console shows it: relative when under the current folder. */
export function shownCache(directory: string, io: Pick<CliIo, "cwd">): string {
  const shown = shownPath(directory, io);
  return shown.startsWith("..") ? directory : shown;
}

/** The git checkout a folder sits in (the nearest folder above it holding `.git`), if any. */
function checkoutOf(directory: string): string | undefined {
  for (let where = path.resolve(directory); ; where = path.dirname(where)) {
    if (existsSync(path.join(where, ".git"))) return where;
    if (path.dirname(where) === where) return undefined;
  }
}

/**
 * Refuses a judge cache whose entries git tracks: answers committed to a repository may come
 * from a pull request, and would stand for the judge's. A folder outside any git checkout
 * passes; inside one, a git that cannot answer (not installed, or refusing the repository as of
 * "dubious ownership") is refused too, since whether the answers are tracked cannot be told.
 */
export function refuseTrackedCache(directory: string): void {
  const checkout = checkoutOf(directory);
  if (checkout === undefined) return;
  let where = directory;
  while (!existsSync(where) && path.dirname(where) !== where) where = path.dirname(where);
  let tracked: string;
  try {
    tracked = execFileSync("git", ["ls-files", "-z", "--", directory], {
      cwd: where,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 10_000,
    });
  } catch (error) {
    const failure = error as { code?: unknown; stderr?: unknown };
    const said =
      failure.code === "ENOENT"
        ? "git is not installed"
        : `git said: ${
            String(failure.stderr ?? failure.code ?? error)
              .trim()
              .split("\n")[0]
          }`;
    throw new InvalidOptionError({
      option: "judge.cache",
      value: directory,
      message: `cannot tell whether git tracks the judge cache ${directory}, inside the checkout ${checkout} (${said}); cached answers committed by a pull request would stand for the judge's: fix git's access to the repository, keep the cache outside it (the default is in ~/.cache), or run with --no-cache`,
    });
  }
  if (tracked === "") return;
  throw new InvalidOptionError({
    option: "judge.cache",
    value: directory,
    message: `the judge cache ${directory} holds files tracked by git; cached answers stand for the judge's, and a repository's may come from a pull request: keep the cache out of the repository (the default is in ~/.cache), or untrack it (git rm -r --cached ${path.basename(directory)})`,
  });
}

export const command: Command = { run: cacheCommand, help: cacheHelp, flags: cacheFlags };
