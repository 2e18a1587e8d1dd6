import { describe, expect, it } from "vitest";
import type { JudgeRequest } from "../../core/judge.js";
import type { JsonValue } from "../../core/json.js";
import { fakeJudge } from "../../../test/support/fake-judge.js";
import { argumentRequestOf } from "../../../test/support/labelled-requests.js";
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

    it("has at least sixty cases, unique ids, each with a label and why, every label kind, a third or more each side of the line", () => {
      expect(set.length).toBeGreaterThanOrEqual(60);
      const decided = set.flatMap((entry) =>
        entry.label === "not-evaluable" ? [] : [entry.label],
      );
      const passing = decided.filter((label) => label >= 1).length;
      expect(passing / decided.length).toBeGreaterThanOrEqual(1 / 3);
      expect(passing / decided.length).toBeLessThanOrEqual(2 / 3);
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

    it("holds later turns of conversations, whose judge is shown the turns before", () => {
      const later = set.filter((entry) => entry.testCase.conversation !== undefined);
      expect(later.length).toBeGreaterThanOrEqual(4);
      for (const { id, testCase } of later) {
        const place = testCase.conversation;
        expect(place?.at, id).toBe((place?.turns.length ?? 0) - 1);
        expect(place?.turns.at(-1)?.input, id).toBe(testCase.input);
      }
      // The judge is shown what the user said before.
      const [first] = later;
      const shown = JSON.stringify(argumentRequestOf(first).messages);
      expect(shown).toContain("The conversation so far");
      expect(shown).toContain(
        JSON.stringify(first.testCase.conversation?.turns[0].input).slice(1, -1),
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
              conversation: entry.testCase.conversation,
            },
            { images: false },
          )
        : argumentRequestOf(entry);
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
      // It decides every case a label decides, and is trusted.
      expect(report).toMatchObject({ coverage: 1, abstained: 0, passed: true, failures: [] });
      expect(report.falsePassRate).toBe(0);
      expect(report.verdict).toMatch(/^trusted: kappa 1\.00 \(almost perfect agreement\)/);
    });

    it('refuses a judge that says "cannot tell" on most cases, however right it is on the rest', async () => {
      const decidable = set.filter((entry) => entry.label !== "not-evaluable");
      // It decides one decidable case in four, and answers the label there.
      const decides = new Set(decidable.filter((_, at) => at % 4 === 0).map((entry) => entry.id));
      const abstain = (entry: LabelledCase): JsonValue =>
        metric === "task-completion"
          ? { reason: "unclear", unmet: [], verdict: "cannot_tell" }
          : {
              calls: (entry.testCase.toolsCalled ?? []).map((_, index) => ({
                call: index + 1,
                verdict: "cannot_tell",
                reason: "unclear",
              })),
            };
      const byKey = new Map(
        set.map((entry) => [
          key(requestOf(entry)),
          decides.has(entry.id) ? labelledAnswer(metric, entry) : abstain(entry),
        ]),
      );
      const { model } = fakeJudge((request) => byKey.get(key(request)) ?? null);
      const report = await calibrateJudge(model, { metric });
      // Where it decides it agrees: kappa alone would call it perfect.
      expect(report.accuracy).toBe(1);
      // About one in four decided (cases, or their calls for argument-correctness).
      expect(report.unit).toBe(metric === "argument-correctness" ? "call" : "case");
      expect(report.coverage).toBeGreaterThan(0.15);
      expect(report.coverage).toBeLessThan(0.35);
      expect(report.abstained).toBeGreaterThan(decidable.length / 2);
      expect(report.passed).toBe(false);
      expect(report.verdict).toMatch(/^not trusted: coverage \d+\.\d% < 80\.0%/);
      // A team that accepts a judge that abstains says so.
      const lenient = await calibrateJudge(model, { metric, gates: { minCoverage: 0.2 } });
      expect(lenient).toMatchObject({ passed: true, gates: { minCoverage: 0.2, minKappa: 0.6 } });
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
      expect(report.falsePassRate).toBe(1);
      expect(report.falseFailRate).toBe(0);
      expect(report.passed).toBe(false);
      expect(report.failures[0]).toMatch(
        /^kappa 0\.00 < 0\.60: no better than always answering yes/,
      );
      expect(report.failures[1]).toMatch(/^false passes 100\.0% > 15\.0%/);
    });
  },
);

describe("calibrateJudge on argument-correctness, call by call", () => {
  const set = calibrationSet("argument-correctness");
  const request = (entry: LabelledCase) => key(argumentRequestOf(entry));

  it("has a label for every call of every case, agreeing with the case's label", () => {
    for (const entry of set) {
      const calls = entry.callLabels ?? [];
      expect(calls, entry.id).toHaveLength(entry.testCase.toolsCalled?.length ?? -1);
      if (entry.label === "not-evaluable") expect(calls, entry.id).toContain("cannot_tell");
      else
        expect(calls.filter((call) => call === "right").length / calls.length, entry.id).toBe(
          entry.label,
        );
    }
  });

  it("refuses a judge biased by position: the first call right, every later one wrong", async () => {
    const answers = new Map(
      set.map((entry) => [
        request(entry),
        {
          calls: (entry.callLabels ?? []).map((_, index) => ({
            call: index + 1,
            reason: "r",
            verdict: index === 0 ? "right" : "wrong",
          })),
        },
      ]),
    );
    const { model } = fakeJudge((asked) => answers.get(key(asked)) ?? null);
    const report = await calibrateJudge(model, { metric: "argument-correctness" });
    expect(report.passed).toBe(false);
    expect(report.cohensKappa ?? 1).toBeLessThan(0.6);
    expect(report.verdict).toMatch(/^not trusted: /);
  });

  it("refuses a judge that blames the wrong call, though every case's score matches its label", async () => {
    // Where one call of several is wrong, it blames another one; elsewhere it gives the labels.
    const answers = new Map(
      set.map((entry) => {
        const labels = entry.callLabels ?? [];
        const blamed = labels.length > 1 && labels.includes("wrong") ? 0 : undefined;
        const verdicts =
          blamed === undefined
            ? labels
            : labels.map((_, index) => (index === blamed ? "wrong" : "right"));
        return [
          request(entry),
          {
            calls: verdicts.map((verdict, index) => ({
              call: index + 1,
              reason: "r",
              verdict,
            })),
          },
        ] as const;
      }),
    );
    const { model } = fakeJudge((asked) => answers.get(key(asked)) ?? null);
    const report = await calibrateJudge(model, { metric: "argument-correctness" });
    // Each case's score is its label...
    const byId = new Map(set.map((entry) => [entry.id, entry.label]));
    for (const result of report.results)
      if (result.score !== undefined) expect(result.score, result.id).toBe(byId.get(result.id));
    // ...yet call by call it passed wrong calls and failed right ones.
    expect(report.unit).toBe("call");
    expect(report.confusion.judgeOnlyPass).toBeGreaterThan(0);
    expect(report.confusion.labelOnlyPass).toBe(report.confusion.judgeOnlyPass);
    expect(report.passed).toBe(false);
    expect(report.failures.join("\n")).toMatch(/false passes \d+\.\d% > 15\.0%/);
  });
});
