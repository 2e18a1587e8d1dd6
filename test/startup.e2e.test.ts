import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";

/** Issue 37, item 7: each command loads what it uses, when it uses it. */
const folder = testFolders("toolscore-startup-");

// Preloaded into the CLI: at exit, says which of the heavy packages the command loaded
// (CommonJS packages land in require's cache, however they were required: picomatch stands for
// tinyglobby, which loads it), and whether Node's HTTP client (undici) was loaded, as ky's first
// load does.
const preload = path.join(
  folder({
    "loaded-modules.cjs": `process.on("exit", () => {
  const loaded = Object.keys(require.cache);
  const names = ["ajv", "yaml", "picomatch"].filter((name) =>
    loaded.some((file) => file.includes("/node_modules/" + name + "/")),
  );
  if (process.moduleLoadList.some((entry) => entry.includes("undici"))) names.push("undici");
  process.stderr.write("loaded-modules: " + JSON.stringify(names) + "\\n");
});
`,
  }),
  "loaded-modules.cjs",
);

/** The heavy packages a CLI run loaded, as the preloaded script reports them at exit. */
async function loadedBy(args: readonly string[], cwd: string): Promise<string[]> {
  const run = await runCliProcess(args, { cwd, env: { NODE_OPTIONS: `--require ${preload}` } });
  const line = /^loaded-modules: (.*)$/m.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return JSON.parse(line?.[1] ?? "null") as string[];
}

const call = (x: unknown) => ({ name: "lookup", arguments: { x } });

describe("start-up: what each command loads", () => {
  it("loads no Ajv, yaml, glob or HTTP client for --version, --help or an eval without schemas", async () => {
    const cwd = folder({
      "cases.jsonl": jsonl([{ toolsCalled: [call(1)], expectedTools: [call(1)] }]),
    });
    expect(await loadedBy(["--version"], cwd)).toEqual([]);
    expect(await loadedBy(["eval", "--help"], cwd)).toEqual([]);
    expect(await loadedBy(["eval", "cases.jsonl", "-o", "out.jsonl"], cwd)).toEqual([]);
  });

  it("loads Ajv once a case or a config has a schema to check, and yaml for a YAML config", async () => {
    const tool = {
      name: "lookup",
      parameters: { type: "object", properties: { x: { type: "integer" } } },
    };
    const cwd = folder({
      "cases.jsonl": jsonl([
        { toolsCalled: [call("1")], expectedTools: [call(1)], availableTools: [tool] },
      ]),
      "gate.yaml": "metrics:\n  - metric: tool-call-accuracy\n",
      "gate.json": JSON.stringify({ metrics: ["tool-call-accuracy"] }),
      "plain.jsonl": jsonl([{ toolsCalled: [call(1)], expectedTools: [call(1)] }]),
    });
    // A config is checked against its JSON Schema: Ajv, without yaml for a JSON one.
    expect(
      await loadedBy(["eval", "plain.jsonl", "-o", "c.jsonl", "--config", "gate.json"], cwd),
    ).toEqual(["ajv"]);
    expect(await loadedBy(["eval", "cases.jsonl", "-o", "a.jsonl"], cwd)).toEqual(["ajv"]);
    expect(
      await loadedBy(["eval", "cases.jsonl", "-o", "b.jsonl", "--config", "gate.yaml"], cwd),
    ).toEqual(["ajv", "yaml"]);
  });
});
