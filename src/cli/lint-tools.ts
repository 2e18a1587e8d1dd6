/**
 * `toolscore lint-tools`: tool definitions (a file, or what an MCP server lists) checked for what
 * makes models call tools wrongly, each finding with its rule and a line to fix it; exit 1 on an
 * error (or more warnings than `--max-warnings`), for CI.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { listServerTools } from "../agent/mcp-tools.js";
import { readDefinitionsFile } from "../agent/simulation.js";
import { DatasetParseError, InvalidInputError } from "../core/errors.js";
import { plural } from "../core/words.js";
import { lintProviders, lintTools, readLintedTools } from "../lint/lint-tools.js";
import { caseToolNames, toolCoverage } from "../lint/tool-coverage.js";
import type { CaseToolNames, ToolCoverage } from "../lint/tool-coverage.js";
import { readDataset } from "../node/dataset.js";
import type { LintFinding, LintProvider } from "../lint/lint-tools.js";
import { printable } from "../reporters/printable.js";
import { flagsHelp, readArgs } from "./flags.js";
import type { Flag } from "./flags.js";
import { ExitCode, namedFile, numberFlag, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import type { Command } from "./commands.js";

const formats = ["text", "json", "markdown"] as const;

const flags = {
  provider: {
    type: "string",
    value: "<list>",
    help: `the providers whose limits apply, comma-separated (default all:\n${lintProviders.join(", ")})`,
  },
  format: { type: "string", value: "<format>", help: "text (default), json or markdown" },
  "max-warnings": {
    type: "string",
    value: "<n>",
    help: "exit 1 when there are more warnings than n (errors always fail)",
  },
  runs: {
    type: "string",
    value: "<file>",
    help: "also say how a run's cases used the tools (a dataset or recordings):\nper tool the cases it was available, expected and called in; the\ntools never expected, never called, called but never expected",
  },
  timeout: {
    type: "string",
    value: "<ms>",
    help: "how long an MCP server has to list its tools (default 30000)",
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

const help = `Usage: toolscore lint-tools <tools.json | tools.yaml | "MCP server command"> [options]
       toolscore lint-tools --runs <dataset>

Checks tool definitions (OpenAI, Anthropic or MCP tools/list; a .json, .yaml or .yml file, or
the tools an MCP server lists when run with the command given) for what makes models call
tools wrongly: missing or one-word descriptions, parameters without a type or a description,
enums of codes nothing explains, required parameters nothing documents, names a model will
confuse, tools that do the same job, and what a provider refuses (its name pattern, an input
schema that is not an object, too many tools). Exit 1 on an error.

${flagsHelp(flags, 24)}
See docs/guides/lint-tools.md.
`;

async function lintToolsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = readArgs(argv, flags, help, io);
  if (args === undefined) return ExitCode.OK;
  const { values, positionals } = args;
  const runs =
    values.runs === undefined
      ? undefined
      : namedFile(
          values.runs,
          { noun: "runs", kinds: ".jsonl, .json or .yaml", option: "--runs" },
          io,
        );
  if (positionals.length > 1 || (positionals.length === 0 && runs === undefined)) {
    throw usageError(
      "lint-tools takes one file of tool definitions, or one MCP server command in quotes (see --help)",
      "tools",
    );
  }
  const given = positionals.at(0);
  const format = values.format ?? "text";
  if (!formats.includes(format as (typeof formats)[number])) {
    throw usageError(
      `--format must be ${formats.join(", ")}, got ${JSON.stringify(format)}`,
      "--format",
    );
  }
  const providers = providersOf(values.provider);
  const maxWarnings = numberFlag("max-warnings", values["max-warnings"], 0, 1_000_000, true);
  const timeoutMs = numberFlag("timeout", values.timeout, 1, 3_600_000, true) ?? 30_000;
  if (given === undefined) {
    writeCoverage(format, await coverageOf(undefined, runs as string), values.runs as string, io);
    return ExitCode.OK;
  }
  // A file that exists, or a name of one without spaces; anything else starts a server.
  const named = path.resolve(io.cwd, given);
  const isFile = existsSync(named) || (!/\s/.test(given) && /\.(json|ya?ml)$/i.test(given));
  let definitions: unknown;
  let source: string;
  try {
    if (isFile) {
      if (!/\.(json|ya?ml)$/i.test(given)) {
        throw usageError(
          `${given} is not a .json or .yaml file of tool definitions; for an MCP server, give the command that starts it in quotes ("node ${given}")`,
          "tools",
        );
      }
      const file = namedFile(
        given,
        { noun: "tool definitions", kinds: ".json or .yaml", option: "tools" },
        io,
      );
      source = given;
      definitions = await readDefinitionsFile(file);
    } else {
      source = given;
      definitions = {
        tools: await listServerTools(given, { cwd: io.cwd, env: io.env, timeoutMs }),
      };
    }
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    throw usageError(error.message, "tools");
  }
  let read;
  try {
    read = readLintedTools(definitions, isFile ? source : "tools/list");
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    throw usageError(error.message, "tools");
  }
  const findings = lintTools(read.tools, { providers, unread: read.unread });
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.length - errors;
  const summary = { source, tools: read.tools.length, errors, warnings };
  const coverage =
    runs === undefined
      ? undefined
      : await coverageOf(
          read.tools.map((tool) => tool.name),
          runs,
        );
  if (format === "json") {
    const report = {
      ...summary,
      providers,
      findings,
      ...(coverage === undefined ? {} : { coverage }),
    };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout.write(
      format === "markdown" ? markdownOf(summary, findings) : textOf(summary, findings),
    );
    if (coverage !== undefined) writeCoverage(format, coverage, values.runs as string, io);
  }
  return errors > 0 || (maxWarnings !== undefined && warnings > maxWarnings)
    ? ExitCode.FAILED
    : ExitCode.OK;
}

/** `--provider openai,gemini`, checked. */
function providersOf(given: string | undefined): readonly LintProvider[] {
  if (given === undefined) return lintProviders;
  const named = given
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = named.find((name) => !lintProviders.includes(name as LintProvider));
  if (unknown !== undefined || named.length === 0) {
    throw usageError(
      `--provider takes ${lintProviders.join(", ")} (comma-separated), got ${JSON.stringify(given)}`,
      "--provider",
    );
  }
  return named as LintProvider[];
}

interface LintSummary {
  readonly source: string;
  readonly tools: number;
  readonly errors: number;
  readonly warnings: number;
}

const headOf = (summary: LintSummary) =>
  `${printable(summary.source)}: ${plural(summary.tools, "tool")}, ${plural(summary.errors, "error")}, ${plural(summary.warnings, "warning")}`;

const whereOf = (finding: LintFinding) =>
  [finding.tool, finding.parameter].filter((part) => part !== undefined).join(" ");

function textOf(summary: LintSummary, findings: readonly LintFinding[]): string {
  const lines = findings.map(
    (finding) =>
      `${finding.severity.padEnd(7)} ${finding.rule.padEnd(21)} ${printable(finding.message)}\n${" ".repeat(30)}fix: ${printable(finding.fix)}`,
  );
  return `${[...lines, ...(lines.length === 0 ? [] : [""]), headOf(summary)].join("\n")}\n`;
}

const cell = (text: string) => printable(text).replace(/\|/g, "\\|");

function markdownOf(summary: LintSummary, findings: readonly LintFinding[]): string {
  const rows = findings.map(
    (finding) =>
      `| ${finding.severity} | \`${finding.rule}\` | ${cell(whereOf(finding))} | ${cell(finding.message)} | ${cell(finding.fix)} |`,
  );
  return `## ${summary.errors > 0 ? "❌" : "✅"} Tool definitions: ${cell(headOf(summary))}\n\n${
    rows.length === 0
      ? "No findings.\n"
      : `| severity | rule | where | finding | fix |\n| --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`
  }`;
}

export const command: Command = { run: lintToolsCommand, help, flags };

/** The coverage of the tool list (when given) over the cases of `file`; a case that cannot be read refuses it. */
async function coverageOf(
  listed: readonly string[] | undefined,
  file: string,
): Promise<ToolCoverage> {
  const names: CaseToolNames[] = [];
  let unread = 0;
  for await (const entry of readDataset(file)) {
    if (DatasetParseError.isInstance(entry)) unread++;
    else names.push(caseToolNames(entry));
  }
  if (unread > 0) {
    throw usageError(
      `${file}: ${plural(unread, "case")} cannot be read (toolscore eval --dry-run says why), and the coverage would leave ${unread === 1 ? "it" : "them"} out`,
      "--runs",
    );
  }
  return toolCoverage(listed, names);
}

/** The coverage as text or Markdown: the tools' table, then what was never used (per case in JSON). */
function writeCoverage(format: string, coverage: ToolCoverage, shown: string, io: CliIo): void {
  if (format === "json") {
    io.stdout.write(`${JSON.stringify({ coverage }, null, 2)}\n`);
    return;
  }
  const head = ["tool", "available", "expected", "called", "called, not expected"];
  // With a tool list, the tools only cases name are marked.
  const listGiven = coverage.tools.some((tool) => tool.listed);
  const rows = coverage.tools.map((tool) => [
    `${tool.name}${tool.listed || !listGiven ? "" : " (not listed)"}`,
    String(tool.available),
    String(tool.expected),
    String(tool.called),
    String(tool.calledUnexpected),
  ]);
  const lists = [
    ["never expected", coverage.neverExpected],
    ["never called", coverage.neverCalled],
    ["called but never expected", coverage.calledNeverExpected],
  ] as const;
  const title = `Tool coverage over ${shown}: ${plural(coverage.cases, "case")}`;
  if (format === "markdown") {
    const table = rows.map((row) => `| ${row.map(cell).join(" | ")} |`).join("\n");
    const said = lists.map(
      ([what, names]) =>
        `- ${what}: ${names.length === 0 ? "none" : names.map((name) => `\`${cell(name)}\``).join(", ")}`,
    );
    io.stdout.write(
      `\n### ${cell(title)}\n\n| ${head.join(" | ")} |\n| --- |${" ---: |".repeat(4)}\n${table}\n\n${said.join("\n")}\n`,
    );
    return;
  }
  const widths = head.map((name, at) =>
    Math.max(name.length, ...rows.map((row) => (row[at] ?? "").length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((value, at) =>
        at === 0 ? value.padEnd(widths[0] ?? 0) : value.padStart(widths[at] ?? 0),
      )
      .join("  ");
  const said = lists.map(
    ([what, names]) => `${what}: ${names.length === 0 ? "none" : printable(names.join(", "))}`,
  );
  io.stdout.write(
    `\n${printable(title)}\n${[head, ...rows].map((row) => printable(line(row))).join("\n")}\n${said.join("\n")}\n(each case's unused and unexpected tools: --format json)\n`,
  );
}
