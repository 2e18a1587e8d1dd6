import { describe, expect, it } from "vitest";
import { runAgentOnce, sumDetails } from "./agent.js";
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

  describe("details read from the transcript where the agent said nothing", () => {
    const reply = (tokens: number, model = "claude-sonnet-4-5-20250929") => ({
      role: "assistant",
      model,
      content: [{ type: "text", text: "done" }],
      usage: { input_tokens: tokens, output_tokens: 100 },
    });
    const answered = async (transcript: unknown, given = request, report?: object) => {
      const outcome = await runAgentOnce(
        agentOf((_, context) => {
          if (report !== undefined) context.report(report);
          return Promise.resolve(transcript);
        }),
        given,
        { timeoutMs: 60_000 },
      );
      if (outcome.status !== "answered") throw new Error(outcome.message);
      return outcome.details;
    };

    it("takes the model and tokens, and prices them at the model's list price", async () => {
      expect(await answered([{ role: "user", content: "hi" }, reply(1000)])).toEqual({
        model: "claude-sonnet-4-5-20250929",
        usage: { inputTokens: 1000, outputTokens: 100 },
        // 1000 × $3 + 100 × $15 per million.
        estimatedCostUsd: 0.0045,
      });
    });

    it("keeps what the agent reported over the transcript, and makes no estimate beside a reported cost", async () => {
      expect(
        await answered([{ role: "user", content: "hi" }, reply(1000)], request, {
          usage: { inputTokens: 5, outputTokens: 1 },
          costUsd: 0.01,
        }),
      ).toEqual({
        model: "claude-sonnet-4-5-20250929",
        usage: { inputTokens: 5, outputTokens: 1 },
        costUsd: 0.01,
      });
    });

    it("counts a later turn's own tokens when the transcript holds the conversation so far", async () => {
      const conversation = [
        { role: "user", content: "one" },
        reply(1000),
        { role: "user", content: "two" },
        reply(2000),
      ];
      expect(await answered(conversation, { ...request, turn: 1 })).toMatchObject({
        usage: { inputTokens: 2000, outputTokens: 100 },
      });
      // The first turn's run is the whole transcript.
      expect(await answered(conversation)).toMatchObject({
        usage: { inputTokens: 3000, outputTokens: 200 },
      });
    });

    it("makes no estimate for a model without a list price, and none from an agent", async () => {
      expect(
        await answered([{ role: "user", content: "hi" }, reply(10, "llama3")], request, {
          estimatedCostUsd: 99,
        }),
      ).toEqual({ model: "llama3", usage: { inputTokens: 10, outputTokens: 100 } });
    });
  });
});

describe("sumDetails", () => {
  it("adds up estimates only when every turn that spent tokens was priced", () => {
    const usage = { inputTokens: 1, outputTokens: 1 };
    expect(
      sumDetails(
        [
          { usage, estimatedCostUsd: 0.5 },
          { usage, estimatedCostUsd: 0.25 },
        ],
        [],
      ),
    ).toMatchObject({ estimatedCostUsd: 0.75 });
    expect(sumDetails([{ usage, estimatedCostUsd: 0.5 }, { usage }], [])).not.toHaveProperty(
      "estimatedCostUsd",
    );
    // A turn whose cost the agent reported needs no estimate.
    expect(
      sumDetails(
        [
          { usage, estimatedCostUsd: 0.5 },
          { usage, costUsd: 1 },
        ],
        [],
      ),
    ).toMatchObject({ estimatedCostUsd: 0.5, costUsd: 1 });
  });
});
