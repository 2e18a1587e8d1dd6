/**
 * `toolscore completion bash|zsh|fish`: shell completion written from the commands' own flag
 * tables, so it never lists a flag a command lacks. Flags whose value is one of a few words
 * (`--details none|failed|all`, `--metric <id>`) complete those words; the others, and the
 * commands' arguments, complete file names.
 */
import { commandNames, commandSummaries, loadCommand } from "./commands.js";
import { metricIds } from "../core/metric-catalog.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import type { Command } from "./commands.js";

export const completionFlags = {
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const completionHelp = `Usage: toolscore completion <bash|zsh|fish>

Prints a completion script for the shell, on standard output: commands, each command's flags,
the words some flags take (metric ids, --details none|failed|all, ...), file names elsewhere.

  bash   source <(toolscore completion bash)          (in ~/.bashrc)
  zsh    source <(toolscore completion zsh)           (in ~/.zshrc, after compinit)
  fish   toolscore completion fish > ~/.config/fish/completions/toolscore.fish

${flagsHelp(completionFlags)}
`;

const shells = ["bash", "zsh", "fish"] as const;
type Shell = (typeof shells)[number];

/** One flag as the scripts complete it. */
interface FlagEntry {
  readonly name: string;
  readonly short?: string;
  /** What it does, in one line (the help's first line). */
  readonly about: string;
  readonly takesValue: boolean;
  readonly repeatable: boolean;
  /** The words its value may be; undefined: a file name, or anything. */
  readonly words?: readonly string[];
  /** Whether its value is a file (`<file>`, `<results>`), completed as file names. */
  readonly file: boolean;
}

interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly FlagEntry[];
}

/** The words a flag's value may be, read from its placeholder (`fail|ignore`, `<none|failed|all>`). */
function wordsOf(
  name: string,
  flag: Flag,
  metricIds: readonly string[],
): readonly string[] | undefined {
  if (name === "metric") return metricIds;
  const placeholder = flag.value?.replace(/^<|>$/g, "");
  if (placeholder === undefined || !placeholder.includes("|")) return undefined;
  const words = placeholder.split("|");
  return words.every((word) => /^[\w@^.-]+$/.test(word)) ? words : undefined;
}

/** A flag's help in one line: its first, without a parenthesis the next line would close. */
function aboutOf(help: string): string {
  const first = help.split("\n")[0];
  const open = first.lastIndexOf("(");
  return open > first.lastIndexOf(")") ? first.slice(0, open).trimEnd() : first;
}

/** Every command with its flags, each command's module loaded. */
async function commandEntries(): Promise<CommandEntry[]> {
  const entries: CommandEntry[] = [];
  for (const { name, summary } of commandSummaries) {
    const command = await loadCommand(name);
    if (command === undefined) continue;
    const flags = Object.entries(command.flags).map(([flagName, flag]): FlagEntry => {
      const words = wordsOf(flagName, flag, metricIds);
      return {
        name: flagName,
        ...(flag.short === undefined ? {} : { short: flag.short }),
        about: aboutOf(flag.help ?? (flagName === "help" ? "show this help" : "")),
        file: /file|results/.test(flag.value ?? ""),
        takesValue: flag.type === "string",
        repeatable: flag.multiple === true,
        ...(words === undefined ? {} : { words }),
      };
    });
    entries.push({ name, summary, flags });
  }
  return entries;
}

/** Text inside single quotes in any of the three shells. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bashScript(commands: readonly CommandEntry[]): string {
  const valueCases = commands.flatMap((command) =>
    command.flags
      .filter((flag) => flag.words !== undefined)
      .map(
        (flag) =>
          `    ${quoted(`${command.name} --${flag.name}`)}) COMPREPLY=($(compgen -W ${quoted((flag.words ?? []).join(" "))} -- "$cur")); return ;;`,
      ),
  );
  // A value of any other flag: a file name, or anything (bash's default completion).
  const anyValue = commands.flatMap((command) =>
    command.flags
      .filter((flag) => flag.takesValue && flag.words === undefined)
      .map((flag) => quoted(`${command.name} --${flag.name}`)),
  );
  const flagCases = commands.map(
    (command) =>
      `    ${command.name}) flags=${quoted(command.flags.map((flag) => `--${flag.name}`).join(" "))} ;;`,
  );
  return `# toolscore completion for bash: source <(toolscore completion bash)
_toolscore() {
  local cur prev cmd flags
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quoted(commandNames.join(" "))} -- "$cur"))
    return
  fi
  case "$cmd $prev" in
${valueCases.join("\n")}
    ${anyValue.join("|")}) return ;;
  esac
  case "$cmd" in
${flagCases.join("\n")}
    *) return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  fi
}
complete -o default -F _toolscore toolscore
`;
}

/** Text inside a zsh `_arguments` description (`[...]`). */
const zshAbout = (text: string) => text.replace(/[[\]:\\]/g, (char) => `\\${char}`);

function zshScript(commands: readonly CommandEntry[]): string {
  const specOf = (flag: FlagEntry): string => {
    const value = !flag.takesValue
      ? ""
      : flag.words !== undefined
        ? `:${flag.name}:(${flag.words.join(" ")})`
        : `:${flag.name}:${flag.file ? "_files" : " "}`;
    const about = `[${zshAbout(flag.about)}]`;
    const repeat = flag.repeatable ? "*" : "";
    if (flag.short === undefined) return quoted(`${repeat}--${flag.name}${about}${value}`);
    // A flag given once excludes its other spelling; a repeatable one may come again.
    const exclusion = flag.repeatable ? "*" : `(-${flag.short} --${flag.name})`;
    return `${quoted(exclusion)}{-${flag.short},--${flag.name}}${quoted(`${about}${value}`)}`;
  };
  const cases = commands.map(
    (command) =>
      `    ${command.name})\n      _arguments -s ${[...command.flags.map(specOf), quoted("*:file:_files")].join(" \\\n        ")}\n      ;;`,
  );
  return `#compdef toolscore
# toolscore completion for zsh: source <(toolscore completion zsh), after compinit
_toolscore() {
  local -a commands
  commands=(
${commands.map((command) => `    ${quoted(`${command.name}:${command.summary.replace(/:/g, "\\:")}`)}`).join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe command commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case $words[1] in
${cases.join("\n")}
  esac
}
compdef _toolscore toolscore
`;
}

function fishScript(commands: readonly CommandEntry[]): string {
  const lines = [
    "# toolscore completion for fish: toolscore completion fish > ~/.config/fish/completions/toolscore.fish",
    "complete -c toolscore -f",
    ...commands.map(
      (command) =>
        `complete -c toolscore -n __fish_use_subcommand -a ${command.name} -d ${quoted(command.summary)}`,
    ),
  ];
  for (const command of commands) {
    const when = `-n ${quoted(`__fish_seen_subcommand_from ${command.name}`)}`;
    // The command's arguments are files.
    lines.push(`complete -c toolscore ${when} -F`);
    for (const flag of command.flags) {
      const short = flag.short === undefined ? "" : ` -s ${flag.short}`;
      const value = !flag.takesValue
        ? ""
        : flag.words !== undefined
          ? ` -x -a ${quoted(flag.words.join(" "))}`
          : flag.file
            ? " -r -F"
            : " -x";
      lines.push(
        `complete -c toolscore ${when} -l ${flag.name}${short}${value} -d ${quoted(flag.about)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The completion script of `shell`, from the commands' flag tables. */
export async function completionScript(shell: Shell): Promise<string> {
  const commands = await commandEntries();
  return shell === "bash"
    ? bashScript(commands)
    : shell === "zsh"
      ? zshScript(commands)
      : fishScript(commands);
}

export async function completionCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, completionFlags, completionHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { positionals } = args;
  const shell = positionals.at(0);
  if (
    shell === undefined ||
    positionals.length > 1 ||
    !(shells as readonly string[]).includes(shell)
  ) {
    throw usageError(
      `completion takes one shell: bash, zsh or fish${shell === undefined ? "" : `, got ${positionals.join(" ")}`}`,
    );
  }
  io.stdout.write(await completionScript(shell as Shell));
  return ExitCode.OK;
}

export const command: Command = {
  run: completionCommand,
  help: completionHelp,
  flags: completionFlags,
};
