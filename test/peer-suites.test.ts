/**
 * The peers' own unit tests, as cases: each fixture line is one test of a peer's suite (named by
 * its test function, with the file and release it comes from) and the values that test asserts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ToolCorrectnessMetric } from "../src/compat/deepeval/index.js";

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
