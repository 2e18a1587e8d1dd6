import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { Difference } from "../core/trajectory-diff.js";
import { resolveDiffOptions } from "./diff-rules.js";
import type { DiffOptions } from "./diff-rules.js";
import type { DiffCall, DiffRun, DiffTurn } from "./diff-run.js";
import { diffTrajectories } from "./diff-trajectories.js";

const call = (name: string, args: JsonObject = {}, output?: JsonValue): DiffCall => ({
  name,
  arguments: args,
  ...(output === undefined ? {} : { output }),
});
const run = (...turns: DiffTurn[]): DiffRun => ({ turns });
const turn = (...calls: DiffCall[]): DiffTurn => ({ calls });

function diff(baseline: DiffRun, candidate: DiffRun, options: DiffOptions = {}) {
  return diffTrajectories({ baseline, candidate, rules: resolveDiffOptions(options) }).differences;
}

/** The differences as short lines, to compare whole lists at a glance. */
function lines(differences: readonly Difference[]): string[] {
  return differences.map((difference) => {
    const at = `${difference.turn}`;
    switch (difference.kind) {
      case "added":
        return `${at}:${difference.call} + ${difference.name}`;
      case "dropped":
        return `${at}:${difference.baselineCall} - ${difference.name}`;
      case "arguments":
        return `${at}:${difference.call} ${difference.name} ${difference.path} ${JSON.stringify(difference.before)}→${JSON.stringify(difference.after)}`;
      case "output":
        return `${at}:${difference.call} ${difference.name} output ${JSON.stringify(difference.before)}→${JSON.stringify(difference.after)}`;
      case "moved":
        return `${at}:${difference.call} ${difference.name} moved from ${difference.baselineCall}`;
      case "serial":
      case "parallel":
        return `${at}:${difference.call} ${difference.name} ${difference.kind} (${difference.with.join(",")})`;
      case "answer":
        return `${at} answer`;
    }
  });
}

const lookup = call("lookup_order", { order: "A1" }, { total: 30 });
const refund = call("refund_order", { order: "A1", amount: 30 }, "ok");
const email = call("send_email", { to: "ann@example.com" }, "sent");

describe("diffTrajectories: hand-built pairs with known differences", () => {
  it("finds nothing in a run compared with itself", () => {
    const same = run(turn(lookup, refund, email));
    expect(diff(same, same)).toEqual([]);
  });

  it("names an added call", () => {
    const differences = diff(run(turn(lookup, refund)), run(turn(lookup, refund, refund)));
    expect(lines(differences)).toEqual(["1:3 + refund_order"]);
    expect(differences[0].place).toBe("1|added|refund_order#2");
  });

  it("names a dropped call", () => {
    expect(lines(diff(run(turn(lookup, refund, email)), run(turn(lookup, email))))).toEqual([
      "1:2 - refund_order",
    ]);
  });

  it("names an argument's drift by its path, with both values", () => {
    const drifted = call("refund_order", { order: "A1", amount: 300 }, "ok");
    const differences = diff(run(turn(lookup, refund)), run(turn(lookup, drifted)));
    expect(lines(differences)).toEqual(["1:2 refund_order $.amount 30→300"]);
    expect(differences[0].place).toBe("1|arguments|refund_order#1|$.amount");
  });

  it("names a key one run left out, and a nested one", () => {
    const before = call("search", { q: "x", filters: { date: "2026-05-03" }, limit: 3 });
    const after = call("search", { q: "x", filters: { date: "2026-06-01" } });
    expect(lines(diff(run(turn(before)), run(turn(after))))).toEqual([
      '1:1 search $.filters.date "2026-05-03"→"2026-06-01"',
      "1:1 search $.limit 3→undefined",
    ]);
  });

  it("names a reorder as one call moved, at the place the runs part", () => {
    const differences = diff(run(turn(lookup, refund, email)), run(turn(lookup, email, refund)));
    expect(lines(differences)).toEqual(["1:2 send_email moved from 3"]);
  });

  it("names calls made together that are now made one by one, and the reverse", () => {
    const together: DiffTurn = { calls: [lookup, email], steps: [0, 0] };
    const apart: DiffTurn = { calls: [lookup, email], steps: [0, 1] };
    expect(lines(diff(run(together), run(apart)))).toEqual([
      "1:2 send_email serial (lookup_order)",
    ]);
    expect(lines(diff(run(apart), run(together)))).toEqual([
      "1:2 send_email parallel (lookup_order)",
    ]);
  });

  it("compares grouping only where both runs say how their calls were grouped", () => {
    const together: DiffTurn = { calls: [lookup, email], steps: [0, 0] };
    expect(diff(run(together), run(turn(lookup, email)))).toEqual([]);
    expect(diff(run(turn(lookup, email)), run(together))).toEqual([]);
  });

  it("names a changed output and a call that failed in one run only", () => {
    const failed: DiffCall = { ...refund, output: "card declined", isError: true };
    const changed = call("lookup_order", { order: "A1" }, { total: 31 });
    const differences = diff(run(turn(lookup, refund)), run(turn(changed, failed)));
    expect(lines(differences)).toEqual([
      '1:1 lookup_order output {"total":30}→{"total":31}',
      '1:2 refund_order output "ok"→"card declined"',
    ]);
    expect(differences[1]).toMatchObject({ error: { before: false, after: true } });
  });

  it("leaves outputs alone when asked to, and compares answers only when asked to", () => {
    const changed = call("lookup_order", { order: "A1" }, { total: 31 });
    const before = run({ calls: [lookup], answer: "Refunded." });
    const after = run({ calls: [changed], answer: "Refunded  in full." });
    expect(diff(before, after, { outputs: false })).toEqual([]);
    expect(lines(diff(before, after, { outputs: false, answers: true }))).toEqual(["1 answer"]);
    expect(
      diff(
        before,
        { turns: [{ calls: [changed], answer: " Refunded. " }] },
        { outputs: false, answers: true },
      ),
    ).toEqual([]);
  });

  it("ignores the paths that legitimately vary, in arguments and outputs", () => {
    const before = call("create", { id: "r-1", at: "10:00", name: "x" }, { id: "o-1" });
    const after = call("create", { id: "r-2", at: "10:05", name: "x" }, { id: "o-9" });
    expect(diff(run(turn(before)), run(turn(after)), { ignore: ["id", "at"] })).toEqual([]);
    expect(lines(diff(run(turn(before)), run(turn(after)), { ignore: ["id"] }))).toEqual([
      '1:1 create $.at "10:00"→"10:05"',
    ]);
  });

  it("compares under the run's argument rules: a mode, a normalizer, a tool's schema", () => {
    const before = call("search", { q: "Paris", limit: 3 });
    const after = call("search", { q: "paris ", limit: "3" });
    const match = {
      arguments: { mode: "exact" as const, strings: { ignoreCase: true, trim: true } },
      tools: [
        {
          name: "search",
          parameters: {
            type: "object",
            properties: { q: { type: "string" }, limit: { type: "integer" } },
          },
        },
      ],
    };
    expect(diff(run(turn(before)), run(turn(after)))).toHaveLength(2);
    expect(diff(run(turn(before)), run(turn(after)), { match })).toEqual([]);
  });

  it("pairs calls of one tool by their closest arguments, not their positions", () => {
    const paris = call("weather", { city: "Paris" });
    const lyon = call("weather", { city: "Lyon" });
    const nice = call("weather", { city: "Nice" });
    expect(lines(diff(run(turn(paris, lyon)), run(turn(lyon, nice))))).toEqual([
      "1:1 weather moved from 2",
      '1:2 weather $.city "Paris"→"Nice"',
    ]);
  });

  it("keeps identical repeated calls in order", () => {
    const poll = call("status", { job: 1 });
    expect(diff(run(turn(poll, poll, poll)), run(turn(poll, poll, poll)))).toEqual([]);
    expect(lines(diff(run(turn(poll, poll)), run(turn(poll, poll, poll))))).toEqual([
      "1:3 + status",
    ]);
  });

  it("compares conversations turn by turn, a turn one run lacks being all calls added", () => {
    const differences = diff(run(turn(lookup)), run(turn(lookup), turn(refund)));
    expect(lines(differences)).toEqual(["2:1 + refund_order"]);
  });

  it("leaves out the tools the rules leave out, on both sides", () => {
    const log = call("log_event", { n: 1 });
    expect(
      diff(run(turn(lookup, log)), run(turn(log, lookup, log)), {
        match: { ignoreTools: ["log_*"] },
      }),
    ).toEqual([]);
  });

  it("names calls by the name the rules normalize them to", () => {
    const before = call("functions.lookup_order", { order: "A1" }, { total: 30 });
    expect(
      diff(run(turn(before)), run(turn(lookup)), {
        match: { normalizeNames: { aliases: { "functions.lookup_order": "lookup_order" } } },
      }),
    ).toEqual([]);
  });

  it("compares arguments that did not parse as their text", () => {
    const broken: DiffCall = { name: "refund_order", arguments: {}, invalidArguments: "{amount:" };
    expect(lines(diff(run(turn(refund)), run(turn(broken))))).toEqual([
      '1:1 refund_order $ {"order":"A1","amount":30}→"{amount:"',
      '1:1 refund_order output "ok"→null',
    ]);
  });

  it("gives the two runs row by row when asked, the row where they part marked", () => {
    const drifted = call("refund_order", { order: "A1", amount: 300 }, "ok");
    const { rows } = diffTrajectories({
      baseline: run(turn(lookup, refund, email)),
      candidate: run(turn(lookup, drifted, call("escalate"))),
      rules: resolveDiffOptions(),
      align: true,
    });
    expect(
      rows?.map((row) => [row.kind, row.baseline?.call, row.current?.call, row.first === true]),
    ).toEqual([
      ["same", 1, 1, false],
      ["changed", 2, 2, true],
      ["added", undefined, 3, false],
      ["dropped", 3, undefined, false],
    ]);
    const moved = diffTrajectories({
      baseline: run(turn(lookup, refund, email)),
      candidate: run(turn(email, lookup)),
      rules: resolveDiffOptions(),
      align: true,
    });
    // A dropped call shows where the baseline made it, before the calls that follow it there.
    expect(moved.rows?.map((row) => [row.kind, row.baseline?.name, row.current?.name])).toEqual([
      ["dropped", "refund_order", undefined],
      ["moved", "send_email", "send_email"],
      ["same", "lookup_order", "lookup_order"],
    ]);
  });

  it("refuses options it does not know, and bad ignore patterns, naming them", () => {
    expect(() => resolveDiffOptions({ order: "strict" } as DiffOptions)).toThrow(/order/);
    expect(() => resolveDiffOptions({ ignore: ["a..b"] })).toThrow(/ignore/);
    expect(() => resolveDiffOptions({ answers: "yes" as unknown as boolean })).toThrow(
      /answers must be true or false/,
    );
  });
});

// Runs of distinct calls (no two alike), so that the place a change lands on is unambiguous.
const distinctCalls = fc
  .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.integer({ min: 0, max: 5 })), {
    minLength: 1,
    maxLength: 12,
    selector: ([name, n]) => `${name}${n}`,
  })
  .map((pairs) => pairs.map(([name, n]) => call(name, { n }, { ok: n })));

type Change = "add" | "drop" | "drift" | "output" | "swap";

describe("diffTrajectories: properties", () => {
  it("finds nothing between a run and itself, however it is built", () => {
    fc.assert(
      fc.property(
        fc.array(distinctCalls, { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }),
        (turns, steps) => {
          const built = run(
            ...turns.map((calls) => ({ calls, steps: calls.map((_, at) => steps[at] ?? at) })),
          );
          expect(diff(built, built)).toEqual([]);
        },
      ),
    );
  });

  it("reports a change injected at call i first at call i, with everything before it identical", () => {
    fc.assert(
      fc.property(
        distinctCalls,
        fc.nat(),
        fc.constantFrom<Change>("add", "drop", "drift", "output", "swap"),
        (calls, seed, change) => {
          const i = seed % calls.length;
          const changed = [...calls];
          if (change === "add") changed.splice(i, 0, call("added", { n: -1 }));
          else if (change === "drop") changed.splice(i, 1);
          else if (change === "drift") changed[i] = { ...calls[i], arguments: { n: 99 } };
          else if (change === "output") changed[i] = { ...calls[i], output: { ok: -1 } };
          else if (i + 1 < calls.length) [changed[i], changed[i + 1]] = [calls[i + 1], calls[i]];
          else return;
          const [first] = diff(run(turn(...calls)), run(turn(...changed)));
          expect(first).toBeDefined();
          const at =
            first.kind === "dropped"
              ? first.baselineCall
              : first.kind === "added"
                ? first.call
                : first.kind === "answer"
                  ? 0
                  : Math.min(first.call, first.baselineCall);
          expect(at).toBe(i + 1);
        },
      ),
    );
  });
});
