import { describe, expect, it } from "vitest";
import { anthropicRun, openAiRun } from "../../test/support/transcripts.js";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { match } from "../matchers/value-matchers.js";
import { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";
import { fakeJudge } from "../../test/support/fake-judge.js";
import { callsOf } from "./matchers.js";
import "./vitest.js";

const calls = [
  { name: "search_flights", inputParameters: { from: "PAR", to: "OSL", date: "2026-05-03" } },
  { name: "get_weather", inputParameters: { city: "Oslo" } },
  { name: "book", inputParameters: { flight: "AF123", seat: "12A" } },
];

/** The failure message of an assertion that must fail. */
function failure(assertion: () => unknown): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion passed");
}

async function asyncFailure(assertion: () => Promise<unknown>): Promise<string> {
  try {
    await assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion passed");
}

describe("callsOf", () => {
  it("reads raw calls, trajectories, transcripts of any format and JSON text", () => {
    expect(callsOf(calls).map((call) => call.name)).toEqual([
      "search_flights",
      "get_weather",
      "book",
    ]);
    expect(callsOf(openAiRun)[0]).toMatchObject({ name: "get_weather", output: "18C" });
    expect(callsOf(anthropicRun)[0]).toMatchObject({ inputParameters: { city: "Oslo" } });
    expect(callsOf(parseTrajectory(openAiRun))).toHaveLength(1);
    expect(callsOf(JSON.stringify(anthropicRun))).toHaveLength(1);
    expect(callsOf([])).toEqual([]);
    expect(() => callsOf("not json")).toThrow(/not JSON/);
  });
});

describe("toHaveCalledTool", () => {
  it("passes on a call with the name and some of the arguments, matchers included", () => {
    expect(calls).toHaveCalledTool("get_weather");
    expect(calls).toHaveCalledTool("search_flights", { to: "OSL" });
    expect(calls).toHaveCalledTool("search_flights", { date: match.regex(/^2026-05-/) });
    expect(openAiRun).toHaveCalledTool("get_weather", { city: "Paris" });
    expect(calls).not.toHaveCalledTool("cancel");
  });

  it("fails with the nearest call and what differs at which path", () => {
    const message = failure(() => {
      expect(calls).toHaveCalledTool("book", { seat: "1C" });
    });
    expect(message).toContain('expected a call of book({"seat":"1C"})');
    expect(message).toContain('$.seat: expected "1C", got "12A"');
    expect(message).toContain('3. book({"flight":"AF123","seat":"12A"})');
    const negated = failure(() => {
      expect(calls).not.toHaveCalledTool("book");
    });
    expect(negated).toContain("expected no call of book(…)");
  });
});

describe("toHaveCalledToolsInOrder", () => {
  it("passes when the calls come in this order, others between them", () => {
    expect(calls).toHaveCalledToolsInOrder(["search_flights", "book"]);
    expect(calls).toHaveCalledToolsInOrder([
      { name: "search_flights", arguments: { to: "OSL" } },
      "book",
    ]);
    expect(calls).not.toHaveCalledToolsInOrder(["book", "search_flights"]);
  });

  it("fails naming what is missing or out of order", () => {
    const message = failure(() => {
      expect(calls).toHaveCalledToolsInOrder(["book", "search_flights", "pay"]);
    });
    expect(message).toContain("expected calls in order: book → search_flights → pay");
    expect(message).toMatch(/- expected\[2\] pay\(…\): not called/);
    expect(message).toMatch(/↕ expected\[\d\] \w+\(…\): made, but out of order/);
  });
});

describe("toMatchToolCalls", () => {
  it("applies the engine's order modes and argument rules", () => {
    expect(calls).toMatchToolCalls([
      { name: "search_flights", arguments: { from: "PAR", to: "OSL", date: "2026-05-03" } },
      { name: "get_weather", arguments: { city: "Oslo" } },
      { name: "book", arguments: { flight: "AF123", seat: "12A" } },
    ]);
    // Searching and the weather change nothing: besides the booking, they may come and go.
    expect(calls).toMatchToolCalls([{ name: "book", arguments: { seat: "12A" } }], {
      order: "all-expected",
      arguments: "subset",
      score: "recall",
      sideEffects: { readOnly: ["search_*", "get_*"] },
    });
    // A booking nobody expected is a change of the world the test did not ask for.
    expect(calls).not.toMatchToolCalls([{ name: "search_flights" }], { order: "all-expected" });
    expect(calls).toMatchToolCalls([{ name: "book", arguments: {} }], {
      arguments: "ignore",
      threshold: 0.4,
    });
  });

  it("reads a name-only expected call as any arguments, as toHaveCalledTool does", () => {
    const names = [{ name: "search_flights" }, { name: "get_weather" }, { name: "book" }];
    expect(calls).toMatchToolCalls(names, { order: "in-order" });
    expect(calls).toHaveCalledTool("book");
    // `arguments: {}` expects a call without arguments.
    expect(calls).not.toMatchToolCalls([...names.slice(0, 2), { name: "book", arguments: {} }]);
  });

  it("shows a readable diff of expected and actual calls", () => {
    const message = failure(() => {
      expect(calls).toMatchToolCalls(
        [
          { name: "search_flights", arguments: { from: "PAR", to: "BER", date: "2026-05-03" } },
          { name: "book", arguments: { flight: "AF123", seat: "12A" } },
        ],
        { order: "strict" },
      );
    });
    expect(message).toMatch(/^expected the calls to match: score [\d.]+ \(f1, order strict\)/);
    expect(message).toContain('$.to: expected "BER", got "OSL"');
    expect(message).toContain("+ called[1] get_weather");
  });
});

describe("toPassMetric", () => {
  const testCase = {
    toolsCalled: calls,
    expectedTools: [
      { name: "search_flights", inputParameters: { from: "PAR", to: "OSL", date: "2026-05-03" } },
      { name: "book", inputParameters: { flight: "AF123", seat: "14C" } },
    ],
  };

  it("passes at the metric's verdict or a given threshold", async () => {
    await expect(testCase).toPassMetric(toolCallAccuracy({ arguments: "ignore", threshold: 0.8 }));
    await expect(testCase).not.toPassMetric(toolCallAccuracy({ arguments: "ignore" }));
    await expect(testCase).toPassMetric(toolCallAccuracy(), 0.5);
    await expect(testCase).not.toPassMetric(toolCallAccuracy(), 0.99);
  });

  it("fails with the score, the reason and the diff", async () => {
    const message = await asyncFailure(() =>
      expect(testCase).toPassMetric(toolCallAccuracy(), 0.9),
    );
    expect(message).toMatch(
      /expected Tool Call Accuracy to pass the case: score [\d.]+ is below 0\.9/,
    );
    expect(message).toContain('$.seat: expected "14C", got "12A"');
  });

  it("fails when the metric cannot score the case, saying why", async () => {
    const message = await asyncFailure(() =>
      expect({ toolsCalled: calls }).toPassMetric(toolCallAccuracy()),
    );
    expect(message).toMatch(/could not score the case \(MISSING_PARAMS: .*expectedTools/);
    // Nor does .not pass it: an error is no verdict.
    const negated = await asyncFailure(() =>
      expect({ toolsCalled: calls }).not.toPassMetric(toolCallAccuracy()),
    );
    expect(negated).toMatch(/could not score the case \(MISSING_PARAMS/);
  });
});

describe("toMatchToolCallsWithJudge", () => {
  const criterion = "apologizes and names the 30 EUR refund";
  const judge = () =>
    fakeJudge((request) => {
      const value = JSON.stringify(request.messages).split("## The value\\n")[1] ?? "";
      if (value.includes("maybe"))
        return { reason: "the policy is not shown", verdict: "cannot_tell" };
      return value.includes("30 EUR")
        ? { reason: "names 30 EUR", verdict: "meets" }
        : { reason: "it names no amount", verdict: "fails" };
    });
  const email = (body: string) => [{ name: "send_email", arguments: { to: "ada", body } }];
  const expected = [
    { name: "send_email", arguments: { to: "ada", body: match.judged(criterion) } },
  ];

  it("decides judged values with the judge, shown the request, then matches as toMatchToolCalls", async () => {
    const model = judge();
    await expect(email("Sorry: 30 EUR refunded.")).toMatchToolCallsWithJudge(expected, {
      judge: model.model,
      input: "Refund 30 EUR and tell Ada",
    });
    expect(JSON.stringify(model.asked[0].messages)).toContain("Refund 30 EUR and tell Ada");
    await expect(email("Done.")).not.toMatchToolCallsWithJudge(expected, { judge: model.model });
    const message = await asyncFailure(() =>
      expect(email("Done.")).toMatchToolCallsWithJudge(expected, { judge: model.model }),
    );
    expect(message).toContain(`$.body: judged not to meet "${criterion}": it names no amount`);
  });

  it("throws, whichever way the test asks, when the judge cannot tell or is missing", async () => {
    const model = judge();
    for (const negated of [false, true]) {
      const assertion = negated ? expect(email("maybe later")).not : expect(email("maybe later"));
      const message = await asyncFailure(() =>
        assertion.toMatchToolCallsWithJudge(expected, { judge: model.model }),
      );
      expect(message).toContain("not evaluable");
    }
    // The sync matcher names the judge it lacks.
    expect(
      failure(() => {
        expect(email("x")).toMatchToolCalls(expected);
      }),
    ).toMatch(/needs a judge/);
  });
});

describe("toHaveCalledToolsByTurn", () => {
  const call = (id: string, name: string, args: object) => ({
    id,
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  });
  /** OpenAI chat messages: three user turns; `refundAt` is the turn the refund was made at. */
  const conversation = (refundAt: number) => {
    const refund = call("c2", "refund_order", { order: "4521", amount: 30 });
    const turn = (at: number, text: string, calls: object[]) => [
      { role: "user", content: text },
      ...(calls.length === 0 && at !== refundAt
        ? []
        : [
            {
              role: "assistant",
              content: null,
              tool_calls: at === refundAt ? [...calls, refund] : calls,
            },
          ]),
      ...(at === refundAt ? [{ role: "tool", tool_call_id: "c2", content: "ok" }] : []),
      ...calls.map(() => ({ role: "tool", tool_call_id: "c1", content: "{}" })),
      { role: "assistant", content: "..." },
    ];
    return [
      ...turn(1, "Where is order 4521?", [call("c1", "lookup_order", { order: "4521" })]),
      ...turn(2, "Yes, refund 30 EUR.", []),
      ...turn(3, "Thanks!", []),
    ];
  };
  const expected = [
    [{ name: "lookup_order", arguments: { order: "4521" } }],
    [{ name: "refund_order", arguments: { order: "4521", amount: 30 } }],
    [],
  ];

  it("passes when each turn made its calls, and names a call made at the wrong turn", () => {
    expect(conversation(2)).toHaveCalledToolsByTurn(expected);
    const message = failure(() => {
      expect(conversation(1)).toHaveCalledToolsByTurn(expected);
    });
    expect(message).toContain("turn 1: refund_order made too early (expected at turn 2)");
    expect(conversation(1)).not.toHaveCalledToolsByTurn(expected);
    // Calls given turn by turn read the same.
    expect([
      [{ name: "lookup_order", arguments: { order: "4521" } }],
      [],
      [],
    ]).not.toHaveCalledToolsByTurn(expected);
    expect(
      failure(() => {
        expect(conversation(2)).toHaveCalledToolsByTurn(expected.slice(0, 2));
      }),
    ).toContain("the conversation has 3 user turns, the expected calls 2");
  });
});
