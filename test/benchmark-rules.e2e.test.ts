/**
 * The rules a benchmark needs, said by a config alone (issue 36): schema defaults off, the kinds
 * of schema violation that fail, unparsed arguments as no call, and tool names mapped. Each in
 * a YAML config (snake_case), a JSON config (camelCase) and `--set`, through the real CLI.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-benchmark-rules-");

const area = {
  name: "area",
  parameters: {
    type: "object",
    properties: { base: { type: "integer" }, unit: { type: "string", default: "cm" } },
    required: ["base"],
  },
};
const plot = {
  name: "plot",
  parameters: {
    type: "object",
    properties: { kind: { type: "string", enum: ["sine", "cosine"] }, points: { type: "integer" } },
  },
};
const any = { $match: "any" };
const cases = [
  {
    id: "left-at-default",
    availableTools: [area],
    toolsCalled: [{ name: "area", arguments: { base: 10 } }],
    expectedTools: [{ name: "area", arguments: { base: 10, unit: "cm" } }],
  },
  {
    id: "enum-only",
    availableTools: [plot],
    toolsCalled: [{ name: "plot", arguments: { kind: "tangent", points: 5 } }],
    expectedTools: [{ name: "plot", arguments: { kind: any, points: any } }],
  },
  {
    id: "wrong-type",
    availableTools: [plot],
    toolsCalled: [{ name: "plot", arguments: { kind: "tangent", points: "five" } }],
    expectedTools: [{ name: "plot", arguments: { kind: any, points: any } }],
  },
  {
    id: "garbled-irrelevance",
    toolsCalled: [{ name: "plot", arguments: '{"kind": "sine"' }],
    expectedTools: [],
  },
  {
    id: "dotted",
    toolsCalled: [{ name: "math_factorial", arguments: { n: 5 } }],
    expectedTools: [{ name: "math.factorial", arguments: { n: 5 } }],
  },
];
const dataset = `${cases.map((item) => JSON.stringify(item)).join("\n")}\n`;

/** Each case's verdict (passed or not) from a run in `cwd` with `args`. */
async function verdicts(cwd: string, args: readonly string[]): Promise<Record<string, boolean>> {
  const run = await runCliProcess(["eval", "cases.jsonl", ...args], { cwd });
  expect(run.stderr).not.toMatch(/INVALID|unknown/i);
  const out: Record<string, boolean> = {};
  for (const record of recordsByIndex(path.join(cwd, "toolscore-results.jsonl")).values()) {
    out[record.id as string] = record.status === "passed";
  }
  return out;
}

const withRules = {
  "left-at-default": false,
  "enum-only": true,
  "wrong-type": false,
  "garbled-irrelevance": true,
  dotted: true,
};

describe("a benchmark's rules in a config", () => {
  it("changes no verdict by default", async () => {
    expect(await verdicts(folder({ "cases.jsonl": dataset }), [])).toEqual({
      "left-at-default": true,
      "enum-only": true,
      "wrong-type": true,
      "garbled-irrelevance": false,
      dotted: false,
    });
  });

  it("reads the rules from a YAML config in snake_case", async () => {
    const yaml = [
      "metrics:",
      "  - metric: tool-call-accuracy",
      "    schema_defaults: false",
      "    on_schema_violation: { fail: [unknown-argument, wrong-type] }",
      "    unparsed_arguments: no-call",
      "    normalize_names: { dotted_names: underscore, dynamic_suffix: false }",
      "",
    ].join("\n");
    const cwd = folder({ "cases.jsonl": dataset, "toolscore.config.yaml": yaml });
    expect(await verdicts(cwd, [])).toEqual(withRules);
    const records = recordsByIndex(path.join(cwd, "toolscore-results.jsonl"));
    const reasons = [...records.values()].map((record) => JSON.stringify(record.metrics));
    expect(reasons.join("\n")).toContain("counts as no call");
    expect(reasons.join("\n")).toContain("The case fails on its wrong-type violations");
  });

  it("reads the same rules from a JSON config in camelCase", async () => {
    const config = {
      metrics: [
        {
          metric: "tool-call-accuracy",
          schemaDefaults: false,
          onSchemaViolation: { fail: ["unknown-argument", "wrong-type"] },
          unparsedArguments: "no-call",
          normalizeNames: { dottedNames: "underscore", dynamicSuffix: false },
        },
      ],
    };
    const cwd = folder({ "cases.jsonl": dataset, "toolscore.config.json": config });
    expect(await verdicts(cwd, [])).toEqual(withRules);
  });

  it("takes the same rules from --set, in either spelling", async () => {
    const set = (option: string) => ["--set", `tool-call-accuracy.${option}`];
    const args = [
      ...set("schema_defaults=false"),
      ...set('onSchemaViolation={"fail":["unknown-argument","wrong-type"]}'),
      ...set("unparsed_arguments=no-call"),
      ...set("normalizeNames.dotted_names=underscore"),
      ...set("normalizeNames.dynamicSuffix=false"),
    ];
    expect(await verdicts(folder({ "cases.jsonl": dataset }), args)).toEqual(withRules);
  });
});

/**
 * BFCL multi-turn judges a run by the state it leaves: `multi_turn_base_42` expects `touch`, then
 * `echo`, then `wc` (ShishirPatil/gorilla, `BFCL_v4_multi_turn_base.json`). A model that also
 * calls `mkdir` leaves another file system and fails; one that also lists the folder passes.
 * The file-system tools that read nothing but state are declared read-only.
 */
describe("BFCL multi-turn's state rule in a config", () => {
  const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });
  const touch = call("touch", { file_name: "Notes2023.txt" });
  const echo = call("echo", {
    content: "Study diligently, practice programming, master algorithms.",
    file_name: "Notes2023.txt",
  });
  const wc = call("wc", { file_name: "Notes2023.txt", mode: "c" });
  const expected = [[touch], [echo], [wc]];
  const run = (id: string, made: unknown[][]) => ({
    id,
    turns: expected.map((tools, at) => ({ expected_tools: tools, tools_called: made[at] })),
  });
  const conversations = [
    run("as-expected", [[touch], [echo], [wc]]),
    run("extra-mkdir", [[call("mkdir", { dir_name: "Notes" }), touch], [echo], [wc]]),
    run("extra-ls", [[call("ls", { a: true }), touch], [echo], [call("pwd"), wc]]),
    run("second-echo", [[touch], [echo, echo], [wc]]),
  ];
  const config = [
    "turn_aggregate: all",
    "metrics:",
    "  - metric: tool-call-accuracy",
    "    order: in-order",
    "    side_effects:",
    "      read_only: [ls, pwd, cat, wc, grep, find, tail, diff, du, sort]",
    "",
  ].join("\n");

  it("fails an extra call that changes state and passes one that reads", async () => {
    const cwd = folder({
      "cases.jsonl": `${conversations.map((item) => JSON.stringify(item)).join("\n")}\n`,
      "toolscore.config.yaml": config,
    });
    expect(await verdicts(cwd, [])).toEqual({
      "as-expected": true,
      "extra-mkdir": false,
      "extra-ls": true,
      "second-echo": false,
    });
    const records = [...recordsByIndex(path.join(cwd, "toolscore-results.jsonl")).values()];
    const mkdir = JSON.stringify(records.find((record) => record.id === "extra-mkdir"));
    expect(mkdir).toContain("called[0] mkdir: an extra call of a tool that changes state");
  });

  it("passes every one under the order alone, as before", async () => {
    const cwd = folder({
      "cases.jsonl": `${conversations.map((item) => JSON.stringify(item)).join("\n")}\n`,
      "toolscore.config.yaml": config.replace(
        / {4}side_effects:\n.*\n/,
        "    side_effects: { undeclared: read-only }\n",
      ),
    });
    expect(Object.values(await verdicts(cwd, []))).toEqual([true, true, true, true]);
  });
});
