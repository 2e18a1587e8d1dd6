import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../../core/judge.js";
import type { JsonValue } from "../../core/json.js";
import { fakeJudge } from "../../../test/support/fake-judge.js";
import { argumentCorrectnessRequest } from "../argument-correctness.js";
import { taskCompletionRequest } from "../task-completion.js";
import { calibrateJudge, calibrationSet } from "./calibrate.js";
import type { LabelledCase } from "./judged-metric-cases.js";

const key = (request: JudgeRequest) => JSON.stringify(request.messages);

/** What a label says: all right, all wrong, part right, or undecidable. */
const kindOf = (label: LabelledCase["label"]) =>
  label === "not-evaluable" ? "unsure" : label === 1 ? "right" : label === 0 ? "wrong" : "part";

describe.each(["argument-correctness", "task-completion"] as const)(
  "%s's labelled set",
  (metric) => {
    const set = calibrationSet(metric);

    it("has at least forty cases, unique ids, each with a label and why, every label kind", () => {
      expect(set.length).toBeGreaterThanOrEqual(40);
      expect(new Set(set.map((entry) => entry.id)).size).toBe(set.length);
      for (const entry of set) {
        expect(entry.why.length, entry.id).toBeGreaterThan(20);
        expect(
          entry.label === "not-evaluable" || (entry.label >= 0 && entry.label <= 1),
          entry.id,
        ).toBe(true);
      }
      const kinds = new Set(set.map((entry) => kindOf(entry.label)));
      expect(kinds).toEqual(new Set(["right", "wrong", "part", "unsure"]));
      expect(set.filter((entry) => entry.label === "not-evaluable").length).toBeGreaterThanOrEqual(
        5,
      );
    });

    it("only calls tools its toolkit has", () => {
      for (const { id, testCase } of set) {
        const names = new Set((testCase.availableTools ?? []).map((tool) => tool.name));
        for (const call of testCase.toolsCalled ?? [])
          expect(names.has(call.name), `${id}: ${call.name}`).toBe(true);
      }
    });
  },
);

/** The answer a judge that agrees with the labels gives, for either metric. */
function labelledAnswer(
  metric: "argument-correctness" | "task-completion",
  entry: LabelledCase,
): JsonValue {
  if (metric === "task-completion") {
    const verdicts = {
      unsure: "cannot_tell",
      right: "completed",
      wrong: "not_completed",
      part: "partially_completed",
    };
    return { reason: entry.why, unmet: [], verdict: verdicts[kindOf(entry.label)] };
  }
  const calls = entry.testCase.toolsCalled ?? [];
  // n-1 right and one it cannot tell: not evaluable at threshold 1; else the labelled share right.
  const right =
    entry.label === "not-evaluable" ? calls.length - 1 : Math.round(entry.label * calls.length);
  return {
    calls: calls.map((_, index) => ({
      call: index + 1,
      verdict: index < right ? "right" : entry.label === "not-evaluable" ? "cannot_tell" : "wrong",
      reason: entry.why,
    })),
  };
}

describe.each(["argument-correctness", "task-completion"] as const)(
  "calibrateJudge on %s",
  (metric) => {
    const set = calibrationSet(metric);
    const requestOf = (entry: LabelledCase) =>
      metric === "task-completion"
        ? taskCompletionRequest(
            {
              input: entry.testCase.input ?? "",
              availableTools: entry.testCase.availableTools ?? [],
              toolsCalled: entry.testCase.toolsCalled ?? [],
              replies: [],
              output: entry.testCase.actualOutput,
              expectedOutcome: entry.testCase.expectedOutcome,
            },
            { images: false },
          )
        : argumentCorrectnessRequest(
            {
              input: entry.testCase.input ?? "",
              availableTools: entry.testCase.availableTools ?? [],
              toolsCalled: entry.testCase.toolsCalled ?? [],
            },
            { images: false },
          );
    const answers = new Map(
      set.map((entry) => [key(requestOf(entry)), labelledAnswer(metric, entry)]),
    );

    it('reports full agreement, "cannot tell" included, for a judge that gives the labels', async () => {
      const { model } = fakeJudge((request) => answers.get(key(request)) ?? null);
      const report = await calibrateJudge(model, { metric, concurrency: 16 });
      expect(report).toMatchObject({
        metric,
        model: "fake/judge-1",
        threshold: 1,
        accuracy: 1,
        meanAbsoluteError: 0,
        exactAgreement: 1,
        errors: 0,
      });
      expect(report.cohensKappa).toBeCloseTo(1, 12);
      const labelled = set.filter((entry) => entry.label === "not-evaluable").length;
      expect(report.notEvaluable).toEqual({ labelled, judged: labelled, agreed: labelled });
      expect(report.usage.inputTokens).toBe(10 * set.length);
    });

    it("shows a judge that always passes as no better than chance, never saying it cannot tell", async () => {
      const { model } = fakeJudge((request): JsonValue => {
        const given = answers.get(key(request)) as { calls?: { call: number }[] };
        return metric === "task-completion"
          ? { reason: "fine", unmet: [], verdict: "completed" }
          : {
              calls: (given.calls ?? []).map(({ call }) => ({
                call,
                verdict: "right",
                reason: "ok",
              })),
            };
      });
      const report = await calibrateJudge(model, { metric });
      expect(report.cohensKappa ?? 0).toBeCloseTo(0, 12);
      expect(report.confusion.bothFail).toBe(0);
      expect(report.notEvaluable.judged).toBe(0);
    });
  },
);
