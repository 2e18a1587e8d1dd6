import { createRequire } from "node:module";
import type { RE2JS } from "re2js";
import { InvalidInputError } from "../core/errors.js";

const fromHere = createRequire(import.meta.url);
/** RE2's engine, loaded when the first pattern is compiled (most runs compile none); then cached by require. */
function re2(): typeof RE2JS {
  return (fromHere("re2js") as { RE2JS: typeof RE2JS }).RE2JS;
}

/** A regular expression that runs in time linear in its input, whatever the pattern. */
export interface LinearRegExp {
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches anywhere in `text`, as `RegExp.prototype.test` does. */
  test(text: string): boolean;
}

/**
 * A pattern given as text (in a dataset, a config, a tool's JSON Schema) compiled for RE2's
 * linear-time engine, so that no value can make it run for long: RE2 syntax, which is
 * JavaScript's without lookarounds and backreferences. Throws a `TypeError` saying what is not
 * supported; flags `i`, `m`, `s` (and `u`, `g`, `y`, which change nothing here) are accepted.
 */
export function linearRegExp(pattern: string, flags = ""): LinearRegExp {
  const RE2 = re2();
  // RE2's bit for each flag JavaScript spells; RE2 matches by code point already, and g and y
  // only keep state between calls.
  const flagBits: Readonly<Record<string, number>> = {
    i: RE2.CASE_INSENSITIVE,
    m: RE2.MULTILINE,
    s: RE2.DOTALL,
    u: 0,
    g: 0,
    y: 0,
  };
  let bits = 0;
  for (const flag of flags) {
    const bit = Object.hasOwn(flagBits, flag) ? flagBits[flag] : undefined;
    if (bit === undefined) {
      throw new InvalidInputError({
        field: "flags",
        message: `the flag "${flag}" is not supported (use i, m, s)`,
      });
    }
    bits |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2.compile(pattern, bits);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError({
      field: "pattern",
      message: `${detail}; patterns from data run on a linear-time engine (RE2 syntax: no lookarounds or backreferences)`,
      cause: error,
    });
  }
  const kept = [...new Set(flags.replace(/[gyu]/g, ""))].sort().join("");
  return {
    source: pattern,
    flags: kept,
    test: (text) => compiled.test(text),
  };
}

/** Ajv's regular-expression engine for `pattern` and `patternProperties`: the linear one. */
export const linearRegExpEngine = Object.assign(
  (pattern: string, flags: string) => linearRegExp(pattern, flags),
  { code: "linearRegExp" },
);
