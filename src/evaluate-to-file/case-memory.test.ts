import { describe, expect, it } from "vitest";
import type { CaseResult } from "../core/case-result.js";
import { caseContentHash, createCaseMemory } from "./case-memory.js";

const result = (index: number, id: string, status: CaseResult["status"]): CaseResult => ({
  index,
  id,
  status,
  results: [],
  durationMs: 1,
});

describe("a watched run's memory", () => {
  it("hashes a case's content, not where it sits", () => {
    const a = { id: "a", toolsCalled: [{ name: "x" }] };
    expect(caseContentHash({ ...a, index: 0, line: 1, offset: 0, bytes: 9 })).toBe(
      caseContentHash({ ...a, index: 5, line: 9, offset: 300, bytes: 9 }),
    );
    expect(caseContentHash({ ...a, expectedTools: [] })).not.toBe(caseContentHash(a));
  });

  it("takes the last run's results of unchanged cases under the same config, and says what moved", () => {
    const memory = createCaseMemory();
    const a = { id: "a", n: 1 };
    const b = { id: "b", n: 1 };
    memory.begin("config-1");
    expect(memory.reuse(a, { index: 0, id: "a" })).toBeUndefined();
    expect(memory.reuse(b, { index: 1, id: "b" })).toBeUndefined();
    memory.remember(result(0, "a", "passed"));
    memory.remember(result(1, "b", "failed"));
    expect(memory.finish()).toMatchObject({ reused: 0, scored: 2, removed: [], moved: [] });

    memory.begin("config-1");
    // a moved to the second place, unchanged: its result, at its new place.
    expect(memory.reuse(a, { index: 1, id: "a", line: 2 })).toMatchObject({
      id: "a",
      index: 1,
      line: 2,
      status: "passed",
    });
    expect(memory.reuse({ id: "b", n: 2 }, { index: 0, id: "b" })).toBeUndefined();
    memory.remember(result(1, "a", "passed"));
    memory.remember(result(0, "b", "passed"));
    expect(memory.finish()).toEqual({
      reused: 1,
      scored: 1,
      removed: [],
      moved: [{ id: "b", before: "failed", after: "passed" }],
      unreadable: [],
    });

    // Another config: nothing is taken over.
    memory.begin("config-2");
    expect(memory.reuse(a, { index: 0, id: "a" })).toBeUndefined();
    memory.remember(result(0, "a", "failed"));
    expect(memory.finish()).toMatchObject({ removed: ["b"], moved: [{ id: "a" }] });
  });

  it("names a line that became unreadable, and the case it held (issue 49, item 4)", () => {
    const memory = createCaseMemory();
    memory.begin("c");
    memory.reuse({ id: "a" }, { index: 0, id: "a", line: 1 });
    memory.reuse({ id: "b" }, { index: 1, id: "b", line: 2 });
    memory.remember({ ...result(0, "a", "passed"), line: 1 });
    memory.remember({ ...result(1, "b", "passed"), line: 2 });
    memory.finish();
    memory.begin("c");
    memory.reuse({ id: "a" }, { index: 0, id: "a", line: 1 });
    memory.remember({ ...result(0, "a", "passed"), line: 1 });
    memory.remember({
      ...result(1, "case-2", "error"),
      line: 2,
      error: { code: "DATASET_PARSE", message: "line 2: not valid JSON" },
    });
    expect(memory.finish()).toMatchObject({
      removed: [],
      unreadable: [{ line: 2, was: "b", message: "line 2: not valid JSON" }],
    });
  });
});
