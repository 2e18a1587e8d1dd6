import { thrown } from "../../test/support/errors.js";
import { describe, expect, it } from "vitest";
import { InvalidInputError, InvalidOptionError, UnknownFormatError } from "../core/errors.js";
import { detectFormat } from "./detect-format.js";
import { parseTrajectories, parseTrajectory } from "./parse-trajectory.js";

const errorOf = (run: () => unknown): unknown => thrown(run);

describe("parseTrajectory", () => {
  it("says why it cannot tell a format, and how to name one", () => {
    const error = errorOf(() => parseTrajectory([{ foo: 1 }, { bar: 2 }]));
    expect(UnknownFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /none of the 2 messages has a shape toolscore knows.*pass options\.format \(one of openai-chat, /,
    );
    expect(UnknownFormatError.isInstance(errorOf(() => parseTrajectory(42)))).toBe(true);
  });

  it("refuses an unknown format id and a top-level value a forced format cannot read", () => {
    expect(errorOf(() => parseTrajectory([], { format: "openai" as never }))).toSatisfy((e) =>
      InvalidOptionError.isInstance(e),
    );
    const error = errorOf(() =>
      parseTrajectory("plain text, not a transcript", { format: "openai-chat" }),
    );
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).field).toBe("line 1");
    expect(
      InvalidInputError.isInstance(errorOf(() => parseTrajectory(true, { format: "anthropic" }))),
    ).toBe(true);
  });

  it("reads JSON text and JSON Lines", () => {
    const messages = [
      {
        role: "assistant",
        tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "a", content: "ok" },
    ];
    expect(parseTrajectory(JSON.stringify(messages)).calls[0]?.output).toBe("ok");
    expect(
      parseTrajectory(messages.map((m) => JSON.stringify(m)).join("\n")).calls[0]?.output,
    ).toBe("ok");
    const bad = errorOf(() => parseTrajectory(`${JSON.stringify(messages[0])}\n{nope\n`));
    expect((bad as InvalidInputError).field).toBe("line 2");
  });

  it("joins results without ids to the earliest unanswered call", () => {
    const t = parseTrajectory([
      {
        role: "assistant",
        tool_calls: [
          { type: "function", function: { name: "first", arguments: "{}" } },
          { type: "function", function: { name: "second", arguments: "{}" } },
        ],
      },
      { role: "tool", content: "one" },
      { role: "tool", content: "two" },
      { role: "tool", content: "three" },
    ]);
    expect(t.calls.map((c) => c.output)).toEqual(["one", "two"]);
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([["result-without-call", "$[3]"]]);
  });

  it("normalizes names on request and reports what changed", () => {
    const t = parseTrajectory(
      {
        tools: [
          { type: "function", function: { name: "mcp__github__create_issue", parameters: {} } },
        ],
        messages: [
          {
            role: "assistant",
            tool_calls: [
              {
                id: "a",
                type: "function",
                function: { name: "mcp__github__create_issue_a1b2", arguments: "{}" },
              },
            ],
          },
          { role: "tool", tool_call_id: "a", content: "#12" },
        ],
      },
      { normalizeNames: { stripMcpPrefix: true } },
    );
    expect(t.calls[0]?.name).toBe("create_issue");
    expect(t.tools[0]?.name).toBe("create_issue");
    expect(t.nameMapping).toEqual([
      { original: "mcp__github__create_issue_a1b2", normalized: "create_issue" },
      { original: "mcp__github__create_issue", normalized: "create_issue" },
    ]);
    expect(parseTrajectory([], { normalizeNames: true }).nameMapping).toEqual([]);
  });

  it("reads 100,000 messages", () => {
    const messages: object[] = [];
    for (let i = 0; i < 50_000; i++) {
      messages.push({
        role: "assistant",
        tool_calls: [
          { id: `c${i}`, type: "function", function: { name: "step", arguments: `{"i":${i}}` } },
        ],
      });
      messages.push({ role: "tool", tool_call_id: `c${i}`, content: String(i) });
    }
    const t = parseTrajectory(messages);
    expect(t.calls).toHaveLength(50_000);
    expect(t.calls[49_999]).toMatchObject({ inputParameters: { i: 49_999 }, output: "49999" });
    expect(t.steps).toHaveLength(50_000);
    expect(t.warnings).toEqual([]);
  });
});

describe("parseTrajectories", () => {
  const call = (id: string, args: string) => ({
    id,
    type: "function",
    function: { name: "search", arguments: args },
  });
  const transcript = (...calls: ReturnType<typeof call>[]) => [
    { role: "user", content: "go" },
    { role: "assistant", content: null, tool_calls: calls },
    ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: "ok" })),
  ];

  it("reads each transcript as parseTrajectory does, sharing arguments of the same text", () => {
    const agent = transcript(call("a1", '{"q":"Oslo"}'), call("a2", '{"q":"Lyon"}'));
    const reference = transcript(call("r1", '{"q":"Oslo"}'), call("r2", '{"q": "Lyon"}'));
    const anthropic = [
      { role: "assistant", content: [{ type: "tool_use", id: "t", name: "x", input: {} }] },
    ];
    const inputs = { agent, reference, text: JSON.stringify(agent), anthropic };
    const read = parseTrajectories(inputs, { normalizeNames: true });
    expect(Object.keys(read)).toEqual(["agent", "reference", "text", "anthropic"]);
    for (const [name, input] of Object.entries(inputs)) {
      expect(read[name as keyof typeof inputs]).toEqual(
        parseTrajectory(input, { normalizeNames: true }),
      );
    }
    // The same text is one object; another spelling of the same value is another.
    expect(read.reference.calls[0].inputParameters).toBe(read.agent.calls[0].inputParameters);
    expect(read.text.calls[1].inputParameters).toBe(read.agent.calls[1].inputParameters);
    expect(read.reference.calls[1].inputParameters).not.toBe(read.agent.calls[1].inputParameters);
    // Read alone, nothing is shared.
    expect(parseTrajectory(agent).calls[0].inputParameters).not.toBe(
      parseTrajectory(agent).calls[0].inputParameters,
    );
  });

  it("keeps any name, __proto__ included", () => {
    const agent = transcript(call("a1", "{}"));
    const inputs = JSON.parse(`{"__proto__": ${JSON.stringify(agent)}, "b": []}`) as Record<
      string,
      unknown
    >;
    const read = parseTrajectories(inputs);
    expect(Object.keys(read)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(read.__proto__).toEqual(parseTrajectory(agent));
  });

  it("shares arguments across many transcripts, past the scan", () => {
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `case${i}`,
        transcript(call(`c${i}`, `{"n":${i % 25}}`), call(`d${i}`, `{"n":${(i + 1) % 25}}`)),
      ]),
    );
    const read = parseTrajectories(many);
    for (const [name, input] of Object.entries(many)) {
      expect(read[name]).toEqual(parseTrajectory(input));
    }
    expect(read.case39.calls[0].inputParameters).toBe(read.case14.calls[0].inputParameters);
    expect(read.case30.calls[1].inputParameters).toBe(read.case5.calls[1].inputParameters);
  });

  it("names the transcript it cannot read, with a typed error", () => {
    const agent = transcript(call("a1", "{}"));
    const lines = errorOf(() => parseTrajectories({ agent, reference: "{}\nnot json" }));
    expect(InvalidInputError.isInstance(lines)).toBe(true);
    expect((lines as InvalidInputError).field).toBe("reference line 2");
    expect((lines as Error).message).toMatch(/^reference: the transcript is neither JSON/);
    const unknown = errorOf(() => parseTrajectories({ actual: [{ foo: 1 }] }));
    expect(UnknownFormatError.isInstance(unknown)).toBe(true);
    expect((unknown as Error).message).toMatch(/^actual: cannot tell the transcript's format/);
    // One transcript, or a list of them, instead of transcripts by name.
    for (const wrong of [agent, [agent, agent], "x", null]) {
      const error = errorOf(() => parseTrajectories(wrong as never));
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/by name, like \{ actual, reference \}/);
    }
    expect(InvalidOptionError.isInstance(errorOf(() => parseTrajectories({}, null as never)))).toBe(
      true,
    );
    expect(
      InvalidOptionError.isInstance(
        errorOf(() => parseTrajectories({ agent }, { format: "openai" as never })),
      ),
    ).toBe(true);
  });
});

describe("detectFormat", () => {
  it("reads plain chat without tool calls as OpenAI chat, and says so", () => {
    expect(
      detectFormat([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    ).toEqual({
      format: "openai-chat",
      evidence: "plain chat messages with no tool calls, read as OpenAI chat",
    });
  });

  it("recognizes request and response envelopes", () => {
    expect(detectFormat({ contents: [] }).format).toBe("gemini");
    expect(detectFormat({ object: "response", output: [] }).format).toBe("openai-responses");
    expect(
      detectFormat({
        model: "claude",
        system: "be brief",
        messages: [{ role: "user", content: "hi" }],
      }).format,
    ).toBe("anthropic");
    expect(
      detectFormat({
        messages: [{ role: "user", content: [{ text: "hi" }] }],
        toolConfig: { tools: [] },
      }).format,
    ).toBe("bedrock");
    expect(detectFormat({ steps: [] }).format).toBe("ai-sdk");
    expect(detectFormat({ resourceSpans: [] }).format).toBe("otel");
  });

  it("follows the majority when messages disagree, and reports the minority", () => {
    const call = (id: string) => ({
      id,
      type: "function",
      function: { name: "f", arguments: "{}" },
    });
    const detection = detectFormat([
      { role: "assistant", tool_calls: [call("a")] },
      { role: "assistant", tool_calls: [call("b")] },
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "f", input: {} }] },
    ]);
    expect(detection).toEqual({
      format: "openai-chat",
      evidence: "2 messages look like openai-chat; fewer look like anthropic (1)",
    });
  });

  it("tells OpenAI chat from LangGraph role dicts by the shape of tool_calls alone", () => {
    const results = [
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "tool", tool_call_id: "b", content: "2" },
    ];
    const langGraph = [
      {
        role: "assistant",
        tool_calls: [
          { name: "f", args: {}, id: "a" },
          { name: "g", args: {}, id: "b" },
        ],
      },
      ...results,
    ];
    const openai = [
      {
        role: "assistant",
        tool_calls: [
          { id: "a", type: "function", function: { name: "f", arguments: "{}" } },
          { id: "b", type: "function", function: { name: "g", arguments: "{}" } },
        ],
      },
      ...results,
    ];
    expect(detectFormat(langGraph).format).toBe("langchain");
    expect(detectFormat(openai).format).toBe("openai-chat");
    expect(parseTrajectory(langGraph).calls.map((c) => c.output)).toEqual(["1", "2"]);
  });
});

describe("argument depth", () => {
  const deep = (levels: number) => [
    {
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: "c",
          type: "function",
          function: { name: "f", arguments: `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}` },
        },
      ],
    },
  ];

  it("keeps arguments nested up to the limit and refuses deeper ones", () => {
    expect(parseTrajectory(deep(1000)).calls).toHaveLength(1);
    expect(() => parseTrajectory(deep(1001))).toThrow(
      expect.objectContaining({ code: "LIMIT_EXCEEDED" }),
    );
  });
});
