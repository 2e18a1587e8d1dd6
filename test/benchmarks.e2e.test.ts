/**
 * The benchmark examples give the benchmarks' own verdicts: `toolscore eval` with each folder's
 * dataset and config, through the real CLI, against the verdict each case carries in metadata
 * (tau-bench's reward, BFCL's AST checker, agentevals' asserted score).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetParseError, toolCallAccuracy } from "../src/entries/index.js";
import type { ToolRules } from "../src/entries/index.js";
import { readDataset } from "../src/node/dataset.js";
import { recordsByIndex, runCliProcess } from "./support/cli.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const examples = path.join(root, "examples/benchmarks");
const work = mkdtempSync(path.join(os.tmpdir(), "toolscore-benchmarks-"));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Verdict {
  readonly id: string;
  readonly passed: boolean;
  readonly metadata: Record<string, unknown>;
}

/** Runs the folder's dataset with its config; each case's toolscore verdict and metadata. */
async function evaluate(benchmark: string): Promise<Verdict[]> {
  const folder = path.join(examples, benchmark);
  const out = path.join(work, `${benchmark}.jsonl`);
  const run = await runCliProcess(["eval", "dataset.jsonl", "--out", out, "--workers", "0"], {
    cwd: folder,
  });
  expect(run.stderr).not.toMatch(/error/i);
  expect([0, 1]).toContain(run.code);
  const metadata = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(path.join(folder, "dataset.jsonl"), "utf8").trim().split("\n")) {
    const item = JSON.parse(line) as { id: string; metadata: Record<string, unknown> };
    metadata.set(item.id, item.metadata);
  }
  const verdicts = [...recordsByIndex(out).values()].map((record) => {
    const id = record.id as string;
    expect(record.status === "passed" || record.status === "failed").toBe(true);
    return { id, passed: record.status === "passed", metadata: metadata.get(id) ?? {} };
  });
  expect(verdicts).toHaveLength(metadata.size);
  return verdicts;
}

function disagreements(verdicts: readonly Verdict[], expected: (v: Verdict) => boolean): string[] {
  return verdicts.filter((v) => v.passed !== expected(v)).map((v) => v.id);
}

describe("benchmark examples", () => {
  it("tau-bench: pass exactly when the run earned reward 1", async () => {
    const verdicts = await evaluate("tau-bench");
    expect(verdicts).toHaveLength(20);
    // A run stopped by tau-bench's step limit got reward 0 without being scored: its transcript
    // alone cannot say so. Every run that was scored agrees.
    const scored = verdicts.filter((v) => v.metadata.reward_info_missing !== true);
    expect(scored).toHaveLength(19);
    expect(disagreements(scored, (v) => v.metadata.reward === 1)).toEqual([]);
    // Both outcomes occur, and the reply check decides some of them.
    expect(new Set(scored.map((v) => v.passed))).toEqual(new Set([true, false]));
  });

  it("BFCL: valid exactly when BFCL's AST checker says so", async () => {
    const verdicts = await evaluate("bfcl");
    expect(verdicts).toHaveLength(228);
    expect(disagreements(verdicts, (v) => v.metadata.bfclValid === true)).toEqual([]);
    const byMutation = (mutation: string) =>
      verdicts.filter((v) => v.metadata.mutation === mutation).map((v) => v.passed);
    // The features at work: int-as-float and numeric strings refused, case and punctuation not.
    expect(byMutation("int_as_float").every((passed) => !passed)).toBe(true);
    expect(byMutation("numeric_string").every((passed) => !passed)).toBe(true);
    expect(byMutation("string_punct").every((passed) => passed)).toBe(true);
    expect(byMutation("omit_optional").every((passed) => passed)).toBe(true);
  });

  it("BFCL: a required parameter left out fails, even where the answer marks it optional", async () => {
    // simple_python_17: `formatted` is required by the function's doc, optional in the answer.
    const tool = {
      name: "get_prime_factors",
      parameters: {
        type: "object",
        properties: { number: { type: "integer" }, formatted: { type: "boolean" } },
        required: ["number", "formatted"],
      },
    };
    const expectedTools = [
      {
        name: "get_prime_factors",
        arguments: {
          number: 450,
          formatted: { $match: "optional", value: { $match: "oneOf", values: [true, ""] } },
        },
      },
    ];
    const answer = (id: string, args: string) =>
      JSON.stringify({
        id,
        toolsCalled: [{ name: "get_prime_factors", arguments: args }],
        expectedTools,
        availableTools: [tool],
      });
    const folder = mkdtempSync(path.join(work, "bfcl-17-"));
    writeFileSync(
      path.join(folder, "dataset.jsonl"),
      `${answer("omit_optional", '{"number": 450}')}\n${answer("correct", '{"number": 450, "formatted": true}')}\n`,
    );
    const out = path.join(folder, "results.jsonl");
    const config = path.join(examples, "bfcl/toolscore.config.yaml");
    const run = await runCliProcess(["eval", "dataset.jsonl", "--config", config, "--out", out], {
      cwd: folder,
    });
    expect(run.code).toBe(1);
    const records = [...recordsByIndex(out).values()];
    expect(records.map((record) => [record.id, record.status])).toEqual([
      ["omit_optional", "failed"],
      ["correct", "passed"],
    ]);
  });

  it("BFCL, a served model's real answers: valid exactly when BFCL's checker says so", async () => {
    const verdicts = await evaluate("bfcl-real");
    expect(verdicts).toHaveLength(40);
    expect(disagreements(verdicts, (v) => v.metadata.bfclValid === true)).toEqual([]);
    // Irrelevance answers (no call expected, none made) pass; some answers fail.
    const irrelevance = verdicts.filter((v) => v.metadata.category === "irrelevance");
    expect(irrelevance.length).toBeGreaterThan(0);
    expect(irrelevance.every((v) => v.passed)).toBe(true);
    expect(verdicts.some((v) => !v.passed)).toBe(true);
  });

  it("agentevals: the suite's asserted score, with the override that needs code in code", async () => {
    const verdicts = await evaluate("agentevals");
    expect(verdicts).toHaveLength(62);
    const fromJson = verdicts.filter((v) => v.metadata.compareInCode === undefined);
    expect(disagreements(fromJson, (v) => v.metadata.expectedScore === true)).toEqual([]);

    const { toolRules } = (await import(path.join(examples, "agentevals/overrides.mjs"))) as {
      toolRules: Record<string, ToolRules>;
    };
    // The cases whose override is a function, with it in code: the verdicts the suite asserts.
    let inCode = 0;
    for await (const entry of readDataset(path.join(examples, "agentevals/dataset.jsonl"))) {
      if (DatasetParseError.isInstance(entry)) throw entry;
      const metadata = entry.metadata as { expectedScore: boolean; compareInCode?: unknown };
      if (metadata.compareInCode === undefined) continue;
      inCode++;
      const metric = toolCallAccuracy({
        threshold: 1,
        toolRules,
        // As the example's config says: agentevals lets any extra call go.
        sideEffects: { undeclared: "read-only" },
        ...(entry.metricOptions?.["tool-call-accuracy"] as object),
      });
      const result = metric.measureSync(entry);
      expect([entry.id, result.status === "scored" && result.success]).toEqual([
        entry.id,
        metadata.expectedScore,
      ]);
    }
    expect(inCode).toBe(62 - fromJson.length);
    expect(inCode).toBeGreaterThan(0);
  });
});
