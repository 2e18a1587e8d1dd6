import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors.js";
import {
  markValidated,
  toToolCall,
  toToolCalls,
  toToolCallsKnown,
  toToolCallsRemembered,
} from "./tool-call.js";

function errorOf(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (InvalidInputError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidInputError");
}

describe("toToolCall", () => {
  it("normalizes defaults", () => {
    expect(toToolCall({ name: "search" })).toEqual({
      name: "search",
      inputParameters: {},
      output: null,
      type: "FUNCTION",
    });
    expect(
      toToolCall({ name: "s", inputParameters: null, output: undefined }).inputParameters,
    ).toEqual({});
  });

  it("accepts the snake_case and axion spellings of the parameters", () => {
    expect(toToolCall({ name: "s", input_parameters: { q: 1 } }).inputParameters).toEqual({ q: 1 });
    expect(toToolCall({ name: "s", args: { q: 1 } }).inputParameters).toEqual({ q: 1 });
    expect(
      errorOf(() => toToolCall({ name: "s", args: { q: 1 }, inputParameters: {} })).message,
    ).toContain("gives its arguments twice (inputParameters and args)");
  });

  it("keeps id, description, reasoning and MCP type", () => {
    expect(
      toToolCall({
        name: "s",
        id: "call_1",
        description: "d",
        reasoning: "r",
        type: "MCP",
        output: [1],
      }),
    ).toEqual({
      name: "s",
      inputParameters: {},
      output: [1],
      type: "MCP",
      id: "call_1",
      description: "d",
      reasoning: "r",
    });
  });

  it.each([
    [{ inputParameters: {} }, "toolsCalled[2].name", "must be a string"],
    [{ name: 7 }, "toolsCalled[2].name", "got number"],
    [{ name: "s", inputParameters: [1] }, "toolsCalled[2].inputParameters", "got an array"],
    [{ name: "s", inputParameters: "q=1" }, "toolsCalled[2].inputParameters", "got string"],
    [{ name: "s", type: "function" }, "toolsCalled[2].type", '"FUNCTION" or "MCP"'],
    [{ name: "s", id: 5 }, "toolsCalled[2].id", "must be a string"],
    [null, "toolsCalled[2]", "got null"],
    ["search", "toolsCalled[2]", "got string"],
  ])("refuses %o, naming %s", (value, field, text) => {
    const error = errorOf(() => toToolCall(value, { field: "toolsCalled[2]" }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.field).toBe(field);
    expect(error.message).toContain(text);
  });
});

describe("toToolCalls", () => {
  it("refuses a list that is not an array", () => {
    const error = errorOf(() => toToolCalls({ name: "s" }, { field: "expectedTools" }));
    expect(error.field).toBe("expectedTools");
    expect(error.message).toBe("expectedTools must be an array of tool calls, got object");
  });

  it("names the failing element", () => {
    expect(errorOf(() => toToolCalls([{ name: "a" }, {}], { field: "toolsCalled" })).field).toBe(
      "toolsCalled[1].name",
    );
  });
});

describe("toToolCallsRemembered", () => {
  const field = { field: "toolsCalled" };
  const fresh = () => [
    { name: "search", inputParameters: { q: "x" }, output: "ok" },
    { name: "book", inputParameters: { id: 1 } },
  ];

  it("remembers a list read again soon, and returns the same calls while it is unchanged", () => {
    const list = fresh();
    const first = toToolCallsRemembered(list, field);
    expect(first).toEqual(toToolCalls(list, field));
    // Read once, a list is only noted; read again, it is validated again and remembered.
    const second = toToolCallsRemembered(list, field);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(toToolCallsRemembered(list, field)).toBe(second);
    // Another list with equal contents is validated on its own.
    expect(toToolCallsRemembered(fresh(), field)).not.toBe(second);
  });

  it("forgets a list read once when many others were read since", () => {
    const list = fresh();
    toToolCallsRemembered(list, field);
    for (let other = 0; other < 32; other++) toToolCallsRemembered(fresh(), field);
    const again = toToolCallsRemembered(list, field);
    expect(toToolCallsRemembered(list, field)).not.toBe(again);
    expect(toToolCallsRemembered(list, field)).toBe(toToolCallsRemembered(list, field));
  });

  it("reads a list again when its calls or their fields change", () => {
    const changes: ((list: Record<string, unknown>[]) => void)[] = [
      (list) => list.push({ name: "extra" }),
      (list) => list.pop(),
      (list) => (list[0] = { ...list[0] }),
      (list) => (list[0].name = "lookup"),
      (list) => (list[0].inputParameters = { q: "y" }),
      (list) => (list[0].output = "changed"),
      (list) => (list[1].type = "MCP"),
    ];
    for (const change of changes) {
      const list: Record<string, unknown>[] = fresh();
      toToolCallsRemembered(list, field);
      const before = toToolCallsRemembered(list, field);
      expect(toToolCallsRemembered(list, field)).toBe(before);
      change(list);
      const after = toToolCallsRemembered(list, field);
      expect(after).not.toBe(before);
      expect(after).toEqual(toToolCalls(list, field));
    }
  });

  it("still refuses a list that became invalid, with the same error as toToolCalls", () => {
    const list: Record<string, unknown>[] = fresh();
    toToolCallsRemembered(list, field);
    toToolCallsRemembered(list, field);
    list[1].args = { id: 2 };
    expect(errorOf(() => toToolCallsRemembered(list, field)).message).toBe(
      errorOf(() => toToolCalls(list, field)).message,
    );
    list[1].args = undefined;
    list[1].name = 7;
    expect(errorOf(() => toToolCallsRemembered(list, field)).field).toBe("toolsCalled[1].name");
    expect(errorOf(() => toToolCallsRemembered(null, field)).field).toBe("toolsCalled");
  });

  it("keeps its note out of sight: JSON, keys, copies and deep equality see the list as it was", () => {
    const list = fresh();
    const before = { json: JSON.stringify(list), keys: Object.keys(list) };
    toToolCallsRemembered(list, field);
    toToolCallsRemembered(list, field);
    expect(JSON.stringify(list)).toBe(before.json);
    expect(Object.keys(list)).toEqual(before.keys);
    expect(list).toStrictEqual(fresh());
    expect(structuredClone(list)).toStrictEqual(fresh());
    expect(Reflect.ownKeys(list)).toEqual(Reflect.ownKeys(fresh()));
    const keys: string[] = [];
    // for...in is the point here: it must not visit the note.
    // eslint-disable-next-line @typescript-eslint/no-for-in-array
    for (const key in list) keys.push(key);
    expect(keys).toEqual(before.keys);
  });

  it("remembers lists that cannot take a property (frozen, sealed, non-extensible)", () => {
    for (const lock of [Object.freeze, Object.seal, Object.preventExtensions]) {
      const list = lock(fresh());
      toToolCallsRemembered(list, field);
      const first = toToolCallsRemembered(list, field);
      expect(first).toEqual(toToolCalls(list, field));
      expect(toToolCallsRemembered(list, field)).toBe(first);
      expect(Object.getOwnPropertySymbols(list)).toEqual([]);
    }
    // A sealed list whose call is replaced is read again.
    const sealed: { name: string; inputParameters: object; output?: string }[] =
      Object.seal(fresh());
    toToolCallsRemembered(sealed, field);
    const before = toToolCallsRemembered(sealed, field);
    sealed[0] = { name: "other", inputParameters: {} };
    const after = toToolCallsRemembered(sealed, field);
    expect(after).not.toBe(before);
    expect(after[0]?.name).toBe("other");
  });

  it("validates every time lists spelled another way or read with a depth limit", () => {
    const snake = [{ name: "search", input_parameters: { q: "x" } }];
    expect(toToolCallsRemembered(snake, field)).not.toBe(toToolCallsRemembered(snake, field));
    const list = fresh();
    const limited = { ...field, maxDepth: 5 };
    expect(toToolCallsRemembered(list, limited)).not.toBe(toToolCallsRemembered(list, limited));
  });
});

describe("markValidated and toToolCallsKnown", () => {
  const field = { field: "calls" };
  const built = () =>
    toToolCalls([{ name: "search", inputParameters: { q: "x" }, output: "ok", id: "c1" }], field);

  it("takes a list a reader built as it is, while it stays unchanged", () => {
    const calls = built();
    markValidated(calls);
    expect(toToolCallsKnown(calls, field)).toBe(calls);
    expect(toToolCallsRemembered(calls, field)).toBe(calls);
    // A broken call is caught again.
    (calls[0] as { name: unknown }).name = 42;
    expect(() => toToolCallsKnown(calls, field)).toThrow(
      expect.objectContaining({ field: "calls[0].name" }),
    );
  });

  it("validates a list seen for the first time, and does not remember it", () => {
    const raw = [{ name: "search", inputParameters: { q: "x" } }];
    const first = toToolCallsKnown(raw, field);
    expect(first).toEqual(toToolCalls(raw, field));
    expect(toToolCallsKnown(raw, field)).not.toBe(first);
  });
});
