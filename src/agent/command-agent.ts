/**
 * An agent run as a command, in any language: one process per run, through the shell (the command
 * comes from the run's own command line or config, never from a dataset). The case goes in as one
 * JSON line on stdin; the transcript comes back as JSON on stdout. docs/guides/agent-protocol.md
 * is the protocol.
 */
import { spawn } from "node:child_process";
import { AgentFailure } from "./agent.js";
import type { Agent, AgentRequest } from "./agent.js";

/** Most of a run's stdout kept: a transcript past it is refused, not cut. */
const maxStdoutBytes = 64 * 1024 * 1024;
/** The end of stderr a failure shows. */
const stderrTail = 2000;

/** The line a command agent reads on stdin. */
export function requestLine(request: AgentRequest): string {
  const { caseId, input, attempt, turn, session, history } = request;
  return `${JSON.stringify({ id: caseId, input, attempt, turn, session, history })}\n`;
}

/** An agent that runs `command` (through the shell, in `cwd`) once per run. */
export function commandAgent(command: string, cwd: string): Agent {
  return {
    name: command,
    run: (request, signal) => runCommand(command, cwd, request, signal),
  };
}

function runCommand(
  command: string,
  cwd: string,
  request: AgentRequest,
  signal: AbortSignal,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that a timeout ends what the command started too.
    const child = spawn(command, { cwd, shell: true, detached: true, stdio: "pipe" });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let tooLong = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    };
    signal.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdoutBytes) {
        tooLong = true;
        kill();
      } else out.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      err = (err + chunk).slice(-stderrTail);
    });
    // A command that exits without reading its input is not an error of ours.
    child.stdin.on("error", () => undefined);
    child.stdin.end(requestLine(request));
    child.on("error", (error) => {
      signal.removeEventListener("abort", kill);
      reject(new AgentFailure(`the agent command could not start: ${error.message}`));
    });
    child.on("close", (code, killedBy) => {
      signal.removeEventListener("abort", kill);
      const said = err.trim() === "" ? "" : `; its stderr ends: ${err.trim()}`;
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
