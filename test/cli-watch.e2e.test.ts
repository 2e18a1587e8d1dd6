/**
 * `eval --watch` through the built CLI: a run, then one each time the dataset or the config
 * changes, scoring only the cases that changed (shown by the judge calls it makes, with the judge
 * cache off), saying what changed, and ending cleanly on Ctrl-C.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess, startCli } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";
import { useLlmServer } from "./support/judge-fixtures.js";

const folder = testFolders("toolscore-watch-");
const server = useLlmServer();

const refund = (id: string, amount: number) => ({
  id,
  input: `Refund 30 EUR on order ${id}`,
  toolsCalled: [{ name: "refund_order", arguments: { order: id, amount } }],
  actualOutput: `Refunded ${amount} EUR.`,
});

describe("toolscore eval --watch", () => {
  it("runs again on a change, scoring only the changed cases, and stops on Ctrl-C", async () => {
    const cwd = folder();
    const dataset = path.join(cwd, "runs.jsonl");
    writeFileSync(dataset, jsonl([refund("a", 30), refund("b", 300), refund("c", 30)]));
    const config = (threshold: number) => {
      writeFileSync(
        path.join(cwd, "toolscore.config.json"),
        JSON.stringify({
          metrics: [{ metric: "task-completion", threshold }],
          judge: "openai/gpt-4o-mini",
        }),
      );
    };
    config(1);
    server().answer = ({ prompt }) =>
      prompt.includes("Refunded 30 EUR")
        ? { reason: "refunded", unmet: [], verdict: "completed" }
        : { reason: "the wrong amount", unmet: ["30 EUR"], verdict: "not_completed" };
    const { child, done } = startCli(["eval", "runs.jsonl", "--watch", "--no-cache", "-q"], {
      cwd,
      env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server().openaiBaseURL },
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer | string) => (stdout += String(chunk)));
    child.stderr?.on("data", (chunk: Buffer | string) => (stderr += String(chunk)));
    const waitFor = async (check: () => boolean) => {
      await expect.poll(check, { timeout: 20_000, interval: 50 }).toBe(true);
    };
    const watching = () => (stderr.match(/watching for changes/g) ?? []).length;

    await waitFor(() => watching() === 1);
    expect(server().modelCalls).toHaveLength(3);
    expect(stdout).toContain("gate: 1 of 3 cases failed");

    // b is fixed and d is new: two cases scored, two judge calls; a and c kept as they were.
    writeFileSync(
      dataset,
      jsonl([refund("a", 30), refund("b", 30), refund("c", 30), refund("d", 30)]),
    );
    await waitFor(() => watching() === 2);
    expect(server().modelCalls).toHaveLength(5);
    expect(stderr).toContain("toolscore: changed: runs.jsonl");
    expect(stdout).toContain(
      "watch: 2 cases scored (changed or new), 2 unchanged; changed status: b failed → passed",
    );
    expect(stdout).toContain("gate: all 4 cases passed: exit 0");

    // Another config: every case scored again under it.
    config(0.5);
    await waitFor(() => watching() === 3);
    expect(server().modelCalls).toHaveLength(9);
    expect(stdout).toContain("watch: 4 cases scored (changed or new), 0 unchanged");

    child.kill("SIGINT");
    const ended = await done;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain("toolscore: watch stopped");
  });

  it("refuses flags that do not go with it", async () => {
    const cwd = folder();
    writeFileSync(path.join(cwd, "runs.jsonl"), jsonl([refund("a", 30)]));
    const run = await runCliProcess(["eval", "runs.jsonl", "--watch", "--resume"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "--watch runs the whole dataset each time, scoring what changed: leave out --resume",
    );
  });

  it("with an agent, runs the new cases when the dataset changes, and every case when the agent does", async () => {
    const cwd = folder();
    const ask = (id: string) => ({
      id,
      input: `Refund order ${id}`,
      expectedTools: [{ name: "refund_order", arguments: { order: id } }],
    });
    const agent = (times: number) => {
      writeFileSync(
        path.join(cwd, "agent.mjs"),
        `export default (input) => [{ role: "user", content: input }, { role: "assistant", content: null, tool_calls: Array.from({ length: ${times} }, (_, at) => ({ id: "c" + at, type: "function", function: { name: "refund_order", arguments: JSON.stringify({ order: input.split(" ").pop() }) } })) }];`,
      );
    };
    agent(2);
    writeFileSync(path.join(cwd, "dataset.jsonl"), jsonl([ask("a"), ask("b")]));
    const { child, done } = startCli(["eval", "dataset.jsonl", "--agent", "agent.mjs", "--watch"], {
      cwd,
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer | string) => (stdout += String(chunk)));
    child.stderr?.on("data", (chunk: Buffer | string) => (stderr += String(chunk)));
    const watching = () => (stderr.match(/watching for changes/g) ?? []).length;
    const waitFor = async (check: () => boolean) => {
      await expect.poll(check, { timeout: 20_000, interval: 50 }).toBe(true);
    };
    await waitFor(() => watching() === 1);
    expect(stderr).toMatch(/toolscore: 2 runs of agent\.mjs/);
    expect(stdout).toContain("2 cases: 0 passed, 2 failed");

    // A new case: it alone is run; the others' runs are kept.
    writeFileSync(path.join(cwd, "dataset.jsonl"), jsonl([ask("a"), ask("b"), ask("c")]));
    await waitFor(() => watching() === 2);
    expect(stderr).toMatch(/toolscore: 1 run of agent\.mjs, 2 kept from/);

    // The agent fixed: every case is run again, by the edited agent.
    agent(1);
    await waitFor(() => watching() === 3);
    expect(stderr).toMatch(/toolscore: changed: agent\.mjs/);
    expect(stderr).toMatch(/toolscore: 3 runs of agent\.mjs;/);
    expect(stdout).toContain("gate: all 3 cases passed: exit 0");

    child.kill("SIGINT");
    const ended = await done;
    expect(ended.code).toBe(0);
  });
});
