import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ProviderConfigError } from "../../core/errors.js";
import { trajectoryFormats } from "../../core/trajectory.js";
import type { TrajectoryFormat } from "../../core/trajectory.js";
import {
  DeepEvalToolCorrectnessMetric,
  InvalidOptionError,
  MissingParamsError,
  ToolCall,
  ToolCallParser,
  TrajectoryParser,
  normalizeToolName,
} from "./index.js";

function conversation(format: TrajectoryFormat): unknown {
  const url = new URL(`../../adapters/fixtures/same-conversation/${format}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8"));
}

// The seed's example trajectory (OpenAI format).
const salesTrajectory = [
  { role: "user", content: "What is the average sales amount in the orders table?" },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      {
        id: "call_1",
        type: "function",
        function: {
          name: "data_checker",
          arguments: '{"query": "SELECT AVG(amount) as avg_sales FROM orders LIMIT 1"}',
        },
      },
    ],
  },
  { role: "tool", tool_call_id: "call_1", content: '[{"avg_sales": 250.50}]' },
  { role: "assistant", content: "Based on the data, the average sales amount is $250.50." },
];

describe("DeepEvalToolCorrectnessMetric", () => {
  it("scores the seed's tools_called example", async () => {
    const metric = new DeepEvalToolCorrectnessMetric();
    const result = await metric.measure({
      query: "What is 15 plus 27?",
      toolsCalled: [{ name: "calculator", args: { expression: "15 + 27" }, output: "42" }],
      expectedTools: [{ name: "calculator", args: { expression: "15 + 27" }, output: "42" }],
      generatedResponse: "15 plus 27 equals 42.",
      expectedResponse: "15 plus 27 equals 42.",
    });
    expect(result).toMatchObject({
      score: 1,
      success: true,
      threshold: 0.5,
      strictMode: false,
      higherIsBetter: true,
    });
    expect(result.reason).toBe(
      'Tool Calling Reason: All expected tools ["calculator"] were called (order not considered).\n' +
        "Tool Selection Reason: No available tools were provided to assess tool selection criteria",
    );
  });

  it("scores the seed's agent_trajectory example, reading calls and outputs by id", async () => {
    const result = await new DeepEvalToolCorrectnessMetric().measure({
      query: "What is the average sales amount in the orders table?",
      agentTrajectory: salesTrajectory,
      expectedAgentTrajectory: salesTrajectory,
    });
    expect(result.score).toBe(1);
    expect(result.details.pairs[0]?.output).toEqual({
      verdict: "match",
      expected: '[{"avg_sales": 250.50}]',
      actual: '[{"avg_sales": 250.50}]',
    });
  });

  it("compares input parameters and outputs by default", async () => {
    const result = await new DeepEvalToolCorrectnessMetric().measure({
      query: "q",
      toolsCalled: [{ name: "calc", args: { e: "1+1" }, output: "3" }],
      expectedTools: [{ name: "calc", args: { e: "1+1" }, output: "2" }],
    });
    expect(result.score).toBe(0);
    expect(result.details.mismatches).toContainEqual({
      kind: "output-mismatch",
      expectedIndex: 0,
      calledIndex: 0,
      path: "$",
      expected: "2",
      actual: "3",
    });
    const namesOnly = await new DeepEvalToolCorrectnessMetric({ evaluationParams: [] }).measure({
      query: "q",
      toolsCalled: [{ name: "calc", args: { e: "1+1" }, output: "3" }],
      expectedTools: [{ name: "calc", args: { e: "1+1" }, output: "2" }],
    });
    expect(namesOnly.score).toBe(1);
  });

  it("normalizes dynamic suffixes on both sides and reports the mapping", async () => {
    const result = await new DeepEvalToolCorrectnessMetric().measure({
      query: "q",
      toolsCalled: [
        { name: "delegate_to_sql_query_agent_xg7c", args: {} },
        { name: "get_user_data", args: {} },
      ],
      expectedTools: [
        { name: "delegate_to_sql_query_agent_n2le", args: {} },
        { name: "get_user_data", args: {} },
      ],
    });
    expect(result.score).toBe(1);
    expect(result.nameMapping).toEqual([
      { original: "delegate_to_sql_query_agent_xg7c", normalized: "delegate_to_sql_query_agent" },
      { original: "delegate_to_sql_query_agent_n2le", normalized: "delegate_to_sql_query_agent" },
    ]);
    const strictNames = await new DeepEvalToolCorrectnessMetric({ normalizeNames: false }).measure({
      query: "q",
      toolsCalled: [{ name: "agent_xg7c", args: {} }],
      expectedTools: [{ name: "agent_n2le", args: {} }],
    });
    expect(strictNames.score).toBe(0);
  });

  it("prefers explicit lists over trajectories", async () => {
    const result = await new DeepEvalToolCorrectnessMetric({ evaluationParams: [] }).measure({
      query: "q",
      toolsCalled: [{ name: "explicit" }],
      agentTrajectory: salesTrajectory,
      expectedAgentTrajectory: salesTrajectory,
    });
    expect(result.score).toBe(0);
    expect(result.details.unexpected).toEqual([{ calledIndex: 0, name: "explicit" }]);
  });

  it("reports what parsing found odd, per side", async () => {
    const broken = [
      {
        role: "assistant",
        tool_calls: [
          { id: "x", type: "function", function: { name: "data_checker", arguments: "{oops" } },
        ],
      },
    ];
    const result = await new DeepEvalToolCorrectnessMetric().measure({
      query: "q",
      agentTrajectory: broken,
      expectedAgentTrajectory: salesTrajectory,
    });
    expect(result.warnings.actual.map((w) => w.code)).toEqual([
      "invalid-arguments",
      "call-without-result",
    ]);
    expect(result.warnings.expected).toEqual([]);
    expect(result.score).toBe(0);
  });

  it("rejects cases without a query or without calls on a side", async () => {
    const metric = new DeepEvalToolCorrectnessMetric();
    await expect(metric.measure({ toolsCalled: [], expectedTools: [] } as never)).rejects.toThrow(
      MissingParamsError,
    );
    await expect(metric.measure({ query: "q", toolsCalled: [] })).rejects.toThrow(
      "needs 'expectedTools or expectedAgentTrajectory'",
    );
    await expect(
      metric.measure({ query: "q", agentTrajectory: 42, expectedTools: [] }),
    ).rejects.toThrow(/agentTrajectory/);
  });

  it("sets up the judge for available tools, failing early without a key, and validates its options", async () => {
    expect(
      () =>
        new DeepEvalToolCorrectnessMetric({
          availableTools: [{ name: "search" }],
          modelConfig: { env: {} },
        }),
    ).toThrow(ProviderConfigError);
    await expect(
      new DeepEvalToolCorrectnessMetric({ modelConfig: { env: {} } }).measure({
        query: "q",
        toolsCalled: [],
        expectedTools: [],
        availableTools: [{ name: "s" }],
      }),
    ).rejects.toThrow(/OPENAI_API_KEY/);
    expect(() => new DeepEvalToolCorrectnessMetric({ modelCredentials: 3 as never })).toThrow(
      /modelCredentials must be a string/,
    );
    expect(() => new DeepEvalToolCorrectnessMetric({ batchMaxIterations: 1.5 })).toThrow(
      InvalidOptionError,
    );
    expect(() => new DeepEvalToolCorrectnessMetric({ batchStatusCheckInterval: 0 })).toThrow(
      /batchStatusCheckInterval/,
    );
    expect(() => new DeepEvalToolCorrectnessMetric({ trajectoryFormat: "xml" as never })).toThrow(
      /trajectoryFormat/,
    );
    const metric = new DeepEvalToolCorrectnessMetric({
      modelCredentials: "sk-test",
      modelConfig: { timeoutMs: 5_000 },
    });
    expect([metric.model, metric.batchStatusCheckInterval, metric.batchMaxIterations]).toEqual([
      "openai/gpt-4.1",
      30,
      120,
    ]);
  });

  describe("the same conversation in every format", () => {
    const openai = conversation("openai-chat") as {
      messages: { role: string; tool_calls?: { function: { arguments: string } }[] }[];
    };
    // The agent skipped the retry: drop the third assistant tool call and its result.
    const withoutRetry = {
      messages: openai.messages.filter(
        (m, i, all) =>
          !(
            m.role === "assistant" && m.tool_calls?.[0]?.function.arguments.includes('"retry":true')
          ) && !(i > 0 && all[i - 1]?.tool_calls?.[0]?.function.arguments.includes('"retry":true')),
      ),
    };

    for (const format of trajectoryFormats) {
      it(`${format}: gives the scores the OpenAI transcript gives`, async () => {
        const metric = new DeepEvalToolCorrectnessMetric();
        const same = await metric.measure({
          query: "q",
          agentTrajectory: conversation(format),
          expectedAgentTrajectory: openai,
        });
        expect(same.score).toBe(1);
        const missing = await metric.measure({
          query: "q",
          agentTrajectory: withoutRetry,
          expectedAgentTrajectory: conversation(format),
        });
        const reference = await metric.measure({
          query: "q",
          agentTrajectory: withoutRetry,
          expectedAgentTrajectory: openai,
        });
        expect(missing.score).toBe(reference.score);
        expect(reference.score).toBe(0.8);
        const ordered = new DeepEvalToolCorrectnessMetric({ shouldConsiderOrdering: true });
        expect(
          (
            await ordered.measure({
              query: "q",
              agentTrajectory: conversation(format),
              expectedAgentTrajectory: conversation(format),
            })
          ).score,
        ).toBe(1);
      });
    }
  });
});

describe("the seed's helpers", () => {
  it("TrajectoryParser flattens a transcript into call and result steps sharing ids", () => {
    const steps = new TrajectoryParser().convertTrajectoryToSteps(salesTrajectory);
    expect(steps).toEqual([
      {
        toolCallId: "call_1",
        kind: "tool_call",
        name: "data_checker",
        args: { query: "SELECT AVG(amount) as avg_sales FROM orders LIMIT 1" },
      },
      {
        toolCallId: "call_1",
        kind: "tool_result",
        name: "data_checker",
        args: { query: "SELECT AVG(amount) as avg_sales FROM orders LIMIT 1" },
        output: '[{"avg_sales": 250.50}]',
      },
    ]);
  });

  it("ToolCallParser merges steps by id into tool calls", () => {
    const parser = new ToolCallParser();
    const steps = new TrajectoryParser().parse(conversation("openai-chat"));
    const calls = parser.createToolCallObject(steps);
    expect(calls).toHaveLength(5);
    expect(calls[0]).toBeInstanceOf(ToolCall);
    expect(calls.map((c) => c.output)).toEqual([
      "18°C, light rain",
      "21°C, sunny",
      "train search timed out",
      "TGV 6603, 08:04, 39 EUR",
      "booked: PNR X7Y2Z",
    ]);
    expect(parser.createToolCallObject(steps, { includeOutput: false })[0]?.output).toBeUndefined();
    const named = parser.parse([{ name: "agent_x1y2", args: { q: 1 }, output: "r" }]);
    expect(named).toEqual([
      { toolCallId: undefined, kind: "tool_call", name: "agent_x1y2", args: { q: 1 }, output: "r" },
    ]);
    expect(parser.createToolCallObject(named)[0]?.name).toBe("agent");
    expect(parser.createToolCallObject(named, { normalizeNames: false })[0]?.name).toBe(
      "agent_x1y2",
    );
  });

  it("normalizeToolName removes only random-looking suffixes", () => {
    expect(normalizeToolName("delegate_to_sql_query_agent_xg7c")).toBe(
      "delegate_to_sql_query_agent",
    );
    expect(normalizeToolName("delegate_to_sql_query_agent_zor2")).toBe(
      "delegate_to_sql_query_agent",
    );
    expect(normalizeToolName("get_user_data")).toBe("get_user_data");
    expect(normalizeToolName("agent_nxle")).toBe("agent_nxle");
    expect(normalizeToolName("report_2024")).toBe("report_2024");
  });
});
