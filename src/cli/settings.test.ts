import path from "node:path";
import { describe, expect, it } from "vitest";
import { evalFlags } from "./eval.js";
import { configGroups, runConfigSchema, runSettings } from "./run-settings.js";
import type { MetricConfig, RunSettings } from "./run-settings.js";
import {
  configKey,
  configSchemaOf,
  flagName,
  flagsOf,
  kinds,
  resolveSettings,
  snake,
} from "./settings.js";
import type { Setting, SettingsTable } from "./settings.js";

const entries = Object.entries(runSettings) as [keyof RunSettings, Setting<unknown>][];

describe("the run's settings table", () => {
  it("gives every setting a flag or a config key, and no two the same", () => {
    for (const [name, setting] of entries) {
      expect(setting.flag !== undefined || setting.config !== undefined, name).toBe(true);
    }
    const flags = entries.filter(([, s]) => s.flag !== undefined).map(([n, s]) => flagName(n, s));
    expect(new Set(flags).size).toBe(flags.length);
    const keys = entries.flatMap(([name, setting]) => configKey(name, setting) ?? []);
    const spelled = keys.flatMap((key) => [key, snake(key)]);
    expect(new Set(spelled).size).toBe(
      new Set(keys).size + keys.filter((k) => snake(k) !== k).length,
    );
  });

  it("is where eval's flags come from: each flag once, with its help", () => {
    expect(Object.keys(evalFlags)).toEqual(
      entries.filter(([, s]) => s.flag !== undefined).map(([n, s]) => flagName(n, s)),
    );
    for (const [name, flag] of Object.entries(evalFlags)) {
      if (name !== "help") expect(flag.help, name).toMatch(/\w/);
      // A flag that takes a value shows its placeholder.
      if (flag.type === "string") expect(flag.value, name).toMatch(/\S/);
    }
    expect(evalFlags["fail-under"]).toMatchObject({ type: "string", group: "Results and reports" });
    expect(evalFlags.metric).toMatchObject({ type: "string", short: "m", multiple: true });
  });

  it("writes the config schema with both spellings of every key, one schema for both", () => {
    const schema = runConfigSchema(["tool-call-accuracy"]) as {
      properties: Record<string, { oneOf?: { properties?: Record<string, unknown> }[] }>;
    };
    const { properties } = schema;
    for (const [name, setting] of entries) {
      const key = configKey(name, setting);
      if (key === undefined) continue;
      const [outer, inner] = key.split(".") as [string, string?];
      const where =
        inner === undefined ? properties : (properties[outer].oneOf?.[1].properties ?? {});
      const last = inner ?? outer;
      expect(where[last], key).toBeDefined();
      expect(where[snake(last)], key).toEqual(where[last]);
    }
    expect(properties.judge_timeout_ms).toBeUndefined();
    expect(properties.judge.oneOf?.[1].properties?.base_url).toBeDefined();
    expect(Object.keys(configGroups)).toEqual(["judge", "user"]);
    // A plain string stands for the group's model, as it does for the judge.
    expect(properties.user.oneOf?.[1].properties?.model).toBeDefined();
  });

  it("spells acronyms as config files do", () => {
    expect(snake("baseURL")).toBe("base_url");
    expect(snake("requestsPerMinute")).toBe("requests_per_minute");
    expect(snake("out")).toBe("out");
  });
});

describe("resolveSettings", () => {
  const cwd = path.resolve("/work/here");

  it("takes a flag over the config over the default, and says where each came from", () => {
    const { settings, from } = resolveSettings(
      runSettings,
      ["failUnder", "threshold", "details", "out", "normalizeNames", "report"],
      {
        flags: { "fail-under": "90%", report: "r.html" },
        config: { failUnder: 0.5, threshold: 0.7, report: "/elsewhere/c.html" },
        cwd,
      },
    );
    expect(settings).toEqual({
      failUnder: 0.9,
      threshold: 0.7,
      details: "none",
      out: path.join(cwd, "toolscore-results.jsonl"),
      normalizeNames: false,
      report: path.join(cwd, "r.html"),
    });
    expect(from).toEqual({ failUnder: "flag", threshold: "config", report: "flag" });
  });

  it("keeps a metric's configured options when --metric names it", () => {
    const configured: MetricConfig[] = [
      { metric: "axion-tool-correctness", options: { strict_order: true } },
      { metric: "tool-call-accuracy", options: { order: "strict" } },
    ];
    const { settings } = resolveSettings(runSettings, ["metrics"], {
      flags: { metric: ["tool-call-accuracy", "response-contains"] },
      config: { metrics: configured },
      cwd,
    });
    expect(settings.metrics).toEqual([
      { metric: "tool-call-accuracy", options: { order: "strict" } },
      { metric: "response-contains", options: {} },
    ]);
    const none = resolveSettings(runSettings, ["metrics", "set"], { flags: {}, config: {}, cwd });
    expect(none.settings).toEqual({
      metrics: [{ metric: "tool-call-accuracy", options: {} }],
      set: [],
    });
  });

  it("refuses a bad flag by its name, saying what it takes", () => {
    const resolve = (flags: Record<string, unknown>) => () =>
      resolveSettings(runSettings, ["details", "shard", "concurrency", "threshold", "groupBy"], {
        flags,
        config: {},
        cwd,
      });
    expect(resolve({ details: "some" })).toThrow('--details takes none, failed or all, got "some"');
    expect(resolve({ shard: "3/2" })).toThrow(/--shard takes i\/n with 1 <= i <= n/);
    expect(resolve({ concurrency: "0" })).toThrow(/--concurrency must be a number from 1/);
    expect(resolve({ threshold: "2" })).toThrow(/--threshold must be a share/);
    expect(resolve({ "group-by": "task" })).toThrow(/--group-by takes id or metadata/);
  });

  it("reads a config's percentage, and names the key as spelled when it is out of range", () => {
    const place = { directory: cwd, spelled: "fail_under" };
    expect(kinds.share.fromConfig("95%", place)).toBe(0.95);
    expect(() => kinds.share.fromConfig("150%", place)).toThrow(
      /^fail_under must be a share from 0 to 1/,
    );
    expect(kinds.file.fromConfig("out/r.jsonl", place)).toBe(path.join(cwd, "out", "r.jsonl"));
  });
});

describe("a table of one's own", () => {
  interface Settings {
    readonly verbose: boolean;
    readonly level: "low" | "high" | undefined;
    readonly timeoutMs: number | undefined;
  }
  const table: SettingsTable<Settings> = {
    verbose: { kind: kinds.yesNo, flag: { short: "v", help: "say more" } },
    level: {
      kind: kinds.choice(["low", "high"]),
      flag: { value: "low|high", help: "how much" },
      config: { doc: "How much" },
    },
    timeoutMs: {
      kind: kinds.number(1, 1000),
      flag: { name: "timeout", value: "<ms>", help: "each try" },
      config: { key: "judge.timeoutMs", doc: "Each try" },
    },
  };

  it("makes flags, a schema and values from the one table", () => {
    expect(flagsOf(table, ["verbose", "timeoutMs"])).toEqual({
      verbose: { type: "boolean", short: "v", help: "say more" },
      timeout: { type: "string", value: "<ms>", help: "each try" },
    });
    const schema = configSchemaOf(
      table,
      { judge: { description: "The judge", errorMessage: "must be a judge", shorthand: "model" } },
      { top: { type: "object" }, first: {}, definitions: {} },
    );
    expect(schema).toMatchObject({
      properties: {
        level: { enum: ["low", "high"], description: "How much" },
        judge: { oneOf: [{ type: "string" }, { properties: { timeoutMs: {}, timeout_ms: {} } }] },
      },
      additionalProperties: false,
    });
    expect(
      resolveSettings(table, ["verbose", "level", "timeoutMs"], {
        flags: { timeout: "20" },
        config: { level: "high", timeoutMs: 5 },
        cwd: "/",
      }).settings,
    ).toEqual({ verbose: false, level: "high", timeoutMs: 20 });
  });

  it("does not compile without an entry for every setting", () => {
    // @ts-expect-error: `timeoutMs` has no entry.
    const missing: SettingsTable<Settings> = {
      verbose: table.verbose,
      level: table.level,
    };
    expect(Object.keys(missing)).toHaveLength(2);
  });
});
