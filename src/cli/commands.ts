import type { CliIo } from "./io.js";
import type { Flag } from "./flags.js";

/** A command: what it runs, its help, and its flag table (for the closest to a misspelled flag). */
export interface Command {
  readonly run: (argv: readonly string[], io: CliIo) => Promise<number>;
  readonly help: string;
  readonly flags: Readonly<Record<string, Flag>>;
}

/** Each command with its one-line summary and its module, loaded when the command runs. */
const commandTable: readonly {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  /**
   * Whether the command stops cleanly at the process's first signal (it saves what finished, or
   * closes its server); any other ends at once.
   */
  readonly stopsCleanly?: boolean;
  readonly load: () => Promise<Command>;
}[] = [
  {
    name: "init",
    usage: "init",
    summary: "start here: a config, a dataset of three cases, a CI workflow",
    load: () => import("./init.js").then((m) => m.command),
  },
  {
    name: "eval",
    stopsCleanly: true,
    usage: "eval <dataset>",
    summary: "score a dataset of agent runs, write results and reports",
    load: () => import("./eval.js").then((m) => m.command),
  },
  {
    name: "dataset",
    usage: "dataset <recordings>",
    summary: "write a dataset from recorded transcripts and expected cases",
    load: () => import("./dataset.js").then((m) => m.command),
  },
  {
    name: "parse",
    usage: "parse <transcript>",
    summary: "print the normalized tool calls of a transcript (for debugging)",
    load: () => import("./parse.js").then((m) => m.command),
  },
  {
    name: "report",
    usage: "report <results>",
    summary: "render reports again from a results file",
    load: () => import("./report.js").then((m) => m.command),
  },
  {
    name: "merge",
    usage: "merge <results...>",
    summary: "join the results of shards (eval --shard i/n) into one file",
    load: () => import("./merge.js").then((m) => m.command),
  },
  {
    name: "compare",
    usage: "compare <base> <new>",
    summary: "what changed between two runs; exit 1 when a case regressed",
    load: () => import("./compare.js").then((m) => m.command),
  },
  {
    name: "view",
    stopsCleanly: true,
    usage: "view [folder]",
    summary: "a local web app over results files, live while eval writes",
    load: () => import("./view.js").then((m) => m.command),
  },
  {
    name: "calibrate",
    stopsCleanly: true,
    usage: "calibrate",
    summary: "measure a judge against toolscore's labelled cases",
    load: () => import("./calibrate.js").then((m) => m.command),
  },
  {
    name: "simulate-tools",
    stopsCleanly: true,
    usage: "simulate-tools <file>",
    summary: "serve simulated tools over MCP (stdio or HTTP), faults on cue",
    load: () => import("./simulate-tools.js").then((m) => m.command),
  },
  {
    name: "lint-tools",
    usage: "lint-tools <file|command>",
    summary: "check tool definitions for what makes models call them wrongly",
    load: () => import("./lint-tools.js").then((m) => m.command),
  },
  {
    name: "cache",
    usage: "cache clear",
    summary: "empty the judge cache",
    load: () => import("./cache.js").then((m) => m.command),
  },
  {
    name: "completion",
    usage: "completion <shell>",
    summary: "print shell completion for bash, zsh or fish",
    load: () => import("./completion.js").then((m) => m.command),
  },
];

/** The commands' names, in the order the help lists them. */
/** Whether command `name` takes the process's first signal as a request to stop cleanly. */
export function stopsCleanly(name: string | undefined): boolean {
  return commandTable.some((command) => command.name === name && command.stopsCleanly === true);
}

export const commandNames: readonly string[] = commandTable.map((command) => command.name);

/** Each command's name and one-line summary, as the help lists them. */
export const commandSummaries: readonly { readonly name: string; readonly summary: string }[] =
  commandTable.map(({ name, summary }) => ({ name, summary }));

export const mainHelp = `Usage: toolscore <command> [options]

Commands
${commandTable.map((command) => `  ${command.usage.padEnd(22)}${command.summary}`).join("\n")}

Run toolscore <command> --help for a command's options.
`;

/** The command `name` names (its module loaded), or undefined for no command. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return commandTable.find((command) => command.name === name)?.load();
}
