import { parseArgs } from "node:util";
import type { CliIo } from "./io.js";
/**
 * One flag of a command: how `parseArgs` reads it (`type`, `short`, `multiple`; it ignores the
 * other keys) and how `--help` shows it. A command's flags are one object of these, given to
 * `parseArgs` as its options and to {@link flagsHelp} for the help: one table, read twice.
 */
export interface Flag {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's placeholder in the help: `<file>`. */
  readonly value?: string;
  /** What it does, as the help's lines show it (continuation lines wrapped by hand). */
  readonly help?: string;
  /** The title of the help's group it is listed in; flags without one come first, untitled. */
  readonly group?: string;
}

/** The command's flags as `--name`, for "did you mean". */
export function flagNamesOf(flags: Readonly<Record<string, Flag>>): string[] {
  return Object.keys(flags).map((name) => `--${name}`);
}

/** One flag's lines of help: its names and value, then its description at `column`. */
function flagLines(name: string, flag: Flag, column: number): string[] {
  const names = `${flag.short === undefined ? "    " : `-${flag.short}, `}--${name}`;
  const left = `  ${names}${flag.value === undefined ? "" : ` ${flag.value}`}`;
  if (flag.help === undefined) return [left];
  const [first, ...rest] = flag.help.split("\n");
  const indent = " ".repeat(column);
  const head =
    left.length + 2 > column ? [left, `${indent}${first}`] : [`${left.padEnd(column)}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}

/**
 * The flags' part of a command's help, from its flag table: the untitled flags, then each group
 * under its title, in the order their first flags come; a blank line between groups. Descriptions
 * start at `column`; a flag longer than that puts its description on the next line.
 */
export function flagsHelp(flags: Readonly<Record<string, Flag>>, column = 28): string {
  const groups = new Map<string | undefined, string[]>();
  for (const [name, flag] of Object.entries(flags)) {
    const lines = groups.get(flag.group) ?? [];
    lines.push(...flagLines(name, flag, column));
    groups.set(flag.group, lines);
  }
  const untitled = groups.get(undefined);
  groups.delete(undefined);
  return [
    ...(untitled === undefined ? [] : [untitled.join("\n")]),
    ...[...groups].map(([title, lines]) => [title, ...lines].join("\n")),
  ].join("\n\n");
}

/**
 * A command's arguments read against its flag table (unknown flags refused), or, with `--help`,
 * its help printed and undefined returned: the command then exits 0.
 */
export function readArgs<const F extends Readonly<Record<string, Flag>>>(
  argv: readonly string[],
  flags: F,
  help: string,
  io: CliIo,
): { values: ParsedValues<F>; positionals: string[] } | undefined {
  const options: Readonly<Record<string, Flag>> = flags;
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options });
  if (values.help === true) {
    io.stdout.write(help);
    return undefined;
  }
  return { values: values as ParsedValues<F>, positionals };
}

/** What `parseArgs` gives for a flag table: text or a flag, lists where the flag repeats. */
export type ParsedValues<F extends Readonly<Record<string, Flag>>> = string extends keyof F
  ? Record<string, string | boolean | (string | boolean)[] | undefined>
  : FlagValues<F>;

type FlagValues<F extends Readonly<Record<string, Flag>>> = {
  -readonly [K in keyof F]?: F[K]["type"] extends "boolean"
    ? F[K]["multiple"] extends true
      ? boolean[]
      : boolean
    : F[K]["multiple"] extends true
      ? string[]
      : string;
};
