/**
 * `--otlp-events`: a run's scores as OpenTelemetry gen_ai.evaluation.result events on the root
 * span of the trace each case's run came from (OTel GenAI, OpenInference, an OpenAI Agents SDK
 * export), through the built CLI, from eval and from report.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";

const fixtures = path.resolve(
  fileURLToPath(new URL(".", import.meta.url)),
  "../src/adapters/fixtures",
);
const folder = testFolders("toolscore-otlp-events-");

interface LogRecord {
  eventName: string;
  traceId: string;
  spanId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const recordsOf = (file: string): LogRecord[] =>
  (
    JSON.parse(readFileSync(file, "utf8")) as {
      resourceLogs: { scopeLogs: { logRecords: LogRecord[] }[] }[];
    }
  ).resourceLogs[0].scopeLogs[0].logRecords;

describe("scores as OpenTelemetry evaluation events", () => {
  it("puts each traced run's scores on its root span, and counts the runs without a trace", async () => {
    const cwd = folder();
    for (const [from, to] of [
      ["same-conversation/otel.json", "otel.json"],
      ["same-conversation/openinference.json", "openinference.json"],
      ["openai-agents/trace-export.json", "agents.json"],
      ["same-conversation/openai-chat.json", "chat.json"],
    ]) {
      copyFileSync(path.join(fixtures, from), path.join(cwd, to));
    }
    const expected = [{ name: "get_weather", arguments: { city: "Paris", unit: "celsius" } }];
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      jsonl([
        { id: "otel", trajectoryFile: "otel.json", expectedTools: expected },
        { id: "openinference", trajectoryFile: "openinference.json", expectedTools: expected },
        { id: "agents", trajectoryFile: "agents.json", expectedTools: [{ name: "lookup_order" }] },
        { id: "chat", trajectoryFile: "chat.json", expectedTools: expected },
      ]),
    );
    const run = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--set",
        "tool-call-accuracy.order=all-expected",
        // The runs' other calls change nothing.
        "--set",
        "tool-call-accuracy.sideEffects.undeclared=read-only",
        "--otlp-events",
        "events.json",
      ],
      { cwd },
    );
    expect(run.stdout).toContain(
      // The OpenInference fixture names its spans "t1" and "agent", which no collector takes.
      "otlp events: events.json (2 events; 1 case without a trace to put them on; 1 case whose trace ids are not OpenTelemetry ids (32 and 16 hex digits) or an Agents SDK's, left out)",
    );
    const records = recordsOf(path.join(cwd, "events.json"));
    // The root spans: OTel's invoke_agent span, OpenInference's agent span, the SDK's agent span.
    const otel = JSON.parse(readFileSync(path.join(cwd, "otel.json"), "utf8")) as {
      resourceSpans: {
        scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string }[] }[];
      }[];
    };
    const otelRoot = otel.resourceSpans[0].scopeSpans[0].spans.find(
      (span) => span.parentSpanId === undefined,
    );
    expect(records[0]).toMatchObject({
      eventName: "gen_ai.evaluation.result",
      traceId: otelRoot?.traceId,
      spanId: otelRoot?.spanId,
    });
    expect(records[1]).toMatchObject({ traceId: "trace_1", spanId: "span_1" });
    expect(
      Object.fromEntries(
        records[0].attributes.map(({ key, value }) => [key, Object.values(value)[0]]),
      ),
    ).toMatchObject({
      "gen_ai.evaluation.name": "Tool Call Accuracy",
      "gen_ai.evaluation.score.value": 1,
      "gen_ai.evaluation.score.label": "pass",
    });

    // report writes the same from the results file.
    const again = await runCliProcess(
      ["report", "toolscore-results.jsonl", "--otlp-events", "again.json"],
      { cwd },
    );
    expect(again.code).toBe(0);
    const strip = (items: LogRecord[]) =>
      items.map(({ traceId, spanId, attributes }) => ({ traceId, spanId, attributes }));
    expect(strip(recordsOf(path.join(cwd, "again.json")))).toEqual(strip(records));
  });

  it("writes no trace id a transcript made up: empty, a newline, 100,000 characters (issue 48, item 8)", async () => {
    const cwd = folder();
    const otel = readFileSync(path.join(fixtures, "same-conversation/otel.json"), "utf8");
    const root = "5b8efff798038103d269b633813fc60c";
    const cases = [
      ["fine", root],
      ["empty", ""],
      ["newline", "5b8efff798038103\n269b633813fc60c"],
      ["long", "a".repeat(100_000)],
    ];
    for (const [name, id] of cases) {
      writeFileSync(path.join(cwd, `${name}.json`), otel.replaceAll(root, id));
    }
    const expected = [{ name: "get_weather", arguments: { city: "Paris", unit: "celsius" } }];
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      jsonl(
        cases.map(([name]) => ({
          id: name,
          trajectoryFile: `${name}.json`,
          expectedTools: expected,
        })),
      ),
    );
    const run = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--set",
        "tool-call-accuracy.order=all-expected",
        "--otlp-events",
        "events.json",
      ],
      { cwd },
    );
    expect(run.stdout).toContain(
      // An empty id names no trace; the others name ones no collector takes.
      "otlp events: events.json (1 event; 1 case without a trace to put them on; 2 cases whose trace ids are not OpenTelemetry ids (32 and 16 hex digits) or an Agents SDK's, left out)",
    );
    const records = recordsOf(path.join(cwd, "events.json"));
    expect(records.map((record) => record.traceId)).toEqual([root]);
  });
});
