import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configHash } from "../evaluate-to-file/open-run.js";
import { metricDefinitions } from "../registry/metric-registry.js";
import { createMetric } from "../registry/metric-registry.js";
import {
  applySetting,
  findConfigFile,
  configFileSchema,
  placedInConfig,
  readConfigFile,
} from "./config.js";
import { shareFlag } from "./io.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-config-"));
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, text);
  return file;
}

describe("readConfigFile", () => {
  it("reads metrics as a list or a map, snake_case keys, paths relative to the file", async () => {
    const yaml = await readConfigFile(
      write(
        "a.yaml",
        "metrics:\n  - tool-call-accuracy\n  - metric: axion-tool-correctness\n    strict_order: true\nfail_under: 0.9\nreport: out/report.html\n",
      ),
    );
    expect(yaml).toEqual({
      metrics: [
        { metric: "tool-call-accuracy", options: {} },
        { metric: "axion-tool-correctness", options: { strict_order: true } },
      ],
      failUnder: 0.9,
      report: path.join(directory, "out", "report.html"),
    });
    const json = await readConfigFile(
      write(
        "b.json",
        JSON.stringify({
          metrics: { "tool-call-accuracy": { order: "strict" } },
          judge: "openai/gpt-4o-mini",
        }),
      ),
    );
    expect(json).toEqual({
      metrics: [{ metric: "tool-call-accuracy", options: { order: "strict" } }],
      judge: "openai/gpt-4o-mini",
    });
  });

  it("names what is wrong: unknown settings, bad types, bad syntax", async () => {
    await expect(readConfigFile(write("c.yaml", "metric: x\n"))).rejects.toThrow(
      /unknown setting "metric"/,
    );
    await expect(readConfigFile(write("d.yaml", "metrics: 3\n"))).rejects.toThrow(
      /metrics must be a list/,
    );
    await expect(readConfigFile(write("e.json", "{"))).rejects.toThrow(
      /e\.json:1:2: not valid JSON/,
    );
    await expect(readConfigFile(write("f.yaml", "judge: { modl: x }\n"))).rejects.toThrow(
      /judge must be/,
    );
    await expect(readConfigFile(write("g.yaml", "report_max_cases: 0\n"))).rejects.toThrow(
      /g\.yaml:1:1: report_max_cases must be a whole number of at least 1/,
    );
    await expect(readConfigFile(path.join(directory, "none.yaml"))).rejects.toThrow(
      /cannot read the config file/,
    );
  });

  it("is checked against its published schema, in the file's words, at the line", async () => {
    const problems: [string, string, RegExp][] = [
      [
        "h.yaml",
        "metrics:\n  - tool-call-acuracy\n",
        /h\.yaml:1:1: metrics\[0\]: unknown metric "tool-call-acuracy" \(did you mean "tool-call-accuracy"\?\)/,
      ],
      ["i.yaml", "metrics:\n  tool-call-acuracy: {}\n", /unknown metric "tool-call-acuracy"/],
      [
        "j.yaml",
        "judge:\n  model: openai/x\n  timeout: 5\n",
        /j\.yaml:1:1: judge\.timeout is not a setting \(known: model, baseURL, concurrency, requestsPerMinute, timeoutMs, maxRetries, cache, batch, batchIntervalSeconds, batchMaxChecks\)/,
      ],
      [
        "k.yaml",
        "judge:\n  model: openai/x\n  timeout_ms: -1\n",
        /judge\.timeout_ms must be a whole number of milliseconds/,
      ],
      [
        "l.yaml",
        "judge:\n  model: openai/x\n  cache: true\n",
        /judge\.cache must be a folder, or false for none/,
      ],
      [
        "m.yaml",
        "metrics: []\nthreshold: 150%\n",
        /m\.yaml:2:1: threshold must be a share from 0 to 1/,
      ],
      [
        "n.yaml",
        "failUnder: 0.5\nfail_under: 0.9\n",
        /n\.yaml:2:1: failUnder and fail_under are one setting: keep one/,
      ],
      ["p.yaml", "group_by: run\n", /group_by takes id or metadata\.<key>/],
      ["q.yaml", "out: ''\n", /out must be a path/],
    ];
    for (const [name, text, message] of problems) {
      await expect(readConfigFile(write(name, text)), name).rejects.toThrow(message);
    }
    // An editor's $schema line is the editor's: accepted, not read.
    expect(
      await readConfigFile(
        write("r.json", JSON.stringify({ $schema: "./node_modules/toolscore/config.schema.json" })),
      ),
    ).toEqual({});
  });

  it("names in its schema every metric of the registry, and every setting it reads", () => {
    const configSchema = configFileSchema();
    const ids = (configSchema.definitions.metricId.enum as string[]).toSorted();
    expect(ids).toEqual(metricDefinitions.map((definition) => definition.id).toSorted());
    const camel = Object.keys(configSchema.properties).filter((key) => !key.includes("_"));
    const snake = Object.keys(configSchema.properties).filter((key) => key.includes("_"));
    // Every snake_case setting has its camelCase twin, with the same schema.
    for (const key of snake) {
      const twin = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      expect(configSchema.properties[twin], key).toEqual(configSchema.properties[key]);
    }
    expect(camel).toContain("$schema");
  });

  it("finds the config file of a folder", () => {
    const folder = mkdtempSync(path.join(directory, "find-"));
    expect(findConfigFile(folder)).toBeUndefined();
    writeFileSync(path.join(folder, "toolscore.config.yaml"), "");
    expect(findConfigFile(folder)).toBe(path.join(folder, "toolscore.config.yaml"));
  });
});

describe("applySetting", () => {
  const metrics = [{ metric: "tool-call-accuracy", options: { limits: { maxCalls: 5 } } }];

  it("sets nested options, reading JSON values and plain text", () => {
    const set = applySetting(
      applySetting(metrics, "tool-call-accuracy.limits.maxCalls=9"),
      "tool-call-accuracy.order=strict",
    );
    expect(set[0].options).toEqual({ limits: { maxCalls: 9 }, order: "strict" });
    expect(metrics[0].options).toEqual({ limits: { maxCalls: 5 } });
  });

  it("rejects a malformed setting or an unknown metric", () => {
    expect(() => applySetting(metrics, "order=strict")).toThrow(/metric\.option=value/);
    expect(() => applySetting(metrics, "axion.strict_order=true")).toThrow(/not in this run/);
  });

  it("never reaches a prototype (issue 34, item 10)", () => {
    for (const setting of [
      "tool-call-accuracy.__proto__.polluted=1",
      "tool-call-accuracy.constructor.prototype.polluted=1",
      "tool-call-accuracy.limits..x=1",
    ]) {
      expect(() => applySetting(metrics, setting), setting).toThrow(/is not an option name/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("configHash", () => {
  it("ignores key order and changes with any option", () => {
    const a = configHash({
      metrics: [{ metric: "m", options: { a: 1, b: 2 } }],
      normalizeNames: false,
    });
    const b = configHash({
      metrics: [{ metric: "m", options: { b: 2, a: 1 } }],
      normalizeNames: false,
    });
    const c = configHash({
      metrics: [{ metric: "m", options: { a: 1, b: 3 } }],
      normalizeNames: false,
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe("readConfigFile: what is not a regular file (issue 48, item 5)", () => {
  it("refuses a FIFO or a link to a device at once, saying what it is", async () => {
    const fifo = path.join(directory, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    await expect(readConfigFile(fifo)).rejects.toThrow(
      /cannot read the config file .*pipe\.yaml: it is a FIFO \(named pipe\), not a regular file/,
    );
    const zero = path.join(directory, "zero.yaml");
    symlinkSync("/dev/zero", zero);
    await expect(readConfigFile(zero)).rejects.toThrow(/it is a device, not a regular file/);
  });
});

describe("shares and where a metric's option is wrong (issue 49, item 3)", () => {
  const errorOf = (make: () => unknown): Error => {
    try {
      make();
    } catch (error) {
      return error as Error;
    }
    throw new Error("no error");
  };

  it("takes a threshold as a share or a percentage, in flags, settings and a metric's options", async () => {
    expect(shareFlag("threshold", "90%")).toBe(0.9);
    expect(shareFlag("threshold", "0.9")).toBe(0.9);
    expect(errorOf(() => shareFlag("threshold", "90")).message).toBe(
      '--threshold must be a share from 0 to 1 (0.9) or a percentage ("90%"), got 90',
    );
    const config = await readConfigFile(write("share.yaml", 'threshold: "90%"\nfail_under: 95%\n'));
    expect([config.threshold, config.failUnder]).toEqual([0.9, 0.95]);
    for (const metric of [
      "tool-call-accuracy",
      "response-contains",
      "deepeval-tool-correctness",
      "axion-tool-correctness",
    ]) {
      expect(() => createMetric({ metric, threshold: "75%" })).not.toThrow();
      expect(errorOf(() => createMetric({ metric, threshold: "75" })).message).toMatch(
        new RegExp(`^${metric}[:.] ?.*threshold must be a share from 0 to 1`),
      );
    }
  });

  it("scores against a percentage as against its share", () => {
    const metric = createMetric({ metric: "tool-call-accuracy", threshold: "50%" });
    const scored = metric.measureSync?.({
      toolsCalled: [{ name: "a" }] as never,
      expectedTools: [{ name: "a" }, { name: "b" }] as never,
    });
    expect(scored).toMatchObject({ status: "scored", threshold: 0.5, success: true });
  });

  it("names the file, line and column of a metric's bad option, in YAML and JSON", async () => {
    const yaml = write(
      "metric-option.yaml",
      "metrics:\n  - metric: response-contains\n  - metric: tool-call-accuracy\n    order: in-order\n    tool_rules:\n      send:\n        arguments: weird\n",
    );
    const config = await readConfigFile(yaml);
    const error = errorOf(() =>
      createMetric({ metric: "tool-call-accuracy", ...config.metrics?.[1]?.options }),
    );
    expect((placedInConfig(error, { ...config, file: yaml }) as Error).message).toBe(
      `${yaml}:5:5: tool-call-accuracy: tool_rules.send.arguments must be "exact", "subset", "superset", "ignore" or { fuzzy: 0..1 }, got "weird"`,
    );
    const json = write(
      "metric-option.json",
      '{"metrics": {"tool-call-accuracy": {"order": "sideways"}}}',
    );
    const fromJson = await readConfigFile(json);
    const sideways = errorOf(() =>
      createMetric({ metric: "tool-call-accuracy", order: "sideways" }),
    );
    expect((placedInConfig(sideways, { ...fromJson, file: json }) as Error).message).toMatch(
      new RegExp(
        `^${json.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:37: tool-call-accuracy: order must be one of`,
      ),
    );
    // Every option the message names is spelled as the file spells it, however deep.
    const deep = write(
      "deep-option.yaml",
      "metrics:\n  - metric: tool-call-accuracy\n    side_effects: {read_only: [5]}\n",
    );
    const fromDeep = await readConfigFile(deep);
    const readOnly = errorOf(() =>
      createMetric({ metric: "tool-call-accuracy", ...fromDeep.metrics?.[0]?.options }),
    );
    expect((placedInConfig(readOnly, { ...fromDeep, file: deep }) as Error).message).toBe(
      `${deep}:3:5: tool-call-accuracy: side_effects.read_only[0] must be a tool name or a glob such as "get_*", got 5`,
    );
    // An error of another metric, or of no metric, is left as it was.
    const other = errorOf(() => createMetric({ metric: "axion-tool-correctness", threshold: 2 }));
    expect(placedInConfig(other, { ...fromJson, file: json })).toBe(other);
  });
});

describe("a key in a config (issue 49, item 3)", () => {
  it("is refused first, pointing at the environment variable, without echoing the key", async () => {
    const file = write(
      "key.yaml",
      "concurrency: nope\njudge:\n  model: anthropic/claude-sonnet-4-5\n  api_key: sk-secret\n",
    );
    const error = await readConfigFile(file).then(
      () => undefined,
      (thrown: unknown) => thrown as Error & { value?: unknown },
    );
    expect(error?.message).toBe(
      `${file}:2:1: judge.api_key: a config never holds a key (a pull request could read or change it); set ANTHROPIC_API_KEY in the environment the command runs in`,
    );
    expect(JSON.stringify(error?.value ?? null)).not.toContain("sk-secret");
    const camel = write("key.json", JSON.stringify({ judge: { apiKey: "sk-secret" } }));
    await expect(readConfigFile(camel)).rejects.toThrow(
      /judge\.apiKey: a config never holds a key .*set the provider's key variable/,
    );
  });
});
