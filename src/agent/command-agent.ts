/**
 * An agent run as a command, in any language, through the shell (the command comes from the run's
 * own command line or config, never from a dataset). Either one process per run (the case as one
 * JSON line on stdin, the transcript as JSON on stdout), or long-lived processes that answer a
 * JSON line per run. docs/guides/agent-protocol.md is the protocol.
 */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { AgentFailure, requestBody } from "./agent.js";
import type { Agent, AgentRequest } from "./agent.js";

/** Most of a run's stdout kept: a transcript past it is refused, not cut. */
const maxStdoutBytes = 64 * 1024 * 1024;
/** The end of stderr a failure shows. */
const stderrTail = 2000;

/** The line a command agent reads on stdin. */
export function requestLine(request: AgentRequest): string {
  return `${JSON.stringify(requestBody(request))}\n`;
}

/** How the command is run: a process per run, or processes kept for the whole run. */
export const commandProcesses = ["per-run", "long-lived"] as const;
export type CommandProcess = (typeof commandProcesses)[number];

/** A started command: its process, the end of its stderr, and a kill of all it started. */
interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  /** The end of its stderr, as " ; its stderr ends: ..." or "". */
  readonly stderr: () => string;
  readonly kill: () => void;
}

function start(command: string, cwd: string): Started {
  // Its own process group, so that a kill ends what the command started too.
  const child = spawn(command, { cwd, shell: true, detached: true, stdio: "pipe" });
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    err = (err + chunk).slice(-stderrTail);
  });
  // A command that exits without reading its input is not an error of ours.
  child.stdin.on("error", () => undefined);
  return {
    child,
    stderr: () => (err.trim() === "" ? "" : `; its stderr ends: ${err.trim()}`),
    kill: () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    },
  };
}

/** An agent that runs `command` (through the shell, in `cwd`): once per run, or kept. */
export function commandAgent(
  command: string,
  options: { readonly cwd: string; readonly process?: CommandProcess },
): Agent {
  if (options.process === "long-lived") return longLivedAgent(command, options.cwd);
  return {
    name: command,
    run: (request, { signal }) => runCommand(command, options.cwd, request, signal),
  };
}

function runCommand(
  command: string,
  cwd: string,
  request: AgentRequest,
  signal: AbortSignal,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const { child, stderr, kill } = start(command, cwd);
    const out: Buffer[] = [];
    let outBytes = 0;
    let tooLong = false;
    signal.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdoutBytes) {
        tooLong = true;
        kill();
      } else out.push(chunk);
    });
    child.stdin.end(requestLine(request));
    child.on("error", (error) => {
      signal.removeEventListener("abort", kill);
      reject(new AgentFailure(`the agent command could not start: ${error.message}`));
    });
    child.on("close", (code, killedBy) => {
      signal.removeEventListener("abort", kill);
      const said = stderr();
      if (tooLong) {
        reject(new AgentFailure(`the agent wrote more than ${maxStdoutBytes} bytes on stdout`));
      } else if (code !== 0) {
        reject(
          new AgentFailure(
            `the agent command ${killedBy === null ? `exited with ${code}` : `was ended by ${killedBy}`}${said}`,
          ),
        );
      } else {
        const text = Buffer.concat(out).toString("utf8").trim();
        try {
          resolve(text === "" ? undefined : JSON.parse(text));
        } catch (error) {
          reject(
            new AgentFailure(
              `the agent's stdout is not JSON (${error instanceof Error ? error.message : String(error)}): write the transcript as one JSON value${said}`,
            ),
          );
        }
      }
    });
  });
}

/** A run a kept process is answering. */
interface Asked {
  readonly resolve: (transcript: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly log: (message: string) => void;
}

/** A kept process: idle, or answering one run. */
interface Kept extends Started {
  asked: Asked | undefined;
  exited: Promise<void>;
}

/**
 * Processes of `command` kept for the whole run, each answering one run at a time: a request line
 * in, a line `{"transcript": ...}` or `{"error": "..."}` out. As many are started as runs go at
 * once; one that dies, or is killed at a run's deadline, is replaced by the next run that needs it.
 */
function longLivedAgent(command: string, cwd: string): Agent {
  const idle: Kept[] = [];
  const all = new Set<Kept>();
  const open = (): Kept => {
    const started = start(command, cwd);
    const { child } = started;
    let exit = (): void => undefined;
    const kept: Kept = {
      ...started,
      asked: undefined,
      exited: new Promise((resolve) => {
        exit = resolve;
      }),
    };
    child.on("close", (code, killedBy) => {
      all.delete(kept);
      const index = idle.indexOf(kept);
      if (index !== -1) idle.splice(index, 1);
      const how = killedBy === null ? `exited with ${code}` : `was ended by ${killedBy}`;
      kept.asked?.reject(
        new AgentFailure(`the agent process ${how} before it answered${started.stderr()}`),
      );
      kept.asked = undefined;
      exit();
    });
    child.on("error", (error) => {
      kept.asked?.reject(new AgentFailure(`the agent command could not start: ${error.message}`));
      kept.asked = undefined;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on("line", (line) => {
      answer(kept, line);
    });
    all.add(kept);
    return kept;
  };
  return {
    name: command,
    run: (request, { signal, log }) =>
      new Promise((resolve, reject) => {
        const kept = idle.pop() ?? open();
        const stop = () => {
          // Stuck, or busy with what no one waits for: it goes, and a new one takes its place.
          kept.kill();
        };
        signal.addEventListener("abort", stop, { once: true });
        const done = () => {
          signal.removeEventListener("abort", stop);
          kept.asked = undefined;
          if (all.has(kept)) idle.push(kept);
        };
        kept.asked = {
          resolve: (transcript) => {
            done();
            resolve(transcript);
          },
          reject: (error) => {
            done();
            reject(error);
          },
          log,
        };
        kept.child.stdin.write(requestLine(request));
      }),
    close: async () => {
      // End of input: each process ends its loop and exits; one that does not is killed.
      for (const kept of all) kept.child.stdin.end();
      const exits = Promise.all([...all].map((kept) => kept.exited));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 5000);
      });
      await Promise.race([exits, late]);
      clearTimeout(timer);
      for (const kept of all) kept.kill();
      await exits;
    },
  };
}

/** A line a kept process wrote: its answer to the run it was asked, or a line of its log. */
function answer(kept: Kept, line: string): void {
  const asked = kept.asked;
  const text = line.trim();
  if (text === "") return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const reply =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  // The envelope whole: its details are read with any agent's (see runAgentOnce).
  if (Object.hasOwn(reply, "transcript")) asked?.resolve(reply);
  else if (typeof reply.error === "string") asked?.reject(new AgentFailure(reply.error));
  // Anything else on stdout (a library's print) is kept with the run, never taken for an answer.
  else asked?.log(`stdout: ${text.slice(0, 2000)}`);
}
