import {
  generateText,
  jsonSchema,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
} from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { readDatasetCase } from "../adapters/dataset-case.js";
import { ErrorCode } from "../core/errors.js";
import type { Metric } from "../core/metric.js";
import { toolCallAccuracy } from "../metrics/tool-call-accuracy.js";
import {
  captureTrace,
  currentSpan,
  evaluateObserved,
  observe,
  observeFunctions,
  observeTools,
  onTraceEnd,
  toolCallsOf,
  traceTool,
  traceToDatasetRecord,
  traceToOtlp,
  updateCurrentSpan,
  updateCurrentTrace,
} from "../entries/tracing.js";
import type { Trace } from "../entries/tracing.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small agent: searches, checks the weather and the price in parallel, books; one tool throws. */
function travelAgent() {
  const searchFlights = traceTool("search_flights", async (args: { to: string }) => {
    await pause(5);
    return { flights: [`AF-${args.to}`] };
  });
  const getWeather = traceTool("get_weather", async (args: { city: string }) => {
    await pause(10);
    return { forecast: `sunny in ${args.city}` };
  });
  const convert = traceTool("convert_currency", (args: { amount: number }) => ({
    eur: args.amount * 0.9,
  }));
  const bookFlight = traceTool("book_flight", async (args: { flight: string }) => {
    await pause(2);
    if (args.flight.endsWith("ZZZ")) throw new Error("no seats left");
    return { booking: `B-${args.flight}` };
  });
  return observe(
    async (destination: string) => {
      const { flights } = await searchFlights({ to: destination });
      const [weather] = await Promise.all([
        getWeather({ city: destination }),
        Promise.resolve(convert({ amount: 100 })),
      ]);
      let booking: string;
      try {
        booking = (await bookFlight({ flight: `${flights[0]}ZZZ` })).booking;
      } catch {
        booking = (await bookFlight({ flight: flights[0] })).booking;
      }
      return `${booking}: ${weather.forecast}`;
    },
    { name: "travel_agent", type: "agent" },
  );
}

describe("observe", () => {
  it("returns and throws exactly what the function does, the same promise included", async () => {
    const promise = Promise.resolve(42);
    const returnsPromise = observe(() => promise);
    const error = new TypeError("bad");
    const throws = observe(() => {
      throw error;
    });
    const rejects = observe(() => Promise.reject(error));
    const { trace } = await captureTrace(async () => {
      expect(returnsPromise()).toBe(promise);
      expect(() => throws()).toThrow(error);
      await expect(rejects()).rejects.toBe(error);
      const add = observe((a: number, b: number) => a + b, { name: "add" });
      expect(add(2, 3)).toBe(5);
    });
    expect(trace.spans.map((span) => span.name)).toEqual([
      "anonymous",
      "anonymous",
      "anonymous",
      "add",
    ]);
    expect(trace.spans[1].error).toEqual({ name: "TypeError", message: "bad" });
    expect(trace.spans[3]).toMatchObject({ input: [2, 3], output: 5 });
    expect(trace.spans[3].endTime).toBeGreaterThanOrEqual(trace.spans[3].startTime);
  });

  it("nests spans, and keeps two runs at once in separate traces", async () => {
    const inner = observe(
      async (tag: string) => {
        await pause(tag === "a" ? 3 : 1);
        return currentSpan()?.parentId;
      },
      { name: "inner" },
    );
    const outer = observe(
      async (tag: string) => {
        await pause(1);
        const parent = await inner(tag);
        return { parent, self: currentSpan()?.id };
      },
      { name: "outer" },
    );
    const [a, b] = await Promise.all([
      captureTrace(() => outer("a")),
      captureTrace(() => outer("b")),
    ]);
    for (const [run, tag] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      expect(run.trace.spans.map((span) => [span.name, span.input])).toEqual([
        ["outer", tag],
        ["inner", tag],
      ]);
      expect(run.result.parent).toBe(run.result.self);
      expect(run.trace.roots).toHaveLength(1);
      expect(run.trace.roots[0].children.map((span) => span.name)).toEqual(["inner"]);
    }
    expect(a.trace.id).not.toBe(b.trace.id);
  });

  it("tells listeners of traces that end at an observed entry point", async () => {
    const seen: Trace[] = [];
    const stop = onTraceEnd((trace) => seen.push(trace));
    await observe(async () => pause(1), { name: "entry" })();
    stop();
    await observe(async () => pause(1), { name: "after" })();
    expect(seen.map((trace) => trace.name)).toEqual(["entry"]);
  });

  it("updates the current span and trace, and does nothing outside one", async () => {
    expect(updateCurrentSpan({ name: "x" })).toBe(false);
    const { trace } = await captureTrace(
      observe(
        () => {
          updateCurrentSpan({ testCase: { input: "q" }, metadata: { a: 1 } });
          updateCurrentTrace({ testCase: { input: "whole" }, name: "renamed" });
        },
        { name: "component" },
      ),
    );
    expect(trace.spans[0]).toMatchObject({ testCase: { input: "q" }, metadata: { a: 1 } });
    expect(trace).toMatchObject({ name: "renamed", testCase: { input: "whole" } });
  });
});

describe("tool capture and export", () => {
  it("records every tool call in start order, parallel and failed ones included", async () => {
    const { result, trace } = await captureTrace(() => travelAgent()("OSL"));
    expect(result).toBe("B-AF-OSL: sunny in OSL");
    const calls = toolCallsOf(trace);
    expect(calls.map((call) => [call.name, call.inputParameters])).toEqual([
      ["search_flights", { to: "OSL" }],
      ["get_weather", { city: "OSL" }],
      ["convert_currency", { amount: 100 }],
      ["book_flight", { flight: "AF-OSLZZZ" }],
      ["book_flight", { flight: "AF-OSL" }],
    ]);
    expect(calls[3]).toMatchObject({ isError: true, output: "Error: no seats left" });
    expect(calls[4]).toMatchObject({ output: { booking: "B-AF-OSL" } });
    expect(trace.roots[0].children).toHaveLength(5);
  });

  it("exports OTLP JSON that parseTrajectory reads back as the same calls", async () => {
    const { trace } = await captureTrace(() => travelAgent()("LIS"));
    const otlp = traceToOtlp(trace);
    const parsed = parseTrajectory(JSON.parse(JSON.stringify(otlp)));
    expect(parsed.format).toBe("otel");
    const strip = (
      calls: readonly {
        name: string;
        inputParameters: unknown;
        output: unknown;
        isError?: boolean;
      }[],
    ) =>
      calls.map((call) => ({
        name: call.name,
        inputParameters: call.inputParameters,
        output: call.output,
        isError: call.isError === true,
      }));
    expect(strip(parsed.calls)).toEqual(strip(toolCallsOf(trace)));
    const spans = (
      otlp as {
        resourceSpans: {
          scopeSpans: { spans: { spanId: string; parentSpanId?: string; traceId: string }[] }[];
        }[];
      }
    ).resourceSpans[0].scopeSpans[0].spans;
    expect(
      spans.every(
        (span) => /^[0-9a-f]{16}$/.test(span.spanId) && /^[0-9a-f]{32}$/.test(span.traceId),
      ),
    ).toBe(true);
    expect(spans.slice(1).every((span) => span.parentSpanId === spans[0].spanId)).toBe(true);
  });

  it("writes a dataset record that the dataset reader takes", async () => {
    const { trace } = await captureTrace(() => travelAgent()("ATH"));
    const record = traceToDatasetRecord(trace, { id: "captured-1" });
    const testCase = readDatasetCase(JSON.parse(JSON.stringify(record)), { index: 0 });
    expect(testCase).toMatchObject({
      id: "captured-1",
      input: "ATH",
      actualOutput: "B-AF-ATH: sunny in ATH",
    });
    expect(testCase.toolsCalled).toHaveLength(5);
  });

  it("observes a plain function table of an OpenAI function-calling loop", async () => {
    const functions = observeFunctions({
      get_weather: (args: { city: string }) => `18C in ${args.city}`,
    });
    const toolCalls = [
      { id: "call_1", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_2", function: { name: "get_weather", arguments: '{"city":"Lyon"}' } },
    ];
    const { trace } = await captureTrace(() =>
      toolCalls.map((call) =>
        functions[call.function.name as "get_weather"](
          JSON.parse(call.function.arguments) as { city: string },
        ),
      ),
    );
    expect(toolCallsOf(trace).map((call) => call.output)).toEqual(["18C in Paris", "18C in Lyon"]);
  });
});

describe("the Vercel AI SDK", () => {
  it("records the tools a real generateText loop calls, with their call ids", async () => {
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        step++;
        const usage = {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        };
        if (step === 1) {
          return Promise.resolve({
            content: [
              {
                type: "tool-call",
                toolCallId: "tc-1",
                toolName: "getWeather",
                input: '{"city":"Oslo"}',
              },
              {
                type: "tool-call",
                toolCallId: "tc-2",
                toolName: "getWeather",
                input: '{"city":"Bergen"}',
              },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          });
        }
        return Promise.resolve({
          content: [{ type: "text", text: "Oslo 3C, Bergen 5C." }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        });
      },
    });
    const tools = observeTools({
      getWeather: tool({
        description: "Weather in a city",
        inputSchema: jsonSchema<{ city: string }>({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
        execute: async ({ city }) => {
          await pause(city === "Oslo" ? 5 : 1);
          return `${city === "Oslo" ? 3 : 5}C`;
        },
      }),
    });
    const { result, trace } = await captureTrace(() =>
      generateText({
        model,
        tools,
        prompt: "Weather in Oslo and Bergen?",
        stopWhen: stepCountIs(3),
      }),
    );
    expect(result.text).toBe("Oslo 3C, Bergen 5C.");
    expect(toolCallsOf(trace)).toEqual([
      {
        name: "getWeather",
        inputParameters: { city: "Oslo" },
        output: "3C",
        type: "FUNCTION",
        id: "tc-1",
      },
      {
        name: "getWeather",
        inputParameters: { city: "Bergen" },
        output: "5C",
        type: "FUNCTION",
        id: "tc-2",
      },
    ]);
  });
});

/** What a model's stream carries (the provider package's type, through the mock's). */
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer T>
    ? T
    : never;

/** A streaming mock model: a step of tool calls for `cities`, then text. */
function streamingWeatherModel(cities: readonly string[]) {
  let step = 0;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  return new MockLanguageModelV3({
    doStream: () => {
      step++;
      const chunks: LanguageModelV3StreamPart[] =
        step === 1
          ? [
              { type: "stream-start", warnings: [] },
              ...cities.map((city, at): LanguageModelV3StreamPart => ({
                type: "tool-call",
                toolCallId: `${city}-${at}`,
                toolName: "getWeather",
                input: JSON.stringify({ city }),
              })),
              { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
            ]
          : [
              { type: "stream-start", warnings: [] },
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "Here is " },
              { type: "text-delta", id: "t", delta: "the weather." },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
            ];
      return Promise.resolve({ stream: simulateReadableStream({ chunks, chunkDelayInMs: 1 }) });
    },
  });
}

describe("the Vercel AI SDK, streaming", () => {
  it("records the tools of streamText loops, two at once kept apart, a failing tool flagged", async () => {
    const tools = observeTools({
      getWeather: tool({
        description: "Weather in a city",
        inputSchema: jsonSchema<{ city: string }>({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
        execute: async ({ city }) => {
          await pause(city.length);
          if (city === "Atlantis") throw new Error("no such city");
          return `${city.length}C`;
        },
      }),
    });
    const run = (cities: readonly string[]) =>
      captureTrace(async () => {
        const result = streamText({
          model: streamingWeatherModel(cities),
          tools,
          prompt: `Weather in ${cities.join(" and ")}?`,
          stopWhen: stepCountIs(3),
        });
        let text = "";
        for await (const delta of result.textStream) text += delta;
        return text;
      });
    const [north, lost] = await Promise.all([run(["Tromsø", "Oslo"]), run(["Lisbon", "Atlantis"])]);
    expect(north.result).toBe("Here is the weather.");
    expect(toolCallsOf(north.trace)).toEqual([
      {
        name: "getWeather",
        inputParameters: { city: "Tromsø" },
        output: "6C",
        type: "FUNCTION",
        id: "Tromsø-0",
      },
      {
        name: "getWeather",
        inputParameters: { city: "Oslo" },
        output: "4C",
        type: "FUNCTION",
        id: "Oslo-1",
      },
    ]);
    const lostCalls = toolCallsOf(lost.trace);
    expect(lostCalls.map((call) => [call.inputParameters.city, call.isError === true])).toEqual([
      ["Lisbon", false],
      ["Atlantis", true],
    ]);
    expect(lost.trace.spans.find((span) => span.error !== undefined)?.error).toMatchObject({
      message: "no such city",
    });
  });
});

describe("evaluateObserved with an observed callback", () => {
  it("scores components and the whole run per golden, and records an application that throws", async () => {
    const planner = observe(
      (destination: string) => {
        updateCurrentSpan({
          testCase: {
            input: destination,
            toolsCalled: [
              {
                name: "search_flights",
                inputParameters: { to: destination },
                output: null,
                type: "FUNCTION",
              },
            ],
            expectedTools: [
              {
                name: "search_flights",
                inputParameters: { to: "OSL" },
                output: null,
                type: "FUNCTION",
              },
            ],
          },
        });
        return destination;
      },
      { name: "planner", metrics: [toolCallAccuracy({ name: "planner accuracy" })] },
    );
    const unset = observe(() => 1, { name: "no-case", metrics: [toolCallAccuracy()] });
    const agent = travelAgent();
    const app = async (input: unknown) => {
      if (input === "crash") throw new Error("the app broke");
      planner(String(input));
      unset();
      return agent(String(input));
    };
    const expected = (to: string) => [
      { name: "search_flights", inputParameters: { to } },
      { name: "get_weather", inputParameters: { city: to } },
      { name: "convert_currency", inputParameters: { amount: 100 } },
      { name: "book_flight", inputParameters: { flight: `AF-${to}` } },
    ];
    const calls: string[] = [];
    const { results, summary } = await evaluateObserved({
      observedCallback: app,
      goldens: [
        { id: "oslo", input: "OSL", expectedTools: expected("OSL") as never },
        { id: "lisbon", input: "LIS", expectedTools: expected("OSL") as never },
        { id: "crash", input: "crash" },
      ],
      metrics: [
        toolCallAccuracy({
          order: "in-order",
          score: "recall",
          // Lookups may repeat; a booking may not.
          sideEffects: { readOnly: ["search_*", "get_*", "convert_*"] },
        }),
      ],
      concurrency: 2,
      onResult: (result) => calls.push(result.id),
    });
    expect(results.map((result) => result.id)).toEqual(["oslo", "lisbon", "crash"]);
    expect(calls.sort()).toEqual(["crash", "lisbon", "oslo"]);
    const [oslo, lisbon, crash] = results;
    expect(oslo.endToEnd[0]).toMatchObject({ status: "scored", score: 1, success: true });
    expect(oslo.status).toBe("passed");
    expect(lisbon.endToEnd[0]).toMatchObject({ status: "scored", success: false });
    expect(lisbon.components.find((c) => c.name === "planner")?.results[0]).toMatchObject({
      metric: "planner accuracy",
      status: "scored",
      success: false,
    });
    expect(oslo.components.find((c) => c.name === "no-case")?.results[0]).toMatchObject({
      status: "skipped",
    });
    expect(crash).toMatchObject({
      status: "error",
      error: { code: ErrorCode.CALLBACK_FAILED, message: "the application threw: the app broke" },
      endToEnd: [],
    });
    expect(summary).toMatchObject({ cases: 3, passed: 1, failed: 1, errors: 1, unscored: 1 });
    expect(summary.metrics.map((metric) => metric.name)).toEqual([
      "Tool Call Accuracy",
      "planner › planner accuracy",
      "no-case › Tool Call Accuracy",
    ]);
    expect(summary.metrics[1]).toMatchObject({ scored: 2, passed: 1 });
    expect(summary.metrics[2]).toMatchObject({ scored: 0, skipped: 2 });
    // The flat results name components; endToEnd and components keep them apart.
    expect(lisbon.results.map((result) => result.metric)).toEqual([
      "Tool Call Accuracy",
      "planner › planner accuracy",
      "no-case › Tool Call Accuracy",
    ]);
  });

  it("checks its options", async () => {
    await expect(
      evaluateObserved({ observedCallback: "x" as never, goldens: [] }),
    ).rejects.toMatchObject({
      code: ErrorCode.INVALID_OPTION,
    });
    const metric: Metric = { name: "m", measure: () => Promise.reject(new Error("metric broke")) };
    const { results } = await evaluateObserved({
      observedCallback: () => "ok",
      goldens: [{ input: "a" }],
      metrics: [metric],
    });
    expect(results[0]).toMatchObject({ status: "error", endToEnd: [{ status: "error" }] });
  });
});
