import { parseArgs } from "node:util";
import { createFileJudgeCache } from "../node/file-judge-cache.js";
import { configFor, judgeCacheDirectory } from "./config.js";
import { ExitCode, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";

export const cacheHelp = `Usage: toolscore cache clear [options]

Empties the judge cache: every answer cached in the folder the config names (judge.cache), else
in .toolscore/judge-cache. Nothing else in that folder is touched. eval --no-cache runs without
the cache instead.

Options
  -c, --config <file>       toolscore.config.json / .yaml (default: one in the current folder)
  -h, --help
`;

/** Runs `toolscore cache`; resolves to the exit code. */
export async function cacheCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: "string", short: "c" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(cacheHelp);
    return ExitCode.OK;
  }
  if (positionals.length !== 1 || positionals[0] !== "clear") {
    throw usageError("cache takes one action: toolscore cache clear (see toolscore cache --help)");
  }
  const directory = judgeCacheDirectory(configFor(values.config, io), io.cwd);
  if (directory === undefined) {
    io.stdout.write(
      "the config turns the judge cache off (judge.cache: false); nothing to clear\n",
    );
    return ExitCode.OK;
  }
  const deleted = await createFileJudgeCache(directory).clear();
  io.stdout.write(
    `removed ${deleted} cached judge answer${deleted === 1 ? "" : "s"} from ${shownPath(directory, io)}\n`,
  );
  return ExitCode.OK;
}
