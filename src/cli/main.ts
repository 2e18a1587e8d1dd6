import { readFile } from "node:fs/promises";
import { ToolscoreError } from "../core/errors.js";
import { createRedactor } from "../core/redact.js";
import { didYouMean } from "../core/suggest.js";
import { guardConsole, printable, printableLines } from "../reporters/printable.js";
import { ExitCode, exitCodeOf } from "./io.js";
import type { CliIo } from "./io.js";
import { flagNamesOf } from "./flags.js";
import type { Flag } from "./flags.js";

const mainHelp = `Usage: toolscore <command> [options]

Commands
  init                  start here: a config, a dataset of three cases, a CI workflow
  eval <dataset>        score a dataset of agent runs, write results and reports
  dataset <recordings>  write a dataset from recorded transcripts and expected cases
  parse <transcript>    print the normalized tool calls of a transcript (for debugging)
  report <results>      render reports again from a results file
  merge <results...>    join the results of shards (eval --shard i/n) into one file
  compare <base> <new>  what changed between two runs; exit 1 when a case regressed
  calibrate             measure a tool-selection judge against toolscore's labelled cases
  cache clear           empty the judge cache

Run toolscore <command> --help for a command's options.
`;

/** A command: what it runs, its help, and its flag table (for the closest to a misspelled flag). */
export interface Command {
  readonly run: (argv: readonly string[], io: CliIo) => Promise<number>;
  readonly help: string;
  readonly flags: Readonly<Record<string, Flag>>;
}

/** Each command's module, loaded when the command runs: `--version` and `--help` load none. */
const commands: Record<string, () => Promise<Command>> = {
  eval: () =>
    import("./eval.js").then((m) => ({ run: m.evalCommand, help: m.evalHelp, flags: m.evalFlags })),
  dataset: () =>
    import("./dataset.js").then((m) => ({
      run: m.datasetCommand,
      help: m.datasetHelp,
      flags: m.datasetFlags,
    })),
  parse: () =>
    import("./parse.js").then((m) => ({
      run: m.parseCommand,
      help: m.parseHelp,
      flags: m.parseFlags,
    })),
  report: () =>
    import("./report.js").then((m) => ({
      run: m.reportCommand,
      help: m.reportHelp,
      flags: m.reportFlags,
    })),
  merge: () =>
    import("./merge.js").then((m) => ({
      run: m.mergeCommand,
      help: m.mergeHelp,
      flags: m.mergeFlags,
    })),
  compare: () =>
    import("./compare.js").then((m) => ({
      run: m.compareCommand,
      help: m.compareHelp,
      flags: m.compareFlags,
    })),
  cache: () =>
    import("./cache.js").then((m) => ({
      run: m.cacheCommand,
      help: m.cacheHelp,
      flags: m.cacheFlags,
    })),
  init: () =>
    import("./init.js").then((m) => ({ run: m.initCommand, help: m.initHelp, flags: m.initFlags })),
  calibrate: () =>
    import("./calibrate.js").then((m) => ({
      run: m.calibrateCommand,
      help: m.calibrateHelp,
      flags: m.calibrateFlags,
    })),
};

/** The command `name` names (its module loaded), or undefined for no command. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  // Own keys only: "toString" is on every object's prototype, not a command.
  return Object.hasOwn(commands, name) ? commands[name]() : undefined;
}

/**
 * What was wrong with the flags: an unknown one with the closest of the command's flag table ("did
 * you mean"), else node's own words.
 */
function flagProblem(error: TypeError, flags: Readonly<Record<string, Flag>>): string {
  const unknown = /^Unknown option '(--?[^']+)'/.exec(error.message)?.[1];
  if (unknown === undefined) return error.message;
  return `unknown flag ${unknown}${didYouMean(unknown, flagNamesOf(flags))}`;
}

/** The values of the environment's variables that hold credentials, by their names. */
function secretsOf(env: CliIo["env"]): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(name) ? [value] : [],
  );
}

/**
 * The toolscore command line, callable in-process (tests) or from `bin`: runs one command and
 * resolves to its exit code; errors are printed, never thrown.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  // Values from data reach the console: none may become a CI log's workflow command, and no key
  // of the environment's (a server may echo the one it was sent) may show.
  const redact = createRedactor(secretsOf(given.env));
  const io: CliIo = {
    ...given,
    stdout: guardConsole(given.stdout, redact),
    stderr: guardConsole(given.stderr, redact),
  };
  const name = argv.at(0);
  const rest = argv.slice(1);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(mainHelp);
    return name === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  if (name === "--version" || name === "-v") {
    const pkg = JSON.parse(
      await readFile(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    io.stdout.write(`${pkg.version}\n`);
    return ExitCode.OK;
  }
  const command = await loadCommand(name);
  if (command === undefined) {
    io.stderr.write(
      `toolscore: unknown command ${printable(JSON.stringify(name))}${didYouMean(name, Object.keys(commands))}\n\n${mainHelp}`,
    );
    return ExitCode.USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const parseArgsError =
      error instanceof TypeError &&
      (error as { code?: unknown }).code !== undefined &&
      String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    if (parseArgsError) {
      io.stderr.write(
        `toolscore ${name}: ${printable(flagProblem(error, command.flags))}\nSee toolscore ${name} --help\n`,
      );
      return ExitCode.USAGE;
    }
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    const prefix = ToolscoreError.isInstance(error) ? `${error.code}: ` : "";
    io.stderr.write(`toolscore ${name}: ${prefix}${printableLines(message)}\n`);
    if (!ToolscoreError.isInstance(error) && error instanceof Error && error.stack !== undefined) {
      io.stderr.write(`${error.stack}\n`);
    }
    return code;
  }
}
