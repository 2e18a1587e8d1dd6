import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { formatToolCall } from "../core/call-diff.js";
import { userTurnsOf } from "../core/trajectory.js";
import type { TrajectoryFormat } from "../core/trajectory.js";
import { readTranscriptFile } from "../node/transcript-file.js";
import { printable } from "../reporters/printable.js";
import { ExitCode, namedFile, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore parse`: what parseArgs reads, and what --help lists. */
export const parseFlags = {
  format: {
    type: "string",
    value: "<name>",
    help: "the transcript's format, when detection guesses wrong",
  },
  "normalize-names": { type: "boolean", help: "strip random suffixes from tool names" },
  "trace-id": {
    type: "string",
    value: "<id>",
    help: "of an export of spans holding several traces, the one to read",
  },
  json: { type: "boolean", help: "print the whole normalized trajectory as JSON" },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

export const parseHelp = `Usage: toolscore parse <transcript.json|.jsonl> [options]

Reads a transcript (OpenAI chat or Responses, Anthropic, Gemini, Bedrock, LangChain,
OpenTelemetry GenAI spans, ... detected from its shape) and prints the tool calls found.

${flagsHelp(parseFlags, 27)}
`;

export async function parseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, parseFlags, parseHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length !== 1)
    throw usageError("parse takes one transcript file (see toolscore parse --help)");
  const file = namedFile(
    positionals[0],
    { noun: "transcript", kinds: ".json or .jsonl", option: "transcript" },
    io,
  );
  let value: unknown;
  try {
    value = await readTranscriptFile(file);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw usageError(`cannot read ${positionals[0]}: ${detail}`, "transcript");
  }
  const trajectory = parseTrajectory(value, {
    ...(values.format === undefined ? {} : { format: values.format as TrajectoryFormat }),
    normalizeNames: values["normalize-names"] === true,
    ...(values["trace-id"] === undefined ? {} : { traceId: values["trace-id"] }),
  });
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(trajectory, null, 2)}\n`);
    return ExitCode.OK;
  }
  const turns = userTurnsOf(trajectory.turns);
  // A conversation of several user turns is shown turn by turn, as a dataset's turns read it.
  const byTurn = turns.length > 1;
  io.stdout.write(
    `format: ${trajectory.format}; ${trajectory.calls.length} tool calls${byTurn ? ` in ${turns.length} user turns` : ""}\n`,
  );
  const showCall = (index: number) => {
    const call = trajectory.calls[index];
    const output =
      call.output === null
        ? ""
        : ` → ${formatToolCall({ name: "", arguments: call.output }).slice(1, -1)}`;
    const shown = `${index + 1}. ${formatToolCall({ name: call.name, arguments: call.inputParameters })}${call.isError === true ? " [error]" : ""}${output.length > 100 ? `${output.slice(0, 99)}…` : output}`;
    io.stdout.write(`${byTurn ? "  " : ""}${printable(shown)}\n`);
  };
  if (!byTurn)
    trajectory.calls.forEach((_, index) => {
      showCall(index);
    });
  else {
    turns.forEach((turn, at) => {
      const said = turn.input === undefined ? "" : turn.input.replace(/\s+/g, " ").trim();
      const quoted = said.length > 80 ? `${said.slice(0, 79)}…` : said;
      io.stdout.write(
        `${printable(`turn ${at + 1}${said === "" ? "" : ` ${JSON.stringify(quoted)}`}${turn.calls.length === 0 ? ": no calls" : ":"}`)}\n`,
      );
      turn.calls.forEach(showCall);
    });
  }
  for (const mapping of trajectory.nameMapping)
    io.stdout.write(`renamed: ${printable(mapping.original)} → ${printable(mapping.normalized)}\n`);
  for (const warning of trajectory.warnings) {
    io.stderr.write(`warning: ${printable(warning.message)}\n`);
  }
  return ExitCode.OK;
}

export const command: Command = { run: parseCommand, help: parseHelp, flags: parseFlags };
