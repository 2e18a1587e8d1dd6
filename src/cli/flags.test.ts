import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { flagNamesOf, flagsHelp } from "./flags.js";
import type { Flag } from "./flags.js";

const flags = {
  out: { type: "string", short: "o", value: "<file>", help: "where to write\n(default out.jsonl)" },
  "only-failed": { type: "string", value: "<results>", help: "the failed cases of that file" },
  set: {
    type: "string",
    multiple: true,
    group: "Metrics",
    value: "<id.opt=value>",
    help: "an option",
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Readonly<Record<string, Flag>>;

describe("flag tables", () => {
  it("writes the help from the table: columns, long flags, groups in order", () => {
    expect(flagsHelp(flags)).toBe(
      [
        "  -o, --out <file>          where to write",
        "                            (default out.jsonl)",
        "      --only-failed <results>",
        "                            the failed cases of that file",
        "  -h, --help",
        "",
        "Metrics",
        "      --set <id.opt=value>  an option",
      ].join("\n"),
    );
    expect(flagsHelp({ out: flags.out }, 20).split("\n")[0]).toBe(
      "  -o, --out <file>  where to write",
    );
  });

  it("is what parseArgs reads, the help's keys ignored", () => {
    const { values } = parseArgs({
      args: ["-o", "a.jsonl", "--set", "x.y=1", "--set", "x.z=2", "--only-failed", "r.jsonl"],
      options: flags,
      strict: true,
    });
    expect(values).toEqual({ out: "a.jsonl", set: ["x.y=1", "x.z=2"], "only-failed": "r.jsonl" });
    expect(flagNamesOf(flags)).toEqual(["--out", "--only-failed", "--set", "--help"]);
  });
});
