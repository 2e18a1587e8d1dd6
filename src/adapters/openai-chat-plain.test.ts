import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPlainOpenAIChat } from "./openai-chat-plain.js";
import { parseTrajectories, parseTrajectory, readTrajectory } from "./parse-trajectory.js";

/** What a parse gives, as text (key order included), or the error it throws. */
function outcome(parse: () => unknown): string {
  try {
    return JSON.stringify({ value: parse() });
  } catch (error) {
    return JSON.stringify({ error: String(error), code: (error as { code?: unknown }).code });
  }
}

// Few ids and names, so that results find their calls, and ids repeat, often enough.
const ids = fc.constantFrom("call_1", "call_2", "call_3", "call_4");
const names = fc.constantFrom("search", "book", "weather");
const argumentTexts = fc.oneof(
  fc
    .record({ city: fc.constantFrom("Oslo", "Lyon"), days: fc.integer({ min: 0, max: 3 }) })
    .map((args) => JSON.stringify(args)),
  fc.constant(""),
  fc.constant("{}"),
  fc.constant('{"nested": {"list": [1, {"a": null}]}}'),
  fc.constant("{not json"),
  fc.constant("[1, 2]"),
  fc.constant("null"),
  // Longer than the depth guard's shortcut: checked for depth.
  fc.constant(`{"text": "${"x".repeat(2100)}"}`),
  fc.constant(`${"[".repeat(1100)}${"]".repeat(1100)}`),
);
const text = fc.oneof(fc.constantFrom("", "Plan my trip", "Done."), fc.string({ maxLength: 6 }));
const content = fc.oneof(
  { weight: 16, arbitrary: text },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant([{ type: "text", text: "part" }]) },
  { weight: 1, arbitrary: fc.constant(7) },
);
// Sometimes a key the plain reader does not know, or one that other formats vote with.
const extraKeys = fc.oneof(
  { weight: 12, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { type: "message" },
      { parts: [{ text: "hi" }] },
      { function_call: { name: "search", arguments: "{}" } },
      { metadata: 1 },
      { name: "someone" },
      { refusal: null },
      { spanId: "s1" },
      { toolCalls: [] },
    ),
  },
);
const toolCall = fc
  .record({
    id: fc.oneof({ weight: 8, arbitrary: ids }, { weight: 1, arbitrary: fc.constantFrom("", 12) }),
    type: fc.constantFrom("function", undefined),
    function: fc.oneof(
      {
        weight: 10,
        arbitrary: fc.record({ name: names, arguments: argumentTexts }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { arguments: "{}" },
          { name: "search", arguments: { city: "Oslo" } },
          { name: 5, arguments: "{}" },
          { name: "search", arguments: "{}", strict: true },
        ),
      },
    ),
    extra: fc.oneof(
      { weight: 10, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.constantFrom({ custom: { name: "x" } }, { index: 0 }) },
    ),
  })
  .map(({ extra, ...call }) => {
    const result: Record<string, unknown> = { ...call, ...extra };
    if (result.type === undefined) delete result.type;
    return result;
  });
const message = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ role: fc.constantFrom("user", "system", "developer"), content }),
  },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        role: fc.constant("assistant"),
        content,
        tool_calls: fc.oneof(
          { weight: 8, arbitrary: fc.array(toolCall, { maxLength: 3 }) },
          { weight: 1, arbitrary: fc.constantFrom(undefined, "none") },
        ),
      },
      { requiredKeys: ["role"] },
    ),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      role: fc.constant("tool"),
      tool_call_id: fc.oneof(
        { weight: 8, arbitrary: ids },
        { weight: 1, arbitrary: fc.constant(3) },
      ),
      content,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { role: "function", name: "search", content: "ok" },
      { role: "model", parts: [{ text: "hi" }] },
      { role: "critic", content: "hm" },
      null,
      "text",
    ),
  },
);
const messages = fc
  .array(fc.tuple(message, extraKeys), { maxLength: 10 })
  .map((list) =>
    list.map(([m, extra]) =>
      typeof m === "object" && m !== null ? { ...(m as object), ...extra } : m,
    ),
  );

/** A plain transcript: the shape the one-pass reader is for, answered calls or not. */
const plainTranscript = fc
  .array(
    fc.record({
      ask: fc.option(text, { nil: undefined }),
      calls: fc.array(fc.record({ name: names, args: argumentTexts.filter(isObjectText) }), {
        maxLength: 3,
      }),
      answered: fc.boolean(),
    }),
    { maxLength: 5 },
  )
  .map((turns) => {
    let id = 0;
    const list: unknown[] = [{ role: "system", content: "You plan trips." }];
    for (const turn of turns) {
      if (turn.ask !== undefined) list.push({ role: "user", content: turn.ask });
      const calls = turn.calls.map((call) => ({
        id: `call_${id++}`,
        type: "function",
        function: { name: call.name, arguments: call.args },
      }));
      list.push({ role: "assistant", content: null, tool_calls: calls });
      if (turn.answered) {
        for (const call of calls) {
          list.push({ role: "tool", tool_call_id: call.id, content: `${call.function.name} ok` });
        }
      }
    }
    list.push({ role: "assistant", content: "Done." });
    return list;
  });

function isObjectText(value: string): boolean {
  if (value === "") return true;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

describe("readPlainOpenAIChat", () => {
  it("gives what the general reader gives, on any list of messages", () => {
    let plain = 0;
    let general = 0;
    fc.assert(
      fc.property(messages, (list) => {
        if (readPlainOpenAIChat(list) === undefined) general++;
        else plain++;
        const expected = outcome(() => readTrajectory(list, undefined));
        expect(outcome(() => parseTrajectory(list))).toBe(expected);
        expect(outcome(() => parseTrajectory(JSON.stringify(list)))).toBe(expected);
        expect(outcome(() => parseTrajectory(list, { format: "openai-chat" }))).toBe(
          outcome(() => readTrajectory(list, "openai-chat")),
        );
      }),
      { numRuns: 4000, seed: 20261122 },
    );
    // Both ways are exercised.
    expect(plain).toBeGreaterThan(400);
    expect(general).toBeGreaterThan(400);
  });

  it("reads every plain transcript itself, as the general reader would", () => {
    fc.assert(
      fc.property(plainTranscript, fc.boolean(), (list, normalize) => {
        const fast = readPlainOpenAIChat(list);
        expect(fast).toBeDefined();
        expect(JSON.stringify(fast)).toBe(JSON.stringify(readTrajectory(list, undefined)));
        // Read twice together, the second reading shares the first one's arguments.
        const both = parseTrajectories({ first: list, again: list });
        expect(JSON.stringify(both)).toBe(JSON.stringify({ first: fast, again: fast }));
        // (Empty and long texts are parsed each time.)
        both.again.calls.forEach((call, index) => {
          const length = JSON.stringify(call.inputParameters).length;
          if (length > 2 && length < 1500) {
            expect(call.inputParameters).toBe(both.first.calls[index].inputParameters);
          }
        });
        expect(parseTrajectory(list, { normalizeNames: normalize })).toEqual(
          parseTrajectory(list, { normalizeNames: normalize, format: "openai-chat" }),
        );
      }),
      { numRuns: 1500, seed: 7 },
    );
  });

  it("finds calls by id in long lists as in short ones", () => {
    // Past the length where calls are found through a Map: ids from a wider range, some used
    // twice, results in any order, some missing, some for calls that were never made.
    const longList = fc
      .record({
        calls: fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 10, maxLength: 60 }),
        batch: fc.integer({ min: 1, max: 4 }),
        kept: fc.double({ min: 0, max: 1, noNaN: true }),
        order: fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
        // Now and then, a call id used twice, a result answered twice, or one for no call.
        oddity: fc.oneof(
          { weight: 6, arbitrary: fc.constant("none" as const) },
          { weight: 1, arbitrary: fc.constantFrom("repeated call", "repeated answer", "stray") },
        ),
      })
      .map(({ calls, batch, kept, order, oddity }) => {
        const ids = calls.map((k) => `call_${k}`);
        if (oddity === "repeated call") ids.push(ids[order[0] % ids.length]);
        const list: unknown[] = [{ role: "user", content: "go" }];
        for (let at = 0; at < ids.length; at += batch) {
          list.push({
            role: "assistant",
            content: null,
            tool_calls: ids.slice(at, at + batch).map((id, k) => ({
              id,
              type: "function",
              function: { name: `tool_${(at + k) % 5}`, arguments: `{"k":${at + k}}` },
            })),
          });
        }
        const answered = ids
          .map((id, k) => ({ id, key: order[k % order.length] + k }))
          .filter((_, k) => k < ids.length * kept)
          .sort((a, b) => a.key - b.key)
          .map(({ id }) => id);
        if (oddity === "repeated answer" && answered.length > 0) answered.push(answered[0]);
        if (oddity === "stray") answered.push("call_999");
        for (const id of answered) list.push({ role: "tool", tool_call_id: id, content: "ok" });
        return list;
      });
    let long = 0;
    fc.assert(
      fc.property(longList, (list) => {
        const fast = readPlainOpenAIChat(list);
        if (fast !== undefined && fast.calls.length > 16) long++;
        expect(outcome(() => parseTrajectory(list))).toBe(
          outcome(() => readTrajectory(list, undefined)),
        );
      }),
      { numRuns: 1500, seed: 11 },
    );
    expect(long).toBeGreaterThan(600);
  });

  it("leaves unusual lists to the general reader", () => {
    const call = { id: "c1", type: "function", function: { name: "search", arguments: "{}" } };
    for (const list of [
      [
        { role: "assistant", tool_calls: [call] },
        { role: "tool", tool_call_id: "c2", content: "" },
      ],
      [{ role: "assistant", tool_calls: [call, call] }],
      [
        { role: "assistant", tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "first" },
        { role: "tool", tool_call_id: "c1", content: "second" },
      ],
      [{ role: "assistant", tool_calls: [{ ...call, custom: {} }] }],
      [{ role: "assistant", content: [{ type: "text", text: "hi" }] }],
      [{ role: "user", content: "hi", type: "message" }],
      [{ role: "assistant", tool_calls: [{ ...call, function: { name: "x", arguments: "[]" } }] }],
    ]) {
      expect(readPlainOpenAIChat(list)).toBeUndefined();
      expect(parseTrajectory(list)).toEqual(readTrajectory(list, undefined));
    }
  });
});
