import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { binPath, runCliProcess, startCli } from "./support/cli.js";
import { readJsonl, testFolders } from "./support/folders.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const example = path.join(root, "examples", "simulated-tools");
const at = (file: string) => path.join(example, file);
const folder = testFolders("toolscore-simulated-tools-");

/** A recordings line, as far as these tests read it. */
interface Recorded {
  readonly availableTools: readonly { readonly readOnly?: boolean }[];
  readonly metadata: {
    readonly agentRun: { readonly simulatedTools: readonly { readonly answer: string }[] };
  };
}

/** The example's refund case run by `agent` on the example's simulated tools. */
function evalExample(agent: string, cwd: string) {
  return runCliProcess(
    [
      "eval",
      at("dataset.jsonl"),
      "--config",
      at("toolscore.config.yaml"),
      "--agent",
      agent,
      "-o",
      "results.jsonl",
    ],
    { cwd },
  );
}

describe("eval --agent on simulated tools", () => {
  it("passes the agent that looks after a timeout and fails the one that refunds twice", async () => {
    const careful = folder();
    const passed = await evalExample(at("agent.mjs"), careful);
    expect(passed.stdout).toMatch(/1 case: 1 passed, 0 failed/);
    expect(passed.code).toBe(0);
    const [run] = readJsonl(path.join(careful, "results.runs.jsonl")) as unknown as Recorded[];
    expect(run.metadata.agentRun.simulatedTools).toEqual([
      {
        tool: "refund_order",
        arguments: { order_id: "4521" },
        call: 1,
        answer: "fault",
        fault: "timeout",
        from: expect.stringMatching(/outputs\.jsonl:1$/),
      },
      {
        tool: "get_order",
        arguments: { order_id: "4521" },
        call: 1,
        answer: "output",
        from: expect.stringMatching(/outputs\.jsonl:2$/),
      },
    ]);
    expect(run.availableTools.map((tool) => tool.readOnly)).toEqual([true, false]);

    const hasty = await evalExample(at("hasty-agent.mjs"), folder());
    expect(hasty.code).toBe(1);
    expect(hasty.stdout).toContain(
      "Recovery 0: 1 of 1 failure mishandled: called[1] refund_order repeats called[0], which timed out and may have gone through",
    );
    expect(hasty.stdout).toContain(
      "called[1] refund_order: an extra call of a tool that changes state",
    );
  });

  it("answers a new run's calls as a recorded run's were answered (--tool-outputs-from)", async () => {
    const cwd = folder();
    expect((await evalExample(at("agent.mjs"), cwd)).code).toBe(0);
    const replay = await runCliProcess(
      [
        "eval",
        at("dataset.jsonl"),
        "--agent",
        at("hasty-agent.mjs"),
        "--tool-outputs-from",
        "results.runs.jsonl",
        "-m",
        "recovery",
        "-o",
        "again.jsonl",
      ],
      { cwd },
    );
    expect(replay.code).toBe(1);
    const [line] = readJsonl(path.join(cwd, "again.runs.jsonl")) as unknown as Recorded[];
    // The first refund as recorded (a timeout); the second, which the recorded run never made,
    // by the last answer those arguments got.
    expect(line.metadata.agentRun.simulatedTools).toEqual([
      expect.objectContaining({
        answer: "fault",
        fault: "timeout",
        from: expect.stringMatching(/results\.runs\.jsonl:1\[0\]$/) as unknown,
      }),
      expect.objectContaining({
        answer: "fault",
        fault: "timeout",
        from: expect.stringMatching(/results\.runs\.jsonl:1\[0\]$/) as unknown,
      }),
    ]);
    const missing = await runCliProcess(
      [
        "eval",
        at("dataset.jsonl"),
        "--agent",
        at("agent.mjs"),
        "--tool-outputs-from",
        "none.jsonl",
      ],
      { cwd },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the recordings .*none\.jsonl: no such file/);
  });

  it("serves a command agent its tools over MCP at the URL of its request", async () => {
    const cwd = folder();
    const run = await evalExample(`"${process.execPath}" ${at("mcp-agent.mjs")}`, cwd);
    expect(run.stderr).toMatch(/1 run of .*mcp-agent\.mjs/);
    expect(run.stdout).toMatch(/1 case: 1 passed/);
    expect(run.code).toBe(0);
    const [line] = readJsonl(path.join(cwd, "results.runs.jsonl")) as unknown as Recorded[];
    expect(line.metadata.agentRun.simulatedTools.map((call) => call.answer)).toEqual([
      "fault",
      "output",
    ]);
  });

  it("simulates a case's own toolOutputs without run settings, and warns of calls nothing answered", async () => {
    const cwd = folder({
      "cases.jsonl": `${JSON.stringify({
        id: "lookup-only",
        input: "Please refund order 4521.",
        toolOutputs: [{ tool: "get_order", output: { status: "paid" } }],
      })}\n`,
    });
    const run = await runCliProcess(
      ["eval", "cases.jsonl", "--agent", at("agent.mjs"), "-m", "recovery", "-o", "results.jsonl"],
      { cwd },
    );
    expect(run.stderr).toContain(
      "toolscore: warning: 1 call of simulated tools found no output to answer them (recorded as unanswered in results.runs.jsonl): add entries for them to the tool outputs",
    );
    const [line] = readJsonl(path.join(cwd, "results.runs.jsonl")) as unknown as Recorded[];
    expect(line.metadata.agentRun.simulatedTools.map((call) => call.answer)).toEqual([
      "unanswered",
      "output",
    ]);
    // The agent said the refund did not go through: handled.
    expect(run.stdout).toMatch(/1 case: 1 passed/);
    expect(run.code).toBe(0);
  });

  it("refuses simulated tools without an agent, and a file it cannot read, by flag", async () => {
    const cwd = folder({ "bad.jsonl": '{"tool": "get_order", "outptu": 1}\n' });
    const without = await runCliProcess(
      ["eval", at("dataset.jsonl"), "--tools", at("tools.json")],
      { cwd },
    );
    expect(without.code).toBe(2);
    expect(without.stderr).toContain(
      "--tools simulates the tools of the agent under test: give --agent",
    );
    const bad = await runCliProcess(
      ["eval", at("dataset.jsonl"), "--agent", at("agent.mjs"), "--tool-outputs", "bad.jsonl"],
      { cwd },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.jsonl:1\.outptu: is not read \(did you mean "output"\?\)/);
  });
});

describe("toolscore simulate-tools", () => {
  it("is an MCP server over stdio that the official client lists and calls", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "simulate-tools", at("tools.json"), "--outputs", at("outputs.jsonl")],
      cwd: folder(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["get_order", "refund_order"]);
      expect(tools[1].annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
      const call = (name: string) => client.callTool({ name, arguments: { order_id: "4521" } });
      expect(await call("get_order")).toEqual({
        content: [{ type: "text", text: '{"order_id":"4521","status":"paid","total":30}' }],
      });
      expect(await call("refund_order")).toEqual({
        content: [{ type: "text", text: "refund_order timed out after 30 s" }],
        isError: true,
      });
      // The timed-out refund went through: the state says so.
      expect(await call("get_order")).toMatchObject({
        content: [{ text: expect.stringContaining('"status":"refunded"') }],
      });
      expect(stderr).toContain("2 tools, 4 output entries, over stdio");
    } finally {
      await client.close();
    }
  });

  it("serves streamable HTTP with --http, prints its URL and stops at SIGINT", async () => {
    const { child, done } = startCli(
      ["simulate-tools", at("tools.json"), "--outputs", at("outputs.jsonl"), "--http", "0"],
      { cwd: folder() },
    );
    const url = await new Promise<string>((resolve) => {
      let seen = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        seen += String(chunk);
        const found = /^(http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(seen);
        if (found !== null) resolve(found[1]);
      });
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(2);
    expect(
      await client.callTool({ name: "refund_order", arguments: { order_id: "4521" } }),
    ).toMatchObject({
      isError: true,
    });
    await client.close();
    child.kill("SIGINT");
    expect((await done).code).toBe(0);
  });

  it("names the line of an outputs file it cannot read, and exits 2", async () => {
    const cwd = folder();
    writeFileSync(path.join(cwd, "outputs.jsonl"), '{"tool": "get_order", "fault": "boom"}\n');
    const run = await runCliProcess(
      ["simulate-tools", at("tools.json"), "--outputs", "outputs.jsonl"],
      { cwd },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /outputs\.jsonl:1\.fault: must be one of error, timeout, rate-limit, malformed, latency/,
    );
  });
});
