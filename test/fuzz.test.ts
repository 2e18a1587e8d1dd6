/**
 * The hostile-input attacks of issues 22 and 34, kept: fast-check properties over the public functions,
 * fed values chosen to break them (Object.prototype keys, control characters, deep nesting,
 * numbers written oddly, matcher objects of every kind and none, transcripts of any shape, any
 * bytes as an image, any address). Each function either gives its documented result or throws a
 * typed `ToolscoreError`; scores stay in [0, 1]; nothing hangs.
 *
 * `npm test` runs them with a fixed seed and a few runs each; `npm run fuzz` runs many more
 * (TOOLSCORE_FUZZ_RUNS, TOOLSCORE_FUZZ_SEED).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAddress, sniffImage } from "../src/entries/engine.js";
import { matchToolCalls, parseTrajectory, ToolscoreError } from "../src/entries/index.js";
import { readDatasetCase } from "../src/adapters/dataset-case.js";
import { numberSpellings } from "../src/core/number-spellings.js";
import { globMatches } from "../src/matchers/glob.js";
import { toExpectedValue } from "../src/matchers/value-matchers.js";
import { guardConsole, printable } from "../src/reporters/printable.js";
import { createRedactor } from "../src/core/redact.js";
import { InvalidOptionError } from "../src/core/errors.js";
import { nestsDeeperThan } from "../src/core/json.js";
import { decodedAsWritten } from "../src/core/jsonl-lines.js";
import { fenced } from "../src/judges/fence.js";
import { createMetric, metricDefinitions } from "../src/registry/metric-registry.js";
import { createCaseScorer } from "../src/evaluate/score-case.js";
import type { CaseResult } from "../src/core/case-result.js";
import { readRecords, scanResults } from "../src/node/results-file.js";

const fixtureFolder = fileURLToPath(
  new URL("../src/adapters/fixtures/same-conversation/", import.meta.url),
);

// `npm run fuzz` (this file under the "fuzz" script) runs many more than `npm test`.
const runs = Number(
  process.env.TOOLSCORE_FUZZ_RUNS ?? (process.env.npm_lifecycle_event === "fuzz" ? 20_000 : 40),
);
const seed = Number(process.env.TOOLSCORE_FUZZ_SEED ?? 20261125);
const settings = { numRuns: runs, seed };
const timeout = Math.max(20_000, runs * 50);

/** Names that are keys of every object, and text that is not plain. */
const hostileKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "$match",
    "",
    "a.b",
    "[0]",
    "\u001b[2J",
    "\u202e",
    "名前",
  ),
  fc.string({ maxLength: 12 }),
);
const matcherKind = fc.constantFrom(
  "any",
  "regex",
  "contains",
  "closeTo",
  "oneOf",
  "range",
  "present",
  "optional",
  "text",
  "absent",
  "toString",
  "__proto__",
  "nope",
);
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0, 1e308, -1e-308, 3.0, Number.MAX_SAFE_INTEGER + 2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 20 }),
    fc.constantFrom("^(a+)+$", "(?=x)", "\u0000", "a".repeat(50)),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie("value"), { maxKeys: 4 }),
    fc.record(
      {
        $match: matcherKind,
        value: tie("value"),
        values: fc.array(tie("value"), { maxLength: 3 }),
        pattern: fc.oneof(fc.string({ maxLength: 8 }), fc.constant("^(a|aa)+$")),
      },
      { requiredKeys: ["$match"] },
    ),
  ),
}));
const toolName = fc.oneof(
  fc.constantFrom("search", "book", "__proto__", "constructor", ""),
  fc.string({ maxLength: 8 }),
);
const call = fc.record(
  {
    name: toolName,
    inputParameters: fc.dictionary(hostileKey, hostileValue, { maxKeys: 4 }),
    output: hostileValue,
    isError: fc.boolean(),
  },
  { requiredKeys: ["name"] },
);
const options = fc.record(
  {
    order: fc.constantFrom("any", "in-order", "strict", "subset", "superset", "steps", "sideways"),
    arguments: fc.constantFrom("exact", "subset", "superset", "ignore", "fuzzy"),
    toolErrors: fc.constantFrom("ignore", "fail", "retry", "skip"),
    onlyTools: fc.array(fc.constantFrom("*", "s*", "?ook", "**", "__proto__"), { maxLength: 2 }),
    errorOutput: fc.constantFrom("^Error", "(a+)+$", "[", "(?<=x)"),
    coerceTypes: fc.boolean(),
  },
  { requiredKeys: [] },
);

// The characters printable() must never let through. Matching them is the point.
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

/** Runs `act`; a thrown error must be a typed one. */
function typedOrResult<T>(act: () => T): T | undefined {
  try {
    return act();
  } catch (error) {
    expect(ToolscoreError.isInstance(error), String(error)).toBe(true);
    return undefined;
  }
}

describe(`fuzz (${runs} runs each, seed ${seed})`, () => {
  it(
    "matchToolCalls: a score in [0, 1] with a reason, or a typed error",
    () => {
      fc.assert(
        fc.property(
          fc.array(call, { maxLength: 5 }),
          fc.array(fc.record({ name: toolName, arguments: hostileValue }), { maxLength: 5 }),
          options,
          (made, expected, given) => {
            const result = typedOrResult(() => matchToolCalls(made, expected, given as never));
            if (result === undefined) return;
            expect(result.score).toBeGreaterThanOrEqual(0);
            expect(result.score).toBeLessThanOrEqual(1);
            expect(typeof result.reason).toBe("string");
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "every deterministic metric: a scored result in [0, 1], or an error result",
    () => {
      const deterministic = metricDefinitions.filter(
        (definition) => definition.judge !== "required",
      );
      const metrics = deterministic.map((definition) => createMetric({ metric: definition.id }));
      fc.assert(
        fc.property(
          fc.record(
            {
              toolsCalled: fc.oneof(fc.array(call, { maxLength: 4 }), hostileValue),
              expectedTools: fc.oneof(fc.array(call, { maxLength: 4 }), hostileValue),
              expectedOutputContains: fc.oneof(
                fc.array(fc.string(), { maxLength: 3 }),
                hostileValue,
              ),
              replies: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
              input: fc.string(),
            },
            { requiredKeys: [] },
          ),
          (testCase) => {
            for (const metric of metrics) {
              const result = metric.measureSync?.(testCase as never);
              expect(result === undefined ? "error" : result.status).toMatch(/^(scored|error)$/);
              if (result?.status === "scored") {
                expect(result.score).toBeGreaterThanOrEqual(0);
                expect(result.score).toBeLessThanOrEqual(1);
              }
            }
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "toExpectedValue: a matcher or value, or an INVALID_INPUT naming the path",
    () => {
      fc.assert(
        fc.property(hostileValue, (value) => {
          try {
            toExpectedValue(value, { field: "expected" });
          } catch (error) {
            expect(error).toMatchObject({ code: "INVALID_INPUT" });
            expect((error as Error).message.startsWith("expected")).toBe(true);
          }
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "parseTrajectory: a trajectory of calls, or a typed error, on any JSON and any text",
    () => {
      const message = fc.record(
        {
          role: fc.constantFrom("user", "assistant", "tool", "model", "system", "__proto__"),
          content: hostileValue,
          tool_calls: fc.array(
            fc.record({
              id: fc.string({ maxLength: 4 }),
              type: fc.constantFrom("function", "custom"),
              function: fc.record({ name: toolName, arguments: fc.oneof(fc.json(), fc.string()) }),
            }),
            { maxLength: 2 },
          ),
          tool_call_id: fc.string({ maxLength: 4 }),
          parts: hostileValue,
          type: fc.constantFrom("message", "function_call", "tool_use", "human", "ai"),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(
          fc.oneof(fc.array(message, { maxLength: 5 }), hostileValue, fc.string({ maxLength: 40 })),
          (input) => {
            const trajectory = typedOrResult(() => parseTrajectory(input));
            if (trajectory === undefined) return;
            for (const made of trajectory.calls) expect(typeof made.name).toBe("string");
            const stepped = trajectory.steps.flatMap((step) => step.calls).sort((a, b) => a - b);
            expect(stepped).toEqual(trajectory.calls.map((_, at) => at));
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "readDatasetCase: a case or a DATASET_PARSE error, on any record",
    () => {
      fc.assert(
        fc.property(fc.dictionary(hostileKey, hostileValue, { maxKeys: 6 }), (record) => {
          try {
            readDatasetCase(record, { index: 0, line: 1 });
          } catch (error) {
            expect(error).toMatchObject({ code: "DATASET_PARSE" });
          }
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "numberSpellings: never throws on JSON text, and finds only numbers",
    () => {
      fc.assert(
        fc.property(fc.json(), (text) => {
          const found = numberSpellings(text) ?? {};
          for (const spelled of Object.values(found)) {
            expect(Number.isInteger(Number(spelled))).toBe(true);
          }
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "sniffImage: any bytes are an image with a size, or refused with a reason",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.uint8Array({ maxLength: 64 }),
            fc
              .tuple(
                fc.constantFrom(
                  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
                  [0xff, 0xd8, 0xff],
                  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
                  [0x42, 0x4d],
                  [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
                ),
                fc.uint8Array({ maxLength: 64 }),
              )
              .map(([head, rest]) => Uint8Array.from([...head, ...rest])),
          ),
          (bytes) => {
            const sniff = sniffImage(bytes);
            if (sniff.ok) {
              expect(sniff.width).toBeGreaterThan(0);
              expect(sniff.height).toBeGreaterThan(0);
            } else expect(sniff.reason.length).toBeGreaterThan(0);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "checkAddress: an internal IPv4 address is refused in every IPv6 spelling",
    () => {
      const internal = fc.oneof(
        fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
        fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
        fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
        fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      );
      const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
      fc.assert(
        fc.property(internal, ([a, b, c, d]) => {
          const ipv4 = `${a}.${b}.${c}.${d}`;
          const low = `${hex(a, b)}:${hex(c, d)}`;
          const inverted = `${hex(a ^ 255, b ^ 255)}:${hex(c ^ 255, d ^ 255)}`;
          for (const address of [
            ipv4,
            `::${ipv4}`,
            `::${low}`,
            `::ffff:${low}`,
            `::ffff:0:${low}`,
            `64:ff9b::${low}`,
            `2002:${low}::1`,
            `2001:0:4136:e378:8000:63bf:${inverted}`,
          ]) {
            expect([address, checkAddress(address).allowed]).toEqual([address, false]);
          }
        }),
        settings,
      );
      fc.assert(
        fc.property(fc.string({ maxLength: 40 }), (text) => {
          expect(typeof checkAddress(text).allowed).toBe("boolean");
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "printable: no control character survives",
    () => {
      fc.assert(
        fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
          expect(printable(text)).not.toMatch(controls);
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "globMatches: ends on any glob and text, however many stars",
    () => {
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom("a", "*", "?", "b"), maxLength: 30 }),
          fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 2000 }),
          (glob, text) => {
            expect(typeof globMatches(glob, text)).toBe("boolean");
          },
        ),
        settings,
      );
    },
    timeout,
  );

  // Issue 34: the untrusted-data attack, kept.
  // eslint-disable-next-line no-control-regex -- toolscore's own colours and progress erase
  const ownSequences = /\r\u001b\[2K|\u001b\[[0-9;]*m/g;
  const commandLine = /^[ \t]*::|##\[|##vso\[/;
  const consoleText = fc.string({
    unit: fc.oneof(
      fc.constantFrom(":", "#", "[", "\n", "\r", " ", "\t", "\u001b", "a", "v", "s", "o"),
      fc.string({ unit: "binary", maxLength: 1 }),
    ),
    maxLength: 60,
  });

  it(
    "console: no line a CI runner obeys, no foreign control character (issue 34, item 4)",
    () => {
      fc.assert(
        fc.property(fc.array(consoleText, { maxLength: 5 }), (writes) => {
          expect(printable(writes.join(""))).not.toMatch(commandLine);
          expect(printable(writes.join(""))).not.toMatch(/[\n\r]/);
          const written: string[] = [];
          const stream = guardConsole({ write: (text: string) => written.push(text) });
          for (const text of writes) stream.write(text);
          for (const line of written.join("").split("\n")) {
            expect(line).not.toMatch(commandLine);
            // Only toolscore's own sequences keep their escape character.
            expect(line.replace(ownSequences, "")).not.toMatch(controls);
          }
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "a case's metricOptions: only matching rules and thresholds, else a typed error naming the key (item 1)",
    () => {
      const withCaseOptions = metricDefinitions.filter(
        (definition) => definition.judge !== "required",
      );
      fc.assert(
        fc.property(
          fc.constantFrom(...withCaseOptions),
          fc.dictionary(hostileKey, hostileValue, { minKeys: 1, maxKeys: 3 }),
          (definition, given) => {
            const metric = createMetric({ metric: definition.id });
            const camel = (key: string) =>
              key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
            const refused = Object.keys(given).filter(
              (key) => !definition.caseOptions.includes(camel(key)),
            );
            let error: unknown;
            try {
              metric.withOptions?.(given as never);
            } catch (caught) {
              error = caught;
            }
            if (refused.length > 0) {
              expect(InvalidOptionError.isInstance(error)).toBe(true);
              expect((error as Error).message).toContain(`metricOptions.${definition.id}.`);
            } else if (error !== undefined) {
              // Allowed keys with bad values: typed too.
              expect(ToolscoreError.isInstance(error)).toBe(true);
            }
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "redact: a configured key never survives, wherever it sits in any text (item 9)",
    () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 8, maxLength: 40 }).filter((key) => key.trim().length >= 8),
          fc.string({ maxLength: 40 }),
          fc.string({ maxLength: 40 }),
          (key, before, after) => {
            const redact = createRedactor([key]);
            expect(redact(`${before}${key}${after}`)).not.toContain(key);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "fenced: case text never closes its fence, however many backticks it holds (item 10)",
    () => {
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom("`", "\n", "#", " ", "a"), maxLength: 60 }),
          (text) => {
            const shown = fenced(text);
            const fence = /^(`+)\n/.exec(shown)?.[1] ?? "";
            expect(shown.startsWith(`${fence}\n`) && shown.endsWith(`\n${fence}`)).toBe(true);
            expect(shown.slice(fence.length + 1, -(fence.length + 1))).toBe(text);
            expect(text.includes(fence)).toBe(false);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "nesting: a value's depth is told without overflowing, as a naive count tells it (item 3)",
    () => {
      const depthOf = (value: unknown): number =>
        typeof value !== "object" || value === null
          ? 0
          : 1 + Math.max(0, ...Object.values(value).map(depthOf));
      fc.assert(
        fc.property(hostileValue, fc.integer({ min: 0, max: 6 }), (value, limit) => {
          expect(nestsDeeperThan(value, limit)).toBe(depthOf(value) > limit);
        }),
        settings,
      );
      // 100,000 levels: told at once, no RangeError.
      let deep: unknown = 1;
      for (let level = 0; level < 100_000; level++) deep = { a: deep };
      expect(nestsDeeperThan(deep)).toBe(true);
    },
    timeout,
  );

  it(
    "dataset lines: bytes that are not UTF-8 are that case's error, never U+FFFD (item 10)",
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
          const text = Buffer.from(bytes).toString("utf8");
          const valid = Buffer.from(text, "utf8").equals(Buffer.from(bytes));
          expect(decodedAsWritten(text, bytes)).toBe(valid);
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    "conversations: any turns and transcript read to a case or a DATASET_PARSE error, scored to results in [0, 1] or typed errors (issue 48)",
    () => {
      const scorer = createCaseScorer({
        metrics: [
          createMetric({ metric: "tool-call-accuracy" }),
          createMetric({ metric: "response-contains" }),
        ],
      });
      const message = fc.record(
        {
          role: fc.constantFrom("user", "assistant", "tool"),
          content: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), hostileValue),
          tool_calls: fc.array(
            fc.record({
              id: fc.constantFrom("a", "b", "c"),
              type: fc.constant("function"),
              function: fc.record({
                name: fc.constantFrom("lookup", "refund"),
                arguments: fc.oneof(fc.constant('{"id": 1}'), fc.json()),
              }),
            }),
            { maxLength: 2 },
          ),
          tool_call_id: fc.constantFrom("a", "b", "c"),
        },
        { requiredKeys: ["role"] },
      );
      const turn = fc.oneof(
        fc.record(
          {
            expected_tools: fc.oneof(fc.array(call, { maxLength: 2 }), hostileValue),
            tools_called: fc.array(call, { maxLength: 2 }),
            input: fc.oneof(fc.string({ maxLength: 8 }), hostileValue),
            expected_output_contains: fc.oneof(fc.array(fc.string({ maxLength: 4 })), hostileValue),
            metric_options: fc.oneof(
              fc.record({ "tool-call-accuracy": options }),
              fc.dictionary(hostileKey, hostileValue, { maxKeys: 2 }),
            ),
          },
          { requiredKeys: [] },
        ),
        hostileValue,
      );
      fc.assert(
        fc.property(
          fc.array(turn, { maxLength: 5 }),
          fc.option(fc.array(message, { maxLength: 8 }), { nil: undefined }),
          fc.constantFrom(undefined, "mean", "min", "all", "median"),
          (turns, trajectory, aggregate) => {
            let read;
            try {
              read = readDatasetCase(
                {
                  id: "c",
                  turns,
                  ...(trajectory === undefined ? {} : { trajectory }),
                  ...(aggregate === undefined ? {} : { turn_aggregate: aggregate }),
                },
                { index: 0, line: 1 },
              );
            } catch (error) {
              expect(error).toMatchObject({ code: "DATASET_PARSE" });
              return;
            }
            const result = scorer.score(read, 0) as CaseResult;
            for (const entry of result.results) {
              if (entry.status === "scored") {
                expect(entry.score).toBeGreaterThanOrEqual(0);
                expect(entry.score).toBeLessThanOrEqual(1);
              }
              if (entry.status === "error") expect(typeof entry.error.code).toBe("string");
            }
            expect(result.turns?.length ?? 0).toBeLessThanOrEqual(turns.length);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    "parseTrajectory: a transcript of any format nested past the limit anywhere is a typed error (issue 48, item 8)",
    () => {
      const fixtures = readdirSync(fixtureFolder).map((name) =>
        readFileSync(path.join(fixtureFolder, name), "utf8"),
      );
      fc.assert(
        fc.property(
          fc.constantFrom(...fixtures),
          fc.nat(),
          fc.integer({ min: 1001, max: 30_000 }),
          fc.boolean(),
          (text, pick, levels, asText) => {
            // The value at one place of a real transcript, replaced by lists nested `levels` deep.
            const places: string[] = [];
            const find = (value: unknown, at: string) => {
              if (typeof value !== "object" || value === null) return;
              for (const [key, item] of Object.entries(value)) {
                places.push(`${at}${JSON.stringify(key)}`);
                find(item, `${at}${JSON.stringify(key)},`);
              }
            };
            find(JSON.parse(text), "");
            const place = JSON.parse(`[${places[pick % places.length]}]`) as string[];
            const value = JSON.parse(text) as Record<string, unknown>;
            let parent = value;
            for (const key of place.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
            parent[place.at(-1) ?? ""] = "\u0000deep";
            const deep = `${"[".repeat(levels)}1${"]".repeat(levels)}`;
            const injected = JSON.stringify(value).replace('"\\u0000deep"', deep);
            typedOrResult(() => parseTrajectory(asText ? injected : JSON.parse(injected)));
          },
        ),
        { ...settings, numRuns: Math.min(runs, 200) },
      );
    },
    timeout,
  );

  it(
    "results files: any lines are a scan or a RESULTS_FILE error (issue 48)",
    async () => {
      const folder = mkdtempSync(path.join(tmpdir(), "toolscore-fuzz-results-"));
      const header = JSON.stringify({
        toolscore: "results",
        version: 1,
        dataset: "d.jsonl",
        fingerprint: "sha256:0",
        config: "0",
        metrics: ["m"],
        startedAt: "2026-01-01T00:00:00.000Z",
      });
      const line = fc.oneof(
        fc.json(),
        fc.string({ maxLength: 30 }),
        fc
          .record(
            {
              index: fc.oneof(fc.nat(), hostileValue),
              id: fc.oneof(fc.string({ maxLength: 4 }), hostileValue),
              status: fc.constantFrom("passed", "failed", "error", "nope"),
              metrics: fc.oneof(
                fc.dictionary(hostileKey, hostileValue, { maxKeys: 2 }),
                hostileValue,
              ),
              source: hostileValue,
              turns: hostileValue,
            },
            { requiredKeys: [] },
          )
          .map((record) => JSON.stringify(record)),
      );
      let written = 0;
      await fc.assert(
        fc.asyncProperty(fc.boolean(), fc.array(line, { maxLength: 5 }), async (headed, lines) => {
          const file = path.join(folder, `r${written++}.jsonl`);
          writeFileSync(file, `${[...(headed ? [header] : []), ...lines].join("\n")}\n`);
          try {
            const scan = await scanResults(file);
            for await (const record of readRecords(file, scan)) expect(record).toBeTypeOf("object");
          } catch (error) {
            expect(error).toMatchObject({ code: "RESULTS_FILE" });
          }
        }),
        { ...settings, numRuns: Math.min(runs, 500) },
      );
    },
    timeout,
  );
});
