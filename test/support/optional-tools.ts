import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Tools some tests need that `npm ci` does not install: Debian's Chromium (the HTML report in a
 * browser), the oldest Node that package.json's `engines` allows and Node 22 and 24 (the packed
 * package on them; the current majors of openai, ai and vitest need 22), and zsh and fish (the
 * completion scripts in the shells they are for), and Python 3 (the agent protocol's example).
 * Where one is missing its tests are skipped, saying why and how to run them, unless the run
 * requires it: in CI (`.ci/run` installs both) or with `TOOLSCORE_REQUIRE_<TOOL>=1`, they run
 * and fail with the same message.
 */
export interface OptionalTool {
  readonly name: string;
  readonly path: string;
  readonly present: boolean;
  readonly required: boolean;
  /** Present, or required (then its tests run, and fail if it is absent). */
  readonly runs: boolean;
  /** Why it is missing and how to get it. */
  readonly missing: string;
}

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const engines = (
  JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    engines: { node: string };
  }
).engines.node;

/** The version `engines.node` starts at: it must be a plain lower bound, `>=x.y.z`. */
export function oldestNodeVersion(range: string = engines): string {
  const bound = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (bound === null) {
    throw new Error(`engines.node must be a lower bound such as ">=20.3.0", not ${range}`);
  }
  return bound[1];
}

export const chromiumPath = process.env.TOOLSCORE_CHROMIUM ?? "/usr/bin/chromium";
export const oldestNodePath =
  process.env.TOOLSCORE_OLDEST_NODE ??
  path.join(root, ".cache", `node-v${oldestNodeVersion()}`, "bin", "node");

/** The Node versions scripts/tested-nodes.json pins, by major. */
export const testedNodes = JSON.parse(
  readFileSync(path.join(root, "scripts", "tested-nodes.json"), "utf8"),
) as Readonly<Record<"22" | "24", string>>;

/** Where `node scripts/node.mjs <major>` puts that Node, unless TOOLSCORE_NODE_<major> names one. */
export const nodePath = (major: "22" | "24"): string =>
  process.env[`TOOLSCORE_NODE_${major}`] ??
  path.join(root, ".cache", `node-v${testedNodes[major]}`, "bin", "node");

export const zshPath = process.env.TOOLSCORE_ZSH ?? "/usr/bin/zsh";
export const fishPath = process.env.TOOLSCORE_FISH ?? "/usr/bin/fish";
export const pythonPath = process.env.TOOLSCORE_PYTHON ?? "/usr/bin/python3";

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

const tools = {
  chromium: {
    path: chromiumPath,
    variable: "TOOLSCORE_REQUIRE_CHROMIUM",
    how: `install it (apt-get install chromium) or set TOOLSCORE_CHROMIUM to a Chromium`,
    what: `no Chromium at ${chromiumPath}`,
  },
  "oldest-node": {
    path: oldestNodePath,
    variable: "TOOLSCORE_REQUIRE_OLDEST_NODE",
    how: "run `node scripts/node.mjs` (it fetches that Node from the npm registry) or set TOOLSCORE_OLDEST_NODE to one",
    what: `no Node ${oldestNodeVersion()} (the oldest that package.json's engines allows) at ${oldestNodePath}`,
  },
  "node-22": {
    path: nodePath("22"),
    variable: "TOOLSCORE_REQUIRE_NODE_22",
    how: "run `node scripts/node.mjs 22` (it fetches that Node from the npm registry) or set TOOLSCORE_NODE_22 to one",
    what: `no Node ${testedNodes["22"]} at ${nodePath("22")}`,
  },
  "node-24": {
    path: nodePath("24"),
    variable: "TOOLSCORE_REQUIRE_NODE_24",
    how: "run `node scripts/node.mjs 24` (it fetches that Node from the npm registry) or set TOOLSCORE_NODE_24 to one",
    what: `no Node ${testedNodes["24"]} at ${nodePath("24")}`,
  },
  zsh: {
    path: zshPath,
    variable: "TOOLSCORE_REQUIRE_ZSH",
    how: "install it (apt-get install zsh) or set TOOLSCORE_ZSH to one",
    what: `no zsh at ${zshPath} (toolscore completion zsh is checked in it)`,
  },
  fish: {
    path: fishPath,
    variable: "TOOLSCORE_REQUIRE_FISH",
    how: "install it (apt-get install fish) or set TOOLSCORE_FISH to one",
    what: `no fish at ${fishPath} (toolscore completion fish is checked in it)`,
  },
  python: {
    path: pythonPath,
    variable: "TOOLSCORE_REQUIRE_PYTHON",
    how: "install it (apt-get install python3) or set TOOLSCORE_PYTHON to one",
    what: `no Python 3 at ${pythonPath} (the command agent of the protocol's guide is run in it)`,
  },
} as const;

export type OptionalToolName = keyof typeof tools;

export function optionalTool(name: OptionalToolName): OptionalTool {
  const tool = tools[name];
  const present = existsSync(tool.path);
  const required = isSet(process.env.CI) || isSet(process.env[tool.variable]);
  return {
    name,
    path: tool.path,
    present,
    required,
    runs: present || required,
    missing: `${tool.what}: ${tool.how}; .ci/run installs it, and CI=1 or ${tool.variable}=1 makes its tests required`,
  };
}

export const optionalToolNames = Object.keys(tools) as OptionalToolName[];
