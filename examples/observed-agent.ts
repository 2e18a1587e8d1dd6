/**
 * Evaluates a running agent rather than finished transcripts: a travel assistant built on the
 * Vercel AI SDK is run once per golden under toolscore/tracing, its tool calls are recorded as
 * they happen, its booking step is scored as a component, the whole run end to end, and every
 * golden is written to a results file that `toolscore report` turns into HTML or JUnit.
 *
 * The model here is the AI SDK's scripted mock, so the example runs offline; put
 * `openai("gpt-4o-mini")` (or any AI SDK model) in its place for a real agent.
 *
 *   npm run example:observe
 *   npx toolscore report observed-results.jsonl --report observed-report.html
 */
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { toolCallAccuracy } from "toolscore";
import { evaluateObserved, observe, observeTools, updateCurrentSpan } from "toolscore/tracing";
import type { Golden } from "toolscore/tracing";

const flights: Record<string, string[]> = { OSL: ["SK-4411"], LIS: ["TP-761", "TP-763"] };

const tools = observeTools({
  searchFlights: tool({
    description: "Flights to an airport",
    inputSchema: jsonSchema<{ to: string }>({
      type: "object",
      properties: { to: { type: "string" } },
      required: ["to"],
    }),
    execute: ({ to }) => Promise.resolve({ flights: flights[to] ?? [] }),
  }),
  getWeather: tool({
    description: "Forecast for a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: ({ city }) => Promise.resolve({ forecast: `mild in ${city}` }),
  }),
});

/** Books a flight: a component with its own metric and its own expectations. */
const bookFlight = observe(
  (flight: string, wanted: string) => {
    updateCurrentSpan({
      testCase: {
        input: flight,
        toolsCalled: [
          { name: "book", inputParameters: { flight }, output: null, type: "FUNCTION" },
        ],
        expectedTools: [
          { name: "book", inputParameters: { flight: wanted }, output: null, type: "FUNCTION" },
        ],
      },
    });
    return `booked ${flight}`;
  },
  { name: "booking", metrics: [toolCallAccuracy({ name: "booked flight" })] },
);

/** A scripted model: searches (and, for Lisbon, checks the weather in parallel), then answers. */
function scriptedModel(airport: string) {
  let step = 0;
  const usage = {
    inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 8, text: 8, reasoning: undefined },
  };
  return new MockLanguageModelV3({
    doGenerate: () => {
      step++;
      if (step === 1) {
        const calls = [
          {
            type: "tool-call" as const,
            toolCallId: "c1",
            toolName: "searchFlights",
            input: JSON.stringify({ to: airport }),
          },
          ...(airport === "LIS"
            ? [
                {
                  type: "tool-call" as const,
                  toolCallId: "c2",
                  toolName: "getWeather",
                  input: '{"city":"Lisbon"}',
                },
              ]
            : []),
        ];
        return Promise.resolve({
          content: calls,
          finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
          usage,
          warnings: [],
        });
      }
      return Promise.resolve({
        content: [{ type: "text" as const, text: `Found flights to ${airport}.` }],
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage,
        warnings: [],
      });
    },
  });
}

/** The application under test. */
const travelAgent = observe(
  async (request: string) => {
    const airport = request.includes("Lisbon") ? "LIS" : "OSL";
    const { text } = await generateText({
      model: scriptedModel(airport),
      tools,
      prompt: request,
      stopWhen: stepCountIs(3),
    });
    // The agent books the last flight it found; the goldens expect the first.
    const found = flights[airport];
    bookFlight(found[found.length - 1], found[0]);
    return text;
  },
  { name: "travel agent", type: "agent" },
);

const call = (name: string, inputParameters: Record<string, string>) => ({
  name,
  inputParameters,
  output: null,
  type: "FUNCTION" as const,
});
const goldens: Golden[] = [
  {
    id: "oslo",
    input: "A flight to Oslo, please",
    expectedTools: [call("searchFlights", { to: "OSL" })],
  },
  {
    id: "lisbon",
    input: "Fly me to Lisbon and tell me the weather",
    expectedTools: [call("searchFlights", { to: "LIS" }), call("getWeather", { city: "Lisbon" })],
  },
  {
    id: "lisbon-no-weather",
    input: "Just a flight to Lisbon",
    // The agent checks the weather for every Lisbon request: an unexpected call here.
    expectedTools: [call("searchFlights", { to: "LIS" })],
  },
];

const { results, summary } = await evaluateObserved({
  observedCallback: (input) => travelAgent(typeof input === "string" ? input : ""),
  goldens,
  metrics: [toolCallAccuracy({ order: "any" })],
  out: "observed-results.jsonl",
  overwrite: true,
  name: "travel agent goldens",
});

for (const result of results) {
  const calls = result.trace.spans.filter((span) => span.type === "tool").map((span) => span.name);
  console.log(`${result.id}: ${result.status} (tools called: ${calls.join(", ")})`);
  for (const metric of result.results) {
    if (metric.status === "scored")
      console.log(`  ${metric.metric}: ${metric.score.toFixed(2)}${metric.success ? "" : " ✗"}`);
  }
}
console.log(
  `\n${summary.passed} of ${summary.cases} goldens passed; per metric:\n${summary.metrics
    .map(
      (metric) =>
        `  ${metric.name}: mean ${metric.mean?.toFixed(2) ?? "–"}, ${metric.passed}/${metric.scored} passed`,
    )
    .join("\n")}`,
);
console.log(
  "results: observed-results.jsonl (npx toolscore report observed-results.jsonl --report observed-report.html)",
);
