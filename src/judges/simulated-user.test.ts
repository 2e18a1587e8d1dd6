import { describe, expect, it } from "vitest";
import { simulatedUserRequest } from "./simulated-user.js";

/** A marker naming the field it was put in. */
const mark = (field: string) => `MK<${field}>`;

describe("simulatedUserRequest", () => {
  it("fences every piece of the case and the conversation, and carries the seed", () => {
    const request = simulatedUserRequest(
      {
        goal: mark("goal"),
        facts: { [mark("fact key")]: mark("fact") },
        persona: mark("persona"),
        intents: [{ name: mark("intent"), description: mark("intent description") }],
      },
      [{ user: mark("said"), agent: [mark("reply")] }],
      7,
    );
    const text = request.messages
      .map((message) => (typeof message.content === "string" ? message.content : ""))
      .join("\n");
    const outside = text.replace(/(`{3,})\n[\s\S]*?\n\1/g, "");
    for (const field of ["goal", "fact key", "fact", "persona", "intent", "said", "reply"]) {
      expect(text, field).toContain(mark(field));
      expect(outside, field).not.toContain(mark(field));
    }
    expect(request.sample).toBe(7);
    expect(request.schema.schema).toMatchObject({
      properties: { intent: { enum: [mark("intent"), null] } },
      required: ["message", "intent", "done"],
    });
  });

  it("leaves intent out of the answer when the case lists none", () => {
    const request = simulatedUserRequest({ goal: "a refund", facts: {}, intents: [] }, [], 0);
    expect(request.schema.schema).toMatchObject({ required: ["message", "done"] });
    expect(request.schema.schema.properties).not.toHaveProperty("intent");
    expect(request.messages[1]?.content).toContain("(nothing yet: write your first message)");
  });
});
