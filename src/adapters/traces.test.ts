import { describe, expect, it } from "vitest";
import { otlpExport, openAiRun } from "../../test/support/transcripts.js";
import { InvalidInputError, InvalidOptionError } from "../core/errors.js";
import { readDatasetCase } from "./dataset-case.js";
import { traceIdsOf } from "./otlp.js";
import { decodeTranscript, parseTrajectory } from "./parse-trajectory.js";

const twoRuns = otlpExport({
  "trace-a": [
    { name: "search", args: { q: "paris" } },
    { name: "book", args: { id: 1 } },
  ],
  "trace-b": [{ name: "cancel", args: { id: 2 } }],
});

describe("exports of spans holding several traces", () => {
  it("lists the traces in the order the export names them", () => {
    expect(traceIdsOf(twoRuns)).toEqual(["trace-a", "trace-b"]);
    expect(traceIdsOf(otlpExport({ only: [{ name: "a", args: {} }] }))).toEqual(["only"]);
  });

  it("reads one trace when traceId chooses it", () => {
    const a = parseTrajectory(twoRuns, { traceId: "trace-a" });
    expect(a.calls.map((call) => [call.name, call.inputParameters])).toEqual([
      ["search", { q: "paris" }],
      ["book", { id: 1 }],
    ]);
    expect(a.warnings).toEqual([]);
    const b = parseTrajectory(twoRuns, { traceId: "trace-b" });
    expect(b.calls.map((call) => call.name)).toEqual(["cancel"]);
  });

  it("warns, never mixes in silence, when no trace is chosen", () => {
    const mixed = parseTrajectory(twoRuns);
    expect(mixed.calls).toHaveLength(3);
    expect(mixed.warnings.map((warning) => warning.code)).toEqual(["several-traces"]);
    expect(mixed.warnings[0].message).toContain('"trace-a", "trace-b"');
    const one = parseTrajectory(otlpExport({ only: [{ name: "a", args: {} }] }));
    expect(one.warnings).toEqual([]);
  });

  it("refuses a trace the export does not hold, and traceId on a transcript of messages", () => {
    expect(() => parseTrajectory(twoRuns, { traceId: "trace-c" })).toThrow(InvalidInputError);
    expect(() => parseTrajectory(twoRuns, { traceId: "trace-c" })).toThrow(
      /no span belongs to trace "trace-c"; the traces are "trace-a", "trace-b"/,
    );
    expect(() => parseTrajectory(openAiRun, { traceId: "trace-a" })).toThrow(InvalidOptionError);
    expect(() => parseTrajectory(openAiRun, { traceId: "trace-a" })).toThrow(/openai-chat/);
    expect(() => parseTrajectory(twoRuns, { traceId: "" })).toThrow(InvalidOptionError);
  });
});

describe("decodeTranscript: the one rule for a transcript's text", () => {
  it("reads JSON whole, JSON Lines when it is not JSON, and every line with lines", () => {
    expect(decodeTranscript('[{"a": 1}]\n')).toEqual([{ a: 1 }]);
    expect(decodeTranscript('{"a": 1}\n\n{"b": 2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
    // One line of a JSON Lines file is a list of one, not the object itself.
    expect(decodeTranscript('{"a": 1}\n', { lines: true })).toEqual([{ a: 1 }]);
    expect(decodeTranscript('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it("names the first line that is not JSON", () => {
    expect(() => decodeTranscript('{"a": 1}\n{oops\n')).toThrow(/line 2 is not valid JSON/);
    expect(() => decodeTranscript("[1]\n[2", { lines: true })).toThrow(/^line 2 is not valid JSON/);
  });
});

describe("a dataset case's traceId", () => {
  it("chooses the trace its trajectory reads, and is refused without a trajectory", () => {
    const read = readDatasetCase(
      { id: "x", trajectory: twoRuns, trace_id: "trace-b" },
      { index: 0, line: 1 },
    );
    expect(read.toolsCalled?.map((call) => call.name)).toEqual(["cancel"]);
    expect(() =>
      readDatasetCase({ id: "x", toolsCalled: [], traceId: "trace-b" }, { index: 0, line: 1 }),
    ).toThrow(/line 1: traceId chooses a trace of the case's trajectory/);
    expect(() =>
      readDatasetCase({ id: "x", trajectory: twoRuns, traceId: "nope" }, { index: 0, line: 1 }),
    ).toThrow(/trajectory could not be read: no span belongs to trace "nope"/);
  });
});
