import { describe, expect, it } from "vitest";
import { InvalidInputError, LimitExceededError } from "./errors.js";
import {
  childPath,
  jsonEquals,
  jsonErrorPosition,
  jsonTypeOf,
  textPosition,
  toJsonValue,
} from "./json.js";
import type { JsonValue } from "./json.js";

function nested(depth: number): JsonValue {
  let value: JsonValue = 0;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("jsonEquals", () => {
  it("compares objects by key set and values, whatever the order", () => {
    expect(jsonEquals({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEquals({ a: undefined as unknown as JsonValue }, { b: 1 })).toBe(false);
  });

  it("keeps JSON types apart", () => {
    expect(jsonEquals(1, 1.0)).toBe(true);
    expect(jsonEquals(true, 1)).toBe(false);
    expect(jsonEquals(false, 0)).toBe(false);
    expect(jsonEquals("5", 5)).toBe(false);
    expect(jsonEquals(null, {})).toBe(false);
    expect(jsonEquals([], {})).toBe(false);
    expect(jsonEquals([1, 2], [2, 1])).toBe(false);
  });

  it("compares objects of the same size key by key, nested ones included", () => {
    expect(jsonEquals({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEquals({ a: 1, b: 2 }, { b: 2 })).toBe(false);
    expect(jsonEquals({ a: { x: [1] } }, { a: { x: [1] } })).toBe(true);
    expect(jsonEquals({ a: { x: [1] } }, { a: { x: [2] } })).toBe(false);
    expect(jsonEquals({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEquals(Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 })).toBe(true);
  });

  it("still compares own keys only when Object.prototype has enumerable keys", () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(jsonEquals({ a: 1 }, { a: 1 })).toBe(true);
      expect(jsonEquals({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
      expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    } finally {
      delete prototype.polluted;
    }
  });

  it("handles nesting far beyond the stack limit", () => {
    expect(jsonEquals(nested(200_000), nested(200_000))).toBe(true);
    expect(jsonEquals(nested(200_000), nested(199_999))).toBe(false);
  });
});

describe("jsonTypeOf and childPath", () => {
  it("names JSON types and builds paths", () => {
    expect([null, true, 1, "s", [], {}].map((v) => jsonTypeOf(v))).toEqual([
      "null",
      "boolean",
      "number",
      "string",
      "array",
      "object",
    ]);
    expect(childPath("$", "query")).toBe("$.query");
    expect(childPath("$", "odd key")).toBe('$["odd key"]');
    expect(childPath("calls", 3)).toBe("calls[3]");
  });
});

describe("toJsonValue", () => {
  it("copies JSON with JSON.stringify's lossless rules", () => {
    const date = new Date("2025-01-02T03:04:05.000Z");
    expect(toJsonValue({ a: 1, b: undefined, c: [undefined, date] }, { field: "x" })).toEqual({
      a: 1,
      c: [null, "2025-01-02T03:04:05.000Z"],
    });
    expect(toJsonValue(undefined, { field: "x" })).toBeUndefined();
  });

  it("keeps a __proto__ key as data", () => {
    const value = toJsonValue(JSON.parse('{"__proto__": {"polluted": true}}'), { field: "x" });
    expect(Object.keys(value as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each([
    [{ f: () => 1 }, "x.f is a function"],
    [{ n: Number.NaN }, "x.n is the number NaN"],
    [{ n: Infinity }, "x.n is the number Infinity"],
    [{ b: 10n }, "x.b is a bigint"],
    [{ m: new Map() }, "x.m is a Map"],
    [{ s: [new Set()] }, "x.s[0] is a Set"],
    [{ u: new Uint8Array(2) }, "x.u is a Uint8Array"],
  ])("refuses %o, naming the field", (value, message) => {
    expect(() => toJsonValue(value, { field: "x" })).toThrow(message);
    try {
      toJsonValue(value, { field: "x" });
    } catch (error) {
      expect(InvalidInputError.isInstance(error)).toBe(true);
    }
  });

  it("refuses cycles with the path where the cycle closes", () => {
    const cyclic: Record<string, unknown> = { a: { b: [] } };
    ((cyclic.a as Record<string, unknown>).b as unknown[]).push(cyclic);
    expect(() => toJsonValue(cyclic, { field: "args" })).toThrow(
      "args.a.b[0] contains a circular reference",
    );
  });

  it("accepts the same object twice when it is not a cycle", () => {
    const shared = { x: 1 };
    expect(toJsonValue({ a: shared, b: shared }, { field: "x" })).toEqual({
      a: { x: 1 },
      b: { x: 1 },
    });
  });

  it("refuses nesting deeper than maxDepth without overflowing the stack", () => {
    let caught: unknown;
    try {
      toJsonValue(nested(100_000), { field: "toolsCalled[0].inputParameters" });
    } catch (error) {
      caught = error;
    }
    expect(LimitExceededError.isInstance(caught)).toBe(true);
    const error = caught as LimitExceededError;
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.field).toBe("toolsCalled[0].inputParameters");
    expect(error.message).toContain("nested more than 1000 levels");
    expect(toJsonValue(nested(999), { field: "x" })).toEqual(nested(999));
    expect(() => toJsonValue(nested(20), { field: "x", maxDepth: 10 })).toThrow(LimitExceededError);
  });

  it("copies objects without a prototype", () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(toJsonValue(bare, { field: "x" })).toEqual({ a: 1 });
  });
});

describe("jsonErrorPosition", () => {
  const errorOf = (text: string): unknown => {
    try {
      JSON.parse(text);
    } catch (error) {
      return error;
    }
    throw new Error(`${text} parsed`);
  };

  it("finds the bad character of a real JSON.parse error, whichever words V8 uses", () => {
    // The character the position points at: each bad token, or just past the end of the text.
    const pointedAt = (text: string) => {
      const at = jsonErrorPosition(text, errorOf(text));
      return at === undefined
        ? undefined
        : (text.split("\n")[at.line - 1]?.[at.column - 1] ?? "end");
    };
    expect(pointedAt('{"a": 1,\n "b": x}')).toBe("x");
    expect(pointedAt('{"a": tru}')).toBe("}");
    expect(pointedAt('{"id": "ok", "list": [1, 2,, 3]}')).toBe(",");
    expect(pointedAt("[1, 2")).toBe("end");
  });

  it("reads each form V8 writes, and says nothing where a message has no place", () => {
    const text = '{"a": 1}\n{"b": }';
    expect(
      jsonErrorPosition(text, new SyntaxError("Unexpected token } in JSON at position 15")),
    ).toEqual({
      line: 2,
      column: 7,
    });
    expect(jsonErrorPosition(text, new SyntaxError("Expected ',' (line 2 column 3)"))).toEqual({
      line: 2,
      column: 3,
    });
    expect(
      jsonErrorPosition(text, new SyntaxError(`Unexpected token '}', "{"b": }" is not valid JSON`)),
    ).toEqual({ line: 2, column: 7 });
    expect(
      jsonErrorPosition(text, new SyntaxError("Unexpected end of JSON input")),
    ).toBeUndefined();
    expect(textPosition("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});
