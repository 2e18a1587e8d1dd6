import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../../core/judge.js";
import { createOpenAIJudge } from "../../providers/openai.js";
import { useLlmServer } from "../../../test/support/judge-fixtures.js";
import { toolSelectionRequest } from "../tool-selection.js";
import { agreementStats, kappaInterval } from "./agreement.js";
import { calibrateJudge } from "./calibrate.js";
import { toolSelectionCalibrationSet } from "./tool-selection-cases.js";

describe("agreementStats", () => {
  it("computes accuracy, kappa, mean absolute error and exact agreement", () => {
    const labels = [1, 1, 0, 0, 1, 0];
    const scores = [1, 0.75, 0, 0.5, 0.25, 0];
    const stats = agreementStats(labels.map((label, i) => ({ label, score: scores[i] ?? 0 })));
    expect(stats.confusion).toEqual({
      bothPass: 2,
      bothFail: 2,
      judgeOnlyPass: 1,
      labelOnlyPass: 1,
    });
    expect(stats.accuracy).toBeCloseTo(4 / 6, 12);
    // Chance agreement 0.5: kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3.
    expect(stats.cohensKappa).toBeCloseTo(1 / 3, 12);
    expect(stats.meanAbsoluteError).toBeCloseTo(0.25, 12);
    expect(stats.exactAgreement).toBe(0.5);
  });

  it("has no kappa when everything sits on one side, and empty input yields zeros", () => {
    expect(
      agreementStats([
        { label: 1, score: 1 },
        { label: 0.75, score: 0.5 },
      ]).cohensKappa,
    ).toBeUndefined();
    expect(agreementStats([])).toMatchObject({ cases: 0, cohensKappa: undefined });
  });
});

describe("kappaInterval", () => {
  const pairs = Array.from({ length: 60 }, (_, at) => ({
    label: at % 2,
    // Right on five cases in six.
    score: at % 6 === 0 ? 1 - (at % 2) : at % 2,
  }));

  it("brackets the kappa, reads the same twice, and narrows with more cases", () => {
    const kappa = agreementStats(pairs).cohensKappa ?? Number.NaN;
    const interval = kappaInterval(pairs, 0.5);
    expect(interval).toEqual(kappaInterval(pairs, 0.5));
    const [low, high] = interval ?? [Number.NaN, Number.NaN];
    expect(low).toBeLessThan(kappa);
    expect(high).toBeGreaterThan(kappa);
    const [wideLow, wideHigh] = kappaInterval(pairs.slice(0, 12), 0.5) ?? [0, 0];
    expect(wideHigh - wideLow).toBeGreaterThan(high - low);
  });

  it("has none for fewer than two pairs, or pairs all on one side", () => {
    expect(kappaInterval([{ label: 1, score: 1 }], 0.5)).toBeUndefined();
    expect(
      kappaInterval(
        [
          { label: 1, score: 1 },
          { label: 1, score: 1 },
        ],
        0.5,
      ),
    ).toBeUndefined();
  });
});

describe("the labelled tool-selection set", () => {
  const set = toolSelectionCalibrationSet;

  it("has at least sixty cases with unique ids, a reason and a label on the judge's scale, a third or more each side of the line", () => {
    expect(set.length).toBeGreaterThanOrEqual(60);
    const failing = set.filter((c) => c.label < 0.5).length;
    expect(failing / set.length).toBeGreaterThanOrEqual(1 / 3);
    expect(failing / set.length).toBeLessThanOrEqual(2 / 3);
    expect(new Set(set.map((c) => c.id)).size).toBe(set.length);
    for (const entry of set) {
      expect([0, 0.25, 0.5, 0.75, 1]).toContain(entry.label);
      expect(entry.reasoning.length).toBeGreaterThan(20);
    }
    // Every level of the scale is represented.
    expect(new Set(set.map((c) => c.label))).toEqual(new Set([0, 0.25, 0.5, 0.75, 1]));
  });

  it("only calls tools that were available", () => {
    for (const entry of set) {
      const names = new Set(entry.availableTools.map((t) => t.name));
      for (const call of entry.toolsCalled)
        expect(names.has(call.name), `${entry.id}: ${call.name}`).toBe(true);
    }
  });
});

/** The text the loopback server reads from a request: every text part, joined by newlines. */
function promptOf(request: JudgeRequest): string {
  return request.messages
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])),
    )
    .join("\n");
}

describe("calibrateJudge on tool-selection", () => {
  const labelOf = new Map(
    toolSelectionCalibrationSet.map((c) => [
      promptOf(toolSelectionRequest(c, { images: true })),
      c.label,
    ]),
  );
  let mode: "labels" | "always-one" | "one-broken" = "labels";
  const server = useLlmServer({
    answer: ({ prompt }) => {
      const verdict = (score: number) => ({
        reason: "r",
        overSelected: [],
        underSelected: [],
        misSelected: [],
        score,
      });
      // Asked again (with the correction appended) about a broken case: still out of range.
      if (mode === "one-broken" && prompt.includes("Eiffel")) return verdict(7);
      const label = labelOf.get(prompt);
      if (label === undefined) throw new Error("unknown case");
      return verdict(mode === "always-one" ? 1 : label);
    },
  });
  const model = () =>
    createOpenAIJudge({
      model: "gpt-4.1-mini",
      apiKey: "k",
      baseURL: server().openaiBaseURL,
      maxRetries: 0,
    });

  it("reports perfect agreement for a judge that gives the labels", async () => {
    mode = "labels";
    const report = await calibrateJudge(model(), { metric: "tool-selection", concurrency: 16 });
    expect(report).toMatchObject({
      model: "openai/gpt-4.1-mini",
      cases: toolSelectionCalibrationSet.length,
      accuracy: 1,
      cohensKappa: 1,
      meanAbsoluteError: 0,
      exactAgreement: 1,
      errors: 0,
    });
    expect(report.usage.inputTokens).toBeGreaterThan(0);
    expect(report.costUsd).toBeUndefined();
    expect(server().maxInFlight).toBeLessThanOrEqual(16);
  });

  it("shows a judge that passes everything as no better than chance", async () => {
    mode = "always-one";
    const report = await calibrateJudge(model(), { metric: "tool-selection" });
    expect(report.cohensKappa).toBeCloseTo(0, 12);
    expect(report.accuracy).toBeLessThan(1);
    expect(report.confusion.bothFail).toBe(0);
  });

  it("reports cases the judge could not score and leaves them out", async () => {
    mode = "one-broken";
    const report = await calibrateJudge(model(), { metric: "tool-selection" });
    const broken = report.results.filter((r) => r.error !== undefined);
    expect(broken.map((r) => r.id).sort()).toEqual([
      "research-eiffel-long-way",
      "research-eiffel-wikipedia",
    ]);
    expect(broken[0]?.error?.code).toBe("JUDGE_RESPONSE");
    expect(report.errors).toBe(2);
    expect(report.cases).toBe(toolSelectionCalibrationSet.length - 2);
    expect(report.accuracy).toBe(1);
  });
});
