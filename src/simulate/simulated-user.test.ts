import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { thrown } from "../../test/support/errors.js";
import {
  checkUserEnding,
  checkUserMessage,
  defaultMaxTurns,
  expectedByIntent,
  readSimulatedUser,
  statedValues,
} from "./simulated-user.js";

const user = readSimulatedUser({
  goal: "Get a refund for the blender in order A-1001, which arrived broken on the second day",
  facts: { order_id: "A-1001", email: "sam@example.test", amount: 49.9 },
  persona: "a busy parent",
  intents: [
    { name: "identify", expectedTools: [{ name: "get_order", arguments: { id: "A-1001" } }] },
    { name: "refund", expectedTools: [{ name: "refund_order", arguments: { id: "A-1001" } }] },
  ],
});

describe("readSimulatedUser", () => {
  it("reads a goal, facts as text, a persona, intents, and maxTurns (default 10)", () => {
    expect(user.facts).toEqual({
      order_id: "A-1001",
      email: "sam@example.test",
      amount: "49.9",
    });
    expect(user.maxTurns).toBe(defaultMaxTurns);
    expect(user.intents.map((intent) => intent.name)).toEqual(["identify", "refund"]);
    expect(readSimulatedUser({ goal: "x", max_turns: 3 }).maxTurns).toBe(3);
  });

  it("names the field it cannot read, with the closest spelling of a key it does not know", () => {
    const cases: [unknown, string, RegExp][] = [
      ["refund me", "user", /must be an object/],
      [{ facts: {} }, "user.goal", /what the user wants/],
      [{ goal: "x", maxTurns: 0 }, "user.maxTurns", /from 1 to 100/],
      [{ goal: "x", fact: {} }, "user.fact", /did you mean "facts"/],
      // The model comes from the run: a dataset cannot name it.
      [{ goal: "x", model: "openai/gpt-4o" }, "user.model", /is not read/],
      [{ goal: "x", facts: { id: { a: 1 } } }, "user.facts.id", /text, a number/],
      [{ goal: "x", intents: [{ name: "a" }, { name: "a" }] }, "user.intents[1].name", /before/],
      [
        { goal: "x", intents: [{ name: "a", expectedTools: [{ nmae: "f" }] }] },
        "user.intents[0].expectedTools[0]",
        /nmae/,
      ],
    ];
    for (const [value, field, message] of cases) {
      const error = thrown(() => readSimulatedUser(value), InvalidInputError);
      expect(error.field.startsWith(field), `${error.field} for ${field}`).toBe(true);
      expect(error.message).toMatch(message);
    }
  });
});

describe("checkUserMessage", () => {
  const check = (message: string, heard: string[] = []) =>
    checkUserMessage({ user, message, turn: 2, heard });

  it("passes a message that states only what the user was given or told", () => {
    expect(check("Hi, my blender from order A-1001 broke. Can I get my money back?")).toEqual([]);
    expect(check("It was 49.9, my email is sam@example.test")).toEqual([]);
    // A number known by value, written otherwise.
    expect(
      check("It cost $49.90, and the agent said 1200 points", ["You have 1,200 points."]),
    ).toEqual([]);
    expect(check("Yes, ticket T-77 is right", ["I opened ticket T-77 for you."])).toEqual([]);
  });

  it("finds a value made up, and one that contradicts a fact of its shape", () => {
    const invented = check("My phone is 555-0100");
    expect(invented).toEqual([
      {
        kind: "invented-fact",
        turn: 2,
        message: expect.stringContaining(
          'said "555-0100", which is in none of its facts',
        ) as string,
      },
    ]);
    const contradicted = check("The order is A-1002, email sam@other.test");
    expect(contradicted.map((fault) => fault.kind)).toEqual([
      "contradicted-fact",
      "contradicted-fact",
    ]);
    expect(contradicted[0]?.message).toContain('where its facts.order_id is "A-1001"');
    expect(contradicted[1]?.message).toContain("facts.email");
  });

  it("finds the goal pasted (a run of eight of its words), not a paraphrase", () => {
    expect(
      check("I want to get a refund for the blender in order A-1001, which arrived broken")[0]
        ?.kind,
    ).toBe("goal-revealed");
    expect(check("The blender came broken. Refund please, order A-1001.")).toEqual([]);
    const short = readSimulatedUser({ goal: "Cancel order A-1001", facts: { id: "A-1001" } });
    expect(
      checkUserMessage({ user: short, message: "Cancel order A-1001", turn: 1, heard: [] }),
    ).toEqual([]);
  });

  it("reads values with digits, emails and URLs, without the punctuation around them", () => {
    expect(
      statedValues("Order #A-1001. Paid $49.90 on 2024-05-01, see https://x.test/a?b=1 or a@b.co"),
    ).toEqual(["A-1001", "49.90", "2024-05-01", "https://x.test/a?b=1", "a@b.co"]);
    expect(statedValues("I have 2 kids and waited 10 days, since 3pm")).toEqual(["3pm"]);
  });
});

describe("checkUserEnding", () => {
  const ending = (answered: number, ended: boolean, pursued: (string | undefined)[] = []) =>
    checkUserEnding({ user, answered, ended, pursued }).map((fault) => fault.kind);

  it("finds a user that ends before the agent answered, or never ends", () => {
    expect(ending(0, true)).toEqual(["stopped-early"]);
    expect(ending(10, false)).toEqual(["never-stopped"]);
  });

  it("finds a user that ends without pursuing an intent whose calls the case expects", () => {
    expect(ending(2, true, ["identify"])).toEqual(["stopped-early"]);
    expect(ending(3, true, ["identify", undefined, "refund"])).toEqual([]);
  });
});

describe("expectedByIntent", () => {
  const get = { name: "get_order", arguments: { id: "A-1001" } };
  const refund = { name: "refund_order", arguments: { id: "A-1001" } };

  it("places an intent's calls on the turns of that intent that made them, else its last turn", () => {
    // The agent asked a question first: the refund took two turns.
    expect(
      expectedByIntent({
        intents: user.intents,
        turnIntents: ["identify", "refund", "refund"],
        called: [["get_order"], [], ["refund_order"]],
      }),
    ).toEqual([[get], [], [refund]]);
    // Never refunded: the expected call is on the intent's last turn, to be found missing there.
    expect(
      expectedByIntent({
        intents: user.intents,
        turnIntents: ["identify", "refund", "refund", undefined],
        called: [["get_order"], [], [], ["refund_order"]],
      }),
    ).toEqual([[get], [], [refund], []]);
  });

  it("sets no expectation when no intent expects calls", () => {
    expect(
      expectedByIntent({ intents: [{ name: "a" }], turnIntents: ["a"], called: [["x"]] }),
    ).toBeUndefined();
  });
});
