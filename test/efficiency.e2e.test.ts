/**
 * `efficiency` through the built CLI on the bundled example: a lean run, a loop, a retry storm and
 * a run over its token and cost budgets, read from OpenAI transcripts with their tokens; then a
 * trace whose spans time the run and each tool.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { testFolders } from "./support/folders.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const example = path.join(root, "examples", "efficiency");
const folder = testFolders("toolscore-efficiency-");

interface Line {
  readonly id?: string;
  readonly metrics?: Readonly<
    Record<string, { readonly status: string; readonly score?: number; readonly reason?: string }>
  >;
}

const efficiencyOf = (lines: readonly Line[], id: string) =>
  lines.find((line) => line.id === id)?.metrics?.Efficiency;

describe("efficiency", () => {
  it("gates the example's runs on their budgets, each figure and budget said", async () => {
    const cwd = folder();
    for (const file of ["dataset.jsonl", "toolscore.config.yaml"]) {
      copyFileSync(path.join(example, file), path.join(cwd, file));
    }
    const run = await runCliProcess(
      ["eval", "dataset.jsonl", "--config", "toolscore.config.yaml", "-o", "results.jsonl"],
      { cwd },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("4 cases: 1 passed, 3 failed, 0 errors");
    const lines = readFileSync(path.join(cwd, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as Line);
    expect(efficiencyOf(lines, "lean")).toMatchObject({ status: "scored", score: 1 });
    expect(efficiencyOf(lines, "loop")?.reason).toContain(
      "1 loop (called[0] get_order, search_policy 3 times)",
    );
    expect(efficiencyOf(lines, "retry-storm")?.reason).toContain(
      "maxRetries 5 > 2, tools.refund_order.maxCalls 6 > 2",
    );
    // Priced at gpt-4o's list price, the agent reporting no cost.
    expect(efficiencyOf(lines, "verbose")?.reason).toContain(
      "20700 tokens (18000 in, 2700 out), $0.0720 (estimated); over 2 of 6 budgets: maxTokens 20700 > 8000, maxCostUsd 0.072 > 0.01",
    );
  });

  it("times a traced run and its tools by their spans; a budget it cannot check is not a pass", async () => {
    const cwd = folder();
    const ns = (ms: number) => String(1_778_630_400_000_000_000n + BigInt(ms) * 1_000_000n);
    const span = (id: string, start: number, end: number, tool?: string) => ({
      traceId: "t1",
      spanId: id,
      ...(tool === undefined ? {} : { parentSpanId: "root" }),
      name: tool === undefined ? "invoke_agent" : `execute_tool ${tool}`,
      startTimeUnixNano: ns(start),
      endTimeUnixNano: ns(end),
      attributes:
        tool === undefined
          ? []
          : [
              { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
              { key: "gen_ai.tool.name", value: { stringValue: tool } },
            ],
    });
    const trace = (id: string, slowest: number) => ({
      id,
      trajectory: [
        span("root", 0, 9000),
        span("s1", 10, 60, "search"),
        span("s2", 100, slowest, "book"),
      ],
    });
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      [trace("quick", 900), trace("slow", 8100)].map((line) => JSON.stringify(line)).join("\n"),
    );
    writeFileSync(
      path.join(cwd, "toolscore.config.yaml"),
      "metrics:\n  efficiency:\n    maxLatencyMs: 10000\n    tools:\n      book:\n        maxLatencyMs: 5000\n",
    );
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "--config", "toolscore.config.yaml", "-o", "results.jsonl"],
      { cwd },
    );
    expect(run.code).toBe(1);
    const lines = readFileSync(path.join(cwd, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as Line);
    expect(efficiencyOf(lines, "quick")).toMatchObject({ status: "scored", score: 1 });
    expect(efficiencyOf(lines, "slow")?.reason).toContain(
      "2 calls, 9000 ms; over 1 of 3 budgets: tools.book.maxLatencyMs 8000 > 5000",
    );
    // Tokens the trace does not carry cannot be held to a budget.
    const tokens = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "-m",
        "efficiency",
        "--set",
        "efficiency.maxTokens=1000",
        "-o",
        "t.jsonl",
      ],
      { cwd },
    );
    expect(tokens.code).toBe(1);
    expect(tokens.stdout).toContain("2 not evaluable");
    expect(tokens.stdout).toContain(
      "maxTokens cannot be checked: the case does not say the run's tokens",
    );
  });
});
