import path from "node:path";
import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../core/judge.js";
import type { JsonValue } from "../core/json.js";
import { readDataset } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import { jsonl, readJsonl, testFolders } from "../../test/support/folders.js";
import type { Agent } from "./agent.js";
import { recordAgentRuns } from "./record-runs.js";

const folder = testFolders("toolscore-simulated-user-");

const user = {
  goal: "Get a refund for the blender in order A-1001, which arrived broken",
  facts: { order_id: "A-1001" },
  maxTurns: 4,
  intents: [
    { name: "identify", expectedTools: [{ name: "get_order", arguments: { id: "A-1001" } }] },
    { name: "refund", expectedTools: [{ name: "refund_order", arguments: { id: "A-1001" } }] },
  ],
};

/** An answer of the user model. */
const says = (message: string, intent: string | null = null, done = false): JsonValue => ({
  message,
  intent,
  done,
});

/**
 * A scripted user model: its n-th question is answered with `script[n]` (the last one after
 * that), and every question is kept.
 */
function scriptedUser(script: readonly JsonValue[]) {
  let asked = 0;
  return fakeJudge(() => script[Math.min(asked++, script.length - 1)] ?? null);
}

/**
 * A support agent in OpenAI messages: it looks the order up when told of one, asks to be sure
 * before it refunds, and refunds when told "sure".
 */
const supportAgent: Agent = {
  name: "support agent",
  run: (request) => {
    const text = typeof request.input === "string" ? request.input : "";
    const call = (name: string) => ({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: `${name}-${request.turn}`,
          type: "function",
          function: { name, arguments: '{"id":"A-1001"}' },
        },
      ],
    });
    const reply = (content: string) => ({ role: "assistant", content });
    const messages: unknown[] = [{ role: "user", content: text }];
    if (text.includes("A-1001")) messages.push(call("get_order"), reply("I see order A-1001."));
    else if (/sure/i.test(text)) messages.push(call("refund_order"), reply("Refunded."));
    else messages.push(reply("Are you sure you want a refund?"));
    return Promise.resolve(messages);
  },
};

async function record(
  cases: readonly unknown[],
  model?: ReturnType<typeof scriptedUser>,
  agent: Agent = supportAgent,
) {
  const directory = folder({ "dataset.jsonl": jsonl(cases) });
  const recordings = path.join(directory, "runs.jsonl");
  const recorded = await recordAgentRuns({
    dataset: path.join(directory, "dataset.jsonl"),
    recordings,
    agent,
    repeat: 1,
    concurrency: 1,
    timeoutMs: 60_000,
    resume: false,
    ...(model === undefined ? {} : { user: { model: () => model.model, seed: 7 } }),
  });
  return { recorded, recordings, lines: readJsonl(recordings) };
}

async function entries(file: string): Promise<DatasetEntry[]> {
  const read: DatasetEntry[] = [];
  for await (const entry of readDataset(file)) read.push(entry);
  return read;
}

const promptOf = (request: JudgeRequest | undefined) => {
  const content = request?.messages.at(-1)?.content;
  return typeof content === "string" ? content : "";
};

describe("a simulated user", () => {
  it("speaks turn by turn until it ends; its expected calls follow its intents, not the turn numbers", async () => {
    const model = scriptedUser([
      says("Hi, the blender from order A-1001 arrived broken", "identify"),
      says("I'd like a refund", "refund"),
      says("Yes, sure", "refund"),
      says("Thanks, bye", null, true),
    ]);
    const { recorded, lines, recordings } = await record([{ id: "refund", user }], model);
    expect(recorded).toMatchObject({ ran: 1, failed: 0, spoiled: 0 });
    const line = lines[0];
    expect(line.runError).toBeUndefined();
    const turns = line.turns as { input: string; expectedTools: unknown[] }[];
    expect(turns.map((turn) => turn.input)).toEqual([
      "Hi, the blender from order A-1001 arrived broken",
      "I'd like a refund",
      "Yes, sure",
    ]);
    // The refund took an extra turn (the agent asked first): it is expected where it was made.
    expect(
      turns.map((turn) => turn.expectedTools.map((call) => (call as { name: string }).name)),
    ).toEqual([["get_order"], [], ["refund_order"]]);
    const agentRun = (line.metadata as { agentRun: Record<string, unknown> }).agentRun;
    expect(agentRun.user).toMatchObject({
      model: "fake/judge-1",
      seed: 7,
      ended: "done",
      closing: "Thanks, bye",
      faults: [],
      messages: [
        { message: "Hi, the blender from order A-1001 arrived broken", intent: "identify" },
        { message: "I'd like a refund", intent: "refund" },
        { message: "Yes, sure", intent: "refund" },
      ],
    });
    // The user was shown what the agent said, asked with the run's seed and the case's intents.
    expect(model.asked).toHaveLength(4);
    expect(model.asked.every((request) => request.sample === 7)).toBe(true);
    expect(promptOf(model.asked[2])).toContain("agent: Are you sure you want a refund?");
    expect(model.asked[0]?.schema.schema).toMatchObject({
      properties: { intent: { enum: ["identify", "refund", null] } },
    });
    // Read back, it is a conversation with its expectations, nothing spoiled.
    const [read] = await entries(recordings);
    expect(read).toMatchObject({ id: "refund", turns: [{}, {}, {}] });
    expect(read).not.toHaveProperty("simulatorFault");
  });

  it("reads a transcript that holds the conversation so far as scoring does: only what followed the last message", async () => {
    // The same agent, answering with the whole conversation each turn.
    const agent: Agent = {
      name: "whole-conversation agent",
      run: async (request, context) => {
        const earlier = request.history.flatMap((turn) => turn.transcript as unknown[]);
        const own = (await supportAgent.run(request, context)) as unknown[];
        return [...earlier, ...own];
      },
    };
    const model = scriptedUser([
      says("Hi, the blender from order A-1001 arrived broken", "identify"),
      says("I'd like a refund", "refund"),
      says("Yes, sure", "refund"),
      says("Thanks, bye", null, true),
    ]);
    const { lines } = await record([{ id: "refund", user }], model, agent);
    const turns = lines[0]?.turns as { expectedTools: { name: string }[] }[];
    // get_order, made at turn 1, is not counted again at turns 2 and 3.
    expect(turns.map((turn) => turn.expectedTools.map((call) => call.name))).toEqual([
      ["get_order"],
      [],
      ["refund_order"],
    ]);
    // The user is shown each reply once, at its turn.
    const prompt = promptOf(model.asked[3]);
    expect(prompt.match(/agent: I see order A-1001\./g)).toHaveLength(1);
    expect(prompt.match(/agent: Are you sure you want a refund\?/g)).toHaveLength(1);
  });

  it("spoils the run when it makes a fact up, and sends the agent nothing more", async () => {
    const model = scriptedUser([
      says("Hi, the blender from order A-1001 arrived broken", "identify"),
      says("My phone number is 555-0100, call me", "refund"),
    ]);
    const { recorded, lines, recordings } = await record([{ id: "refund", user }], model);
    expect(recorded).toMatchObject({ ran: 1, failed: 0, spoiled: 1 });
    const line = lines[0];
    expect(line.turns).toHaveLength(1);
    expect(line.runError).toEqual({
      code: "USER_SIMULATOR",
      message: expect.stringContaining('turn 2: the simulated user said "555-0100"') as string,
    });
    const agentRun = (line.metadata as { agentRun: { user: Record<string, unknown> } }).agentRun;
    expect(agentRun.user).toMatchObject({
      ended: "fault",
      messages: [{}, { sent: false, faults: ["invented-fact"] }],
    });
    // Read back, the run is whole (reports show it) and carries the simulator's fault.
    const [read] = await entries(recordings);
    expect(read).toMatchObject({
      id: "refund",
      simulatorFault: expect.stringContaining("555-0100") as string,
    });
  });

  it("runs a spoiled run again with --resume --retry-errors, keeping the rest", async () => {
    const model = scriptedUser([says("bye", null, true)]);
    const { recordings } = await record([{ id: "quits", user }], model);
    const dataset = path.join(path.dirname(recordings), "dataset.jsonl");
    const behaved = scriptedUser([
      says("Hi, order A-1001 came broken", "identify"),
      says("Yes, sure", "refund"),
      says("Thanks", null, true),
    ]);
    const again = await recordAgentRuns({
      dataset,
      recordings,
      agent: supportAgent,
      repeat: 1,
      concurrency: 1,
      timeoutMs: 60_000,
      resume: true,
      retryFailed: true,
      user: { model: () => behaved.model, seed: 7 },
    });
    expect(again).toMatchObject({ ran: 1, kept: 0, spoiled: 0 });
    const lines = readJsonl(recordings);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.runError).toBeUndefined();
  });

  it("spoils the run when it ends before the agent answered, or never ends", async () => {
    const atOnce = await record([{ id: "quits", user }], scriptedUser([says("bye", null, true)]));
    expect(atOnce.recorded.spoiled).toBe(1);
    expect(atOnce.lines[0]?.turns).toBeUndefined();
    expect(atOnce.lines[0]?.runError).toMatchObject({
      code: "USER_SIMULATOR",
      message: expect.stringContaining("before the agent answered anything") as string,
    });
    // Its case lists no intents: its answers have none.
    const model = scriptedUser([{ message: "Hello? Is anyone there?", done: false }]);
    const endless = await record([{ id: "endless", user: { ...user, intents: [] } }], model);
    expect(endless.recorded.spoiled).toBe(1);
    expect(endless.lines[0]?.turns).toHaveLength(4);
    // Asked once more than its turns: that answer says whether it would have ended.
    expect(model.asked).toHaveLength(5);
    expect(endless.lines[0]?.runError).toMatchObject({
      message: expect.stringContaining("did not end the conversation in its 4 turns") as string,
    });
  });

  it("counts a model that gives no usable answer as the simulator's fault", async () => {
    const model = scriptedUser([{ message: "", done: false }]);
    const { lines } = await record([{ id: "mute", user: { goal: "a refund" } }], model);
    expect(model.asked).toHaveLength(3);
    expect(lines[0]?.runError).toMatchObject({
      code: "USER_SIMULATOR",
      message: expect.stringContaining(
        "turn 1: the model playing the user gave no usable answer",
      ) as string,
    });
  });

  it("makes a case with a user and no model, or a user and an input, that case's error", async () => {
    const { recorded, lines } = await record([
      { id: "no-model", user },
      { id: "both", user, input: "hi" },
      { id: "typo", user: { goal: "x", persona: 3 } },
    ]);
    expect(recorded).toMatchObject({ ran: 1, failed: 1, copied: 2 });
    expect(lines.map((line) => line.runError)).toEqual([
      {
        code: "DATASET_PARSE",
        message: expect.stringContaining("give the model that plays it (--user-model") as string,
      },
      {
        code: "DATASET_PARSE",
        message: "give a simulated user (user) or what the user says (input), not both",
      },
      { code: "DATASET_PARSE", message: "user.persona must be text" },
    ]);
  });
});
