import { describe, expect, it } from "vitest";
import { thrown } from "../../test/support/errors.js";
import { InvalidInputError } from "./errors.js";
import { toToolCall, toToolCalls } from "./tool-call.js";

const errorOf = (run: () => unknown) => thrown(run, InvalidInputError);

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
