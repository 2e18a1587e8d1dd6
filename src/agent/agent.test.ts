import { describe, expect, it } from "vitest";
import { runAgentOnce } from "./agent.js";
import type { Agent } from "./agent.js";

const request = { caseId: "a", input: "hi", attempt: 0, turn: 0, history: [], session: "s" };
const agentOf = (run: Agent["run"]): Agent => ({ name: "test agent", run });

describe("runAgentOnce", () => {
  it("gives the transcript, the time and what the agent logged", async () => {
    const outcome = await runAgentOnce(
      agentOf((given, { log }) => {
        log(`asked ${given.caseId}`);
        return Promise.resolve([{ role: "user", content: given.input }]);
      }),
      request,
      { timeoutMs: 60_000 },
    );
    expect(outcome).toMatchObject({
      status: "answered",
      transcript: [{ role: "user", content: "hi" }],
      log: ["asked a"],
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("makes a throw, a synchronous throw and an empty answer failed runs, in the agent's words", async () => {
    const threw = await runAgentOnce(
      agentOf(() => Promise.reject(new Error("rate limited by the model"))),
      request,
      { timeoutMs: 60_000 },
    );
    expect(threw).toMatchObject({ status: "failed", message: "rate limited by the model" });
    const sync = await runAgentOnce(
      agentOf(() => {
        throw new Error("boom");
      }),
      request,
      { timeoutMs: 60_000 },
    );
    expect(sync).toMatchObject({ status: "failed", message: "boom" });
    const empty = await runAgentOnce(
      agentOf(() => Promise.resolve(undefined)),
      request,
      { timeoutMs: 60_000 },
    );
    expect(empty).toMatchObject({ status: "failed" });
    expect(empty.status === "failed" && empty.message).toMatch(/returned nothing/);
  });

  it("ends a run at its deadline even when the agent ignores its signal", async () => {
    let seen: AbortSignal | undefined;
    const outcome = await runAgentOnce(
      agentOf((_request, { signal }) => {
        seen = signal;
        return new Promise(() => undefined);
      }),
      request,
      { timeoutMs: 50 },
    );
    expect(outcome).toMatchObject({ status: "failed" });
    expect(outcome.status === "failed" && outcome.message).toMatch(/within 50 ms/);
    expect(seen?.aborted).toBe(true);
  });

  it("says a run was stopped when the run's own signal aborts", async () => {
    const controller = new AbortController();
    const pending = runAgentOnce(
      agentOf(() => new Promise(() => undefined)),
      request,
      { timeoutMs: 60_000, signal: controller.signal },
    );
    controller.abort();
    const outcome = await pending;
    expect(outcome.status === "failed" && outcome.message).toMatch(/stopped/);
  });

  it("reads a run's details from the agent's reports and its answer's envelope, adding up tokens and cost", async () => {
    const outcome = await runAgentOnce(
      agentOf((given, { report }) => {
        report({ model: "gpt-x", usage: { inputTokens: 100, outputTokens: 7 }, costUsd: 0.5 });
        return Promise.resolve({
          transcript: [{ role: "user", content: given.input }],
          usage: { inputTokens: 20, outputTokens: "many" },
          costUsd: 0.25,
          version: "1.4.2",
          temperature: 0,
        });
      }),
      request,
      { timeoutMs: 60_000 },
    );
    expect(outcome).toEqual({
      status: "answered",
      transcript: [{ role: "user", content: "hi" }],
      durationMs: expect.any(Number) as number,
      details: {
        model: "gpt-x",
        version: "1.4.2",
        usage: { inputTokens: 120, outputTokens: 7 },
        costUsd: 0.75,
      },
      // Nothing it said is dropped unsaid.
      log: [
        'the answer\'s "temperature" is not read',
        'the run\'s usage.outputTokens "many" is not a number of 0 or more: left out',
      ],
    });
  });
});
