/**
 * `toolscore simulate-tools`: an MCP server of simulated tools, for an agent that takes its tools
 * over MCP, run outside `eval` (eval --agent starts one for a run itself).
 */
import { Readable, Writable } from "node:stream";
import { serveToolsOverStdio, startHttpToolServer } from "../agent/mcp-tools.js";
import { loadToolSimulation } from "../agent/simulation.js";
import { createToolbox } from "../agent/toolbox.js";
import { InvalidInputError } from "../core/errors.js";
import { plural } from "../core/words.js";
import { printable } from "../reporters/printable.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import { ExitCode, namedFile, numberFlag, untilStopped, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import type { Command } from "./commands.js";

const flags = {
  outputs: {
    type: "string",
    value: "<file>",
    help: "what the tools answer: a line per entry (a tool, the arguments it\nanswers, and an output or a fault); JSONL, JSON or YAML",
  },
  seed: {
    type: "string",
    value: "<n>",
    help: "the seed of faults on a share of calls (default 0)",
  },
  http: {
    type: "string",
    value: "<port>",
    help: "serve over streamable HTTP on 127.0.0.1:<port> (0: any free port)\ninstead of stdio; the URL is printed",
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

const help = `Usage: toolscore simulate-tools <tools.json> [options]

Serves the tools a file defines (OpenAI, Anthropic or MCP tools/list definitions) as an MCP
server, answering each call from the outputs file: the first entry whose tool, arguments,
call number, share and state pick the call answers it, with its output or its fault (error,
timeout, rate-limit, malformed, latency). Without an entry, a tool with an output schema
answers a value of that schema; any other call is told nothing answers it. The state entries
set is kept while the server runs. Speaks MCP over stdio unless --http is given.

${flagsHelp(flags, 27)}
See docs/guides/simulated-tools.md.
`;

async function simulateToolsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, flags, help, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  if (positionals.length !== 1) {
    throw usageError("simulate-tools takes one file of tool definitions (see --help)", "tools");
  }
  const what = { kinds: ".json or .yaml", option: "tools" };
  const tools = namedFile(positionals[0], { ...what, noun: "tool definitions" }, io);
  const outputs =
    values.outputs === undefined
      ? undefined
      : namedFile(values.outputs, { ...what, noun: "tool outputs", option: "--outputs" }, io);
  const seed = numberFlag("seed", values.seed, 0, 4_294_967_295, true) ?? 0;
  const port = numberFlag("http", values.http, 0, 65_535, true);
  let simulation;
  try {
    simulation = await loadToolSimulation({ tools, outputs, seed });
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    throw usageError(error.message, error.field === tools ? "tools" : "--outputs");
  }
  const toolbox = createToolbox({ ...simulation, run: "simulate-tools", maxLatencyMs: 600_000 });
  const served = `${plural(toolbox.tools.length, "tool")}, ${plural(simulation.fixtures.length, "output entry", "output entries")}`;
  if (port === undefined) {
    const { stdin, stdout } = io;
    if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) {
      throw usageError("simulate-tools over stdio speaks on the process's stdin and stdout");
    }
    const server = await serveToolsOverStdio(toolbox, { stdin, stdout });
    io.stderr.write(`toolscore simulate-tools: ${served}, over stdio\n`);
    await Promise.race([server.closed, untilStopped(io)]);
    await server.close();
    return ExitCode.OK;
  }
  const server = await startHttpToolServer({ port });
  const { url } = server.add("/mcp", toolbox);
  io.stderr.write(`toolscore simulate-tools: ${served}\n`);
  io.stdout.write(`${printable(url)}\n`);
  await untilStopped(io);
  await server.close();
  return ExitCode.OK;
}

export const command: Command = { run: simulateToolsCommand, help, flags };
