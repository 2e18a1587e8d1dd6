/**
 * A simulated user, as a case's `user` gives it (a goal, the facts it knows, a persona, when to
 * give up), the rule checks of its every message (a fact it made up, one it contradicted, its goal
 * pasted, a conversation ended before the agent answered or never ended), and the expected calls
 * of the intents it pursued, placed on the turns where it pursued them.
 */
import { InvalidInputError } from "../core/errors.js";
import { readSpelledKeys } from "./spelled-keys.js";
import { childPath, isJsonObject } from "../core/json.js";
import { readCalls } from "../adapters/case-fields.js";

/** Turns a simulated user has before its conversation counts as never ended. */
export const defaultMaxTurns = 10;
const mostTurns = 100;

/** What the user pursues in one part of the conversation, and the calls it should lead to. */
export interface UserIntent {
  readonly name: string;
  readonly description?: string;
  /** The calls the agent should make for it, as a case gives expected calls (matchers allowed). */
  readonly expectedTools?: readonly unknown[];
}

export interface SimulatedUser {
  /** What the user wants; said to the agent in the user's own words, never pasted. */
  readonly goal: string;
  /** What the user knows (an order id, an email): every value it may say, as text. */
  readonly facts: Readonly<Record<string, string>>;
  readonly persona?: string;
  /** Messages it may send; one more it would need is the conversation never ending. */
  readonly maxTurns: number;
  readonly intents: readonly UserIntent[];
}

const keys = ["goal", "facts", "persona", "maxTurns", "intents"] as const;
type Key = (typeof keys)[number];
const spellings: ReadonlyMap<string, Key> = new Map<string, Key>([
  ...keys.map((key): [string, Key] => [key, key]),
  ["max_turns", "maxTurns"],
]);

/**
 * Reads a case's `user`; an `InvalidInputError` naming the field (`user.maxTurns`) when it
 * cannot be, and for a key it does not read.
 */
export function readSimulatedUser(value: unknown, field = "user"): SimulatedUser {
  // `at` is a path of keys and list places below the field.
  const fail = (message: string, ...at: (string | number)[]): never => {
    const where = at.reduce<string>((path, key) => childPath(path, key), field);
    throw new InvalidInputError({ field: where, message: `${where} ${message}` });
  };
  if (!isJsonObject(value)) {
    return fail('must be an object { "goal": ..., "facts": { ... }, "maxTurns": ... }');
  }
  const given = readSpelledKeys(value, spellings, keys, fail);

  const { goal, persona, maxTurns } = given;
  if (typeof goal !== "string" || goal.trim() === "") {
    fail("must say what the user wants, as text", "goal");
  }
  if (persona !== undefined && typeof persona !== "string") fail("must be text", "persona");
  if (
    maxTurns !== undefined &&
    !(Number.isInteger(maxTurns) && (maxTurns as number) >= 1 && (maxTurns as number) <= mostTurns)
  ) {
    fail(`must be a whole number of turns from 1 to ${mostTurns}`, "maxTurns");
  }
  return {
    goal: goal as string,
    facts: readFacts(given.facts, fail),
    ...(persona === undefined ? {} : { persona: persona as string }),
    maxTurns: (maxTurns as number | undefined) ?? defaultMaxTurns,
    intents: readIntents(given.intents, field, fail),
  };
}

function readFacts(
  value: unknown,
  fail: (message: string, ...at: (string | number)[]) => never,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isJsonObject(value)) return fail("must be an object of what the user knows", "facts");
  const facts: Record<string, string> = {};
  for (const [key, fact] of Object.entries(value)) {
    if (typeof fact === "string") facts[key] = fact;
    else if (typeof fact === "number" || typeof fact === "boolean") facts[key] = String(fact);
    else fail("must be text, a number or true/false", "facts", key);
  }
  return facts;
}

function readIntents(
  value: unknown,
  field: string,
  fail: (message: string, ...at: (string | number)[]) => never,
): UserIntent[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    return fail('must be a list of { "name": ..., "expectedTools": [...] }', "intents");
  }
  const seen = new Set<string>();
  return value.map((intent: unknown, at): UserIntent => {
    const where = ["intents", at] as const;
    if (!isJsonObject(intent)) return fail('must be an object { "name": ... }', ...where);
    for (const key of Object.keys(intent)) {
      if (!["name", "description", "expectedTools", "expected_tools"].includes(key)) {
        fail("is not read (an intent gives name, description, expectedTools)", ...where, key);
      }
    }
    // Read as unknown: a key left out is undefined, whatever the object's type says.
    const name: unknown = intent.name;
    const description: unknown = intent.description;
    const expected: unknown = intent.expectedTools ?? intent.expected_tools;
    if (typeof name !== "string" || name === "") return fail("must be a name", ...where, "name");
    if (seen.has(name)) fail("names an intent given before", ...where, "name");
    seen.add(name);
    if (description !== undefined && typeof description !== "string") {
      fail("must be text", ...where, "description");
    }
    if (expected !== undefined && !Array.isArray(expected)) {
      fail("must be a list of calls", ...where, "expectedTools");
    }
    // Read by the one call reader now: a typo shows before any run, not at scoring.
    const calls = Array.isArray(expected)
      ? readCalls(expected, "expected", `${field}.intents[${at}].expectedTools`)
      : undefined;
    return {
      name,
      ...(typeof description === "string" ? { description } : {}),
      ...(calls === undefined ? {} : { expectedTools: calls }),
    };
  });
}

/** How a simulated user spoiled a run. */
export type UserFaultKind =
  | "invented-fact"
  | "contradicted-fact"
  | "goal-revealed"
  | "stopped-early"
  | "never-stopped"
  | "no-answer";

/** One fault of the simulated user, at its message `turn` (1-based). */
export interface UserFault {
  readonly kind: UserFaultKind;
  readonly turn: number;
  readonly message: string;
}

/** Runs of the goal's words this long, pasted into a message, reveal it. */
const revealingRun = 8;
/** Goals shorter than this have no run a message could be told to have pasted. */
const shortestRevealable = 5;

/**
 * The faults of one message the user sends (its turn 1-based): values it states (ids, numbers,
 * emails, URLs) that nothing it was given or was told holds, those of the shape of one of its
 * facts named as contradicting it, and its goal pasted (a run of its words).
 */
export function checkUserMessage(input: {
  readonly user: SimulatedUser;
  readonly message: string;
  readonly turn: number;
  /** What the user has seen and said before: the agent's replies, its own earlier messages. */
  readonly heard: readonly string[];
}): UserFault[] {
  const { user, message, turn } = input;
  const faults: UserFault[] = [];
  const knownText = [user.goal, user.persona ?? "", ...Object.values(user.facts), ...input.heard]
    .join("\n")
    .toLowerCase();
  // Numbers are known by value too: 49.90 is the 49.9 of a fact, 1,200 the 1200 of a reply.
  const knownNumbers = new Set(statedValues(knownText).map(numberOf));
  for (const value of statedValues(message)) {
    if (knownText.includes(value.toLowerCase())) continue;
    const number = numberOf(value);
    if (!Number.isNaN(number) && knownNumbers.has(number)) continue;
    const fact = Object.entries(user.facts).find(([, given]) =>
      statedValues(given).some((other) => shapeOf(other) === shapeOf(value)),
    );
    faults.push(
      fact === undefined
        ? {
            kind: "invented-fact",
            turn,
            message: `turn ${turn}: the simulated user said ${JSON.stringify(value)}, which is in none of its facts, its goal, or what the agent said`,
          }
        : {
            kind: "contradicted-fact",
            turn,
            message: `turn ${turn}: the simulated user said ${JSON.stringify(value)} where its facts.${fact[0]} is ${JSON.stringify(fact[1])}`,
          },
    );
  }
  const pasted = pastedRun(user.goal, message);
  if (pasted !== undefined) {
    faults.push({
      kind: "goal-revealed",
      turn,
      message: `turn ${turn}: the simulated user pasted its goal ("${pasted}") rather than saying it in its own words`,
    });
  }
  return faults;
}

/**
 * The faults of how the conversation ended: the user ended it before the agent answered at
 * all, or was still going when its turns ran out, or ended it without pursuing an intent that
 * expects calls.
 */
export function checkUserEnding(input: {
  readonly user: SimulatedUser;
  /** Messages the agent answered. */
  readonly answered: number;
  /** Whether the user ended the conversation (else its turns ran out). */
  readonly ended: boolean;
  /** The intents its messages pursued. */
  readonly pursued: readonly (string | undefined)[];
}): UserFault[] {
  const { user, answered } = input;
  const turn = answered + 1;
  if (!input.ended) {
    return [
      {
        kind: "never-stopped",
        turn,
        message: `the simulated user did not end the conversation in its ${user.maxTurns} turns (maxTurns)`,
      },
    ];
  }
  if (answered === 0) {
    return [
      {
        kind: "stopped-early",
        turn,
        message: "the simulated user ended the conversation before the agent answered anything",
      },
    ];
  }
  const missed = user.intents.filter(
    (intent) => intent.expectedTools !== undefined && !input.pursued.includes(intent.name),
  );
  return missed.length === 0
    ? []
    : [
        {
          kind: "stopped-early",
          turn,
          message: `the simulated user ended the conversation without pursuing ${missed.map((intent) => JSON.stringify(intent.name)).join(", ")}, whose calls the case expects`,
        },
      ];
}

/**
 * Values a message states that a user can only know: emails, URLs, and words with a digit in
 * them (order numbers, amounts, dates, phone numbers), but for plain numbers under 100 (the 10 of
 * "10 days" is talk, not a fact).
 */
export function statedValues(text: string): string[] {
  const found = text.match(
    /https?:\/\/[^\s"'<>)]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[\w$€£#.,/:-]*\d[\w$€£#.,/:-]*/g,
  );
  return (found ?? [])
    .map((value) => value.replace(/^[#$€£.,/:-]+|[.,/:-]+$/g, ""))
    .filter((value) => /\d|@|:\/\//.test(value) && !/^\d{1,2}$/.test(value));
}

/** A value as a number (`$1,200.50` is 1200.5), or NaN when it is not one. */
function numberOf(value: string): number {
  return /^[\d,]*\.?\d+$/.test(value) ? Number(value.replace(/,/g, "")) : Number.NaN;
}

/**
 * A value's shape: any email, any URL; else letters as `a`, digits as `9`, the rest as it is
 * (`A-1001` is `a-9999`).
 */
function shapeOf(value: string): string {
  if (value.includes("://")) return "url";
  if (value.includes("@")) return "email";
  return value.toLowerCase().replace(/[a-z]/g, "a").replace(/\d/g, "9");
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A run of the goal's words the message holds, when it is long enough to have been pasted. */
function pastedRun(goal: string, message: string): string | undefined {
  const goalWords = wordsOf(goal);
  if (goalWords.length < shortestRevealable) return undefined;
  const length = Math.min(revealingRun, goalWords.length);
  const said = ` ${wordsOf(message).join(" ")} `;
  for (let at = 0; at + length <= goalWords.length; at++) {
    const run = goalWords.slice(at, at + length).join(" ");
    if (said.includes(` ${run} `)) return run;
  }
  return undefined;
}

/**
 * Each turn's expected calls, by the intent the user pursued there rather than the turn's number:
 * an intent's expected call goes to the first of its turns that made a call of that tool (not
 * given another), else to its last turn; turns of no intent with calls expect none. Undefined
 * (no expectation) when no intent expects calls; an intent never pursued expects nothing here
 * (`checkUserEnding` says so).
 */
export function expectedByIntent(input: {
  readonly intents: readonly UserIntent[];
  /** The intent of each turn's message. */
  readonly turnIntents: readonly (string | undefined)[];
  /** The names of the tools each turn called, in order. */
  readonly called: readonly (readonly string[])[];
}): unknown[][] | undefined {
  const { intents, turnIntents, called } = input;
  if (!intents.some((intent) => intent.expectedTools !== undefined)) return undefined;
  const expected = turnIntents.map((): unknown[] => []);
  // Calls of each turn not yet given an expected call, by tool name.
  const open = called.map((names) => {
    const counts = new Map<string, number>();
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    return counts;
  });
  for (const intent of intents) {
    const turns = turnIntents.flatMap((name, at) => (name === intent.name ? [at] : []));
    if (turns.length === 0) continue;
    for (const call of intent.expectedTools ?? []) {
      const name = expectedName(call);
      const at = turns.find((turn) => (open[turn]?.get(name) ?? 0) > 0) ?? turns[turns.length - 1];
      const left = open[at]?.get(name) ?? 0;
      if (left > 0) open[at]?.set(name, left - 1);
      expected[at]?.push(call);
    }
  }
  return expected;
}

/** An expected call's tool name as the call reader gave it; none for a group of calls. */
function expectedName(call: unknown): string {
  return isJsonObject(call) && typeof call.name === "string" ? call.name : "";
}
