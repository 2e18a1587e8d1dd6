import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readToolList } from "../adapters/tool-spec.js";
import { lintRules, lintTools } from "./lint-tools.js";
import type { LintRuleId } from "./lint-tools.js";

/** A tool that trips nothing. */
const good = {
  name: "get_order",
  description: "Look an order up by its id: its items, status and total.",
  parameters: {
    type: "object",
    properties: { order_id: { type: "string", description: "The order's id, like A-1001." } },
    required: ["order_id"],
  },
};

const rulesOf = (tools: unknown[], providers?: ("openai" | "anthropic" | "gemini")[]) =>
  lintTools(readToolList(tools), providers === undefined ? {} : { providers }).map(
    (finding) => finding.rule,
  );

describe("lintTools", () => {
  it("finds nothing in a tool that says what it does, with typed and described parameters", () => {
    expect(lintTools(readToolList([good]))).toEqual([]);
  });

  const tripping: [LintRuleId, unknown[]][] = [
    ["description-missing", [{ ...good, description: "" }]],
    ["description-short", [{ ...good, description: "Gets order." }]],
    [
      "parameter-untyped",
      [{ ...good, parameters: { type: "object", properties: { id: { description: "The id." } } } }],
    ],
    [
      "parameter-undescribed",
      [{ ...good, parameters: { type: "object", properties: { limit: { type: "integer" } } } }],
    ],
    [
      "required-undocumented",
      [
        {
          ...good,
          parameters: {
            type: "object",
            properties: { region: { type: "string" } },
            required: ["region"],
          },
        },
      ],
    ],
    [
      "enum-undocumented",
      [
        {
          ...good,
          parameters: {
            type: "object",
            properties: {
              mode: { type: "string", enum: ["A", "B"], description: "The mode to look up in." },
            },
          },
        },
      ],
    ],
    [
      "names-confusable",
      [good, { ...good, name: "getOrder", description: "Fetch one order's full details now." }],
    ],
    [
      "tools-overlap",
      [
        good,
        {
          ...good,
          name: "lookup",
          description: "Look an order up by its id: items, status, total.",
        },
      ],
    ],
    ["provider-name", [{ ...good, name: "orders.get" }]],
    ["provider-schema", [{ ...good, parameters: { type: "string" } }]],
    ["name-duplicate", [good, good]],
  ];
  it.each(tripping)("%s: a tool list written to trip it", (rule, tools) => {
    expect(rulesOf(tools)).toContain(rule);
    // Each list trips its rule, and no other but what it cannot help (a copy confuses names).
    expect(
      rulesOf(tools).filter((found) => found !== rule && found !== "names-confusable"),
    ).toEqual([]);
  });

  it("checks each provider's documented name pattern and tool count", () => {
    // Dots: Gemini takes them, OpenAI and Anthropic do not.
    const dotted = lintTools(readToolList([{ ...good, name: "orders.get" }]));
    expect(dotted.map((finding) => finding.message)).toEqual([
      '"orders.get" is not a name openai takes (^[a-zA-Z0-9_-]{1,64}$)',
      '"orders.get" is not a name anthropic takes (^[a-zA-Z0-9_-]{1,64}$)',
    ]);
    // A digit first: only Gemini refuses it.
    expect(rulesOf([{ ...good, name: "2fa_check" }], ["gemini"])).toEqual(["provider-name"]);
    expect(rulesOf([{ ...good, name: "2fa_check" }], ["openai"])).toEqual([]);
    const many = Array.from({ length: 129 }, (_, at) => ({
      ...good,
      name: `tool_${at}_${"x".repeat(at % 7)}`,
      description: `Tool number ${at} does its own distinct job ${at}.`,
    }));
    const counted = lintTools(readToolList(many), { providers: ["openai"] }).filter(
      (finding) => finding.rule === "provider-tool-count",
    );
    expect(counted).toEqual([
      expect.objectContaining({ message: "129 tools: openai takes at most 128 in a request" }),
    ]);
  });

  it("says where an entry it could not read sits, rather than passing over it", () => {
    expect(lintTools([], { unread: ["tools[2]"] })).toEqual([
      {
        rule: "entry-unread",
        severity: "warning",
        message:
          "tools[2] is not a function tool definition (it has no name), so it is not checked",
        fix: "give it a name, or leave built-in tools out of the list linted",
      },
    ]);
  });

  it("gives every finding its rule's severity, a message and a fix", () => {
    const all = tripping.flatMap(([, tools]) => lintTools(readToolList(tools)));
    for (const finding of all) {
      expect(finding.severity).toBe(lintRules[finding.rule].severity);
      expect(finding.message.length).toBeGreaterThan(10);
      expect(finding.fix.length).toBeGreaterThan(10);
    }
    expect(new Set(all.map((finding) => finding.rule)).size).toBe(tripping.length);
  });
});

describe("docs/guides/lint-tools.md", () => {
  it("lists every rule with its severity and what it finds, and no other", () => {
    const page = readFileSync("docs/guides/lint-tools.md", "utf8");
    const rows = [...page.matchAll(/^\| `([a-z-]+)` +\| (error|warning) +\| (.+?) +\|$/gm)].map(
      ([, id, severity, finds]) => [id, { severity, finds }],
    );
    expect(Object.fromEntries(rows)).toEqual(lintRules);
  });
});
