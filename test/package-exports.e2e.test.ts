/**
 * The package as a user gets it: packed by `npm run pack`, installed from the tarball into a
 * fresh project with an empty npm cache (from a loopback registry serving this checkout's
 * packages, so no test needs the internet or an earlier install), then imported, required,
 * type-checked and run, on this Node and on the oldest that `engines` allows.
 */
import { createRequire } from "node:module";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startLlmServer } from "./support/llm-server.mjs";
import { oldestNodeVersion, optionalTool } from "./support/optional-tools.js";
import { folderSize, root, runProgram, usePackedPackage } from "./support/packed-package.js";
import type { Consumer } from "./support/packed-package.js";
import { configFileSchema } from "../src/cli/config.js";

const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  exports: Record<string, { require?: unknown }>;
  peerDependencies: Record<string, string>;
};
const entryPoints = Object.keys(manifest.exports)
  .filter((key) => !key.endsWith(".json"))
  .map((key) => ({
    name: key === "." ? "toolscore" : `toolscore/${key.slice(2)}`,
    commonjs: manifest.exports[key].require !== undefined,
  }));

/** One program, compiled as ESM (smoke.mts) and as CommonJS (smoke.cts). */
const smoke = `
import { match, matchToolCalls, toToolCall, toolCallAccuracy } from "toolscore";
import { ToolCallParams, ToolCorrectnessMetric } from "toolscore/deepeval";
import { ToolCorrectness } from "toolscore/axion";
import { callsOf, toolscoreMatchers } from "toolscore/matchers";

async function main(): Promise<void> {
  const metric = new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.INPUT_PARAMETERS] });
  const score: number = await metric.measure({
    input: "q",
    toolsCalled: [{ name: "search", inputParameters: { q: "a" } }],
    expectedTools: [{ name: "search", inputParameters: { q: "a" } }],
  });
  const axion = await new ToolCorrectness({ checkParameters: true }).execute({
    toolsCalled: [{ name: "f", args: { a: 1 } }],
    expectedTools: [{ name: "f", args: { a: 1 } }],
  });
  // Ajv and ajv-formats load from the installed package: a wrong type and a bad date-time.
  const matched = matchToolCalls(
    [{ name: "count", inputParameters: { n: "3", when: "yesterday" } }],
    [{ name: "count", arguments: { n: 3, when: match.anyString() } }],
    {
      tools: [{
        name: "count",
        parameters: {
          type: "object",
          properties: { n: { type: "number" }, when: { type: "string", format: "date-time" } },
        },
      }],
    },
  );
  const accuracy = toolCallAccuracy().measureSync({
    toolsCalled: [toToolCall({ name: "x" })],
    expectedTools: [{ name: "x" }],
  });
  const passed = toolscoreMatchers.toHaveCalledTool.call({ isNot: false }, [{ name: "x" }], "x");
  console.log(JSON.stringify({
    score,
    axion: axion.score,
    matched: matched.score,
    schema: matched.schemaViolations.map((v) => v.kind),
    accuracy: accuracy.status === "scored" ? accuracy.score : accuracy.status,
    matcher: passed.pass,
    calls: callsOf([{ name: "y" }]).length,
  }));
}
void main();
`;
const smokeOutput = JSON.stringify({
  score: 1,
  axion: 1,
  matched: 1,
  schema: ["wrong-type", "invalid-value"],
  accuracy: 1,
  matcher: true,
  calls: 1,
});

/** The exported names of every entry point, by import and by require, as JSON lines. */
const namesOf = (kind: "import" | "require") => `
globalThis.expect = { extend() {} }; // toolscore/jest extends jest's global expect
const entries = ${JSON.stringify(entryPoints.filter((entry) => kind === "import" || entry.commonjs).map((entry) => entry.name))};
for (const entry of entries) {
  if (entry === "toolscore/vitest") continue; // needs vitest: see test/test-frameworks.e2e.test.ts
  const module = ${kind === "import" ? "await import(entry)" : "require(entry)"};
  console.log(JSON.stringify([entry, Object.keys(module).sort()]));
}
`;

const packed = usePackedPackage();
let consumer: Consumer;
const node = (args: readonly string[], binary = process.execPath) =>
  runProgram(binary, args, { cwd: consumer.directory });
/** The checkout's TypeScript, and the oldest it supports (the test/versions workspace's). */
const typescripts = {
  "TypeScript 6": path.join(root, "node_modules", "typescript", "bin", "tsc"),
  "TypeScript 5.4": path.join(root, "test", "versions", "node_modules", "typescript", "bin", "tsc"),
};
const tsc = (version: keyof typeof typescripts, args: readonly string[]) =>
  runProgram(process.execPath, [typescripts[version], ...args], { cwd: consumer.directory });
const strict = ["--strict", "--target", "es2022", "--skipLibCheck", "false"];

beforeAll(async () => {
  consumer = await packed().project("consumer", [packed().tarball]);
  consumer.write("smoke.mts", smoke);
  consumer.write("smoke.cts", smoke);
  consumer.write("names.mjs", namesOf("import"));
  consumer.write("names.cjs", namesOf("require"));
}, 600_000);

describe("the packed package, installed from its tarball", () => {
  it("installs without warnings, adding at most 17 packages and 12.5 MB", async () => {
    expect(consumer.install.stderr).toBe("");
    const added = Number(/added (\d+) packages?/.exec(consumer.install.stdout)?.[1]);
    expect(added).toBeLessThanOrEqual(17);
    const readme = readFileSync(path.join(root, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain(`toolscore adds ${added} packages to a project, under 12.5 MB`);
    const modules = path.join(consumer.directory, "node_modules");
    const listed = await consumer.npm(["ls", "--all", "--parseable"]);
    // The project itself, then every package installed.
    expect(listed.stdout.trim().split("\n").slice(1)).toHaveLength(added);
    const size = folderSize(modules);
    expect(size.bytes).toBeLessThanOrEqual(12_500_000);
    expect(size.disk).toBeLessThanOrEqual(12_500_000);
    // The model SDKs and image codecs are optional peers: not installed for deterministic use.
    for (const peer of Object.keys(manifest.peerDependencies)) {
      expect(existsSync(path.join(modules, peer)), peer).toBe(false);
    }
  });

  it("ships the builds and their types, without tests, sources or development scripts", () => {
    const installed = path.join(consumer.directory, "node_modules", "toolscore");
    const files = readdirSync(installed, { recursive: true }).map(String);
    expect(files.some((file) => /\.test\.|fixtures/.test(file))).toBe(false);
    expect(files.some((file) => file.startsWith(`src${path.sep}`))).toBe(false);
    expect(files).toEqual(
      expect.arrayContaining([
        path.join("dist", "entries", "index.js"),
        path.join("dist", "entries", "index.d.ts"),
        path.join("dist", "cjs", "entries", "index.js"),
        path.join("dist", "cjs", "entries", "index.d.ts"),
        path.join("dist", "cli", "bin.js"),
      ]),
    );
    expect(
      JSON.parse(readFileSync(path.join(installed, "dist", "cjs", "package.json"), "utf8")),
    ).toEqual({ type: "commonjs" });
    const published = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(published).not.toHaveProperty("scripts");
    expect(published).not.toHaveProperty("devDependencies");
    expect(published.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(published.homepage).toMatch(/^https:\/\//);
    expect(published.bugs.url).toMatch(/^https:\/\//);
    // The config's schema, for editors: the file the docs name, resolvable by its export, and
    // the one the CLI checks a config against (written from the settings table).
    const schema = JSON.parse(
      readFileSync(path.join(installed, "dist", "config.schema.json"), "utf8"),
    ) as { title: string };
    expect(schema.title).toBe("toolscore config");
    expect(schema).toEqual(configFileSchema());
    const resolved = createRequire(path.join(consumer.directory, "index.js")).resolve(
      "toolscore/config.schema.json",
    );
    expect(resolved).toBe(path.join(installed, "dist", "config.schema.json"));
  });

  it("ships its guides: no link of its README or docs goes nowhere", () => {
    const installed = path.join(consumer.directory, "node_modules", "toolscore");
    const pages = readdirSync(installed, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(".md") && !file.includes("node_modules"));
    expect(pages).toEqual(expect.arrayContaining(["README.md", path.join("docs", "README.md")]));
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(path.join(installed, page), "utf8");
      for (const [, link] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (/^[a-z]+:/i.test(link)) continue;
        links++;
        if (!existsSync(path.join(installed, path.dirname(page), link))) {
          broken.push(`${page}: ${link}`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(50);
  });

  it("exports the same names by import and by require, which needs no require(esm)", async () => {
    const imported = await node(["names.mjs"]);
    expect(imported.stderr).toBe("");
    // As on Node before 20.19 and in jest: require() cannot load ES modules.
    const required = await node(["--no-experimental-require-module", "names.cjs"]);
    expect(required.stderr).toBe("");
    const byImport = new Map(
      imported.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as [string, string[]]),
    );
    const byRequire = required.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as [string, string[]]);
    expect(byRequire.map(([entry]) => entry)).toEqual(
      entryPoints.filter((entry) => entry.commonjs).map((entry) => entry.name),
    );
    for (const [entry, names] of byRequire) {
      expect(names.length, entry).toBeGreaterThan(0);
      expect(names, entry).toEqual(byImport.get(entry));
    }
  });

  for (const version of ["TypeScript 6", "TypeScript 5.4"] as const) {
    it(`type-checks one program as ESM and as CommonJS with ${version}, and runs both`, async () => {
      const out = `out-${version.replace(/\W/g, "")}`;
      const compiled = await tsc(version, [
        ...strict,
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--outDir",
        out,
        "smoke.mts",
        "smoke.cts",
      ]);
      expect(compiled.stdout + compiled.stderr).toBe("");
      for (const file of ["smoke.mjs", "smoke.cjs"]) {
        const ran = await node([path.join(out, file)]);
        expect(ran.stderr, file).toBe("");
        expect(ran.stdout.trim(), file).toBe(smokeOutput);
      }
      // Bundler resolution (vite, webpack, esbuild users) reads the same types.
      const bundler = await tsc(version, [
        ...strict,
        "--noEmit",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "smoke.mts",
      ]);
      expect(bundler.stdout + bundler.stderr).toBe("");
    });
  }

  it("runs a module agent and an HTTP agent from the ES module and the CommonJS build alike", async () => {
    consumer.write("agent.mjs", 'export default (input) => [{ role: "user", content: input }];');
    consumer.write("agent.cjs", 'module.exports = (input) => [{ role: "user", content: input }];');
    // The endpoint is a server of the script's own, on loopback: the CommonJS build bundles ky.
    const run = (load: string) => `
const { resolveAgent, runAgentOnce } = ${load};
const http = require("node:http");
const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => response.end(JSON.stringify([{ role: "user", content: JSON.parse(body).input }])));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = "http://127.0.0.1:" + server.address().port + "/";
for (const spec of ["agent.mjs", "agent.cjs", url]) {
  const agent = await resolveAgent(spec, { cwd: process.cwd() });
  const request = { caseId: "a", input: "hi", attempt: 0, turn: 0, history: [], session: "s" };
  const outcome = await runAgentOnce(agent, request, { timeoutMs: 60000 });
  console.log(spec === url ? "url" : spec, outcome.status, JSON.stringify(outcome.transcript));
}
server.close();`;
    consumer.write(
      "agents.mjs",
      `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${run('await import("toolscore/node")')}`,
    );
    consumer.write("agents.cjs", `(async () => {${run('require("toolscore/node")')}})();`);
    for (const file of ["agents.mjs", "agents.cjs"]) {
      const ran = await node([file]);
      expect(ran.stderr, file).toBe("");
      expect(ran.stdout, file).toBe(
        ["agent.mjs", "agent.cjs", "url"]
          .map((name) => `${name} answered [{"role":"user","content":"hi"}]\n`)
          .join(""),
      );
    }
  });

  it("installs the command line as a bin that scores a dataset", async () => {
    consumer.write(
      "runs.jsonl",
      `${JSON.stringify({ id: "ok", toolsCalled: [{ name: "a" }], expectedTools: [{ name: "a" }] })}\n`,
    );
    const bin = path.join(consumer.directory, "node_modules", ".bin", "toolscore");
    const help = await runProgram(bin, ["eval", "--help"], { cwd: consumer.directory });
    expect(help.stdout).toMatch(/^Usage: toolscore eval <dataset>/);
    const scored = await runProgram(bin, ["eval", "runs.jsonl"], { cwd: consumer.directory });
    expect(scored.stdout).toContain("1 case: 1 passed");
    expect(scored.code).toBe(0);
  });
});

describe("the other ways the README installs it", () => {
  /** The same program, by import and by require, from wherever the project has toolscore. */
  const loads = `
const imported = await import("toolscore");
const { createRequire } = await import("node:module");
const required = createRequire(import.meta.url)("toolscore");
const run = (m) => m.matchToolCalls([{ name: "a" }], [{ name: "a" }]).score;
console.log(JSON.stringify([run(imported), run(required)]));
`;

  it("installs from a tarball kept in the project, and npm ci installs it again on a fresh machine", async () => {
    // The README's way: the tarball in vendor/, committed with the lock file.
    const project = await packed().project("vendored", []);
    mkdirSync(path.join(project.directory, "vendor"));
    const vendored = path.join(project.directory, "vendor", path.basename(packed().tarball));
    copyFileSync(packed().tarball, vendored);
    await project.npm(["install", "--save-dev", `./vendor/${path.basename(vendored)}`]);
    const bin = (directory: string) => path.join(directory, "node_modules", ".bin", "toolscore");
    const init = await runProgram(bin(project.directory), ["init"], { cwd: project.directory });
    expect(init.code).toBe(0);
    expect(init.stderr).toBe("");
    // What CI checks out: the repository's files, at another path, without node_modules; npm ci
    // runs with an empty cache (the registry helper gives every command a new one).
    const clone = path.join(path.dirname(project.directory), "vendored-clone");
    cpSync(project.directory, clone, {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`),
    });
    const workflow = readFileSync(
      path.join(clone, ".github", "workflows", "toolscore.yml"),
      "utf8",
    );
    expect(workflow).toContain("- run: npm ci\n");
    await packed().registry.npm(["ci"], clone);
    const gate = await runProgram(bin(clone), ["eval", "evals/dataset.jsonl"], { cwd: clone });
    expect(gate.stdout).toContain("3 cases: 3 passed");
    expect(gate.code).toBe(0);
  }, 600_000);

  it("warns at init when the lock file records a tarball outside the repository", async () => {
    // The old way: `npm install ../toolscore/toolscore-x.tgz` records a path CI does not have.
    const project = await packed().project("outside", [packed().tarball]);
    const bin = path.join(project.directory, "node_modules", ".bin", "toolscore");
    const init = await runProgram(bin, ["init"], { cwd: project.directory });
    expect(init.code).toBe(0);
    expect(init.stderr).toContain("outside this repository");
    expect(init.stderr).toContain("npm ci");
  });

  it("installs from a git URL, building itself on the way", async () => {
    // The checkout as it would be pushed: its tracked and unignored files, committed.
    const repository = await packed().snapshotRepository();
    const project = await packed().project("from-git", [`git+file://${repository}`]);
    // npm 11 names the one install script toolscore has: the build, which a git install runs.
    expect(project.install.stderr).toMatch(
      /toolscore@[\d.]+ \(prepare: node scripts\/prepare.mjs\)/,
    );
    expect(project.install.stderr.replace(/.*install-scripts.*\n?/g, "")).toBe("");
    expect(project.install.stdout).toMatch(/added 17 packages/);
    project.write("loads.mjs", loads);
    const ran = await runProgram(process.execPath, ["loads.mjs"], { cwd: project.directory });
    expect(ran.stderr).toBe("");
    expect(ran.stdout.trim()).toBe("[1,1]");
  }, 600_000);

  it("says what to do when a fresh checkout is installed by its path, which cannot build", async () => {
    const repository = await packed().snapshotRepository();
    const failed = await packed()
      .project("from-path", [repository])
      .then(
        () => "",
        (error: unknown) => (error as { stderr?: string }).stderr ?? "",
      );
    expect(failed).toContain("toolscore: cannot build");
    expect(failed).toContain("Install the packed tarball instead");
  }, 600_000);
});

describe("optional peer dependencies", () => {
  const missing = `
const toolscore = await import("toolscore");
const { MultiModalFaithfulness } = await import("toolscore/ragas");
const { loadImage } = await import("toolscore/node");
const failure = (run) => {
  try { run(); return "no error"; } catch (error) { return { code: error.code, message: error.message }; }
};
const judge = { specificationVersion: "v1", provider: "test", modelId: "m", supportsImages: true, generate: async () => ({}) };
// A 1x1 BMP: converting it to PNG needs the image codecs.
const bmp = Buffer.from("Qk06AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAAAQAAAATCwAAEwsAAAAAAAAAAAAAAAD/AA==", "base64");
console.log(JSON.stringify({
  openai: failure(() => toolscore.createOpenAIJudge({ model: "gpt-4o-mini", apiKey: "k" })),
  keyAndSdk: failure(() => toolscore.createOpenAIJudge({ model: "gpt-4o-mini", apiKey: "" })),
  anthropic: failure(() => toolscore.resolveJudgeModel("anthropic/claude-sonnet-4-5", { apiKey: "k" })),
  aiSdk: failure(() => toolscore.fromAiSdk({ specificationVersion: "v2", provider: "openai.chat", modelId: "gpt-4.1" })),
  downscale: failure(() => new MultiModalFaithfulness({ llm: judge, imageLoading: { downscale: true } })),
  bmp: await loadImage({ kind: "base64", data: bmp.toString("base64") }).then(() => "loaded", (error) => ({ code: error.code, message: error.message })),
}));
`;

  it("fails where a judge or image scaling is set up, naming the package and the install command", async () => {
    consumer.write("missing.mjs", missing);
    const ran = await node(["missing.mjs"]);
    expect(ran.stderr).toBe("");
    const result = JSON.parse(ran.stdout) as Record<string, { code: string; message: string }>;
    expect(result.openai).toEqual({
      code: "MISSING_DEPENDENCY",
      message: 'the openai judge needs "openai", which is not installed: run `npm install openai`',
    });
    // Every missing piece at once: the key and the package.
    expect(result.keyAndSdk).toEqual({
      code: "PROVIDER_CONFIG",
      message:
        'openai: no API key; set OPENAI_API_KEY or pass apiKey; and the openai judge needs "openai", which is not installed: run `npm install openai`',
    });
    expect(result.anthropic.message).toBe(
      'the anthropic judge needs "@anthropic-ai/sdk", which is not installed: run `npm install @anthropic-ai/sdk`',
    );
    expect(result.aiSdk.message).toBe(
      'a judge on an AI SDK model (fromAiSdk) needs "ai", which is not installed: run `npm install ai`',
    );
    const codecs =
      "npm install @jimp/core @jimp/js-bmp @jimp/js-gif @jimp/js-jpeg @jimp/js-png @jimp/plugin-resize";
    expect(result.downscale).toMatchObject({ code: "MISSING_DEPENDENCY" });
    expect(result.downscale.message).toContain(codecs);
    // Mid-run, only the image that needs the codecs fails, saying how to get them.
    expect(result.bmp).toMatchObject({ code: "MEDIA_LOAD" });
    expect(result.bmp.message).toContain(codecs);

    // The command line stops before any case, with exit code 2.
    consumer.write(
      "tools.jsonl",
      `${JSON.stringify({ id: "c", input: "q", toolsCalled: [{ name: "a" }], availableTools: [{ name: "a" }] })}\n`,
    );
    const bin = path.join(consumer.directory, "node_modules", ".bin", "toolscore");
    const cli = await runProgram(
      bin,
      [
        "eval",
        "tools.jsonl",
        "-m",
        "tool-selection",
        "--judge",
        "openai/gpt-4o-mini",
        "--out",
        "judged.jsonl",
      ],
      { cwd: consumer.directory, env: { ...process.env, OPENAI_API_KEY: "k" } },
    );
    expect(cli.stderr).toContain("npm install openai");
    expect(cli.code).toBe(2);
    expect(existsSync(path.join(consumer.directory, "judged.jsonl"))).toBe(false);

    // Simulated tools served over MCP to a command: the SDK is asked for before any run.
    consumer.write("cases.jsonl", `${JSON.stringify({ id: "c", input: "q" })}\n`);
    consumer.write("tools.json", JSON.stringify([{ name: "a", description: "A tool" }]));
    const mcp = await runProgram(
      bin,
      ["eval", "cases.jsonl", "--agent", "node never-run.mjs", "--tools", "tools.json"],
      { cwd: consumer.directory },
    );
    expect(mcp.stderr).toContain("npm install @modelcontextprotocol/sdk");
    expect(mcp.code).toBe(2);
    expect(existsSync(path.join(consumer.directory, "toolscore-results.runs.jsonl"))).toBe(false);
    // An MCP server's tools linted: the same, and a file of definitions needs no SDK.
    const lint = await runProgram(bin, ["lint-tools", "node server.mjs"], {
      cwd: consumer.directory,
    });
    expect(lint.stderr).toContain("an MCP server's tools needs");
    expect(lint.stderr).toContain("npm install @modelcontextprotocol/sdk");
    expect(lint.code).toBe(2);
    const file = await runProgram(bin, ["lint-tools", "tools.json"], { cwd: consumer.directory });
    expect(file).toMatchObject({ code: 0 });
    expect(file.stdout).toContain("tools.json: 1 tool, 0 errors, 1 warning");
  });

  it("loads an SDK installed afterwards, by import and by require", async () => {
    const server = await startLlmServer({ answer: () => ({ reason: "fine", score: 1 }) });
    try {
      const added = await consumer.npm(["install", "openai"]);
      expect(added.stderr).toBe("");
      const ask = (load: string) => `
const { createOpenAIJudge } = ${load};
const judge = createOpenAIJudge({ model: "gpt-4o-mini", apiKey: "k", baseURL: ${JSON.stringify(server.openaiBaseURL)} });
const schema = { name: "verdict", schema: { type: "object", properties: { reason: { type: "string" }, score: { type: "number" } }, required: ["reason", "score"], additionalProperties: false } };
judge.generate({ messages: [{ role: "user", content: "ok?" }], schema }).then((answer) => console.log(JSON.stringify(answer.output)));
`;
      consumer.write("ask.mjs", ask('await import("toolscore")'));
      consumer.write("ask.cjs", ask('require("toolscore")'));
      for (const [file, flags] of [
        ["ask.mjs", []],
        ["ask.cjs", ["--no-experimental-require-module"]],
      ] as const) {
        const ran = await node([...flags, file]);
        expect(ran.stderr, file).toBe("");
        expect(JSON.parse(ran.stdout), file).toEqual({ reason: "fine", score: 1 });
      }
      expect(server.modelCalls).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

const oldestNode = optionalTool("oldest-node");
(oldestNode.runs ? describe : describe.skip)(
  `on the oldest Node that engines allows${oldestNode.runs ? "" : ` [skipped: ${oldestNode.missing}]`}`,
  () => {
    it("imports and requires every entry point, and runs the program and the command line", async () => {
      expect(oldestNode.present, oldestNode.missing).toBe(true);
      const version = await node(["--version"], oldestNode.path);
      expect(version.stdout.trim()).toBe(`v${oldestNodeVersion()}`);
      const imported = await node(["names.mjs"], oldestNode.path);
      expect(imported.stderr).toBe("");
      const required = await node(["names.cjs"], oldestNode.path);
      expect(required.stderr).toBe("");
      expect(required.stdout.trim().split("\n")).toHaveLength(
        entryPoints.filter((entry) => entry.commonjs && entry.name !== "toolscore/vitest").length,
      );
      const compiled = await tsc("TypeScript 6", [
        ...strict,
        "--module",
        "nodenext",
        "--outDir",
        "out-oldest",
        "smoke.mts",
        "smoke.cts",
      ]);
      expect(compiled.stdout + compiled.stderr).toBe("");
      for (const file of ["smoke.mjs", "smoke.cjs"]) {
        const ran = await node([path.join("out-oldest", file)], oldestNode.path);
        expect(ran.stderr, file).toBe("");
        expect(ran.stdout.trim(), file).toBe(smokeOutput);
      }
      consumer.write(
        "old.jsonl",
        `${JSON.stringify({ id: "ok", toolsCalled: [{ name: "a" }], expectedTools: [{ name: "a" }] })}\n`,
      );
      const cli = await node(
        [
          path.join("node_modules", "toolscore", "dist", "cli", "bin.js"),
          "eval",
          "old.jsonl",
          "--out",
          "old-results.jsonl",
        ],
        oldestNode.path,
      );
      expect(cli.stdout).toContain("1 case: 1 passed");
      expect(cli.code).toBe(0);
    });
  },
);
