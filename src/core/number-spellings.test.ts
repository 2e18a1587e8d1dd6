import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { childPath } from "./json.js";
import { numberSpellings, spellingsUnder } from "./number-spellings.js";

describe("numberSpellings", () => {
  it("finds whole numbers written with a fraction or an exponent, by path", () => {
    const text = '{"a": 3.0, "b": [1, 2e0, {"c": -4.00E+0}], "d": 3.5, "e": "7.0", "f\\"g": 1.0}';
    expect(numberSpellings(text)).toEqual({
      "$.a": "3.0",
      "$.b[1]": "2e0",
      "$.b[2].c": "-4.00E+0",
      '$["f\\"g"]': "1.0",
    });
  });

  it("is undefined for text without such a number, strings included", () => {
    expect(numberSpellings('{"a": 3, "b": "version 1.5", "c": 2.5}')).toBeUndefined();
    expect(numberSpellings('{"a": 3, "b": true, "c": null}')).toBeUndefined();
  });

  it("gives the spellings under a path, as paths from there", () => {
    const all = {
      "$[2].params.arguments.n": "3.0",
      "$[2].params.argumentsX": "1.0",
      "$[3].n": "1e0",
    };
    expect(spellingsUnder(all, "$[2].params.arguments")).toEqual({ "$.n": "3.0" });
    expect(spellingsUnder(all, "$[9]")).toBeUndefined();
  });

  // Any JSON value, with some whole numbers written as floats: exactly those are found.
  it("finds exactly the numbers written as floats (property)", () => {
    const leaf = fc.oneof(
      fc.integer({ min: -1000, max: 1000 }).map((n) => ({ n, spelled: false })),
      fc
        .tuple(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(".0", ".00", "e0", ".0E+0"))
        .map(([n, suffix]) => ({ n, spelled: suffix })),
      fc.double({ min: -1000, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n)),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("tree"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("tree"), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), tree, { maxKeys: 5 }), (value) => {
        const wanted: Record<string, string> = {};
        const write = (node: unknown, path: string): string => {
          if (typeof node === "object" && node !== null && "spelled" in node) {
            const { n, spelled } = node as { n: number; spelled: string | false };
            if (spelled === false) return String(n);
            wanted[path] = `${n}${spelled}`;
            return `${n}${spelled}`;
          }
          if (Array.isArray(node)) {
            return `[${node.map((item, index) => write(item, childPath(path, index))).join(", ")}]`;
          }
          if (typeof node === "object" && node !== null) {
            const entries = Object.entries(node).map(
              ([key, item]) => `${JSON.stringify(key)}: ${write(item, childPath(path, key))}`,
            );
            return `{${entries.join(",")}}`;
          }
          return JSON.stringify(node);
        };
        const text = write(value, "$");
        JSON.parse(text);
        expect(numberSpellings(text) ?? {}).toEqual(wanted);
      }),
      { seed: 20261125, numRuns: 200 },
    );
  });
});
