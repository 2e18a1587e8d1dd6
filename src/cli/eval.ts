/**
 * `toolscore eval`: its flags and help, which load none of the run engine, so that `--help` and a
 * wrong flag answer at once; the run itself (`eval-run.ts`) is loaded once the flags are read.
 */
import { metricCatalog, metricIds } from "../core/metric-catalog.js";
import { flagsHelp, readArgs } from "./flags.js";
import { ExitCode } from "./io.js";
import type { CliIo } from "./io.js";
import { runSettings } from "./run-settings.js";
import { flagSettings, flagsOf } from "./settings.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore eval`: what parseArgs reads, and what --help lists. */
export const evalFlags = flagsOf(runSettings, flagSettings(runSettings));

export const evalHelp = `Usage: toolscore eval <dataset> [options]
       toolscore eval <folder|glob|transcript...> [--expected <file>] [options]

Scores every case of a dataset (.jsonl, .json, .yaml) and writes one JSON line per finished
case to the results file, at once, so a stopped run can be resumed. Given recordings instead (a
folder, a quoted glob, or several transcript files), every transcript is a case, its id its path,
as toolscore dataset builds them; the dataset is written beside the results file
(<results>.dataset.jsonl), so that report and --resume read the cases again.

${flagsHelp(evalFlags)}

Exit codes: 0 passed, 1 some case failed, 2 usage or configuration error, 3 runtime error
(a case could not be read or scored), 130/143 interrupted (finished cases are kept).

Metrics (a judged metric sends the case's text, images and tools to the --judge's endpoint,
with its API key; the run prints the judge and the endpoint before it asks)
${metricLines()}
`;

/** One line a metric for --help: its id, and whether and when it asks the judge. */
function metricLines(): string {
  const width = Math.max(...metricIds.map((id) => id.length)) + 2;
  return metricCatalog
    .map((metric) => {
      const judge =
        metric.judge === "required"
          ? "judged: needs --judge"
          : metric.judge === "none"
            ? "deterministic: never asks a judge"
            : `asks the judge ${metric.when}`;
      return `  ${metric.id.padEnd(width)}${judge}`;
    })
    .join("\n");
}

/** Runs `toolscore eval`; resolves to the exit code. */
async function evalCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, evalFlags, evalHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { runEval } = await import("./eval-run.js");
  return runEval(args.values, args.positionals, io);
}

export const command: Command = { run: evalCommand, help: evalHelp, flags: evalFlags };
