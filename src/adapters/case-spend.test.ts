import { describe, expect, it } from "vitest";
import { readDatasetCase } from "./dataset-case.js";

const ns = (ms: number) => String(1_778_630_400_000_000_000n + BigInt(ms) * 1_000_000n);
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const read = (record: object) => readDatasetCase(record, { index: 0, line: 1 });

/** An OpenAI chat transcript whose model responses carry their tokens. */
const chat = (model: string) => [
  { role: "user", content: "refund order 7" },
  {
    role: "assistant",
    model,
    usage: { prompt_tokens: 1200, completion_tokens: 40 },
    tool_calls: [
      { id: "c1", type: "function", function: { name: "refund", arguments: '{"order":7}' } },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "done" },
  {
    role: "assistant",
    model,
    usage: { prompt_tokens: 1300, completion_tokens: 20 },
    content: "Refunded.",
  },
];

describe("what a case's run spent", () => {
  it("is what its recording says, the agent's reported cost before an estimate", () => {
    const recorded = read({
      input: "x",
      toolsCalled: [],
      metadata: {
        agentRun: {
          agent: "agent.mjs",
          durationMs: 5123,
          usage: { inputTokens: 900, outputTokens: 100 },
          estimatedCostUsd: 0.0002,
        },
      },
    });
    expect(recorded.spend).toEqual({
      durationMs: 5123,
      inputTokens: 900,
      outputTokens: 100,
      costUsd: 0.0002,
      costEstimated: true,
    });
    const reported = read({
      toolsCalled: [],
      metadata: { agentRun: { costUsd: 0.5, estimatedCostUsd: 0.1 } },
    });
    expect(reported.spend).toEqual({ costUsd: 0.5 });
  });

  it("leaves out a recorded figure that is no count, with a note", () => {
    const odd = read({
      toolsCalled: [],
      metadata: { agentRun: { durationMs: "fast", usage: { inputTokens: -3, outputTokens: 2 } } },
    });
    expect(odd.spend).toEqual({ outputTokens: 2 });
    expect(odd.notes).toEqual([
      'metadata.agentRun.durationMs "fast" is not a number of 0 or more: not read',
      "metadata.agentRun.usage.inputTokens -3 is not a number of 0 or more: not read",
    ]);
  });

  it("is read from a transcript's tokens, priced at the model's list price", () => {
    const priced = read({ trajectory: chat("gpt-4o-mini") });
    expect(priced.spend?.inputTokens).toBe(2500);
    expect(priced.spend?.outputTokens).toBe(60);
    expect(priced.spend?.costEstimated).toBe(true);
    // gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
    expect(priced.spend?.costUsd).toBeCloseTo((2500 * 0.15 + 60 * 0.6) / 1e6, 12);
    const unpriced = read({ trajectory: chat("my-local-model") });
    expect(unpriced.spend).toEqual({ inputTokens: 2500, outputTokens: 60 });
    expect(
      read({ trajectory: chat("gpt-4o-mini").map(({ usage: _, ...m }) => m) }).spend,
    ).toBeUndefined();
  });

  it("counts each turn's tokens once when each turn's transcript holds the conversation so far", () => {
    const first = chat("gpt-4o-mini");
    const second = [
      ...first,
      { role: "user", content: "and order 8" },
      {
        role: "assistant",
        model: "gpt-4o-mini",
        usage: { prompt_tokens: 2000, completion_tokens: 10 },
        content: "Done too.",
      },
    ];
    const conversation = read({
      turns: [
        { input: "refund order 7", trajectory: first },
        { input: "and order 8", trajectory: second },
      ],
    });
    expect(conversation.spend?.inputTokens).toBe(4500);
    expect(conversation.spend?.outputTokens).toBe(70);
  });

  it("is timed by a trace: the run from first start to last end, each tool call by its span", () => {
    const tool = (id: string, start: number, end: number, name: string) => ({
      traceId: "t1",
      spanId: id,
      parentSpanId: "root",
      name: `execute_tool ${name}`,
      startTimeUnixNano: ns(start),
      endTimeUnixNano: ns(end),
      attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", name)],
    });
    const timed = read({
      trajectory: {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "t1",
                    spanId: "root",
                    name: "invoke_agent",
                    startTimeUnixNano: ns(0),
                    endTimeUnixNano: ns(4200),
                  },
                  tool("s1", 100, 350, "search"),
                  tool("s2", 400, 1900, "book"),
                ],
              },
            ],
          },
        ],
      },
    });
    expect(timed.spend).toEqual({ durationMs: 4200 });
    expect(timed.toolsCalled?.map((call) => [call.name, call.durationMs])).toEqual([
      ["search", 250],
      ["book", 1500],
    ]);
  });

  it("times a recording's calls by what its simulated tools logged, a call they did not serve not", () => {
    const recorded = read({
      toolsCalled: [
        { name: "search", arguments: { q: "a" } },
        { name: "book", arguments: { id: 1 } },
        { name: "pay", arguments: {} },
      ],
      metadata: {
        agentRun: {
          simulatedTools: [
            { tool: "search", arguments: { q: "a" }, call: 1, answer: "output", latencyMs: 1500 },
            { tool: "book", arguments: { id: 1 }, call: 1, answer: "fault", fault: "timeout" },
            { tool: "pay", arguments: { amount: 3 }, call: 1, answer: "output" },
          ],
        },
      },
    });
    expect(recorded.toolsCalled?.map((call) => call.durationMs)).toEqual([1500, 0, undefined]);
  });

  it("reads a call's own durationMs from a dataset, and refuses one that is no duration", () => {
    const given = read({ toolsCalled: [{ name: "search", arguments: {}, durationMs: 87.5 }] });
    expect(given.toolsCalled?.[0].durationMs).toBe(87.5);
    expect(() => read({ toolsCalled: [{ name: "search", durationMs: "slow" }] })).toThrow(
      'line 1: toolsCalled[0].durationMs must be a number of milliseconds (0 or more) when given, got "slow"',
    );
  });
});
