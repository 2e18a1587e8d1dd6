import { thrown } from "../../test/support/errors.js";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { isValueMatcher } from "../matchers/value-matchers.js";
import { toExpectedCalls } from "./expected-calls.js";

const failure = (input: unknown) => thrown(() => toExpectedCalls(input), InvalidInputError);

describe("toExpectedCalls", () => {
  it("reads a flat list, with any spelling of the arguments", () => {
    const parsed = toExpectedCalls([
      { name: "a", inputParameters: { x: 1 } },
      { name: "b", arguments: { y: 2 } },
      { name: "c", args: { z: 3 } },
      { name: "d", input_parameters: null },
      { name: "e" },
      { name: "f", arguments: {} },
    ]);
    expect(parsed.partial).toBe(false);
    // A name only (or null arguments) accepts any arguments; {} expects none.
    const anyObject = { $match: "any", type: "object" };
    expect(parsed.calls.map((c) => JSON.parse(JSON.stringify(c.arguments)) as unknown)).toEqual([
      { x: 1 },
      { y: 2 },
      { z: 3 },
      anyObject,
      anyObject,
      {},
    ]);
    expect(parsed.calls.every((c) => c.predecessors.length === 0)).toBe(true);
  });

  it("keeps an output only when one is given (null included)", () => {
    const parsed = toExpectedCalls([
      { name: "a" },
      { name: "b", output: null },
      { name: "c", output: "ok" },
    ]);
    expect(parsed.calls.map((c) => c.output)).toEqual([undefined, null, "ok"]);
  });

  it("turns groups into predecessors: every call of a group comes after the previous group", () => {
    const parsed = toExpectedCalls([
      [{ name: "a" }, { name: "b" }],
      [],
      [{ name: "c" }],
      [{ name: "d" }],
    ]);
    expect(parsed.partial).toBe(true);
    expect(parsed.calls.map((c) => [c.name, c.predecessors])).toEqual([
      ["a", []],
      ["b", []],
      ["c", [0, 1]],
      ["d", [2]],
    ]);
  });

  it("turns after ids into predecessors", () => {
    const parsed = toExpectedCalls([
      { name: "search", id: "s" },
      { name: "weather", id: "w" },
      { name: "book", after: ["s", "w"] },
    ]);
    expect(parsed.partial).toBe(true);
    expect(parsed.calls[2]?.predecessors).toEqual([0, 1]);
  });

  it("reads ids only as what after refers to: without any after, repeated ids are fine", () => {
    const read = toExpectedCalls([
      { name: "a", id: "call_0" },
      { name: "b", id: "call_0" },
    ]);
    expect(read.partial).toBe(false);
    expect(read.calls.map((call) => call.predecessors)).toEqual([[], []]);
  });

  it("reads JSON matchers inside arguments", () => {
    const parsed = toExpectedCalls([{ name: "a", arguments: { d: { $match: "any" } } }]);
    expect(isValueMatcher((parsed.calls[0]?.arguments as Record<string, unknown>).d)).toBe(true);
  });

  const invalid: [string, unknown, string, RegExp][] = [
    ["not a list", { name: "a" }, "expected", /must be a list of expected calls/],
    [
      "calls mixed with groups",
      [{ name: "a" }, [{ name: "b" }]],
      "expected",
      /mixes calls and groups/,
    ],
    ["a call that is not an object", ["a"], "expected[0]", /must be a tool call object/],
    ["a call without a name", [{ arguments: {} }], "expected[0].name", /must be a string/],
    [
      "arguments given twice",
      [{ name: "a", args: {}, arguments: {} }],
      "expected[0]",
      /gives its arguments twice \(arguments and args\)/,
    ],
    [
      "arguments that are an array",
      [{ name: "a", arguments: [1] }],
      "expected[0].arguments",
      /must be an object of named arguments/,
    ],
    ["a numeric id", [{ name: "a", id: 1 }], "expected[0].id", /must be a string/],
    [
      "a duplicated id that an after refers to",
      [
        { name: "a", id: "x" },
        { name: "b", id: "x" },
        { name: "c", after: ["x"] },
      ],
      "expected[1].id",
      /used twice/,
    ],
    [
      "after naming no call",
      [{ name: "a", after: ["nobody"] }],
      "expected[0].after",
      /names "nobody", which no expected call has/,
    ],
    [
      "after that is not a list",
      [{ name: "a", after: "x" }],
      "expected[0].after",
      /must be a list of expected call ids/,
    ],
    [
      "a cycle",
      [
        { name: "a", id: "a", after: ["b"] },
        { name: "b", id: "b", after: ["a"] },
      ],
      "expected[0].after",
      /has a cycle/,
    ],
    [
      "a bad call inside a group",
      [[{ name: "a" }], [{ name: 3 }]],
      "expected[1][0].name",
      /must be a string/,
    ],
  ];
  for (const [what, input, field, message] of invalid) {
    it(`rejects ${what}, naming ${field}`, () => {
      const error = failure(input);
      expect(error.field).toBe(field);
      expect(error.message).toMatch(message);
    });
  }
});
