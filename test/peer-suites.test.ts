/**
 * The peers' own unit tests, as cases: each fixture line is one test of a peer's suite (named by
 * its test function, with the file and release it comes from) and the values that test asserts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ToolCorrectnessMetric } from "../src/compat/deepeval/index.js";
import { MultiTurnSample, ToolCallAccuracy, ToolCallF1 } from "../src/compat/ragas/index.js";
import { createMetric, matchToolCalls } from "../src/entries/index.js";
import type { MatchOptions } from "../src/entries/index.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "peers");

function readCases<T>(file: string): T[] {
  return readFileSync(path.join(fixtures, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

interface Asserts {
  readonly score?: number;
  readonly success?: boolean;
  readonly reasonContains?: readonly string[];
}

interface DeepevalCase {
  readonly id: string;
  readonly source: string;
  readonly options: Record<string, unknown>;
  readonly case: Record<string, unknown>;
  readonly asserts: Asserts;
}

function holds(asserts: Asserts, got: { score: number; success: boolean; reason: string }): void {
  if (asserts.score !== undefined) expect(got.score).toBe(asserts.score);
  if (asserts.success !== undefined) expect(got.success).toBe(asserts.success);
  for (const text of asserts.reasonContains ?? []) expect(got.reason).toContain(text);
}

describe("deepeval's tool-type tests (ToolCorrectnessMetric)", () => {
  const cases = readCases<DeepevalCase>("deepeval-tool-types.jsonl");
  it("reads every test of the suite", () => {
    expect(cases.map((c) => c.id)).toHaveLength(7);
  });
  for (const c of cases) {
    it(c.id, async () => {
      const metric = new ToolCorrectnessMetric(c.options);
      await metric.measure(c.case as never);
      holds(c.asserts, {
        score: metric.score ?? Number.NaN,
        success: metric.success ?? false,
        reason: metric.reason ?? "",
      });
    });
  }
});

interface RagasCase {
  readonly id: string;
  readonly source: string;
  readonly metric: "ToolCallAccuracy" | "ToolCallF1";
  readonly options: { strictOrder?: boolean };
  readonly sample?: {
    userInput: { type: string; content: string; toolCalls?: { name: string; args: object }[] }[];
    referenceToolCalls: { name: string; args: object }[];
  };
  readonly asserts: {
    readonly score?: number;
    readonly roundedScore?: { digits: number; value: number };
    readonly isSequenceAligned?: { predicted: string[]; reference: string[]; value: boolean };
  };
}

describe("ragas' ToolCallAccuracy and ToolCallF1 tests", () => {
  const cases = readCases<RagasCase>("ragas-tool-calls.jsonl");
  it("reads every asserting test of the two suites", () => {
    expect(cases).toHaveLength(22);
  });
  for (const c of cases) {
    it(c.id, async () => {
      const metric =
        c.metric === "ToolCallAccuracy" ? new ToolCallAccuracy(c.options) : new ToolCallF1();
      const aligned = c.asserts.isSequenceAligned;
      if (aligned !== undefined) {
        expect(
          (metric as ToolCallAccuracy).isSequenceAligned(aligned.predicted, aligned.reference),
        ).toBe(aligned.value);
        return;
      }
      if (c.sample === undefined) throw new Error(`${c.id}: no sample`);
      const score = await metric.multiTurnAscore(new MultiTurnSample(c.sample as never));
      const { roundedScore } = c.asserts;
      if (roundedScore !== undefined) {
        expect(Math.round(score * 10 ** roundedScore.digits) / 10 ** roundedScore.digits).toBe(
          roundedScore.value,
        );
      } else expect(score).toBe(c.asserts.score);
      // The registry's metric gives the same number from a dataset case's lists.
      const id =
        c.metric === "ToolCallAccuracy" ? "ragas-tool-call-accuracy" : "ragas-tool-call-f1";
      const registered = createMetric({ metric: id, ...c.options });
      const toolsCalled = c.sample.userInput.flatMap((message) =>
        (message.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.args })),
      );
      const expectedTools = c.sample.referenceToolCalls.map((call) => ({
        name: call.name,
        arguments: call.args,
      }));
      const result = await registered.measure({ toolsCalled, expectedTools } as never);
      expect(result).toMatchObject({ status: "scored", score });
    });
  }
});

describe("ragas' ToolCallAccuracy as tool-call-accuracy options (docs/guides/benchmarks.md)", () => {
  const scored = readCases<RagasCase>("ragas-tool-calls.jsonl").filter(
    (c) => c.metric === "ToolCallAccuracy" && c.sample !== undefined,
  );
  /** How many of ragas' asserted scores the options give. */
  const agreeing = (score: "f1" | "recall") =>
    scored
      .filter((c) => {
        const sample = c.sample;
        if (sample === undefined) return false;
        const called = sample.userInput.flatMap((message) =>
          (message.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.args })),
        );
        const expected = sample.referenceToolCalls.map((call) => ({
          name: call.name,
          arguments: call.args,
        }));
        const options: MatchOptions = {
          order: c.options.strictOrder === false ? "any" : "strict",
          arguments: "subset",
          score,
        };
        return matchToolCalls(called, expected, options).score === c.asserts.score;
      })
      .map((c) => c.id);

  it("gives 8 of the 10 with score f1 and 7 with recall; the length mismatches are ragas' gate", () => {
    expect(scored).toHaveLength(10);
    const f1 = agreeing("f1");
    expect(f1).toHaveLength(8);
    expect(scored.map((c) => c.id).filter((id) => !f1.includes(id))).toEqual([
      "test_length_mismatch_more_predicted",
      "test_length_mismatch_fewer_predicted",
    ]);
    expect(agreeing("recall")).toHaveLength(7);
  });
});
