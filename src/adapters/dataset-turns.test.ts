import { describe, expect, it } from "vitest";
import { DatasetParseError } from "../core/errors.js";
import { readDatasetCase } from "./dataset-case.js";

const call = (id: string, name: string, args: object) => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});

/** A support conversation in OpenAI chat messages: a greeting, then three user turns. */
const conversation = [
  { role: "system", content: "You are the shop's support agent." },
  { role: "assistant", content: "Hello! How can I help?" },
  { role: "user", content: "Where is my order 4521?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [call("c1", "lookup_order", { order_id: "4521" })],
  },
  { role: "tool", tool_call_id: "c1", content: '{"status":"delivered"}' },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      call("c2", "refund_order", { order_id: "4521", amount: 30 }),
      call("c3", "notify", { order_id: "4521" }),
    ],
  },
  { role: "tool", tool_call_id: "c2", content: '{"refunded":30}' },
  { role: "tool", tool_call_id: "c3", content: "ok" },
  { role: "assistant", content: "It was delivered; I refunded 30 EUR." },
  { role: "user", content: "Yes, please refund it." },
  { role: "assistant", content: "Done already." },
  { role: "user", content: "Thanks, that's all." },
  { role: "assistant", content: "You're welcome!" },
];

const expected = [
  { expected_tools: [{ name: "lookup_order", arguments: { order_id: "4521" } }] },
  { expected_tools: [{ name: "refund_order", arguments: { order_id: "4521", amount: 30 } }] },
  {},
];

describe("a dataset case with turns", () => {
  it("attributes each call and reply to the user turn it followed, the greeting to none", () => {
    const read = readDatasetCase(
      { id: "c", trajectory: conversation, turns: expected, turn_aggregate: "min" },
      { index: 0, line: 1 },
    );
    expect(read.turnAggregate).toBe("min");
    expect(read.toolsCalled?.map((call) => call.name)).toEqual([
      "lookup_order",
      "refund_order",
      "notify",
    ]);
    const turns = read.turns ?? [];
    expect(turns.map((turn) => turn.input)).toEqual([
      "Where is my order 4521?",
      "Yes, please refund it.",
      "Thanks, that's all.",
    ]);
    expect(turns.map((turn) => turn.toolsCalled?.map((call) => call.name))).toEqual([
      ["lookup_order", "refund_order", "notify"],
      [],
      [],
    ]);
    // Steps counted within the turn: the refund and the notice were issued together.
    expect(turns[0].calledSteps).toEqual([
      { index: 0, calls: [0] },
      { index: 1, calls: [1, 2] },
    ]);
    expect(turns.map((turn) => turn.replies)).toEqual([
      ["It was delivered; I refunded 30 EUR."],
      ["Done already."],
      ["You're welcome!"],
    ]);
    expect(turns.map((turn) => turn.expectedTools?.length)).toEqual([1, 1, 0]);
    expect(read.notes).toBeUndefined();
  });

  it("reads a conversation recorded turn by turn, a turn's transcript holding the turn or all so far", () => {
    // The same conversation, each turn's transcript once what followed its user message only,
    // once the whole conversation up to it (as an agent that keeps its messages returns it).
    const user = [2, 9, 11].map((at) => conversation[at]);
    const own = [conversation.slice(3, 9), conversation.slice(10, 11), conversation.slice(12)];
    const sofar = [conversation.slice(0, 9), conversation.slice(0, 11), conversation];
    const whole = readDatasetCase(
      { id: "c", trajectory: conversation, turns: expected },
      { index: 0 },
    );
    for (const transcripts of [own, sofar]) {
      const read = readDatasetCase(
        {
          id: "c",
          turns: expected.map((turn, at) => ({
            input: user[at].content,
            ...turn,
            trajectory: transcripts[at],
          })),
        },
        { index: 0 },
      );
      expect(read.toolsCalled).toEqual(whole.toolsCalled);
      expect(read.turns).toEqual(whole.turns);
      expect(read.trajectory?.format).toBe("openai-chat");
      expect(read.notes).toBeUndefined();
    }
    // A warning of a turn's transcript says which turn.
    const broken = readDatasetCase(
      {
        id: "c",
        turns: [{ trajectory: [{ role: "tool", tool_call_id: "zz", content: "x" }] }],
      },
      { index: 0 },
    );
    expect(broken.trajectory?.warnings.map((warning) => warning.path)).toEqual([
      "$.turns[0].trajectory[0]",
    ]);
  });

  it("refuses a turn's transcript beside the case's, or beside the turn's calls, or unreadable", () => {
    const attempt = (record: object) => {
      try {
        readDatasetCase({ id: "c", ...record }, { index: 0, line: 1 });
      } catch (error) {
        return error instanceof DatasetParseError ? [error.field, error.message] : error;
      }
      return "read";
    };
    expect(attempt({ trajectory: conversation, turns: [{ trajectory: [] }, {}, {}] })).toEqual([
      "turns[0].trajectory",
      "line 1: turns[0].trajectory: the case's transcript holds the whole conversation; give one or the other",
    ]);
    expect(attempt({ turns: [{ tools_called: [], trajectory: [] }] })).toEqual([
      "turns[0].tools_called",
      "line 1: turns[0].tools_called: the calls come from turns[0].trajectory; give one or the other",
    ]);
    expect(attempt({ turns: [{ trajectory: { nothing: 1 } }] })).toEqual([
      "turns[0].trajectory",
      expect.stringMatching(/^line 1: turns\[0\]\.trajectory could not be read: /),
    ]);
  });

  it("takes each turn's calls, replies and expectations given turn by turn, in either spelling", () => {
    const read = readDatasetCase(
      {
        id: "c",
        turns: [
          {
            user_input: "refund 4521",
            tools_called: [{ name: "refund_order", arguments: '{"order_id":"4521"}' }],
            expectedTools: [{ name: "refund_order", arguments: { order_id: "4521" } }],
            response: "Refunded.",
            expected_output_contains: ["Refunded"],
            metric_options: { "tool-call-accuracy": { threshold: 0.5 } },
          },
          { input: "thanks", expected_outcome: "nothing more is done" },
        ],
      },
      { index: 0, line: 1 },
    );
    expect(read.turns).toEqual([
      {
        input: "refund 4521",
        toolsCalled: [
          expect.objectContaining({ name: "refund_order", inputParameters: { order_id: "4521" } }),
        ],
        expectedTools: [{ name: "refund_order", arguments: { order_id: "4521" } }],
        actualOutput: "Refunded.",
        expectedOutputContains: ["Refunded"],
        metricOptions: { "tool-call-accuracy": { threshold: 0.5 } },
      },
      {
        input: "thanks",
        toolsCalled: [],
        expectedTools: [],
        expectedOutcome: "nothing more is done",
      },
    ]);
    expect(read.toolsCalled?.map((call) => call.name)).toEqual(["refund_order"]);
  });

  it("says when the transcript ended before the case's last turns, and notes unknown turn fields", () => {
    const read = readDatasetCase(
      {
        id: "c",
        trajectory: conversation.slice(0, 9),
        turns: [...expected, { expected_tool: [] }],
      },
      { index: 0, line: 1 },
    );
    expect(read.turns?.map((turn) => turn.toolsCalled?.length)).toEqual([3, 0, 0, 0]);
    expect(read.notes).toEqual([
      "the transcript has 1 user turn: turns 2 to 4 were not reached (no calls, no replies)",
      'unknown field "expected_tool" in turns[3] ignored (did you mean "expected_tools"?)',
    ]);
  });

  it("refuses what cannot be attributed or would count nowhere, naming the fix", () => {
    const refused = (record: object) => {
      try {
        readDatasetCase(record, { index: 0, line: 7 });
      } catch (error) {
        expect(DatasetParseError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error("read");
    };
    expect(refused({ trajectory: conversation, turns: expected.slice(0, 2) })).toBe(
      "line 7: the transcript has 3 user turns and turns 2: give one entry per user turn ({} for a turn that should call nothing)",
    );
    expect(refused({ trajectory: conversation, turns: expected, expected_tools: [] })).toBe(
      "line 7: a case with turns gives expected_tools in each turn it belongs to, not for the whole conversation",
    );
    expect(refused({ trajectory: conversation, turns: [{ tools_called: [] }, {}, {}] })).toBe(
      "line 7: turns[0].tools_called: the calls come from the case's transcript; give one or the other",
    );
    expect(refused({ turns: [] })).toMatch(/turns must be a list of user turns/);
    expect(refused({ turns: ["hi"] })).toBe(
      "line 7: turns[0] must be an object of the turn's fields",
    );
    expect(refused({ turns: [{ expected_output_contains: [3] }] })).toBe(
      "line 7: turns[0].expected_output_contains must be a list of strings",
    );
    expect(refused({ turns: [{}], turn_aggregate: "median" })).toBe(
      'line 7: turn_aggregate must be mean, min, all, got "median"',
    );
    expect(refused({ toolsCalled: [], turnAggregate: "min" })).toBe(
      "line 7: turnAggregate is for a case with turns",
    );
  });
});

describe("a case and its turns read by one field reader", () => {
  const errorOf = (record: object): DatasetParseError => {
    try {
      readDatasetCase(record, { index: 0, line: 1 });
    } catch (error) {
      if (error instanceof DatasetParseError) return error;
      throw error;
    }
    throw new Error("read without an error");
  };

  it("names a field as the record spelled it, in the case and in a turn", () => {
    expect(errorOf({ metric_options: [1] }).message).toBe(
      "line 1: metric_options must be an object of options by metric id",
    );
    const turn = errorOf({ turns: [{}, { metric_options: 3 }] });
    expect(turn.message).toBe(
      "line 1: turns[1].metric_options must be an object of options by metric id",
    );
    expect(turn.field).toBe("turns[1].metric_options");
  });

  it("holds a turn's fields to the depth limit as the case's, with the same pointer to the docs", () => {
    let deep: unknown = "x";
    for (let level = 0; level < 1200; level++) deep = { deep };
    expect(errorOf({ turns: [{ input: [deep] }] }).message).toMatch(
      /^line 1: turns\[0\]\.input is nested more than \d+ levels deep \(see docs\/reference\/limits\.md\)$/,
    );
    expect(errorOf({ metadata: deep }).message).toMatch(
      /^line 1: metadata is nested more than \d+ levels deep \(see docs/,
    );
  });

  it("notes an unknown key of a turn with where it stands and the closest spelling", () => {
    const read = readDatasetCase({ turns: [{ expected_tool: [] }] }, { index: 0 });
    expect(read.notes).toEqual([
      'unknown field "expected_tool" in turns[0] ignored (did you mean "expected_tools"?)',
    ]);
  });
});
