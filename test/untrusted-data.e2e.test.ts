/**
 * A dataset, a recording, an expected file or a cache may come from a stranger's pull request,
 * run in CI with a secret in the environment: what they may make toolscore do, end to end
 * through the real CLI, every server a loopback listener the test starts.
 */
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { useLlmServer } from "./support/judge-fixtures.js";
import { testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-untrusted-");

const server = useLlmServer();
const secret = "sk-untrusted-test-0123456789abcdef";

const jsonl = (items: readonly object[]) => items.map((item) => JSON.stringify(item)).join("\n");

/** One case whose tool selection a judge weighs. */
const selectionCase = jsonl([
  {
    id: "a",
    input: "book a flight",
    available_tools: [{ name: "search" }, { name: "book" }],
    tools_called: [{ name: "search" }],
  },
]);

/** The records of a results file, by case id. */
function records(file: string): Map<string, Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const record = JSON.parse(line) as Record<string, unknown>;
    if (typeof record.id === "string") byId.set(record.id, record);
  }
  return byId;
}

describe("trust comes from the run, never from the data (issue 34, item 1)", () => {
  it("a case cannot point a metric's judge at its own server, nor open image policies", async () => {
    const hostile = {
      model: "openai/gpt-4o",
      modelSettings: { baseURL: server().openaiBaseURL, apiKey: "theirs" },
      availableTools: [{ name: "lookup" }],
      imageLoading: { allowedRoots: ["/"], allowAddresses: ["0.0.0.0/0"] },
    };
    const dir = folder({
      "runs.jsonl": jsonl([
        {
          id: "steal",
          input: "hi",
          actual_output: "done",
          tools_called: [{ name: "lookup" }],
          expected_tools: [{ name: "lookup" }],
          metricOptions: { "deepeval-multimodal-tool-correctness": hostile },
        },
        {
          id: "fine",
          input: "hi",
          actual_output: "done",
          tools_called: [{ name: "lookup" }],
          expected_tools: [{ name: "lookup" }],
          metricOptions: { "deepeval-multimodal-tool-correctness": { threshold: 1 } },
        },
      ]),
    });
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "-m", "deepeval-multimodal-tool-correctness"],
      { cwd: dir, env: { OPENAI_API_KEY: secret } },
    );
    expect(server().requests).toHaveLength(0);
    expect(run.code).toBe(3);
    const byId = records(path.join(dir, "toolscore-results.jsonl"));
    expect(byId.get("fine")).toMatchObject({ status: "passed" });
    expect(byId.get("steal")).toMatchObject({
      status: "error",
      metrics: {
        "Multimodal Tool Correctness": {
          status: "error",
          error: {
            code: "INVALID_OPTION",
            message: expect.stringMatching(
              /metricOptions\.deepeval-multimodal-tool-correctness\.model: a case may not set "model": the judge comes from the run: --judge/,
            ) as unknown,
          },
        },
      },
    });
  });

  it.each([
    ["tool-call-accuracy", { limits: { maxPairEvaluations: 1e15 } }, /limits are the run's/],
    ["tool-call-accuracy", { name: "Mine" }, /a metric's name is the run's/],
    ["deepeval-tool-correctness", { model: "openai/gpt-4o" }, /the judge comes from the run/],
    ["axion-tool-correctness", { limits: {} }, /limits are the run's/],
    ["response-contains", { name: "x" }, /name is the run's/],
    [
      "deepeval-trajectory-tool-correctness",
      { batch_max_iterations: 1e9 },
      /batch settings are the run's/,
    ],
    ["deepeval-trajectory-tool-correctness", { modelCredentials: "k" }, /key comes from the run/],
    ["tool-call-accuracy", { ordr: "strict" }, /may not set "ordr" \(did you mean "order"\?\)/],
  ])("%s refuses a case's %j", async (metric, options, message) => {
    const dir = folder({
      "runs.jsonl": jsonl([
        {
          id: "a",
          input: "hi",
          tools_called: [{ name: "lookup" }],
          expected_tools: [{ name: "lookup" }],
          metricOptions: { [metric]: options },
        },
      ]),
    });
    const run = await runCliProcess(["eval", "runs.jsonl", "-m", metric], {
      cwd: dir,
      env: { OPENAI_API_KEY: secret },
    });
    expect(run.code).toBe(3);
    const record = records(path.join(dir, "toolscore-results.jsonl")).get("a");
    const result = Object.values(record?.metrics as Record<string, { error?: unknown }>)[0];
    expect(result.error).toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringMatching(message) as unknown,
    });
    expect(JSON.stringify(record)).not.toContain("1000000000000000");
  });

  it("a run that asks a judge names it and its endpoint; --help says which metrics may", async () => {
    const dir = folder({
      "runs.jsonl": selectionCase,
    });
    server().answer = () => ({
      reason: "fine",
      overSelected: [],
      underSelected: [],
      misSelected: [],
      score: 1,
    });
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "-m", "tool-selection", "--judge", "openai/gpt-4o-mini", "--no-cache"],
      {
        cwd: dir,
        env: {
          OPENAI_API_KEY: secret,
          OPENAI_BASE_URL: server().openaiBaseURL,
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `toolscore: judge openai/gpt-4o-mini at ${server().openaiBaseURL}`,
    );
    expect(run.stderr + run.stdout).not.toContain(secret);

    const help = await runCliProcess(["eval", "--help"], { cwd: dir });
    expect(help.stdout).toMatch(/^ {2}response-contains +deterministic: never asks a judge$/m);
    expect(help.stdout).toMatch(
      /^ {2}tool-call-accuracy +asks the judge for cases whose expected calls hold judged values/m,
    );
    expect(help.stdout).toMatch(/^ {2}tool-selection +judged: needs --judge$/m);
    expect(help.stdout).toMatch(
      /^ {2}deepeval-multimodal-tool-correctness +asks the judge when its availableTools option/m,
    );
    expect(help.stdout).toMatch(
      /^ {2}deepeval-trajectory-tool-correctness +asks the judge for cases with availableTools/m,
    );
  });
});

/** A loopback server run by `handle`, which counts its requests; closed after the test file. */
async function rawServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const listener = createServer((request, response) => {
    requests++;
    request.resume();
    handle(request, response);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });
  const { port } = listener.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests: () => requests };
}

describe("deadlines are deadlines (issue 34, item 5)", () => {
  /** tool-selection on one case, judged at `url` with a 1 s timeout: the exit code and result. */
  async function judgedAt(url: string, retries: number, timeoutMs = 1000) {
    const dir = folder({
      "runs.jsonl": selectionCase,
      "toolscore.config.yaml": `judge:\n  model: openai/gpt-4o-mini\n  base_url: ${url}\n  max_retries: ${retries}\n`,
    });
    const run = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "-m",
        "tool-selection",
        "--judge-timeout",
        String(timeoutMs),
        "--no-cache",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: secret } },
    );
    const record = records(path.join(dir, "toolscore-results.jsonl")).get("a");
    return { run, result: Object.values(record?.metrics as Record<string, unknown>)[0] };
  }

  it("bounds each try by --judge-timeout, the read of a trickled answer included", async () => {
    // Headers at once, then the answer a byte at a time, for as long as the client listens.
    const trickle = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => {
        response.write(" ");
      }, 100);
      response.on("close", () => {
        clearInterval(timer);
      });
    });
    // Tries of 3 s: the retry starts about 0.5 s after the first is cut, well inside the call's
    // 6 s on a loaded machine too.
    const { run, result } = await judgedAt(trickle.url, 1, 3000);
    expect(run.code, run.stderr).toBe(3);
    // One try and one retry, each cut at the deadline: never a pass. A read the deadline did
    // not cut would hold the one try until the call's end, and the retry would never be sent.
    expect(trickle.requests()).toBe(2);
    expect(result).toMatchObject({ status: "error", error: { code: "PROVIDER_CALL" } });
  });

  it("ends a call with its retries within (retries + 1) × timeout, whatever Retry-After asks", async () => {
    const busy = await rawServer((_request, response) => {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "3600" });
      response.end(JSON.stringify({ error: { message: "slow down", type: "rate_limit" } }));
    });
    const { run, result } = await judgedAt(busy.url, 2);
    expect(run.code, run.stderr).toBe(3);
    expect(busy.requests()).toBeGreaterThanOrEqual(1);
    expect(busy.requests()).toBeLessThanOrEqual(3);
    expect(result).toMatchObject({ status: "error", error: { code: "PROVIDER_CALL" } });
  });
});

describe("no crash from shape or size (issue 34, item 3)", () => {
  const plain = (id: string) => ({
    id,
    toolsCalled: [{ name: "a" }],
    expectedTools: [{ name: "a" }],
  });
  const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
  const deepCase = `{"id":"deep","toolsCalled":[],"expectedTools":[],"metadata":${deep}}`;

  it.each([
    ["runs.json", `[${deepCase},${JSON.stringify(plain("ok"))}]`],
    ["runs.jsonl", `${deepCase}\n${JSON.stringify(plain("ok"))}\n`],
  ])(
    "5,000 levels of nesting in %s are that case's error; the run and its report go on",
    async (name, text) => {
      const dir = folder({ [name]: text });
      const run = await runCliProcess(["eval", name, "--report", "report.html"], { cwd: dir });
      expect(run.stderr).not.toMatch(/RangeError|Maximum call stack/);
      expect(run.code).toBe(3);
      const byId = records(path.join(dir, "toolscore-results.jsonl"));
      expect(byId.get("ok")).toMatchObject({ status: "passed" });
      expect(byId.get("deep")).toMatchObject({
        status: "error",
        error: {
          code: "DATASET_PARSE",
          message: expect.stringContaining(
            "metadata is nested more than 1000 levels deep",
          ) as unknown,
        },
      });
      expect(readFileSync(path.join(dir, "report.html"), "utf8")).toContain("<html");
    },
  );

  it("a results file nested too deep is refused by name, never a crash of the report", async () => {
    const dir = folder({ "runs.jsonl": `${JSON.stringify(plain("ok"))}\n` });
    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd: dir })).code).toBe(0);
    const file = path.join(dir, "toolscore-results.jsonl");
    const [header, record, end] = readFileSync(file, "utf8").trimEnd().split("\n");
    const crafted = record.replace('"reason":', `"details":${deep},"reason":`);
    writeFileSync(file, `${header}\n${crafted}\n${end}\n`);
    const run = await runCliProcess(["report", file, "--report", "again.html"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("RESULTS_FILE");
    expect(run.stderr).toContain("line 2 is nested more than 1000 levels deep");
    expect(run.stderr).not.toMatch(/RangeError/);
  });

  it.each([0, 1])(
    "a line over 256 MiB is its case's error, decided from its length (workers %i)",
    async (workers) => {
      const dir = folder({});
      const file = path.join(dir, "runs.jsonl");
      writeFileSync(file, `${JSON.stringify(plain("first"))}\n`);
      // Sparse 300 MiB lines (no disk), never held in memory by either reader: one in the
      // middle, one at the end without a newline.
      const long = 300 * 1024 * 1024;
      truncateSync(file, statSync(file).size + long);
      appendFileSync(file, `\n\n${JSON.stringify(plain("last"))}\n`);
      truncateSync(file, statSync(file).size + long);
      const run = await runCliProcess(["eval", "runs.jsonl", "--workers", String(workers)], {
        cwd: dir,
      });
      expect(run.stderr).not.toMatch(/RangeError|Cannot create a string|Assertion/);
      expect(run.code).toBe(3);
      const byId = records(path.join(dir, "toolscore-results.jsonl"));
      expect(byId.get("first")).toMatchObject({ status: "passed", index: 0, line: 1 });
      expect(byId.get("last")).toMatchObject({ status: "passed", index: 2, line: 4 });
      const overlong = (line: number, bytes: number) => ({
        status: "error",
        line,
        error: {
          code: "DATASET_PARSE",
          message: expect.stringContaining(
            `line ${line}: ${bytes} bytes, over the 268435456-byte limit of a dataset line`,
          ) as unknown,
        },
      });
      expect(byId.get("case-2")).toMatchObject({ index: 1, ...overlong(2, long + 1) });
      expect(byId.get("case-4")).toMatchObject({ index: 3, ...overlong(5, long) });
      // Where the last case's line sits, as reports read it again.
      const lastSource = byId.get("last")?.source as { offset: number };
      expect(lastSource.offset).toBe(
        statSync(file).size - long - JSON.stringify(plain("last")).length - 1,
      );
    },
  );

  it("a JSON dataset too large to read whole is refused by its size, with the way out", async () => {
    const dir = folder({});
    const file = path.join(dir, "runs.json");
    writeFileSync(file, "[");
    truncateSync(file, 300 * 1024 * 1024);
    const run = await runCliProcess(["eval", "runs.json"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("over the 268435456-byte limit of a JSON dataset");
    expect(run.stderr).toContain("write it as JSONL");
  });
});

describe("the judge cache is not a back door (issue 34, item 2)", () => {
  const selection = (score: number) => () => ({
    reason: score === 1 ? "fine" : "book was needed",
    overSelected: [],
    underSelected: score === 1 ? [] : ["book"],
    misSelected: [],
    score,
  });
  const judgeRun = (dir: string, env: Record<string, string>) =>
    runCliProcess(["eval", "runs.jsonl", "-m", "tool-selection", "--judge", "openai/gpt-4o-mini"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server().openaiBaseURL, ...env },
    });

  it("answers written under another account are never read as this one's", async () => {
    const dir = folder({ "runs.jsonl": selectionCase });
    const userCache = path.join(dir, "user-cache");
    // A stranger's run, with their own key, fills the cache with passing answers.
    server().answer = selection(1);
    const theirs = await judgeRun(dir, {
      OPENAI_API_KEY: "sk-stranger",
      XDG_CACHE_HOME: userCache,
    });
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(server().modelCalls).toHaveLength(1);
    // The CI's run with its own key asks its judge, which fails the case.
    server().answer = selection(0);
    const ours = await judgeRun(dir, { OPENAI_API_KEY: secret, XDG_CACHE_HOME: userCache });
    expect(server().modelCalls).toHaveLength(2);
    expect(ours.code).toBe(1);
    // Nothing of the run's cache sits in the checkout.
    expect(existsSync(path.join(dir, ".toolscore"))).toBe(false);
    expect(readdirSync(path.join(userCache, "toolscore", "judge-cache")).length).toBeGreaterThan(0);
  });

  it("a cache whose entries git tracks is refused before any case runs", async () => {
    const dir = folder({
      "runs.jsonl": selectionCase,
      "toolscore.config.yaml": "judge:\n  model: openai/gpt-4o-mini\n  cache: .judge-cache\n",
    });
    mkdirSync(path.join(dir, ".judge-cache", "ab"), { recursive: true });
    writeFileSync(path.join(dir, ".judge-cache", "ab", `${"ab".repeat(32)}.json`), "{}");
    execFileSync("git", ["init", "-q"], { cwd: dir });
    execFileSync("git", ["add", ".judge-cache"], { cwd: dir });
    const run = await runCliProcess(["eval", "runs.jsonl", "-m", "tool-selection"], {
      cwd: dir,
      env: { OPENAI_API_KEY: secret, OPENAI_BASE_URL: server().openaiBaseURL },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("holds files tracked by git");
    expect(server().requests).toHaveLength(0);
    // Untracked, the same folder is the run's to use.
    execFileSync("git", ["rm", "-r", "-q", "--cached", ".judge-cache"], { cwd: dir });
    server().answer = selection(1);
    const again = await runCliProcess(["eval", "runs.jsonl", "-m", "tool-selection"], {
      cwd: dir,
      env: { OPENAI_API_KEY: secret, OPENAI_BASE_URL: server().openaiBaseURL },
    });
    expect(again.code, again.stderr).toBe(0);
  });
});

describe("the judge cache check fails closed (issue 48, item 8)", () => {
  it("a checkout whose git refuses to answer (dubious ownership) serves no committed answer", async () => {
    const dir = folder({
      "runs.jsonl": selectionCase,
      "toolscore.config.yaml": "judge:\n  model: openai/gpt-4o-mini\n  cache: .judge-cache\n",
      "bin/git":
        "#!/bin/sh\necho \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\nexit 128\n",
    });
    chmodSync(path.join(dir, "bin", "git"), 0o755);
    mkdirSync(path.join(dir, ".git"));
    mkdirSync(path.join(dir, ".judge-cache", "ab"), { recursive: true });
    writeFileSync(path.join(dir, ".judge-cache", "ab", `${"ab".repeat(32)}.json`), "{}");
    const run = await runCliProcess(["eval", "runs.jsonl", "-m", "tool-selection"], {
      cwd: dir,
      env: {
        OPENAI_API_KEY: secret,
        OPENAI_BASE_URL: server().openaiBaseURL,
        PATH: `${path.join(dir, "bin")}:${process.env.PATH ?? ""}`,
      },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot tell whether git tracks the judge cache");
    expect(run.stderr).toContain("dubious ownership");
    expect(server().requests).toHaveLength(0);
  });
});

describe("CI logs cannot be steered (issue 34, item 4)", () => {
  /** Lines a GitHub Actions runner would take for a workflow command, and raw control bytes. */
  // eslint-disable-next-line no-control-regex -- raw control bytes are what is looked for
  const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
  function commandsIn(text: string): string[] {
    return text
      .split("\n")
      .filter((line) => /^\s*::/.test(line) || line.includes("##[") || controls.test(line));
  }

  it("ids, tool names and file names reach the console, Markdown and JUnit escaped", async () => {
    const hostile = "x\n::add-mask::secret\n  ::stop-commands::t ##[error]y \u001b]0;title\u0007";
    const dir = folder({
      "runs.jsonl": jsonl([
        { id: hostile, toolsCalled: [{ name: "b" }], expectedTools: [{ name: `a\n::error::z` }] },
        { id: "unread\n::warning::w", toolsCalled: "not a list", expectedTools: [] },
      ]),
    });
    const summary = path.join(dir, "summary.md");
    writeFileSync(summary, "");
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "--markdown", "m.md", "--junit", "j.xml"],
      { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } },
    );
    expect(run.code).toBe(3);
    expect(commandsIn(run.stdout)).toEqual([]);
    expect(commandsIn(run.stderr)).toEqual([]);
    expect(run.stdout).toContain("x\\x0a::add-mask::secret\\x0a  ::stop-commands");
    for (const file of ["m.md", "summary.md", "j.xml"]) {
      expect(readFileSync(path.join(dir, file), "utf8"), file).not.toMatch(controls);
    }
    expect(readFileSync(summary, "utf8")).not.toMatch(/^\s*::/m);

    // The same from a report of those results, and a comparison with them.
    const report = await runCliProcess(["report", "toolscore-results.jsonl"], { cwd: dir });
    const compared = await runCliProcess(
      ["compare", "toolscore-results.jsonl", "toolscore-results.jsonl"],
      { cwd: dir },
    );
    for (const output of [report.stdout, report.stderr, compared.stdout, compared.stderr]) {
      expect(commandsIn(output)).toEqual([]);
    }
  });

  it("toolscore dataset prints recordings' file names escaped", async () => {
    const dir = folder({});
    mkdirSync(path.join(dir, "runs"));
    const call = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    ];
    writeFileSync(path.join(dir, "runs", "a\u001b]0;owned\u0007.json"), JSON.stringify(call));
    writeFileSync(path.join(dir, "runs", "b\n::add-mask::z.json"), "not json {");
    const run = await runCliProcess(["dataset", "runs", "-o", "runs/cases.jsonl"], { cwd: dir });
    expect(run.code).toBe(3);
    expect(commandsIn(run.stdout)).toEqual([]);
    expect(commandsIn(run.stderr)).toEqual([]);
    expect(run.stderr).toContain("error: runs/b\\x0a::add-mask::z.json: ");
  });
});

describe("--resume knows what it scored (issue 34, item 6)", () => {
  const transcript = (name: string) =>
    JSON.stringify([
      { role: "user", content: "find it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "1", type: "function", function: { name, arguments: "{}" } }],
      },
    ]);

  it.each([
    ["trajectoryFile", '"trajectoryFile"'],
    ["a key spelled with an escape", '"trajectory\\u0046ile"'],
  ])("refuses a run whose transcript files changed (%s)", async (_, key) => {
    const line = (id: string) =>
      `{"id":"${id}",${key}:"${id}.json","expectedTools":[{"name":"search"}]}`;
    const dir = folder({
      "runs.jsonl": `${line("a")}\n${line("b")}\n`,
      "a.json": transcript("search"),
      "b.json": transcript("search"),
    });
    const first = await runCliProcess(["eval", "runs.jsonl", "--limit", "1"], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    // Unchanged, the run goes on.
    const unchanged = await runCliProcess(["eval", "runs.jsonl", "--resume", "--limit", "1"], {
      cwd: dir,
    });
    expect(unchanged.code, unchanged.stderr).toBe(0);
    // The scored case's transcript now holds another call: its verdict would be stale.
    writeFileSync(path.join(dir, "a.json"), transcript("delete_everything"));
    const resumed = await runCliProcess(["eval", "runs.jsonl", "--resume"], { cwd: dir });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      "the dataset, or a transcript file its cases name, has changed since",
    );
  });
});

describe("files are what they claim (issue 34, item 8)", () => {
  it("writes no results, report, JUnit or Markdown through a symbolic link", async () => {
    const outside = folder({ "precious.txt": "keep me", "target.jsonl": "keep me too" });
    for (const [flag, name] of [
      ["--report", "report.html"],
      ["--junit", "junit.xml"],
      ["--markdown", "summary.md"],
      ["--out", "results.jsonl"],
    ]) {
      const dir = folder({
        "runs.jsonl": jsonl([{ id: "a", toolsCalled: [], expectedTools: [] }]),
      });
      symlinkSync(path.join(outside, "precious.txt"), path.join(dir, name));
      const run = await runCliProcess(["eval", "runs.jsonl", flag, name], { cwd: dir });
      expect(run.code, flag).toBe(2);
      expect(run.stderr).toContain(`${name}: it is a symbolic link`);
    }
    // A linked folder in the checkout on the way to the file: the same.
    const dir = folder({ "runs.jsonl": jsonl([{ id: "a", toolsCalled: [], expectedTools: [] }]) });
    symlinkSync(outside, path.join(dir, "reports"));
    const linked = await runCliProcess(["eval", "runs.jsonl", "--report", "reports/r.html"], {
      cwd: dir,
    });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain("reports is a symbolic link");
    expect(readFileSync(path.join(outside, "precious.txt"), "utf8")).toBe("keep me");
    expect(readdirSync(outside).sort()).toEqual(["precious.txt", "target.jsonl"]);
  });
});

describe("secrets stay secret (issue 34, item 9)", () => {
  it.each([
    ["a vendor-shaped key", "sk-proj-Zq8tW3mN5vB7xC9kL2jH4gF6dS1aP0oI"],
    ["a gateway's key of any shape", "gw-7f3a9c21d4e8b6a0"],
  ])("a key a server echoes in its error is written nowhere (%s)", async (_, key) => {
    const echo = await rawServer((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${String(request.headers.authorization)}`,
            type: "invalid_request_error",
          },
        }),
      );
    });
    const dir = folder({
      "runs.jsonl": selectionCase,
      "toolscore.config.yaml": `judge:\n  model: openai/gpt-4o-mini\n  base_url: ${echo.url}\n  max_retries: 0\n`,
    });
    const summary = path.join(dir, "summary.md");
    writeFileSync(summary, "");
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "-m", "tool-selection", "--no-cache", "--report", "r.html"].concat([
        "--junit",
        "j.xml",
        "--markdown",
        "m.md",
      ]),
      { cwd: dir, env: { OPENAI_API_KEY: key, GITHUB_STEP_SUMMARY: summary } },
    );
    expect(echo.requests()).toBe(1);
    expect(run.code).toBe(3);
    const written = ["toolscore-results.jsonl", "r.html", "j.xml", "m.md", "summary.md"].map(
      (file) => readFileSync(path.join(dir, file), "utf8"),
    );
    for (const text of [run.stdout, run.stderr, ...written]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(0, 12));
    }
    expect(readFileSync(path.join(dir, "toolscore-results.jsonl"), "utf8")).toContain(
      "Incorrect API key provided: Bearer [redacted]",
    );
  });
});

describe("the small ones (issue 34, item 10)", () => {
  const latin1 = (text: string) => Buffer.from(text, "latin1");
  const call = (name: string) => `{"name":"lookup","arguments":{"name":"${name}"}}`;

  it.each([0, 1])(
    "a dataset line that is not UTF-8 is its case's error, never U+FFFD in silence (workers %i)",
    async (workers) => {
      const dir = folder({
        "runs.jsonl": Buffer.concat([
          latin1(
            `{"id":"andre","toolsCalled":[${call("Andr\u00e9")}],"expectedTools":[${call("Andr\u00e8")}]}\n`,
          ),
          Buffer.from(
            `{"id":"fine","toolsCalled":[${call("Zoë")}],"expectedTools":[${call("Zoë")}]}\n`,
          ),
        ]),
      });
      const run = await runCliProcess(["eval", "runs.jsonl", "--workers", String(workers)], {
        cwd: dir,
      });
      expect(run.code).toBe(3);
      const byId = records(path.join(dir, "toolscore-results.jsonl"));
      expect(byId.get("fine")).toMatchObject({ status: "passed" });
      expect(byId.get("case-1")).toMatchObject({
        status: "error",
        error: {
          code: "DATASET_PARSE",
          message: expect.stringContaining("line 1 is not UTF-8") as unknown,
        },
      });
    },
  );

  it("JSON, YAML, UTF-16 and transcript files that are not UTF-8 are refused by name", async () => {
    const dir = folder({
      "runs.json": latin1('[{"id":"andr\u00e9","toolsCalled":[],"expectedTools":[]}]'),
      "runs.yaml": latin1("- id: andr\u00e9\n  toolsCalled: []\n  expectedTools: []\n"),
      "utf16.jsonl": Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('{"id":"a","toolsCalled":[],"expectedTools":[]}\n', "utf16le"),
      ]),
      "cases.jsonl": '{"id":"t","trajectoryFile":"t.json","expectedTools":[]}\n',
      "t.json": latin1('[{"role":"user","content":"caf\u00e9"}]'),
    });
    for (const [file, message] of [
      ["runs.json", "runs.json is not UTF-8"],
      ["runs.yaml", "runs.yaml is not UTF-8"],
      [
        "utf16.jsonl",
        "utf16.jsonl is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8",
      ],
    ]) {
      const run = await runCliProcess(["eval", file], { cwd: dir });
      expect(run.code, file).toBe(2);
      expect(run.stderr, file).toContain(message);
    }
    const transcript = await runCliProcess(["eval", "cases.jsonl"], { cwd: dir });
    expect(transcript.code).toBe(3);
    expect(transcript.stdout).toContain("the transcript is not UTF-8");
  });

  it("--filter /regex/ runs the linear engine: no id can make it run for long", async () => {
    const slow = `${"a".repeat(40)}!`;
    const dir = folder({
      "runs.jsonl": jsonl([
        { id: slow, toolsCalled: [], expectedTools: [] },
        { id: "aaaa", toolsCalled: [], expectedTools: [] },
      ]),
    });
    // Exponential on a backtracking engine: 2^40 steps for the first id.
    const run = await runCliProcess(["eval", "runs.jsonl", "--filter", "/^(a+)+$/"], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect([...records(path.join(dir, "toolscore-results.jsonl")).keys()]).toEqual(["aaaa"]);
    const lookaround = await runCliProcess(["eval", "runs.jsonl", "--filter", "/a(?=b)/"], {
      cwd: dir,
    });
    expect(lookaround.code).toBe(2);
    expect(lookaround.stderr).toContain("linear-time engine");
  });

  it("a list holding null is that case's error, and response-contains reads plain strings", async () => {
    const dir = folder({
      "runs.jsonl": jsonl([
        { id: "null", actualOutput: [null], expectedOutputContains: ["x"] },
        {
          id: "strings",
          actualOutput: ["a refund of ", "30 EUR"],
          expectedOutputContains: ["30 EUR"],
        },
      ]),
    });
    const run = await runCliProcess(["eval", "runs.jsonl", "-m", "response-contains"], {
      cwd: dir,
    });
    expect(run.code).toBe(3);
    const byId = records(path.join(dir, "toolscore-results.jsonl"));
    expect(byId.get("strings")).toMatchObject({ status: "passed" });
    expect(byId.get("null")).toMatchObject({
      status: "error",
      error: {
        code: "DATASET_PARSE",
        message: expect.stringContaining("actualOutput[0] must be text or a part") as unknown,
      },
    });
  });

  it.each(["runs (1).jsonl", "cases[1].jsonl", "what?.jsonl", "star*.jsonl"])(
    "a dataset named %s is that file, not a glob",
    async (name) => {
      const dir = folder({ [name]: jsonl([{ id: "a", toolsCalled: [], expectedTools: [] }]) });
      const run = await runCliProcess(["eval", name], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("1 case: 1 passed");
    },
  );
});
