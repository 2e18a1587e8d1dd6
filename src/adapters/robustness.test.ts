import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ToolscoreError } from "../core/errors.js";
import { trajectoryFormats } from "../core/trajectory.js";
import type { TrajectoryFormat } from "../core/trajectory.js";
import { parseTrajectory } from "./parse-trajectory.js";
import { seededRandom as random } from "../../test/support/brute-force.js";

function fixture(format: TrajectoryFormat): unknown {
  return JSON.parse(
    readFileSync(new URL(`./fixtures/same-conversation/${format}.json`, import.meta.url), "utf8"),
  );
}

const strangeValues: unknown[] = [
  null,
  0,
  -1,
  "",
  "x",
  "{not json",
  true,
  [],
  {},
  [[]],
  { a: [null] },
  1e308,
];

/** A copy of `value` with one random node deleted, replaced by a strange value, or wrapped. */
function mutate(value: unknown, next: () => number): unknown {
  const copy = structuredClone(value);
  // Pick a random container and key by walking down.
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  let node: unknown = copy;
  for (let depth = 0; depth < 12; depth++) {
    if (typeof node !== "object" || node === null) break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    const chosen = keys[Math.floor(next() * keys.length)];
    parent = node as Record<string, unknown>;
    key = chosen;
    node = (node as Record<string, unknown>)[chosen as string];
    if (next() < 0.25) break;
  }
  if (!parent || key === undefined) return strangeValues[Math.floor(next() * strangeValues.length)];
  const roll = next();
  const target = parent as Record<string | number, unknown>;
  if (roll < 0.3) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else Reflect.deleteProperty(target, key);
  } else if (roll < 0.8) {
    target[key] = strangeValues[Math.floor(next() * strangeValues.length)];
  } else {
    target[key] = [node, node];
  }
  return copy;
}

describe("parsing mutated transcripts", () => {
  for (const format of trajectoryFormats) {
    it(`${format}: never crashes, only warns or throws typed errors`, () => {
      const next = random(format.length * 7919);
      const base = fixture(format);
      let parsed = 0;
      let typed = 0;
      for (let trial = 0; trial < 300; trial++) {
        let input = base;
        for (let m = 0, count = 1 + Math.floor(next() * 3); m < count; m++)
          input = mutate(input, next);
        for (const options of [{ format }, {}]) {
          try {
            const trajectory = parseTrajectory(input, options);
            expect(Array.isArray(trajectory.calls)).toBe(true);
            for (const call of trajectory.calls) expect(typeof call.name).toBe("string");
            parsed++;
          } catch (error) {
            if (!ToolscoreError.isInstance(error)) throw error;
            typed++;
          }
        }
      }
      // Most mutations still parse; the test is only worth something if many do.
      expect(parsed).toBeGreaterThan(typed);
    });
  }
});
