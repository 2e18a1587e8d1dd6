import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import { exampleOfSchema } from "./schema-example.js";
import { answerText, createToolSimulator, draw } from "./simulate-tools.js";
import type { SimulatedToolSpec } from "./simulate-tools.js";
import { fixturesOfCalls, readToolFixtures } from "./tool-outputs.js";

const fixtures = (items: unknown[]) => readToolFixtures(items, (i) => `toolOutputs[${i}]`);

const orders: SimulatedToolSpec[] = [
  {
    name: "get_order",
    readOnly: true,
    parameters: {
      type: "object",
      properties: { order_id: { type: "string" } },
      required: ["order_id"],
    },
  },
  { name: "issue_refund", readOnly: false },
];

const shop = fixtures([
  {
    tool: "get_order",
    arguments: { order_id: "A1" },
    when: { A1: "refunded" },
    output: { status: "refunded" },
  },
  { tool: "get_order", arguments: { order_id: "A1" }, output: { status: "paid" } },
  {
    tool: "issue_refund",
    arguments: { order_id: "A1" },
    output: { ok: true },
    sets: { A1: "refunded" },
  },
]);

describe("readToolFixtures", () => {
  it("names the entry and the field it cannot read", () => {
    const read = (item: unknown) => () => fixtures([{ tool: "t", output: 1 }, item]);
    expect(read({ tool: "t" })).toThrow("toolOutputs[1]: give an output or a fault");
    expect(read({ tool: "t", output: 1, fault: "error" })).toThrow("give an output or a fault");
    expect(read({ tool: "t", fault: "boom" })).toThrow(
      "toolOutputs[1].fault: must be one of error, timeout, rate-limit, malformed, latency",
    );
    expect(read({ tool: "t", output: 1, shar: 0.5 })).toThrow('(did you mean "share"?)');
    expect(read({ tool: "t", output: 1, share: 2 })).toThrow("share: must be a share from 0 to 1");
    expect(read({ tool: "t", output: 1, calls: [0] })).toThrow("calls: must be a call number");
    expect(read({ tool: "t", output: 1, message: "x" })).toThrow("is read only with a fault");
    expect(read({ tool: "t", fault: "latency" })).toThrow("a latency fault says how long");
    expect(read({ output: 1 })).toThrow("tool: must name the tool");
    expect(read("text")).toThrow(InvalidInputError);
    expect(read({ tool: "t", arguments: { a: { $match: "nope" } }, output: 1 })).toThrow(
      "toolOutputs[1].arguments.a",
    );
  });

  it("reads both spellings and a single call number", () => {
    const [read] = fixtures([{ tool: "t", fault: "rate-limit", retry_after_ms: 50, calls: 2 }]);
    expect(read).toEqual({
      tool: "t",
      source: "toolOutputs[0]",
      answer: { kind: "fault", fault: "rate-limit", retryAfterMs: 50 },
      calls: [2],
    });
  });
});

describe("createToolSimulator", () => {
  it("answers by tool and arguments, and keeps the state a call sets", () => {
    const simulator = createToolSimulator({ tools: orders, fixtures: shop, seed: 1, run: "c" });
    expect(simulator.call("get_order", { order_id: "A1" })).toMatchObject({
      kind: "output",
      output: { status: "paid" },
      from: "toolOutputs[1]",
    });
    expect(simulator.call("issue_refund", { order_id: "A1" })).toMatchObject({ kind: "output" });
    expect(simulator.state).toEqual({ A1: "refunded" });
    expect(simulator.call("get_order", { order_id: "A1" })).toMatchObject({
      output: { status: "refunded" },
    });
    expect(simulator.calls.map((call) => [call.tool, call.call, call.from])).toEqual([
      ["get_order", 1, "toolOutputs[1]"],
      ["issue_refund", 1, "toolOutputs[2]"],
      ["get_order", 2, "toolOutputs[0]"],
    ]);
  });

  it("matches arguments with matchers, and only the keys an entry gives", () => {
    const simulator = createToolSimulator({
      tools: [],
      fixtures: fixtures([
        {
          tool: "search",
          arguments: { q: { $match: "regex", pattern: "^par" } },
          output: ["Paris"],
        },
        { tool: "*", output: "anything else" },
      ]),
      seed: 0,
      run: "c",
    });
    expect(simulator.call("search", { q: "paris", limit: 3 })).toMatchObject({ output: ["Paris"] });
    expect(simulator.call("search", { q: "rome" })).toMatchObject({ output: "anything else" });
    expect(simulator.call("other", {})).toMatchObject({ output: "anything else" });
  });

  it("refuses a tool it does not serve and arguments the tool's schema refuses", () => {
    const simulator = createToolSimulator({ tools: orders, fixtures: shop, seed: 1, run: "c" });
    expect(simulator.call("delete_everything", {})).toEqual({
      kind: "refused",
      text: 'there is no tool named "delete_everything"',
      latencyMs: 0,
    });
    const refused = simulator.call("get_order", { order: "A1" });
    expect(refused.kind).toBe("refused");
    expect(answerText(refused)).toContain("invalid arguments for get_order");
  });

  it("says when nothing answers, and answers from the output schema when there is one", () => {
    const tools: SimulatedToolSpec[] = [
      {
        name: "weather",
        outputSchema: { type: "object", properties: { temp: { type: "number" } } },
      },
      { name: "news" },
    ];
    const simulator = createToolSimulator({ tools, fixtures: [], seed: 0, run: "c" });
    expect(simulator.call("weather", {})).toEqual({
      kind: "output",
      output: { temp: 0 },
      from: "outputSchema",
      latencyMs: 0,
    });
    expect(simulator.call("news", {})).toMatchObject({ kind: "unanswered" });
    expect(answerText(simulator.call("news", {}))).toContain("add an entry for them");
  });

  it("injects faults on a call number; a timeout may have gone through, an error did not", () => {
    const faults = [
      ...fixtures([
        { tool: "issue_refund", calls: [1], fault: "timeout", latencyMs: 30 },
        { tool: "get_order", calls: [1], fault: "error", message: "database down" },
      ]),
      ...shop,
    ];
    const simulator = createToolSimulator({ tools: orders, fixtures: faults, seed: 0, run: "c" });
    expect(simulator.call("get_order", { order_id: "A1" })).toMatchObject({
      kind: "fault",
      fault: "error",
      text: "database down",
      applied: false,
    });
    expect(simulator.call("issue_refund", { order_id: "A1" })).toMatchObject({
      kind: "fault",
      fault: "timeout",
      latencyMs: 30,
      applied: true,
    });
    expect(simulator.state).toEqual({ A1: "refunded" });
    expect(simulator.call("get_order", { order_id: "A1" })).toMatchObject({
      output: { status: "refunded" },
    });
    expect(simulator.calls[1]).toMatchObject({ fault: "timeout", latencyMs: 30, call: 1 });
  });

  it("cuts a malformed output so it does not parse, and says when to retry after a rate limit", () => {
    const simulator = createToolSimulator({
      tools: [],
      fixtures: fixtures([
        { tool: "a", fault: "malformed" },
        { tool: "b", fault: "rate-limit", retryAfterMs: 250 },
        { tool: "a", output: { items: [1, 2, 3] } },
      ]),
      seed: 0,
      run: "c",
    });
    const malformed = answerText(simulator.call("a", {}));
    expect('{"items":[1,2,3]}'.startsWith(malformed)).toBe(true);
    expect(() => JSON.parse(malformed) as unknown).toThrow();
    expect(answerText(simulator.call("b", {}))).toBe(
      "rate limit exceeded (429): retry after 250 ms",
    );
  });

  it("adds a latency entry's delay and lets the next entry answer", () => {
    const simulator = createToolSimulator({
      tools: [],
      fixtures: fixtures([
        { tool: "a", fault: "latency", latencyMs: 100 },
        { tool: "a", output: 1, latencyMs: 5 },
      ]),
      seed: 0,
      run: "c",
    });
    expect(simulator.call("a", {})).toEqual({
      kind: "output",
      output: 1,
      from: "toolOutputs[1]",
      latencyMs: 105,
    });
  });

  it("faults a seeded share of calls, the same share on a replay", () => {
    const entries = fixtures([
      { tool: "a", share: 0.3, fault: "error" },
      { tool: "a", output: "ok" },
    ]);
    const run = (seed: number) => {
      const simulator = createToolSimulator({ tools: [], fixtures: entries, seed, run: "case#0" });
      return Array.from({ length: 2000 }, () => simulator.call("a", {}).kind);
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    const faults = first.filter((kind) => kind === "fault").length;
    expect(faults).toBeGreaterThan(500);
    expect(faults).toBeLessThan(700);
  });

  it("answers a call the same whatever calls of other tools came before it (replay)", () => {
    const entries = fixtures([
      { tool: "a", share: 0.5, fault: "timeout" },
      { tool: "b", share: 0.5, fault: "error" },
      { tool: "*", output: "ok" },
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b"), { maxLength: 30 }),
        fc.integer(),
        (tools, seed) => {
          const answers = (order: readonly string[]) => {
            const simulator = createToolSimulator({ tools: [], fixtures: entries, seed, run: "r" });
            for (const tool of order) simulator.call(tool, {});
            return simulator.calls;
          };
          const once = answers(tools);
          expect(answers(tools)).toEqual(once);
          // Only a's calls: each answered as it was among b's.
          const alone = answers(tools.filter((tool) => tool === "a"));
          expect(alone).toEqual(once.filter((call) => call.tool === "a"));
        },
      ),
    );
  });

  it("draws in [0, 1)", () => {
    for (let call = 1; call < 200; call++) {
      const value = draw(3, "run", "tool", call, "entry");
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe("fixturesOfCalls", () => {
  it("answers a replay of a recorded run as it was answered, and other calls by the last output", () => {
    const recorded: Parameters<typeof fixturesOfCalls>[0] = [
      { name: "get_order", inputParameters: { id: "A1" }, output: { status: "paid" } },
      {
        name: "refund",
        inputParameters: { id: "A1" },
        output: "refund timed out",
        fault: "timeout" as const,
      },
      { name: "get_order", inputParameters: { id: "A1" }, output: { status: "refunded" } },
      { name: "get_order", inputParameters: { $match: "any" }, output: "data, not a matcher" },
    ];
    const entries = fixturesOfCalls(recorded, "runs.jsonl:3");
    const simulator = createToolSimulator({ tools: [], fixtures: entries, seed: 0, run: "r" });
    const replay = recorded.map((call) => simulator.call(call.name, call.inputParameters));
    expect(replay.map(answerText)).toEqual([
      '{"status":"paid"}',
      "refund timed out",
      '{"status":"refunded"}',
      "data, not a matcher",
    ]);
    expect(replay[1]).toMatchObject({ kind: "fault", fault: "timeout", from: "runs.jsonl:3[1]" });
    // A fifth lookup of A1, which the recorded run never made: the last output A1 got.
    expect(simulator.call("get_order", { id: "A1" })).toMatchObject({
      output: { status: "refunded" },
    });
    expect(simulator.call("get_order", { id: "B2" }).kind).toBe("unanswered");
  });
});

describe("exampleOfSchema", () => {
  it("makes the smallest value the schema allows", () => {
    const schema: JsonObject = {
      type: "object",
      properties: {
        id: { type: "string", format: "uuid" },
        status: { enum: ["open", "closed"] },
        count: { type: "integer", minimum: 2.5 },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        owner: { $ref: "#/$defs/person" },
        note: { type: ["null", "string"] },
      },
      $defs: {
        person: { type: "object", properties: { email: { type: "string", format: "email" } } },
      },
    };
    expect(exampleOfSchema(schema)).toEqual({
      id: "00000000-0000-4000-8000-000000000000",
      status: "open",
      count: 3,
      tags: ["example"],
      owner: { email: "user@example.com" },
      note: "example",
    });
    expect(exampleOfSchema({ $ref: "#" })).toBeNull();
  });
});
