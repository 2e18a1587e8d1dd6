import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AgentRunError, DatasetParseError, ErrorCode } from "../core/errors.js";
import { readDataset } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import { jsonl, readJsonl, testFolders } from "../../test/support/folders.js";
import type { Agent } from "./agent.js";
import { recordAgentRuns } from "./record-runs.js";

const folder = testFolders("toolscore-record-runs-");

const weather = { name: "get_weather", inputParameters: { city: "Oslo" } };
const dataset = [
  { id: "ask", input: "Weather in Oslo?", expected_tools: [weather], metadata: { team: "x" } },
  { id: "recorded", input: "Weather?", toolsCalled: [weather], expectedTools: [weather] },
  { id: "no-input", expectedTools: [weather] },
  { id: 7, input: "fails", expectedTools: [weather] },
];

/** An agent that calls get_weather, fails on "fails", and counts its runs. */
function countingAgent(): Agent & { readonly runs: string[] } {
  const runs: string[] = [];
  return {
    name: "counting agent",
    runs,
    run: (request, { log }) => {
      runs.push(`${request.caseId}#${request.attempt}`);
      if (request.input === "fails") return Promise.reject(new Error("the model said no"));
      log("called get_weather");
      return Promise.resolve(weatherRun(request.input));
    },
  };
}

/** Each case of `dataset` run once, one at a time, into a new recordings file. */
function runOnce(dataset: string, recordings: string, agent: Agent) {
  return recordAgentRuns({
    dataset,
    recordings,
    agent,
    repeat: 1,
    concurrency: 1,
    timeoutMs: 60_000,
    resume: false,
  });
}

/** A run that asked the weather in Oslo, in OpenAI chat messages. */
function weatherRun(input: unknown) {
  const call = { name: "get_weather", arguments: '{"city":"Oslo"}' };
  return [
    { role: "user", content: input },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "1", type: "function", function: call }],
    },
  ];
}

async function entries(file: string): Promise<DatasetEntry[]> {
  const read: DatasetEntry[] = [];
  for await (const entry of readDataset(file)) read.push(entry);
  return read;
}

const keyOf = (entry: DatasetEntry) =>
  DatasetParseError.isInstance(entry) ? `${entry.caseId}!` : `${entry.id}#${entry.run ?? 0}`;

describe("recordAgentRuns", () => {
  it("runs the cases that hold an input and no run, copies the rest, and records failures as the cases' errors", async () => {
    const badField = { id: "bad", input: "x", toolsCalled: "not a list" };
    const directory = folder({ "dataset.jsonl": `${jsonl([...dataset, badField])}not json\n` });
    const recordings = path.join(directory, "runs.jsonl");
    const agent = countingAgent();
    const recorded = await recordAgentRuns({
      dataset: path.join(directory, "dataset.jsonl"),
      recordings,
      agent,
      repeat: 2,
      concurrency: 3,
      timeoutMs: 60_000,
      resume: false,
    });
    expect(recorded).toMatchObject({ ran: 4, failed: 2, kept: 0, copied: 4 });
    expect(agent.runs.sort()).toEqual(["7#0", "7#1", "ask#0", "ask#1"]);

    const read = await entries(recordings);
    expect(read.map(keyOf).sort()).toEqual(
      ["7!", "7!", "ask#0", "ask#1", "bad!", "case-6!", "no-input#0", "recorded#0"].sort(),
    );
    const asked = read.find((entry) => keyOf(entry) === "ask#1");
    expect(asked).toMatchObject({
      toolsCalled: [{ name: "get_weather", inputParameters: { city: "Oslo" } }],
      expectedTools: [weather],
      metadata: { team: "x", agentRun: { agent: "counting agent", log: ["called get_weather"] } },
    });
    const failed = read.filter((entry) => AgentRunError.isInstance(entry));
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ code: ErrorCode.AGENT_RUN, caseId: "7" });
    expect(failed[0].message).toMatch(/the agent failed: the model said no$/);
    // The dataset's unreadable line stays the case's error, with its own code.
    const unreadable = read.find((entry) => keyOf(entry) === "case-6!");
    expect(unreadable).toMatchObject({ code: ErrorCode.DATASET_PARSE });
    const bad = read.find((entry) => keyOf(entry) === "bad!");
    expect(DatasetParseError.isInstance(bad) && bad.message).toMatch(/toolsCalled must be a list/);
  });

  it("resumes from what the file holds: a line cut short is taken off, nothing runs twice", async () => {
    const directory = folder({ "dataset.jsonl": jsonl(dataset) });
    const recordings = path.join(directory, "runs.jsonl");
    const options = {
      dataset: path.join(directory, "dataset.jsonl"),
      recordings,
      repeat: 3,
      concurrency: 2,
      timeoutMs: 60_000,
    };
    await recordAgentRuns({ ...options, agent: countingAgent(), resume: false });
    const whole = readFileSync(recordings, "utf8").split("\n").filter(Boolean);
    // A kill mid-write: two runs lost, the last line half written.
    const kept = whole.slice(0, -3);
    writeFileSync(recordings, `${kept.join("\n")}\n${whole.at(-3)?.slice(0, 40) ?? ""}`);
    const again = countingAgent();
    const resumed = await recordAgentRuns({ ...options, agent: again, resume: true });
    expect(resumed.kept).toBe(kept.length);
    expect(again.runs).toHaveLength(3);
    const lines = readJsonl(recordings);
    const keys = lines.map((line) => `${String(line.id)}#${JSON.stringify(line.run ?? 0)}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      ["ask#0", "ask#1", "ask#2", "7#0", "7#1", "7#2", "recorded#0", "no-input#0"].sort(),
    );
  });

  it("runs a conversation turn by turn, giving each turn what came before, and records each turn's transcript", async () => {
    const order = { name: "lookup_order", arguments: { order_id: "4521" } };
    const refund = { name: "refund_order", arguments: { order_id: "4521", amount: 30 } };
    const conversation = {
      id: "talk",
      turns: [
        { input: "Where is order 4521?", expected_tools: [order] },
        { input: "Refund it, please.", expected_tools: [refund] },
        { input: "Thanks." },
      ],
    };
    const broken = {
      id: "broken",
      turns: [{ input: "Hello" }, { input: "crash now" }, { input: "?" }],
    };
    const silent = { id: "silent", turns: [{ input: "Hello" }, {}] };
    const directory = folder({ "dataset.jsonl": jsonl([conversation, broken, silent]) });
    const recordings = path.join(directory, "runs.jsonl");
    const seen: { turn: number; heard: number; session: string; attempt: number }[] = [];
    // An agent that answers each turn with that turn's messages only: the refund needs the
    // order found in an earlier turn, which it takes from the history it is given.
    const agent: Agent = {
      name: "support agent",
      run: (request) => {
        seen.push({
          turn: request.turn,
          heard: request.history.length,
          session: request.session,
          attempt: request.attempt,
        });
        if (request.input === "crash now") return Promise.reject(new Error("lost the thread"));
        const earlier = JSON.stringify(request.history.map((turn) => turn.transcript));
        const text = typeof request.input === "string" ? request.input : "";
        const calls = text.startsWith("Where")
          ? [{ name: "lookup_order", arguments: { order_id: "4521" } }]
          : text.startsWith("Refund") && earlier.includes("4521")
            ? [{ name: "refund_order", arguments: { order_id: "4521", amount: 30 } }]
            : [];
        return Promise.resolve([
          { role: "user", content: text },
          ...calls.map((call, at) => ({
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: `t${request.turn}c${at}`,
                type: "function",
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              },
            ],
          })),
          { role: "assistant", content: "Done." },
        ]);
      },
    };
    const recorded = await recordAgentRuns({
      dataset: path.join(directory, "dataset.jsonl"),
      recordings,
      agent,
      repeat: 2,
      concurrency: 1,
      timeoutMs: 60_000,
      resume: false,
    });
    expect(recorded).toMatchObject({ ran: 4, failed: 2, copied: 1 });
    // Each turn heard every turn before it; a run's turns share a session, runs do not.
    const talk = seen.filter((item) => item.session === seen[0].session);
    expect(talk.map((item) => [item.turn, item.heard])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(new Set(seen.map((item) => item.session)).size).toBe(4);

    const read = await entries(recordings);
    const scored = read.find((entry) => keyOf(entry) === "talk#1");
    expect(DatasetParseError.isInstance(scored)).toBe(false);
    const turns = (scored as Exclude<DatasetEntry, DatasetParseError>).turns ?? [];
    expect(turns.map((turn) => turn.toolsCalled?.map((call) => call.name))).toEqual([
      ["lookup_order"],
      ["refund_order"],
      [],
    ]);
    expect(turns.map((turn) => turn.replies)).toEqual([["Done."], ["Done."], ["Done."]]);
    // The failed turn is the run's error; the turn it answered before is kept in the file.
    const lines = readJsonl(recordings);
    const failed = lines.find((line) => line.id === "broken" && line.run === 0);
    expect(failed?.runError).toEqual({ code: "AGENT_RUN", message: "turn 2: lost the thread" });
    expect(
      (failed?.turns as { trajectory?: unknown }[]).map((turn) => turn.trajectory !== undefined),
    ).toEqual([true, false, false]);
    expect((failed?.metadata as { agentRun: { turns: unknown[] } }).agentRun.turns).toHaveLength(1);
    const mute = read.find((entry) => keyOf(entry) === "silent!");
    expect(DatasetParseError.isInstance(mute) && mute.message).toMatch(/turns\[1\] has no input/);
  });

  it("records the model, tokens and list-price cost a conversation's transcripts carry, added up over its turns", async () => {
    const directory = folder({
      "dataset.jsonl": jsonl([{ id: "talk", turns: [{ input: "one" }, { input: "two" }] }]),
    });
    const recordings = path.join(directory, "runs.jsonl");
    // Each turn answered by one Responses API call, as the API returns it.
    const agent: Agent = {
      name: "responses agent",
      run: (request) =>
        Promise.resolve({
          model: "gpt-4.1-mini-2025-04-14",
          input: [{ role: "user", content: request.input }],
          output: [{ type: "message", role: "assistant", content: "ok" }],
          usage: { input_tokens: 1000 * (request.turn + 1), output_tokens: 100 },
        }),
    };
    await runOnce(path.join(directory, "dataset.jsonl"), recordings, agent);
    const [line] = readJsonl(recordings);
    const agentRun = (line.metadata as { agentRun: Record<string, unknown> }).agentRun;
    expect(agentRun).toMatchObject({
      model: "gpt-4.1-mini-2025-04-14",
      usage: { inputTokens: 3000, outputTokens: 200 },
    });
    // 3000 × $0.40 + 200 × $1.60 per million.
    expect(agentRun.estimatedCostUsd).toBeCloseTo(0.00152, 10);
    expect(agentRun).not.toHaveProperty("costUsd");
  });

  it("copies a case whose run is named by file with its transcript read in, never running it", async () => {
    const run = weatherRun("Weather in Oslo?");
    const directory = folder({
      "data/dataset.jsonl": jsonl([
        {
          id: "filed",
          input: "Weather in Oslo?",
          trajectoryFile: "runs/oslo.json",
          expectedTools: [weather],
        },
        {
          id: "lost",
          input: "Weather?",
          trajectoryFile: "runs/none.json",
          expectedTools: [weather],
        },
      ]),
      "data/runs/oslo.json": JSON.stringify(run),
    });
    const agent = countingAgent();
    const recordings = path.join(directory, "elsewhere.jsonl");
    const recorded = await runOnce(
      path.join(directory, "data", "dataset.jsonl"),
      recordings,
      agent,
    );
    expect(agent.runs).toEqual([]);
    expect(recorded).toMatchObject({ ran: 0, copied: 2 });
    const read = await entries(recordings);
    expect(read[0]).toMatchObject({ id: "filed", toolsCalled: [{ name: "get_weather" }] });
    expect(DatasetParseError.isInstance(read[1]) && read[1].message).toMatch(
      /trajectoryFile "runs\/none\.json" does not exist/,
    );
  });

  it("runs again the runs the agent failed, with retryFailed, keeping every other line as it was", async () => {
    const directory = folder({ "dataset.jsonl": jsonl(dataset) });
    const recordings = path.join(directory, "runs.jsonl");
    const options = {
      dataset: path.join(directory, "dataset.jsonl"),
      recordings,
      repeat: 2,
      concurrency: 2,
      timeoutMs: 60_000,
    };
    await recordAgentRuns({ ...options, agent: countingAgent(), resume: false });
    const before = readJsonl(recordings);
    expect(before.filter((line) => line.runError !== undefined)).toHaveLength(2);
    // The model answers now.
    const fixed = countingAgent();
    const healed: Agent = {
      ...fixed,
      run: (request, context) => fixed.run({ ...request, input: "Weather in Oslo?" }, context),
    };
    const again = await recordAgentRuns({
      ...options,
      agent: healed,
      resume: true,
      retryFailed: true,
    });
    expect(again).toMatchObject({ ran: 2, failed: 0, kept: before.length - 2 });
    expect(fixed.runs.sort()).toEqual(["7#0", "7#1"]);
    const after = readJsonl(recordings);
    expect(after.filter((line) => line.runError !== undefined)).toEqual([]);
    // Every line that was not a failed run is there, unchanged, in its place.
    expect(after.slice(0, before.length - 2)).toEqual(
      before.filter((line) => line.runError === undefined),
    );
  });

  it("refuses a dataset that gives one id to two cases before running anything", async () => {
    const directory = folder({
      "dataset.jsonl": jsonl([
        { id: "a", input: "x" },
        { input: "y" },
        { id: "case-2", input: "z" },
      ]),
    });
    const agent = countingAgent();
    const recordings = path.join(directory, "runs.jsonl");
    const refused = await runOnce(path.join(directory, "dataset.jsonl"), recordings, agent).catch(
      (error: unknown) => error,
    );
    expect(DatasetParseError.isInstance(refused) && refused.message).toMatch(
      /lines 2 and 3 are both case "case-2": give each case its own id/,
    );
    expect(agent.runs).toEqual([]);
    expect(existsSync(recordings)).toBe(false);
  });
});
