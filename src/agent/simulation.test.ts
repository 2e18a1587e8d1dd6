import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { jsonl, readJsonl, testFolders } from "../../test/support/folders.js";
import type { Agent, AgentRequest, RunContext } from "./agent.js";
import { startHttpToolServer } from "./mcp-tools.js";
import { recordAgentRuns } from "./record-runs.js";
import { loadToolSimulation, toolboxOfRun } from "./simulation.js";
import { createToolbox } from "./toolbox.js";

const folder = testFolders("toolscore-simulation-");

const tools = [
  {
    name: "get_order",
    description: "Look up an order",
    inputSchema: { type: "object", properties: { order_id: { type: "string" } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: "issue_refund",
    description: "Refund an order",
    inputSchema: { type: "object", properties: { order_id: { type: "string" } } },
    annotations: { destructiveHint: true },
  },
];
const outputs = [
  { tool: "issue_refund", calls: 1, fault: "timeout", message: "issue_refund timed out" },
  { tool: "get_order", when: { A1: "refunded" }, output: { status: "refunded" } },
  { tool: "get_order", output: { status: "paid" } },
  { tool: "issue_refund", output: { ok: true }, sets: { A1: "refunded" } },
];

async function simulation() {
  const dir = folder();
  const toolsFile = path.join(dir, "tools.json");
  const outputsFile = path.join(dir, "outputs.jsonl");
  writeFileSync(toolsFile, JSON.stringify({ tools }));
  writeFileSync(outputsFile, jsonl(outputs));
  return loadToolSimulation({ tools: toolsFile, outputs: outputsFile, seed: 3 });
}

describe("loadToolSimulation", () => {
  it("reads MCP definitions and an outputs file, naming a bad line", async () => {
    const read = await simulation();
    expect(read.tools.map((tool) => [tool.name, tool.readOnly])).toEqual([
      ["get_order", true],
      ["issue_refund", false],
    ]);
    expect(read.fixtures[1].source).toMatch(/outputs\.jsonl:2$/);
    const dir = folder();
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify(outputs[0])}\n{"tool": "x", "outptu": 1}\n`);
    await expect(loadToolSimulation({ outputs: bad, seed: 0 })).rejects.toThrow(
      /bad\.jsonl:2\.outptu: is not read \(did you mean "output"\?\)/,
    );
    await expect(
      loadToolSimulation({ outputs: path.join(dir, "none.jsonl"), seed: 0 }),
    ).rejects.toThrow(/cannot read the tool outputs .*none\.jsonl: no such file/);
    writeFileSync(path.join(dir, "empty.json"), "[]");
    await expect(
      loadToolSimulation({ tools: path.join(dir, "empty.json"), seed: 0 }),
    ).rejects.toThrow(InvalidInputError);
  });

  it("reads tools from YAML, and names a file that is neither", async () => {
    const dir = folder();
    writeFileSync(
      path.join(dir, "tools.yaml"),
      "- name: get_order\n  description: Look up an order\n  readOnly: true\n",
    );
    const read = await loadToolSimulation({ tools: path.join(dir, "tools.yaml"), seed: 0 });
    expect(read.tools).toEqual([
      { name: "get_order", description: "Look up an order", readOnly: true },
    ]);
    writeFileSync(path.join(dir, "tools.json"), "[{");
    await expect(
      loadToolSimulation({ tools: path.join(dir, "tools.json"), seed: 0 }),
    ).rejects.toThrow(/tools\.json is not JSON/);
  });

  it("serves a case's own tools, with the output schemas the run's same-named tools declare", async () => {
    const simulation = {
      tools: [
        {
          name: "weather",
          outputSchema: { type: "object", properties: { temp: { type: "number" } } },
        },
      ],
      fixtures: [],
      seed: 0,
    };
    const box = toolboxOfRun(
      simulation,
      {
        caseId: "c",
        attempt: 0,
        toolOutputs: undefined,
        availableTools: [{ name: "weather", description: "The weather" }, { name: "news" }],
      },
      1000,
    );
    expect(box?.tools.map((tool) => tool.name)).toEqual(["weather", "news"]);
    expect(await box?.call("weather", {})).toEqual({
      text: '{"temp":0}',
      isError: false,
      output: { temp: 0 },
    });
    expect(await box?.call("news", {})).toMatchObject({ isError: true });
    expect((await box?.call("forecast", {}))?.text).toBe('there is no tool named "forecast"');
  });

  it("makes no toolbox for a run without simulated tools, and names a case's bad entry", () => {
    const run = { caseId: "c", attempt: 0, availableTools: undefined };
    expect(toolboxOfRun(undefined, { ...run, toolOutputs: undefined }, 1000)).toBeUndefined();
    expect(() => toolboxOfRun(undefined, { ...run, toolOutputs: [{ tool: "x" }] }, 1000)).toThrow(
      "toolOutputs[0]: give an output or a fault",
    );
  });
});

describe("toolbox", () => {
  it("waits out an answer's latency, cut to the run's bound", async () => {
    const box = createToolbox({
      tools: [],
      fixtures: (await simulation()).fixtures.slice(1),
      seed: 0,
      run: "r",
      maxLatencyMs: 0,
    });
    expect(await box.call("get_order", { order_id: "A1" })).toEqual({
      text: '{"status":"paid"}',
      isError: false,
      output: { status: "paid" },
    });
    expect(await box.call("get_order", "A1")).toEqual({
      text: "the arguments of get_order must be an object",
      isError: true,
    });
  });
});

describe("the MCP server over streamable HTTP", () => {
  it("lists the tools and answers calls, faults and state as the simulator does", async () => {
    const read = await simulation();
    const server = await startHttpToolServer({ port: 0 });
    const client = new Client({ name: "test", version: "1.0.0" });
    try {
      const box = createToolbox({ ...read, run: "r", maxLatencyMs: 1000 });
      const { url } = server.add("/mcp/run-1", box);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
        ["get_order", true],
        ["issue_refund", false],
      ]);
      const call = (name: string) => client.callTool({ name, arguments: { order_id: "A1" } });
      expect(await call("issue_refund")).toEqual({
        content: [{ type: "text", text: "issue_refund timed out" }],
        isError: true,
      });
      expect(await call("get_order")).toEqual({
        content: [{ type: "text", text: '{"status":"refunded"}' }],
      });
      expect(await call("delete_all")).toMatchObject({ isError: true });
      expect(box.calls.map((c) => [c.tool, c.answer])).toEqual([
        ["issue_refund", "fault"],
        ["get_order", "output"],
        ["delete_all", "refused"],
      ]);
      const missing = await fetch(`${server.origin}/mcp/other`, { method: "POST", body: "{}" });
      expect(missing.status).toBe(404);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A refund agent: refunds, and after a timeout looks (careful) or refunds again (hasty). */
function refundAgent(careful: boolean, over: "context" | "mcp"): Agent {
  const run = async (request: AgentRequest, context: RunContext) => {
    let call: (name: string) => Promise<{ text: string; isError: boolean }>;
    let close = (): Promise<unknown> => Promise.resolve();
    if (over === "context") {
      const box = context.tools;
      if (box === undefined) throw new Error("no tools in the context");
      call = (name) => box.call(name, { order_id: "A1" });
    } else {
      const client = new Client({ name: "agent", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(request.mcp as string)));
      close = () => client.close();
      call = async (name) => {
        const result = (await client.callTool({ name, arguments: { order_id: "A1" } })) as {
          content: { text: string }[];
          isError?: boolean;
        };
        return { text: result.content[0].text, isError: result.isError === true };
      };
    }
    const messages: unknown[] = [{ role: "user", content: request.input }];
    const use = async (name: string, id: string) => {
      const result = await call(name);
      messages.push(
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id, type: "function", function: { name, arguments: '{"order_id":"A1"}' } },
          ],
        },
        { role: "tool", tool_call_id: id, content: result.text },
      );
      return result;
    };
    const first = await use("issue_refund", "1");
    if (first.isError) await use(careful ? "get_order" : "issue_refund", "2");
    await close();
    messages.push({
      role: "assistant",
      content: careful
        ? "The refund timed out, but the order shows it went through: A1 is refunded."
        : "Done: A1 is refunded.",
    });
    return messages;
  };
  return { name: "refund agent", ...(over === "context" ? { toolsInContext: true } : {}), run };
}

/** A recordings line, as far as these tests read it. */
interface Recorded {
  readonly id: string;
  readonly runError?: unknown;
  readonly metadata: { readonly agentRun: { readonly simulatedTools: readonly unknown[] } };
}

describe("recordAgentRuns with simulated tools", () => {
  it.each(["context", "mcp"] as const)(
    "gives the agent its tools (%s) and records what they answered",
    async (over) => {
      const dir = folder();
      const dataset = path.join(dir, "cases.jsonl");
      const recordings = path.join(dir, "runs.jsonl");
      writeFileSync(
        dataset,
        jsonl([
          { id: "careful", input: "Refund A1" },
          {
            id: "own-outputs",
            input: "Refund A1",
            toolOutputs: [{ tool: "issue_refund", output: { ok: true } }],
          },
          { id: "bad-outputs", input: "Refund A1", toolOutputs: [{ tool: "issue_refund" }] },
        ]),
      );
      const runs = await recordAgentRuns({
        dataset,
        recordings,
        agent: refundAgent(true, over),
        repeat: 1,
        concurrency: 2,
        timeoutMs: 60_000,
        resume: false,
        simulation: await simulation(),
      });
      expect(runs).toMatchObject({ ran: 3, failed: 1 });
      const lines = readJsonl(recordings) as unknown as Recorded[];
      const byId = Object.fromEntries(lines.map((line) => [line.id, line]));
      expect(byId.careful.metadata.agentRun.simulatedTools).toEqual([
        {
          tool: "issue_refund",
          arguments: { order_id: "A1" },
          call: 1,
          answer: "fault",
          fault: "timeout",
          from: expect.stringMatching(/outputs\.jsonl:1$/),
        },
        {
          tool: "get_order",
          arguments: { order_id: "A1" },
          call: 1,
          answer: "output",
          from: expect.stringMatching(/outputs\.jsonl:2$/),
        },
      ]);
      // The case's own entry comes before the run's fault.
      expect(byId["own-outputs"].metadata.agentRun.simulatedTools[0]).toMatchObject({
        answer: "output",
        from: "toolOutputs[0]",
      });
      expect(byId["bad-outputs"].runError).toEqual({
        code: "DATASET_PARSE",
        message: "toolOutputs[0]: give an output or a fault (one of them)",
      });
    },
  );

  it("compiles the tools' argument schemas once for all the runs", async () => {
    const dir = folder();
    const dataset = path.join(dir, "cases.jsonl");
    writeFileSync(
      dataset,
      jsonl([
        { id: "a", input: "Refund A1" },
        { id: "b", input: "Refund A1" },
      ]),
    );
    // The Ajv class the simulated tools' validator loads, through require's cache.
    const ajv = (
      createRequire(import.meta.url)("ajv") as { Ajv: { prototype: { compile: () => unknown } } }
    ).Ajv;
    const compile = vi.spyOn(ajv.prototype, "compile");
    try {
      const runs = await recordAgentRuns({
        dataset,
        recordings: path.join(dir, "runs.jsonl"),
        agent: refundAgent(true, "context"),
        repeat: 3,
        concurrency: 2,
        timeoutMs: 60_000,
        resume: false,
        simulation: await simulation(),
      });
      expect(runs).toMatchObject({ ran: 6, failed: 0 });
      // Both tools take the same arguments: one schema text, compiled once.
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });
});
