import { existsSync } from "node:fs";
import path from "node:path";
import { startViewer } from "../view/viewer.js";
import { gateFlags, gateRuleOf, settingsFor } from "./config.js";
import { callComparingSettings, gateSettings, runSettings } from "./run-settings.js";
import { diffPlanOf } from "./diff-plan.js";
import { flagsOf } from "./settings.js";
import { ExitCode, numberFlag, untilStopped, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import { printable } from "../reporters/printable.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore view`: what parseArgs reads, and what --help lists. */
export const viewFlags = {
  port: { type: "string", value: "<n>", help: "the port to listen on (default: a free one)" },
  host: {
    type: "string",
    value: "<address>",
    help: "the address to listen on (default 127.0.0.1: this machine only)",
  },
  config: {
    type: "string",
    short: "c",
    value: "<file>",
    help: "the config whose gate every run is stated under (default: the gate each\nrun recorded, else the current folder's config)",
  },
  ...gateFlags,
  ...flagsOf(runSettings, callComparingSettings, { grouped: false }),
  "max-cases": {
    type: "string",
    value: "<n>",
    help: "most cases a run's page shows (failures first; default 2000)",
  },
  help: { type: "boolean", short: "h" },
} satisfies Readonly<Record<string, Flag>>;

export const viewHelp = `Usage: toolscore view [folder | results.jsonl ...] [options]

A local web app over results files: the runs of a folder (default: the current one) or the
files named, with their summaries and gates; a run as the HTML report shows it; two runs
compared; pages follow the files, so a run that eval is writing updates as it goes. It listens
on 127.0.0.1 (this machine only), says its address, serves those files and nothing else, and
loads nothing from anywhere. Ctrl-C ends it.

${flagsHelp(viewFlags)}
`;

export async function viewCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, viewFlags, viewHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  const paths = (positionals.length === 0 ? ["."] : positionals).map((given) =>
    path.resolve(io.cwd, given),
  );
  for (const given of paths) {
    if (!existsSync(given)) throw usageError(`${printable(given)}: no such file or folder`);
  }
  const port = numberFlag("port", values.port, 0, 65_535, true);
  if (port !== undefined && !Number.isInteger(port))
    throw usageError("--port takes a whole number");
  const maxCases = numberFlag("max-cases", values["max-cases"], 1, Number.MAX_SAFE_INTEGER);
  const resolved = await settingsFor([...gateSettings, ...callComparingSettings], values, io);
  const gate = gateRuleOf(resolved, io);
  const calls = diffPlanOf({ ...resolved.settings, divergences: undefined });
  // A config or gate flag named here is the user's word for every run; else each run's own gate.
  const gateOverRecorded =
    values.config !== undefined || gateSettings.some((name) => resolved.from[name] === "flag");
  let viewer;
  try {
    viewer = await startViewer({
      paths,
      cwd: io.cwd,
      gate,
      gateOverRecorded,
      calls: { diff: calls.diff, flakyRate: calls.flakyRate },
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(port === undefined ? {} : { port }),
      ...(maxCases === undefined ? {} : { maxCases }),
      onWarning: (message) => {
        io.stderr.write(`toolscore: ${printable(message)}\n`);
      },
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  io.stdout.write(`toolscore view: ${viewer.url} (Ctrl-C ends it)\n`);
  if (values.host !== undefined && !["127.0.0.1", "localhost", "::1"].includes(values.host)) {
    io.stderr.write(
      `toolscore: listening on ${printable(values.host)}: other machines may reach these results\n`,
    );
  }
  // Until Ctrl-C (the process's signal): the viewer serves in the meantime.
  await untilStopped(io);
  await viewer.close();
  return ExitCode.OK;
}

export const command: Command = { run: viewCommand, help: viewHelp, flags: viewFlags };
