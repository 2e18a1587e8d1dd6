import { describe, expect, it } from "vitest";
import {
  ErrorCode,
  InvalidInputError,
  InvalidOptionError,
  MissingParamsError,
  ToolscoreError,
} from "./errors.js";
import { toErroredResult } from "./metric-result.js";

describe("ToolscoreError", () => {
  it("carries a stable code and a name", () => {
    const error = new InvalidOptionError({ option: "scoring", value: "x", message: "bad" });
    expect(error.code).toBe(ErrorCode.INVALID_OPTION);
    expect(error.name).toBe("InvalidOptionError");
    expect(error).toBeInstanceOf(ToolscoreError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "InvalidOptionError",
      code: "INVALID_OPTION",
      message: "bad",
    });
  });

  it("recognizes errors from another copy of the package by their marker", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("toolscore.error")]: true,
      code: "MISSING_PARAMS",
    });
    expect(ToolscoreError.isInstance(foreign)).toBe(true);
    expect(MissingParamsError.isInstance(foreign)).toBe(true);
    expect(InvalidInputError.isInstance(foreign)).toBe(false);
    expect(ToolscoreError.isInstance(new Error("x"))).toBe(false);
    expect(ToolscoreError.isInstance(null)).toBe(false);
  });
});

describe("toErroredResult", () => {
  it("keeps the code and field of toolscore errors", () => {
    expect(
      toErroredResult("m", new InvalidInputError({ field: "a.b", message: "a.b is bad" })),
    ).toEqual({
      status: "error",
      metric: "m",
      error: { code: "INVALID_INPUT", message: "a.b is bad", field: "a.b" },
    });
  });

  it("records anything else as METRIC_FAILED", () => {
    expect(toErroredResult("m", new TypeError("boom")).error).toEqual({
      code: "METRIC_FAILED",
      message: "boom",
    });
    expect(toErroredResult("m", "text").error.message).toBe("text");
  });
});
