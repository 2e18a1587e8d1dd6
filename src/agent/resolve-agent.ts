import { InvalidOptionError } from "../core/errors.js";
import type { Agent } from "./agent.js";
import { commandAgent } from "./command-agent.js";
import { moduleAgent, namesModule } from "./module-agent.js";

/**
 * The agent `spec` names, ready to run: a JavaScript or TypeScript module (a path ending in .js,
 * .mjs, .cjs, .ts, .mts or .cts), else a command run through the shell in `cwd`.
 */
export async function resolveAgent(spec: string, cwd: string): Promise<Agent> {
  const given = spec.trim();
  if (given === "") {
    throw new InvalidOptionError({
      option: "agent",
      value: spec,
      message: "--agent needs a module (agent.ts), a command (python agent.py) or a URL",
    });
  }
  if (/^https?:\/\//i.test(given)) {
    throw new InvalidOptionError({
      option: "agent",
      value: spec,
      message: `--agent ${given}: an HTTP endpoint is not run yet; wrap it in a command (see docs/guides/agent-protocol.md) or give a module`,
    });
  }
  return namesModule(given) ? moduleAgent(given, cwd) : commandAgent(given, cwd);
}
