/**
 * `toolscore lint-tools` through the built CLI: tool lists written to trip each rule, the
 * tau-bench airline tools, and the tools real MCP servers list over stdio (toolscore's own
 * simulate-tools, and the official SDK's example servers).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lintRules } from "../src/lint/lint-tools.js";
import { binPath, runCliProcess } from "./support/cli.js";
import { testFolders } from "./support/folders.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const folder = testFolders("toolscore-lint-tools-");

/** A tool that trips nothing, and variants that each trip some rules. */
const good = {
  type: "function",
  function: {
    name: "get_order",
    description: "Look an order up by its id: its items, status and total.",
    parameters: {
      type: "object",
      properties: { order_id: { type: "string", description: "The order's id, like A-1001." } },
      required: ["order_id"],
    },
  },
};
const tripping = [
  good,
  { type: "function", function: { name: "getOrder", description: "Gets order." } },
  {
    type: "function",
    function: {
      name: "refund.order",
      parameters: {
        type: "object",
        properties: { id: {}, mode: { type: "string", enum: ["A", "B"] } },
        required: ["id"],
      },
    },
  },
  { type: "web_search" },
];

interface Report {
  readonly source: string;
  readonly tools: number;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: readonly { readonly rule: string; readonly tool?: string }[];
}

const lint = (args: readonly string[], cwd: string) =>
  runCliProcess(["lint-tools", ...args], { cwd });

describe("toolscore lint-tools", () => {
  it("reports each finding with its rule and fix, in text, JSON and Markdown, and fails on an error", async () => {
    const cwd = folder({ "tools.json": tripping, "good.yaml": "- name: get_order\n" });
    writeFileSync(path.join(cwd, "good.json"), JSON.stringify([good]));
    const text = await lint(["tools.json"], cwd);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("tools.json: 3 tools, 5 errors, 5 warnings\n");
    expect(text.stdout).toMatch(
      /error {3}required-undocumented refund\.order requires \$\.id, which neither it nor refund\.order's description explains\n {30}fix: describe \$\.id/,
    );
    const json = await lint(["tools.json", "--format", "json", "--provider", "openai"], cwd);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as Report;
    expect(new Set(report.findings.map((finding) => finding.rule))).toEqual(
      new Set([
        "entry-unread",
        "description-short",
        "description-missing",
        "provider-name",
        "parameter-untyped",
        "required-undocumented",
        "parameter-undescribed",
        "enum-undocumented",
        "names-confusable",
      ]),
    );
    for (const finding of report.findings) {
      expect(Object.keys(lintRules)).toContain(finding.rule);
    }
    const markdown = await lint(["tools.json", "--format", "markdown"], cwd);
    expect(markdown.stdout).toContain("| severity | rule | where | finding | fix |");
    expect(markdown.stdout).toContain("| error | `provider-name` | refund.order |");
    // Clean: exit 0; warnings fail only past --max-warnings.
    const clean = await lint(["good.json"], cwd);
    expect(clean).toMatchObject({ code: 0, stdout: "good.json: 1 tool, 0 errors, 0 warnings\n" });
    const warned = await lint(["good.yaml"], cwd);
    expect(warned.code).toBe(1);
    expect(warned.stdout).toContain("description-missing");
  });

  it("finds what the tau-bench airline tools would confuse a model with", async () => {
    const tools = path.join(root, "examples/benchmarks/tau-bench/tools.json");
    const run = await lint([tools, "--format", "json"], folder());
    const report = JSON.parse(run.stdout) as Report;
    expect(report.tools).toBe(14);
    // Two search tools share one description word for word.
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: "tools-overlap", tool: "search_direct_flight" }),
    );
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: "required-undocumented",
        tool: "book_reservation",
        parameter: "$.cabin",
      }),
    );
    expect(run.code).toBe(1);
    // How the 20 recorded runs used them: two tools never called, reads called unexpected.
    const dataset = path.join(root, "examples/benchmarks/tau-bench/dataset.jsonl");
    const covered = await lint([tools, "--runs", dataset, "--format", "json"], folder());
    const { coverage } = JSON.parse(covered.stdout) as {
      coverage: { cases: number; neverCalled: string[]; tools: { name: string }[] };
    };
    expect(coverage.cases).toBe(20);
    expect(coverage.neverCalled).toEqual(["list_all_airports", "send_certificate"]);
    expect(coverage.tools).toHaveLength(14);
    const text = await lint(["--runs", dataset], folder());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /Tool coverage over .*dataset\.jsonl: 20 cases\ntool +available +expected +called +called, not expected\n/,
    );
    // Without the tool list, only the tools the cases name: each was called by some case.
    expect(text.stdout).toContain("never called: none\n");
    expect(text.stdout).not.toContain("(not listed)");
  });

  it("lints the tools MCP servers list over stdio: toolscore's simulated tools and the SDK's example servers", async () => {
    const cwd = folder();
    const tools = path.join(root, "examples/simulated-tools/tools.json");
    const served = await lint(
      [
        `${JSON.stringify(process.execPath)} ${JSON.stringify(binPath)} simulate-tools ${JSON.stringify(tools)}`,
        "--format",
        "json",
      ],
      cwd,
    );
    const direct = await lint([tools, "--format", "json"], cwd);
    expect(served.code).toBe(direct.code);
    const findings = (run: { stdout: string }) => (JSON.parse(run.stdout) as Report).findings;
    expect(findings(served)).toEqual(findings(direct));
    expect((JSON.parse(served.stdout) as Report).tools).toBe(2);
    const sdk = path.dirname(
      createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/server/index.js"),
    );
    for (const example of ["mcpServerOutputSchema.js", "toolWithSampleServer.js"]) {
      const server = path.join(sdk, "..", "examples", "server", example);
      const run = await lint(
        [`${JSON.stringify(process.execPath)} ${JSON.stringify(server)}`],
        cwd,
      );
      expect(run.stdout, example).toMatch(/: 1 tool, 0 errors, 0 warnings\n$/);
      expect(run.code).toBe(0);
    }
  });

  it("says what to fix when it cannot lint", async () => {
    const cwd = folder({ "empty.json": [], "notes.txt": "hi" });
    const cases: [string[], RegExp][] = [
      [[], /takes one file of tool definitions, or one MCP server command/],
      [["missing.json"], /no tool definitions at missing\.json/],
      [["empty.json"], /empty\.json defines no tool/],
      [
        ["notes.txt"],
        /notes\.txt is not a \.json or \.yaml file of tool definitions.*"node notes\.txt"/,
      ],
      [["empty.json", "--provider", "mistral"], /--provider takes openai, anthropic, gemini/],
      [["empty.json", "--format", "html"], /--format must be text, json, markdown/],
      [["--runs", "missing.jsonl"], /missing\.jsonl/],
      [[`${JSON.stringify(process.execPath)} -e "process.exit(3)"`], /did not list its tools/],
    ];
    for (const [args, message] of cases) {
      const run = await lint(args, cwd);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
