/**
 * An agent in a JavaScript or TypeScript module, run in this process. TypeScript is loaded through
 * tsx's scoped `tsImport` (an optional peer dependency): no build step, and no loader hook left on
 * toolscore's own modules.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { InvalidOptionError, MissingDependencyError } from "../core/errors.js";
import type { Agent, AgentFunction } from "./agent.js";

const typeScript = /\.(?:ts|mts|cts|tsx)$/;

/** Whether `spec` names a module agent (a script file) rather than a command or an endpoint. */
export function namesModule(spec: string): boolean {
  return /\.(?:js|mjs|cjs|ts|mts|cts|tsx)$/.test(spec) && !/\s/.test(spec.trim());
}

/**
 * Loads the module `file` names and takes its agent function; a usage error if it has none.
 * `fresh` loads it anew even when this process loaded it before (`--watch`, after an edit); an ES
 * module build only, as the CommonJS build's `require` takes no query.
 */
export async function moduleAgent(
  file: string,
  options: { readonly cwd: string; readonly fresh?: boolean | undefined },
): Promise<Agent> {
  const resolved = path.resolve(options.cwd, file);
  const query = options.fresh === true ? `?v=${Date.now()}-${Math.random()}` : "";
  const url = `${pathToFileURL(resolved).href}${query}`;
  let loaded: Record<string, unknown>;
  try {
    loaded = typeScript.test(resolved)
      ? ((await (await loadTsx()).tsImport(url, import.meta.url)) as Record<string, unknown>)
      : // A path, not a URL, on POSIX: the CommonJS build makes this import a require().
        ((await import(process.platform === "win32" || query !== "" ? url : resolved)) as Record<
          string,
          unknown
        >);
  } catch (error) {
    if (MissingDependencyError.isInstance(error)) throw error;
    throw new InvalidOptionError({
      option: "agent",
      value: file,
      message: `--agent ${file} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  const run = agentFunctionOf(loaded);
  if (run === undefined) {
    throw new InvalidOptionError({
      option: "agent",
      value: file,
      message: `--agent ${file} exports no agent: export default (or export "agent") a function (input, context) => transcript`,
    });
  }
  return {
    name: file,
    toolsInContext: true,
    run: (request, context) =>
      Promise.resolve(
        run(request.input, {
          caseId: request.caseId,
          attempt: request.attempt,
          turn: request.turn,
          history: request.history,
          session: request.session,
          ...context,
        }),
      ),
  };
}

/** The agent function of a loaded module: its default export, or one named `agent`. */
function agentFunctionOf(loaded: Record<string, unknown>): AgentFunction | undefined {
  let candidate = loaded.default;
  // A CommonJS module (or TypeScript compiled to it) seen from ESM: its exports are the default.
  if (typeof candidate === "object" && candidate !== null) {
    const inner = candidate as Record<string, unknown>;
    candidate = typeof inner.default === "function" ? inner.default : inner.agent;
  }
  if (typeof candidate !== "function") candidate = loaded.agent;
  return typeof candidate === "function" ? (candidate as AgentFunction) : undefined;
}

async function loadTsx(): Promise<{
  tsImport: (specifier: string, parent: string) => Promise<unknown>;
}> {
  try {
    return await import("tsx/esm/api");
  } catch (error) {
    throw new MissingDependencyError({
      feature: "a TypeScript agent (or give a .js module)",
      packages: ["tsx"],
      cause: error,
    });
  }
}
