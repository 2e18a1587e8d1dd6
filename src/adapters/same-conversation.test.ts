import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { trajectoryFormats } from "../core/trajectory.js";
import type { TrajectoryFormat } from "../core/trajectory.js";
import { detectFormat } from "./detect-format.js";
import { parseTrajectory } from "./parse-trajectory.js";

/** One conversation, written in every format (fixtures/same-conversation/<format>.json). */
function fixture(format: TrajectoryFormat): unknown {
  return JSON.parse(
    readFileSync(new URL(`./fixtures/same-conversation/${format}.json`, import.meta.url), "utf8"),
  );
}

const expectedCalls = [
  {
    name: "get_weather",
    inputParameters: { city: "Paris", unit: "celsius" },
    output: "18°C, light rain",
  },
  {
    name: "get_weather",
    inputParameters: { city: "Lyon", unit: "celsius" },
    output: "21°C, sunny",
  },
  {
    name: "search_trains",
    inputParameters: { from: "Paris", to: "Lyon", date: "2026-05-03" },
    output: "train search timed out",
  },
  {
    name: "search_trains",
    inputParameters: { from: "Paris", to: "Lyon", date: "2026-05-03", retry: true },
    output: "TGV 6603, 08:04, 39 EUR",
  },
  { name: "book_train", inputParameters: { train: "TGV 6603" }, output: "booked: PNR X7Y2Z" },
];

/**
 * OpenAI's chat and Responses formats, the Agents SDK's history (its tool errors are the text the
 * model was given) and Mastra's stored messages (AI SDK 4's parts, a result only) have no way to
 * flag a tool error; the others do.
 */
const canFlagErrors: Record<TrajectoryFormat, boolean> = {
  "openai-chat": false,
  "openai-responses": false,
  "openai-agents": false,
  anthropic: true,
  gemini: true,
  adk: true,
  bedrock: true,
  langchain: true,
  "ai-sdk": true,
  mastra: false,
  otel: true,
  openinference: true,
  mcp: true,
};

/** Traces and MCP logs carry no user messages between turns; the others show both turns. */
const turnCount: Record<TrajectoryFormat, number> = {
  "openai-chat": 2,
  "openai-responses": 2,
  "openai-agents": 2,
  anthropic: 2,
  gemini: 2,
  adk: 2,
  bedrock: 2,
  langchain: 2,
  "ai-sdk": 2,
  mastra: 2,
  otel: 1,
  openinference: 1,
  mcp: 1,
};

describe("the same conversation in every format", () => {
  for (const format of trajectoryFormats) {
    describe(format, () => {
      const input = fixture(format);

      it("is detected as its format", () => {
        expect(detectFormat(input)).toMatchObject({ format });
      });

      it("gives the same calls, outputs and error flags", () => {
        const trajectory = parseTrajectory(input);
        expect(trajectory.format).toBe(format);
        expect(
          trajectory.calls.map(({ name, inputParameters, output }) => ({
            name,
            inputParameters,
            output,
          })),
        ).toEqual(expectedCalls);
        expect(trajectory.calls.map((call) => call.isError)).toEqual([
          false,
          false,
          canFlagErrors[format],
          false,
          false,
        ]);
        expect(trajectory.warnings).toEqual([]);
      });

      it("groups the parallel weather calls into one step", () => {
        const trajectory = parseTrajectory(input);
        expect(trajectory.steps.map((step) => step.calls)).toEqual([[0, 1], [2], [3], [4]]);
      });

      it("splits turns at user messages", () => {
        const { turns } = parseTrajectory(input);
        expect(turns).toHaveLength(turnCount[format]);
        if (turnCount[format] === 2) {
          expect(turns.map((turn) => turn.calls)).toEqual([[0, 1, 2, 3], [4]]);
          expect(turns[1]?.input).toBe("Book it.");
          expect(turns[0]?.input).toContain("weather in Paris and Lyon");
        }
      });

      it("finds the tool definitions the format carries", () => {
        const { tools } = parseTrajectory(input);
        // UI messages, LangChain message lists, an Agents SDK history and an ADK session hold
        // no tool definitions.
        if (["ai-sdk", "mastra", "langchain", "openai-agents", "adk"].includes(format)) {
          expect(tools).toEqual([]);
        } else {
          expect(tools.map((tool) => tool.name)).toEqual([
            "get_weather",
            "search_trains",
            "book_train",
          ]);
          expect(tools[0]).toEqual({
            name: "get_weather",
            description: "Current weather for a city",
            parameters: {
              type: "object",
              properties: {
                city: { type: "string" },
                unit: { type: "string", enum: ["celsius", "fahrenheit"] },
              },
              required: ["city"],
            },
          });
        }
      });
    });
  }
});
