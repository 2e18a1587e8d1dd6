import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { refuseLinkedOutput, writeFlags } from "../node/output-path.js";
import { readRegularFile } from "../node/regular-file.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore init`: what parseArgs reads, and what --help lists. */
export const initFlags = {
  help: { type: "boolean", short: "h", group: "Options" },
} as const satisfies Readonly<Record<string, Flag>>;

export const initHelp = `Usage: toolscore init

Starts toolscore in the current folder: a commented config (toolscore.config.yaml), a dataset
of three cases (evals/dataset.jsonl) and a GitHub Actions workflow that runs it on every pull
request (.github/workflows/toolscore.yml). A file that exists is never overwritten; .gitignore
gets the entries of toolscore's results, reports and judge cache that it lacks. It warns when
package.json installs toolscore from a path outside the repository, which CI would not have.

Then: npx toolscore eval evals/dataset.jsonl

${flagsHelp(initFlags)}
`;

const config = `# yaml-language-server: $schema=node_modules/toolscore/dist/config.schema.json
# toolscore's settings for \`toolscore eval\`, read from the folder it runs in.
# Flags override them; paths are relative to this file. Every setting and metric option is in
# toolscore's guides, installed with it: node_modules/toolscore/docs/guides/cli.md and
# node_modules/toolscore/docs/guides/matching.md; toolscore eval --help lists the metrics.

# The metrics every case is scored by, with their options (camelCase or snake_case).
metrics:
  - metric: tool-call-accuracy
    order: in-order # the expected calls in this order; others may come between...
    side_effects:
      # ...if they change nothing: an extra call of any other tool fails the case (a second
      # refund, a refund nobody expected). Name your read-only tools here.
      read_only: [get_*, search_*, lookup_*, list_*, find_*, check_*]
    arguments: subset # extra arguments the agent passed are fine
    on_schema_violation: fail # a call that breaks its tool's schema fails (needs tool definitions)
    # threshold: 1 # the default: a case passes only when every expected call was made as expected
  # - metric: tool-selection # judged by an LLM: needs judge below, and availableTools in cases

# judge: openai/gpt-4o-mini # the model of judged metrics (OPENAI_API_KEY from the environment)

# Pass when at least this share of cases passes (default: every case).
fail_under: 1

# Reports, written after every run.
report: reports/toolscore.html
junit: reports/junit.xml
`;

/** Three cases: one with two calls in order, one with an argument matcher, one transcript. */
const dataset = [
  {
    id: "book-flight",
    input: "Book me the cheapest flight from Paris to Oslo on June 3",
    toolsCalled: [
      { name: "search_flights", arguments: { from: "CDG", to: "OSL", date: "2026-06-03" } },
      { name: "book_flight", arguments: { flight_id: "SK830", passenger: "Ada" } },
    ],
    expectedTools: [
      { name: "search_flights", arguments: { from: "CDG", to: "OSL", date: "2026-06-03" } },
      { name: "book_flight", arguments: { flight_id: "SK830" } },
    ],
  },
  {
    id: "weather",
    input: "Will it rain in Lyon tomorrow?",
    toolsCalled: [{ name: "get_weather", arguments: { city: "Lyon", day: "2026-06-04" } }],
    expectedTools: [
      {
        name: "get_weather",
        arguments: { city: "Lyon", day: { $match: "regex", pattern: "^2026-06-" } },
      },
    ],
  },
  {
    id: "from-a-transcript",
    input: "What's the status of order 4521?",
    trajectory: [
      { role: "user", content: "What's the status of order 4521?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "get_order", arguments: '{"order_id":"4521"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"shipped"}' },
      { role: "assistant", content: "Order 4521 has shipped." },
    ],
    expectedTools: [{ name: "get_order", arguments: { order_id: "4521" } }],
  },
]
  .map((item) => JSON.stringify(item))
  .join("\n");

const workflow = `# Scores the agent's recorded runs on every pull request; the job fails when too few pass.
# npm ci installs toolscore from this repository's lock file: until toolscore is on the npm
# registry, keep its tarball in the repository (npm install --save-dev ./vendor/toolscore-<version>.tgz,
# then commit vendor/) or install it from a git URL; node_modules/toolscore/README.md, Install.
name: toolscore
on: [pull_request]
jobs:
  evals:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 24 }
      - run: npm ci
      - run: npx toolscore eval evals/dataset.jsonl
      - uses: actions/upload-artifact@v4
        if: always()
        with: { name: toolscore-reports, path: reports/ }
`;

/** The files init writes, relative to the folder it runs in. */
export const initFiles: readonly { readonly file: string; readonly text: string }[] = [
  { file: "toolscore.config.yaml", text: config },
  { file: "evals/dataset.jsonl", text: `${dataset}\n` },
  { file: ".github/workflows/toolscore.yml", text: workflow },
];

/** Runs `toolscore init`; resolves to the exit code. */
export async function initCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, initFlags, initHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { positionals } = args;
  if (positionals.length > 0)
    throw usageError("init takes no arguments; it writes into the current folder");
  let written = 0;
  for (const { file, text } of initFiles) {
    const target = path.join(io.cwd, file);
    refuseLinkedOutput(file, { option: "init", within: io.cwd });
    await mkdir(path.dirname(target), { recursive: true });
    try {
      // "wx": never overwrite, even a file made between a check and the write.
      await writeFile(target, text, { flag: "wx" });
      io.stdout.write(`wrote ${file}\n`);
      written++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      io.stdout.write(`kept ${file} (it exists)\n`);
    }
  }
  const ignored = await ignoreOutputs(io.cwd);
  if (ignored.length > 0) io.stdout.write(`added ${ignored.join(", ")} to .gitignore\n`);
  const outside = await installedFromOutside(io.cwd);
  if (outside !== undefined) {
    io.stderr.write(
      `toolscore: warning: package.json installs toolscore from ${outside}, outside this repository: npm ci on a CI machine will not find it. Copy the tarball into the repository (vendor/) and install it from there, or use a git URL (node_modules/toolscore/README.md, Install)\n`,
    );
  }
  io.stdout.write(
    written > 0
      ? "next: npx toolscore eval evals/dataset.jsonl\n"
      : "nothing written: every file exists\n",
  );
  return ExitCode.OK;
}

/** What a repository should not commit: installed packages, toolscore's results, reports and judge cache. */
const outputs = [
  "node_modules/",
  "toolscore-results.jsonl",
  "reports/",
  ".toolscore/",
  ".toolscore-cache/",
];

/** The largest .gitignore read: far over any real one. */
const maxIgnoreBytes = 16 * 1024 * 1024;

/** Adds to .gitignore (made if missing) the entries of `outputs` it lacks; returns them. */
async function ignoreOutputs(cwd: string): Promise<string[]> {
  const file = path.join(cwd, ".gitignore");
  // A .gitignore that is a link (a checkout may hold one) is neither read nor written through.
  refuseLinkedOutput(".gitignore", { option: "init", within: cwd });
  let text = "";
  try {
    text = (await readRegularFile(file, { noFollow: true, maxBytes: maxIgnoreBytes })).toString(
      "utf8",
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw usageError(
        `cannot read .gitignore: ${error instanceof Error ? error.message : String(error)}`,
        "init",
      );
    }
  }
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = outputs.filter((entry) => !present.has(entry) && !present.has(`/${entry}`));
  if (missing.length === 0) return [];
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  await appendFile(file, `${separator}# toolscore\n${missing.join("\n")}\n`, {
    flag: writeFlags.append,
  });
  return missing;
}

/**
 * The `file:` spec by which package.json installs toolscore from outside the folder (the
 * repository), which a CI machine does not have; undefined when it does not.
 */
async function installedFromOutside(cwd: string): Promise<string | undefined> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(path.join(cwd, "package.json"), "utf8"));
  } catch {
    return undefined; // no package.json (or not JSON): npm reports that itself
  }
  const record = manifest as Record<string, Record<string, unknown> | undefined>;
  for (const field of ["devDependencies", "dependencies", "optionalDependencies"]) {
    const spec = record[field]?.toolscore;
    if (typeof spec !== "string" || !spec.startsWith("file:")) continue;
    const target = path.resolve(cwd, spec.slice("file:".length));
    const relative = path.relative(cwd, target);
    if (relative.startsWith("..") || path.isAbsolute(relative)) return spec;
  }
  return undefined;
}

export const command: Command = { run: initCommand, help: initHelp, flags: initFlags };
