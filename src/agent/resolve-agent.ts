import { InvalidOptionError } from "../core/errors.js";
import type { Agent } from "./agent.js";
import { commandAgent } from "./command-agent.js";
import type { CommandProcess } from "./command-agent.js";
import { httpAgent } from "./http-agent.js";
import { moduleAgent, namesModule } from "./module-agent.js";

export interface ResolveAgentOptions {
  /** Where a module's path is relative to, and a command runs. */
  readonly cwd: string;
  /** A command's processes: one per run (default), or long-lived. */
  readonly process?: CommandProcess | undefined;
  /** Headers an HTTP endpoint is sent (its key, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Load a module anew, as edited since this process last loaded it (`--watch`). */
  readonly fresh?: boolean | undefined;
}

/**
 * The agent `spec` names, ready to run: an http(s) URL is an endpoint, a path ending in .js, .mjs,
 * .cjs, .ts, .mts, .cts or .tsx a module, anything else a command run through the shell.
 */
export async function resolveAgent(spec: string, options: ResolveAgentOptions): Promise<Agent> {
  const given = spec.trim();
  const refuse = (message: string): never => {
    throw new InvalidOptionError({ option: "agent", value: spec, message });
  };
  if (given === "") {
    return refuse("--agent needs a module (agent.ts), a command (python agent.py) or a URL");
  }
  const kind = /^https?:\/\//i.test(given) ? "url" : namesModule(given) ? "module" : "command";
  if (options.process === "long-lived" && kind !== "command") {
    refuse(`--agent-process long-lived keeps a command's processes; ${given} is not a command`);
  }
  if (options.headers !== undefined && Object.keys(options.headers).length > 0 && kind !== "url") {
    refuse(`--agent-header goes with an HTTP endpoint; ${given} is not a URL`);
  }
  if (kind === "url") {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      return refuse(`--agent ${given} is not a URL that can be reached`);
    }
    return httpAgent(url.href, options.headers === undefined ? {} : { headers: options.headers });
  }
  if (kind === "module") return moduleAgent(given, { cwd: options.cwd, fresh: options.fresh });
  return commandAgent(given, {
    cwd: options.cwd,
    ...(options.process === undefined ? {} : { process: options.process }),
  });
}
