import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InvalidOptionError } from "../core/errors.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCallInput } from "../core/tool-call.js";
import {
  namesOf,
  finalizeDeepevalScore,
  resolveDeepevalToolCorrectnessOptions,
  scoreDeepevalToolCorrectness,
} from "./deepeval-tool-correctness.js";
import type { DeepevalToolCorrectnessOptions } from "./deepeval-tool-correctness.js";

function score(
  expected: ToolCallInput[],
  called: ToolCallInput[],
  options: DeepevalToolCorrectnessOptions = {},
) {
  return scoreDeepevalToolCorrectness(
    {
      expected: toToolCalls(expected, { field: "expectedTools" }),
      called: toToolCalls(called, { field: "toolsCalled" }),
    },
    resolveDeepevalToolCorrectnessOptions(options),
  );
}

const names = (...list: string[]) => list.map((name) => ({ name }));

describe("scoreDeepevalToolCorrectness", () => {
  it("scores the seed example: extra calls are not penalised", () => {
    const result = score(names("WebSearch"), names("WebSearch", "ToolQuery"));
    expect(result.score).toBe(1);
    expect(result.reasonKind).toBe("all-called");
    expect(result.reason).toBe(
      'All expected tools ["WebSearch"] were called (order not considered).',
    );
    expect(result.details.unexpected).toEqual([{ calledIndex: 1, name: "ToolQuery" }]);
  });

  it("divides by the number of expected tools", () => {
    const result = score(names("A", "B", "C"), names("A"));
    expect(result.score).toBe(1 / 3);
    expect(result.reason).toBe(
      'Incomplete tool usage: missing tools ["B","C"]; expected ["A","B","C"], called ["A"].',
    );
  });

  it("uses up calls by position: two identical calls match two expected ones", () => {
    expect(score(names("A", "A"), names("A", "A")).score).toBe(1);
    expect(score(names("A", "A"), names("A")).score).toBe(0.5);
  });

  it("gives partial credit for parameters and none for a wrong output", () => {
    const params = { evaluationParams: ["inputParameters"] } as const;
    expect(
      score(
        [{ name: "A", inputParameters: { a: 1, b: 2 } }],
        [{ name: "A", inputParameters: { a: 1, b: 3 } }],
        params,
      ).score,
    ).toBe(0.5);
    const both = { evaluationParams: ["inputParameters", "output"] } as const;
    expect(score([{ name: "A", output: 1 }], [{ name: "A", output: 2 }], both).score).toBe(0);
    expect(
      score([{ name: "A", inputParameters: null }], [{ name: "A", inputParameters: {} }], both)
        .score,
    ).toBe(1);
  });

  it("reproduces the greedy pairing by default and finds the optimal one on request", () => {
    const expected = [
      { name: "A", inputParameters: { x: 1, y: 9 } },
      { name: "A", inputParameters: { x: 1, y: 1 } },
    ];
    const called = [
      { name: "A", inputParameters: { x: 1, y: 1 } },
      { name: "A", inputParameters: { x: 1, y: 2 } },
    ];
    const evaluationParams = ["inputParameters"] as const;
    expect(score(expected, called, { evaluationParams }).score).toBe(0.5);
    const optimal = score(expected, called, { evaluationParams, matching: "optimal" });
    expect(optimal.score).toBe(0.75);
    expect(optimal.details.algorithm).toBe("optimal-assignment");
    expect(optimal.reason).toBe(
      'Incomplete tool usage: missing tools []; partially matching tools ["A"]; expected ["A","A"], called ["A","A"].',
    );
  });

  it("scores order by weighted LCS: [W, T, W] against [W, W, T] is 2/3", () => {
    const result = score(
      names("WebSearch", "ToolQuery", "WebSearch"),
      names("WebSearch", "WebSearch", "ToolQuery"),
      {
        shouldConsiderOrdering: true,
      },
    );
    expect(result.score).toBe(2 / 3);
    expect(result.reasonKind).toBe("incorrect-ordering");
    expect(result.reason).toBe(
      'Incorrect tool usage: out-of-order tools ["WebSearch"]; expected ["WebSearch","ToolQuery","WebSearch"], called ["WebSearch","WebSearch","ToolQuery"].',
    );
    expect(result.details.outOfOrder).toEqual([{ expectedIndex: 2, name: "WebSearch" }]);
  });

  it("requires the exact sequence in exact mode, which wins over ordering", () => {
    const options = { shouldExactMatch: true, shouldConsiderOrdering: true };
    expect(score(names("A", "B"), names("A", "B"), options).reason).toBe(
      'Exact match: expected ["A","B"], called ["A","B"].',
    );
    expect(score(names("A", "B"), names("B", "A"), options).score).toBe(0);
    expect(score(names("A"), names("A", "A"), options).score).toBe(0);
    const params = { ...options, evaluationParams: ["inputParameters"] } as const;
    const wrongArgs = score(
      [{ name: "A", inputParameters: { q: 1 } }],
      [{ name: "A", inputParameters: { q: 2 } }],
      params,
    );
    expect(wrongArgs.score).toBe(0);
    expect(wrongArgs.details.mismatches).toEqual([
      {
        kind: "args-mismatch",
        expectedIndex: 0,
        calledIndex: 0,
        path: "$.q",
        expected: 1,
        actual: 2,
      },
    ]);
  });

  it("handles empty lists in every mode", () => {
    for (const options of [{}, { shouldConsiderOrdering: true }, { shouldExactMatch: true }]) {
      expect(score([], [], options).score).toBe(1);
      expect(score([], names("A"), options).score).toBe(0);
      expect(score(names("A"), [], options).score).toBe(0);
    }
    expect(score([], names("A")).reason).toBe(
      'Incomplete tool usage: missing tools []; unexpected tools ["A"]; expected [], called ["A"].',
    );
  });

  it("keeps MCP and function tools of the same name apart", () => {
    expect(score([{ name: "A", type: "MCP" }], [{ name: "A" }]).score).toBe(0);
  });

  it("skips the reason when asked", () => {
    expect(score(names("A"), names("A"), { includeReason: false }).reason).toBeUndefined();
  });
});

describe("resolveDeepevalToolCorrectnessOptions", () => {
  it.each([
    [{ threshold: 2 }, "threshold"],
    [{ threshold: "0.5" }, "threshold"],
    [{ evaluationParams: ["input-parameters"] }, "evaluationParams"],
    [{ evaluationParams: "output" }, "evaluationParams"],
    [{ strictMode: 1 }, "strictMode"],
    [{ matching: "best" }, "matching"],
    [{ limits: { maxPairs: 1 } }, "limits.maxPairs"],
  ])("refuses %o", (options, option) => {
    expect(() => resolveDeepevalToolCorrectnessOptions(options as never)).toThrow(
      expect.objectContaining({ option }) as InvalidOptionError,
    );
  });
});

describe("evaluationParams spellings", () => {
  it("reads deepeval's Python spellings as the CLI does", () => {
    for (const given of [
      ["input_parameters", "OUTPUT"],
      ["INPUT_PARAMETERS", "output"],
    ]) {
      expect(
        resolveDeepevalToolCorrectnessOptions({ evaluationParams: given as never })
          .evaluationParams,
      ).toEqual(["inputParameters", "output"]);
    }
  });
});

describe("finalizeDeepevalScore", () => {
  it("takes the minimum with the selection score, then applies strict mode", () => {
    expect(
      finalizeDeepevalScore({ score: 0.8, selectionScore: 0.6, strictMode: false, threshold: 0.5 }),
    ).toEqual({
      score: 0.6,
      threshold: 0.5,
      success: true,
    });
    expect(finalizeDeepevalScore({ score: 0.99, strictMode: true, threshold: 0.5 })).toEqual({
      score: 0,
      threshold: 1,
      success: false,
    });
    expect(finalizeDeepevalScore({ score: 1, strictMode: true, threshold: 0 })).toEqual({
      score: 1,
      threshold: 1,
      success: true,
    });
  });
});

describe("namesOf", () => {
  it("writes the names as JSON.stringify does, whatever they hold", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 6 }), (names) => {
        expect(namesOf(names.map((name) => ({ name })))).toBe(JSON.stringify(names));
      }),
      { numRuns: 2000 },
    );
    expect(namesOf([{ name: 'a"b' }, { name: "c\\d" }, { name: "e\u0001" }])).toBe(
      JSON.stringify(['a"b', "c\\d", "e\u0001"]),
    );
  });
});
