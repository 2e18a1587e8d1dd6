import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { refuseLinkedOutput, writeFlags } from "../node/output-path.js";
import { readRegularFile } from "../node/regular-file.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import type { Command } from "./commands.js";

/** The flags of `toolscore init`: what parseArgs reads, and what --help lists. */
export const initFlags = {
  agent: {
    type: "string",
    value: "<module|command|url|none>",
    help: 'the agent the workflow runs on pull requests (agent.ts, "python agent.py",\na URL), or none to score recorded runs; asked in a terminal when left out',
    group: "Options",
  },
  help: { type: "boolean", short: "h", group: "Options" },
} as const satisfies Readonly<Record<string, Flag>>;

export const initHelp = `Usage: toolscore init [--agent <module|command|url|none>]

Starts toolscore in the current folder: a commented config (toolscore.config.yaml), a dataset
of three cases (evals/dataset.jsonl) and a GitHub Actions workflow that runs it on every pull
request (.github/workflows/toolscore.yml). With an agent, the dataset asks it three things, the
workflow runs it (its key a repository secret) and scores its runs, and evals/recordings.jsonl
holds recorded runs that a pull request from a fork (which gets no secrets) is scored on instead.
A file that exists is never overwritten; .gitignore gets the entries of toolscore's results,
reports and judge cache that it lacks. It warns when package.json installs toolscore from a path
outside the repository, which CI would not have.

Then: npx toolscore eval evals/dataset.jsonl [--agent <agent>]

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
const recorded = [
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
];

const jsonl = (items: readonly object[]) =>
  `${items.map((item) => JSON.stringify(item)).join("\n")}\n`;

/** The same three cases as questions for an agent to answer: what the user says, what to call. */
const questions = recorded.map(({ id, input, expectedTools }) => ({ id, input, expectedTools }));

const installNote = `# npm ci installs toolscore from this repository's lock file: until toolscore is on the npm
# registry, keep its tarball in the repository (npm install --save-dev ./vendor/toolscore-<version>.tgz,
# then commit vendor/) or install it from a git URL; node_modules/toolscore/README.md, Install.
name: toolscore
on: [pull_request]
jobs:
  evals:
    runs-on: ubuntu-latest
`;

/** The job's first steps, `npm ci` with a note. */
const setupSteps = (note: string) => `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 24 }
      - run: npm ci${note}
`;

const uploadStep = `      - uses: actions/upload-artifact@v4
        if: always()
        with: { name: toolscore-reports, path: reports/ }
`;

const workflow = `# Scores the agent's recorded runs on every pull request; the job fails when too few pass.
${installNote}    steps:
${setupSteps("")}      - run: npx toolscore eval evals/dataset.jsonl
${uploadStep}`;

/** A word for the shell, quoted when it must be. */
function shellWord(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The workflow that runs `agent` on pull requests from this repository, and scores the committed
 * recordings on those from forks, which get no secrets (and say so in the job's log).
 */
function agentWorkflow(agent: string): string {
  const python = /\bpython3?\b|\.py\b/.test(agent);
  const module = /\.(?:ts|mts|cts|tsx)$/.test(agent);
  return `# Runs the agent on the dataset on every pull request and scores its runs; the job fails when
# too few pass. A pull request from a fork gets no secrets: it is scored on the committed
# recordings (evals/recordings.jsonl) instead, and the job's log says so. Record them again with
#   npx toolscore eval evals/dataset.jsonl --agent ${shellWord(agent)} --recordings evals/recordings.jsonl --overwrite
${installNote}    env:
      SAME_REPOSITORY: \${{ github.event.pull_request.head.repo.full_name == github.repository }}
    steps:
${setupSteps(module ? " # with tsx in devDependencies: it loads a TypeScript agent" : "")}${
    python
      ? `      - uses: actions/setup-python@v5
        with: { python-version: "3.12" }
      # - run: pip install -r requirements.txt # what the agent imports
`
      : ""
  }      - name: Run the agent and score its runs
        if: env.SAME_REPOSITORY == 'true'
        env:
          OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }} # the agent's model key, a repository secret
        run: |
          npx toolscore eval evals/dataset.jsonl --agent ${shellWord(agent)} --recordings reports/runs.jsonl
      - name: Score the committed recordings (a fork's pull request gets no secrets)
        if: env.SAME_REPOSITORY != 'true'
        run: |
          echo "::notice::A pull request from a fork gets no secrets: scoring the committed recordings, not the changed agent."
          npx toolscore eval evals/recordings.jsonl
${uploadStep}`;
}

/** The files init writes, relative to the folder it runs in: for recordings, or for an agent. */
export function initFiles(
  agent?: string,
): readonly { readonly file: string; readonly text: string }[] {
  if (agent === undefined) {
    return [
      { file: "toolscore.config.yaml", text: config },
      { file: "evals/dataset.jsonl", text: jsonl(recorded) },
      { file: ".github/workflows/toolscore.yml", text: workflow },
    ];
  }
  return [
    { file: "toolscore.config.yaml", text: config },
    { file: "evals/dataset.jsonl", text: jsonl(questions) },
    { file: "evals/recordings.jsonl", text: jsonl(recorded) },
    { file: ".github/workflows/toolscore.yml", text: agentWorkflow(agent) },
  ];
}

/**
 * The agent init writes for: the flag's, else the answer to a question asked only in a terminal
 * (scripts and CI are never held by one); undefined for none.
 */
async function agentOf(given: string | undefined, io: CliIo): Promise<string | undefined> {
  let answer = given;
  if (answer === undefined && io.stdin?.isTTY === true && io.stdout.isTTY === true) {
    io.stdout.write(
      "How should CI run your agent? A module (agent.ts), a command (python agent.py), a URL, or none to score recorded runs [none]: ",
    );
    const lines = createInterface({ input: io.stdin, terminal: false });
    try {
      answer = await lines.question("");
    } finally {
      lines.close();
    }
  }
  const agent = answer?.trim() ?? "";
  if (agent === "" && given !== undefined) {
    throw usageError("--agent needs the agent: a module, a command, a URL, or none", "--agent");
  }
  return agent === "" || agent.toLowerCase() === "none" ? undefined : agent;
}

/** Runs `toolscore init`; resolves to the exit code. */
export async function initCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, initFlags, initHelp, io);
  if (args === undefined) return ExitCode.OK;
  const { positionals, values } = args;
  if (positionals.length > 0)
    throw usageError("init takes no arguments; it writes into the current folder");
  const agent = await agentOf(values.agent, io);
  let written = 0;
  for (const { file, text } of initFiles(agent)) {
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
  const next =
    agent === undefined
      ? "npx toolscore eval evals/dataset.jsonl"
      : `npx toolscore eval evals/dataset.jsonl --agent ${shellWord(agent)}`;
  io.stdout.write(written > 0 ? `next: ${next}\n` : "nothing written: every file exists\n");
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
