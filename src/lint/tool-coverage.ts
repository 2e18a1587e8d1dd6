/**
 * How a run's cases used a tool list: per tool, the cases it was available in, expected in,
 * called in, and called in without being expected; per case, the tools available but never
 * expected or called, and those called but not expected.
 */
import type { TestCase } from "../core/test-case.js";

/** The tool names a case holds: available (when it lists any), expected, called. */
export interface CaseToolNames {
  readonly id: string;
  readonly available?: readonly string[];
  /** Undefined when the case expects nothing (it gives no expected calls at all). */
  readonly expected?: readonly string[];
  readonly called: readonly string[];
}

export interface ToolUse {
  readonly name: string;
  /** Whether the tool list linted defines it (else only cases name it). */
  readonly listed: boolean;
  readonly available: number;
  readonly expected: number;
  readonly called: number;
  /** Cases that called it without expecting it (of those that expect calls). */
  readonly calledUnexpected: number;
}

export interface CaseCoverage {
  readonly id: string;
  readonly availableNeverExpected: readonly string[];
  readonly availableNeverCalled: readonly string[];
  readonly calledNeverExpected: readonly string[];
}

export interface ToolCoverage {
  readonly cases: number;
  /** Every tool listed or named by a case, listed ones first in the list's order. */
  readonly tools: readonly ToolUse[];
  /** Tools no case expects, none calls, and those called but expected by no case. */
  readonly neverExpected: readonly string[];
  readonly neverCalled: readonly string[];
  readonly calledNeverExpected: readonly string[];
  /** Cases with something to say (a tool available and unused, or called unexpected). */
  readonly byCase: readonly CaseCoverage[];
}

/** The names a case holds, its turns' expected calls included. */
export function caseToolNames(testCase: TestCase & { readonly id: string }): CaseToolNames {
  const expectedCalls = [
    ...(testCase.expectedTools ?? []),
    ...(testCase.turns ?? []).flatMap((turn) => turn.expectedTools ?? []),
  ];
  const expects =
    testCase.expectedTools !== undefined ||
    (testCase.turns ?? []).some((turn) => turn.expectedTools !== undefined);
  const called = [
    ...(testCase.toolsCalled ?? []),
    ...(testCase.toolsCalled === undefined
      ? (testCase.turns ?? []).flatMap((turn) => turn.toolsCalled ?? [])
      : []),
  ];
  return {
    id: testCase.id,
    ...(testCase.availableTools === undefined
      ? {}
      : { available: testCase.availableTools.map((tool) => tool.name) }),
    ...(expects ? { expected: namesOf(expectedCalls) } : {}),
    called: namesOf(called),
  };
}

/** Tool names of calls (a group of expected calls gives its members' names). */
function namesOf(calls: readonly unknown[]): string[] {
  return calls.flatMap((call): string[] => {
    if (typeof call !== "object" || call === null) return [];
    const { name } = call as { name?: unknown };
    if (typeof name === "string") return [name];
    return Object.values(call).flatMap((value) => (Array.isArray(value) ? namesOf(value) : []));
  });
}

/** The coverage of `listed` (the tool list, when one is given) over the cases. */
export function toolCoverage(
  listed: readonly string[] | undefined,
  cases: Iterable<CaseToolNames>,
): ToolCoverage {
  const uses = new Map<string, { -readonly [K in keyof ToolUse]: ToolUse[K] }>();
  const useOf = (name: string) => {
    let use = uses.get(name);
    if (use === undefined) {
      use = { name, listed: false, available: 0, expected: 0, called: 0, calledUnexpected: 0 };
      uses.set(name, use);
    }
    return use;
  };
  for (const name of listed ?? []) useOf(name).listed = true;
  const byCase: CaseCoverage[] = [];
  let count = 0;
  for (const names of cases) {
    count++;
    const available = new Set(names.available ?? listed ?? []);
    const expected = new Set(names.expected ?? []);
    const called = new Set(names.called);
    for (const name of available) useOf(name).available++;
    for (const name of expected) useOf(name).expected++;
    for (const name of called) {
      const use = useOf(name);
      use.called++;
      if (names.expected !== undefined && !expected.has(name)) use.calledUnexpected++;
    }
    const coverage: CaseCoverage = {
      id: names.id,
      availableNeverExpected:
        names.expected === undefined ? [] : [...available].filter((name) => !expected.has(name)),
      availableNeverCalled: [...available].filter((name) => !called.has(name)),
      calledNeverExpected:
        names.expected === undefined ? [] : [...called].filter((name) => !expected.has(name)),
    };
    if (
      coverage.availableNeverExpected.length > 0 ||
      coverage.availableNeverCalled.length > 0 ||
      coverage.calledNeverExpected.length > 0
    ) {
      byCase.push(coverage);
    }
  }
  const tools = [...uses.values()];
  return {
    cases: count,
    tools,
    neverExpected: tools.filter((tool) => tool.expected === 0).map((tool) => tool.name),
    neverCalled: tools.filter((tool) => tool.called === 0).map((tool) => tool.name),
    calledNeverExpected: tools
      .filter((tool) => tool.called > 0 && tool.expected === 0)
      .map((tool) => tool.name),
    byCase,
  };
}
