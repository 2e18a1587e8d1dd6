import { readFile } from "node:fs/promises";
import { ToolscoreError } from "../core/errors.js";
import { createRedactor } from "../core/redact.js";
import { didYouMean } from "../core/suggest.js";
import { guardConsole, printable, printableLines } from "../reporters/printable.js";
import { ExitCode, exitCodeOf } from "./io.js";
import type { CliIo } from "./io.js";
import { flagNamesOf } from "./flags.js";
import type { Flag } from "./flags.js";
import { commandNames, loadCommand, mainHelp } from "./commands.js";

export { loadCommand } from "./commands.js";

/**
 * What was wrong with the flags: an unknown one with the closest of the command's flag table ("did
 * you mean"), else node's own words.
 */
function flagProblem(error: TypeError, flags: Readonly<Record<string, Flag>>): string {
  const { message } = error;
  const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
  if (unknown !== undefined)
    return `unknown flag ${unknown}${didYouMean(unknown, flagNamesOf(flags))}`;
  // Node's words, said in one line each, with what to write.
  // Node names a flag with a short form as `-o, --out`: the long name is said.
  const ambiguous = /^Option '(?:-\w, )?(--?[^']+)' argument is ambiguous/.exec(message)?.[1];
  if (ambiguous !== undefined) {
    return `${ambiguous} takes a value; for one that starts with a dash, write ${ambiguous}=-1 (with "=")`;
  }
  const missing = /^Option '(?:-\w, )?(--?[^' ,]+)[^']*' argument missing/.exec(message)?.[1];
  if (missing !== undefined) return `${missing} takes a value, and none followed it`;
  const valueless = /^Option '(?:-\w, )?(--?[^']+)' does not take an argument/.exec(message)?.[1];
  if (valueless !== undefined) return `${valueless} takes no value`;
  return message.replace(/\s*\n\s*/g, " ");
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
      `toolscore: unknown command ${printable(JSON.stringify(name))}${didYouMean(name, commandNames)}\n\n${mainHelp}`,
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
