import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readDatasetCase } from "../adapters/dataset-case.js";
import type { CaseResult } from "../core/case-result.js";
import { createCaseScorer } from "../evaluate/score-case.js";
import { createMetric } from "../registry/metric-registry.js";
import { readConfigFile } from "./config.js";
import { initCommand, initFiles } from "./init.js";

/** A writable that keeps what is written. */
const sink = () => {
  let text = "";
  return {
    write: (chunk: string) => ((text += chunk), true),
    text: () => text,
    isTTY: false,
  };
};

describe("toolscore init writes nothing through a link (issue 48, item 8)", () => {
  it("refuses a .gitignore that is a symbolic link, and leaves its target as it was", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-"));
    const outside = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-outside-"));
    const target = path.join(outside, "authorized_keys");
    writeFileSync(target, "ssh-ed25519 AAAA mine\n");
    symlinkSync(target, path.join(cwd, ".gitignore"));
    const stdout = sink();
    const stderr = sink();
    await expect(initCommand([], { stdout, stderr, cwd, env: {} })).rejects.toThrow(
      /\.gitignore: it is a symbolic link \(to .*authorized_keys\); toolscore writes nothing through a link/,
    );
    expect(readFileSync(target, "utf8")).toBe("ssh-ed25519 AAAA mine\n");
  });

  it("refuses a .gitignore that is a FIFO, without waiting on it", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-"));
    execFileSync("mkfifo", [path.join(cwd, ".gitignore")]);
    await expect(initCommand([], { stdout: sink(), stderr: sink(), cwd, env: {} })).rejects.toThrow(
      /cannot read \.gitignore: is a FIFO \(named pipe\), not a regular file/,
    );
  });
});

describe("toolscore init's config fails a gate a team would fail (issue 49, item 2)", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-config-"));
  const config = initFiles().find((entry) => entry.file === "toolscore.config.yaml")?.text ?? "";
  writeFileSync(path.join(folder, "toolscore.config.yaml"), config);
  const lookup = { name: "lookup_order", arguments: { order_id: "4521" } };
  const refund = (order = "4521") => ({ name: "refund_order", arguments: { order_id: order } });

  async function scorer() {
    const read = await readConfigFile(path.join(folder, "toolscore.config.yaml"));
    const metrics = (read.metrics ?? []).map((entry) =>
      createMetric({ metric: entry.metric, ...entry.options }),
    );
    return createCaseScorer({ metrics });
  }

  it("fails a second refund, a refund nobody expected, another order's refund first, a refund at a turn that expects nothing", async () => {
    const score = await scorer();
    const cases = [
      { id: "twice", toolsCalled: [lookup, refund(), refund()], expectedTools: [lookup, refund()] },
      { id: "unasked", toolsCalled: [lookup, refund()], expectedTools: [lookup] },
      {
        id: "other-order-first",
        toolsCalled: [lookup, refund("9999"), refund()],
        expectedTools: [lookup, refund()],
      },
      {
        id: "turn",
        turns: [
          { toolsCalled: [lookup], expectedTools: [lookup] },
          { toolsCalled: [refund()], expectedTools: [] },
        ],
      },
    ];
    for (const item of cases) {
      const result = score.score(readDatasetCase(item, { index: 0 }), 0) as CaseResult;
      expect(result.status, item.id).toBe("failed");
      const [accuracy] = result.results;
      expect(accuracy.status === "scored" && accuracy.reason, item.id).toMatch(
        /refund_order: an extra call of a tool that changes state/,
      );
    }
  });

  it("passes an extra lookup, and fails a call that breaks its tool's schema", async () => {
    const score = await scorer();
    const extra = readDatasetCase(
      { toolsCalled: [lookup, lookup, refund()], expectedTools: [lookup, refund()] },
      { index: 0 },
    );
    expect((score.score(extra, 0) as CaseResult).status).toBe("passed");
    const wrongType = readDatasetCase(
      {
        availableTools: [
          {
            name: "refund_order",
            parameters: {
              type: "object",
              properties: { order_id: { type: "string" } },
              required: ["order_id"],
            },
          },
        ],
        toolsCalled: [{ name: "refund_order", arguments: { order_id: 4521 } }],
        expectedTools: [{ name: "refund_order", arguments: { order_id: "4521" } }],
      },
      { index: 0 },
    );
    const result = score.score(wrongType, 0) as CaseResult;
    expect(result.status).toBe("failed");
    expect(result.results[0].status === "scored" && result.results[0].reason).toMatch(
      /breaks its schema/,
    );
  });
});

describe("toolscore init with an agent", () => {
  it("writes questions for the agent, recordings for forks, and a workflow that runs it", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-agent-"));
    const stdout = sink();
    const code = await initCommand(["--agent", "python3 agent.py --fast"], {
      stdout,
      stderr: sink(),
      cwd,
      env: {},
    });
    expect(code).toBe(0);
    expect(stdout.text()).toContain("wrote evals/recordings.jsonl");
    expect(stdout.text()).toContain(
      "next: npx toolscore eval evals/dataset.jsonl --agent 'python3 agent.py --fast'",
    );
    const lines = (file: string) =>
      readFileSync(path.join(cwd, file), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The questions hold no run: the agent answers each; the recordings hold runs.
    const asked = lines("evals/dataset.jsonl").map((line, index) =>
      readDatasetCase(line, { index }),
    );
    expect(asked.map((item) => [item.input !== undefined, item.toolsCalled])).toEqual([
      [true, undefined],
      [true, undefined],
      [true, undefined],
    ]);
    expect(lines("evals/recordings.jsonl").map((line) => line.id)).toEqual(
      lines("evals/dataset.jsonl").map((line) => line.id),
    );
    const workflow = readFileSync(path.join(cwd, ".github/workflows/toolscore.yml"), "utf8");
    expect(workflow).toContain(
      "npx toolscore eval evals/dataset.jsonl --agent 'python3 agent.py --fast' --recordings reports/runs.jsonl",
    );
    expect(workflow).toContain("uses: actions/setup-python@v5");
    // A workflow GitHub reads: valid YAML, the two scoring steps each under its condition.
    const steps = (
      parse(workflow) as { jobs: { evals: { steps: { if?: string; run?: string }[] } } }
    ).jobs.evals.steps;
    expect(steps.filter((step) => step.if !== undefined).map((step) => step.if)).toEqual([
      "env.SAME_REPOSITORY == 'true'",
      "env.SAME_REPOSITORY != 'true'",
      "always()",
    ]);
    expect(workflow).toContain("OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}");
    expect(workflow).toMatch(
      /if: env\.SAME_REPOSITORY != 'true'\n.*\n.*::notice::A pull request from a fork gets no secrets/,
    );
  });

  it("asks in a terminal only; --agent none, or no terminal, writes the recordings' workflow", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-none-"));
    await initCommand(["--agent", "none"], { stdout: sink(), stderr: sink(), cwd, env: {} });
    expect(readFileSync(path.join(cwd, ".github/workflows/toolscore.yml"), "utf8")).not.toContain(
      "--agent",
    );
    const { PassThrough } = await import("node:stream");
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = Object.assign(sink(), { isTTY: true });
    const asked = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-asked-"));
    const answered = initCommand([], {
      stdin: input,
      stdout: output,
      stderr: sink(),
      cwd: asked,
      env: {},
    });
    input.write("agent.ts\n");
    expect(await answered).toBe(0);
    expect(output.text()).toMatch(/^How should CI run your agent\?/);
    expect(readFileSync(path.join(asked, ".github/workflows/toolscore.yml"), "utf8")).toContain(
      "--agent agent.ts --recordings",
    );
  });
});
