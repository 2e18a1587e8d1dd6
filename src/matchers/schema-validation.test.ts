import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import type { JsonObject } from "../core/json.js";
import { SchemaValidator } from "./schema-validation.js";

const weather: JsonObject = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", minimum: 1 },
    unit: { type: "string", enum: ["c", "f"] },
    when: { type: "string", format: "date-time" },
    filters: { type: "object", properties: { max: { type: "number" } } },
  },
  required: ["city"],
};

describe("SchemaValidator", () => {
  const validator = new SchemaValidator();

  it("accepts arguments that fit", () => {
    expect(validator.validate(weather, { city: "Paris", days: 2, unit: "c" })).toEqual([]);
  });

  it("reports each kind of violation with its JSON path", () => {
    const violations = validator.validate(weather, {
      days: "2",
      unit: "kelvin",
      when: "tomorrow",
      filters: { max: 3, colour: "red" },
      mood: "happy",
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        { kind: "missing-required", path: "$.city", message: "city is required" },
        { kind: "wrong-type", path: "$.days", message: "must be integer" },
        expect.objectContaining({ kind: "invalid-value", path: "$.unit" }),
        expect.objectContaining({ kind: "invalid-value", path: "$.when" }),
        {
          kind: "unknown-argument",
          path: "$.mood",
          message: "mood is not a parameter of this tool",
        },
      ]),
    );
    // Inside an object argument, JSON Schema allows keys it does not list.
    expect(violations.map((violation) => violation.path)).not.toContain("$.filters.colour");
    expect(violations).toHaveLength(5);
  });

  it("forbids undeclared keys inside an object only where additionalProperties is false", () => {
    const closed: JsonObject = {
      ...weather,
      properties: {
        ...(weather.properties as JsonObject),
        filters: {
          type: "object",
          properties: { max: { type: "number" } },
          additionalProperties: false,
        },
      },
    };
    expect(validator.validate(closed, { city: "Paris", filters: { colour: "red" } })).toEqual([
      {
        kind: "unknown-argument",
        path: "$.filters.colour",
        message: "colour is not a parameter of this tool",
      },
    ]);
    expect(validator.validate(weather, { city: "Paris", filters: { colour: "red" } })).toEqual([]);
  });

  it("reads enum membership under the string rule given for the path", () => {
    const lower = (text: string) => text.toLowerCase();
    expect(validator.validate(weather, { city: "Paris", unit: "C" })).toHaveLength(1);
    expect(
      validator.validate(weather, { city: "Paris", unit: "C" }, undefined, () => lower),
    ).toEqual([]);
    expect(
      validator.validate(weather, { city: "Paris", unit: "K" }, undefined, () => lower),
    ).toHaveLength(1);
  });

  it("reports additionalProperties: false once, through Ajv", () => {
    const strict: JsonObject = { ...weather, additionalProperties: false };
    const violations = validator.validate(strict, { city: "Paris", mood: "happy" });
    expect(violations).toEqual([
      { kind: "unknown-argument", path: "$.mood", message: "mood is not a parameter of this tool" },
    ]);
  });

  it("allows extra arguments where the schema allows additional properties", () => {
    const open: JsonObject = { ...weather, additionalProperties: true };
    expect(validator.validate(open, { city: "Paris", mood: "happy" })).toEqual([]);
  });

  it("follows $ref and reads draft 2020-12 schemas", () => {
    const schema: JsonObject = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { point: { $ref: "#/$defs/point" } },
      $defs: {
        point: { type: "object", properties: { x: { type: "number" } } },
      },
    };
    expect(validator.validate(schema, { point: { x: "1" } })).toEqual([
      { kind: "wrong-type", path: "$.point.x", message: "must be number" },
    ]);
  });

  it("reports a schema that cannot compile instead of throwing", () => {
    expect(validator.validate({ type: "no-such-type" }, {})).toEqual([
      expect.objectContaining({ kind: "invalid-schema", path: "$" }),
    ]);
  });
});

describe("SchemaValidator with $id", () => {
  it("validates two copies of a schema with the same $id", () => {
    const validator = new SchemaValidator();
    const copy = (): JsonObject => ({
      $id: "https://example.com/tools/search.json",
      type: "object",
      properties: { limit: { type: "number" } },
    });
    expect(validator.validate(copy(), { limit: "1" })).toEqual([
      { kind: "wrong-type", path: "$.limit", message: "must be number" },
    ]);
    expect(validator.validate(copy(), { limit: "1" })).toEqual([
      { kind: "wrong-type", path: "$.limit", message: "must be number" },
    ]);
  });
});

describe("SchemaValidator's compiled schemas", () => {
  // The Ajv classes the validator loads, through require's cache: the same prototypes.
  const load = createRequire(import.meta.url);
  const ajvClass = (
    load("ajv") as { Ajv: { prototype: { compile: () => unknown; removeSchema: () => unknown } } }
  ).Ajv;

  it("compiles a schema once for every copy of its text, as a dataset gives one per case", () => {
    const compile = vi.spyOn(ajvClass.prototype, "compile");
    try {
      const validator = new SchemaValidator();
      for (let copy = 0; copy < 50; copy++) {
        const schema = JSON.parse(JSON.stringify(weather)) as JsonObject;
        expect(validator.validate(schema, { city: "Oslo", days: 0 })).toEqual([
          expect.objectContaining({ kind: "invalid-value", path: "$.days" }),
        ]);
      }
      expect(compile).toHaveBeenCalledTimes(1);
      // The same keys in another order are another text: Ajv reports errors in schema order.
      validator.validate({ required: ["city"], type: "object" }, {});
      validator.validate({ type: "object", required: ["city"] }, {});
      expect(compile).toHaveBeenCalledTimes(3);
    } finally {
      compile.mockRestore();
    }
  });

  it("lets the oldest of many distinct schemas go, out of Ajv too, and compiles it again when it comes back", () => {
    const remove = vi.spyOn(ajvClass.prototype, "removeSchema");
    try {
      const validator = new SchemaValidator();
      const schemaOf = (n: number): JsonObject => ({
        type: "object",
        properties: { n: { type: "integer", minimum: n } },
      });
      for (let n = 0; n < 1200; n++) {
        expect(validator.validate(schemaOf(n), { n: n - 1 })).toHaveLength(1);
      }
      expect(remove).toHaveBeenCalledTimes(200);
      // The first, let go, is compiled again and still judges right.
      expect(validator.validate(schemaOf(0), { n: 0 })).toEqual([]);
      expect(validator.validate(schemaOf(0), { n: -1 })).toHaveLength(1);
    } finally {
      remove.mockRestore();
    }
  });
});
