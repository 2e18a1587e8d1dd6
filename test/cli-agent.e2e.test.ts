import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { jsonl, readJsonl, testFolders } from "./support/folders.js";
import { optionalTool } from "./support/optional-tools.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const example = path.join(root, "examples", "agent-under-test");
const folder = testFolders("toolscore-cli-agent-");
const python = optionalTool("python");

/** The example's dataset and agents, copied into a fresh folder. */
function exampleFolder(extra: Record<string, unknown> = {}): string {
  return folder({
    "dataset.jsonl": readFileSync(path.join(example, "dataset.jsonl"), "utf8"),
    "agent.py": readFileSync(path.join(example, "agent.py"), "utf8"),
    "agent.ts": readFileSync(path.join(example, "agent.ts"), "utf8"),
    "conversation.jsonl": readFileSync(path.join(example, "conversation.jsonl"), "utf8"),
    ...extra,
  });
}

describe("toolscore eval --agent", () => {
  (python.runs ? it : it.skip)(
    `runs a Python command agent, records its runs, and scores them; the recordings score again without it${python.runs ? "" : ` [skipped: ${python.missing}]`}`,
    async () => {
      expect(python.present, python.missing).toBe(true);
      const cwd = exampleFolder();
      const agent = ["--agent", `${python.path} agent.py`];
      const first = await runCliProcess(["eval", "dataset.jsonl", ...agent], { cwd });
      expect(first.stderr).toMatch(
        /4 runs of .*agent\.py; agent time [\d.]+ s, \d+% of the run; recorded in toolscore-results\.runs\.jsonl/,
      );
      expect(first.stdout).toMatch(/4 cases: 4 passed, 0 failed, 0 errors/);
      expect(first.code).toBe(0);
      const recordings = readJsonl(path.join(cwd, "toolscore-results.runs.jsonl"));
      expect(recordings.map((line) => line.id).sort()).toEqual([
        "flight-rome",
        "refund-once",
        "weather-oslo",
        "weather-paris",
      ]);
      expect(recordings[0]).toHaveProperty("trajectory");

      // The runs are kept: a second run must say what to do with them.
      const again = await runCliProcess(["eval", "dataset.jsonl", ...agent], { cwd });
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/holds earlier runs of the agent: --resume .* --overwrite/);
      const resumed = await runCliProcess(["eval", "dataset.jsonl", ...agent, "--resume"], { cwd });
      expect(resumed.stderr).toMatch(/0 runs of .*, 4 kept from toolscore-results\.runs\.jsonl/);
      expect(resumed.code).toBe(0);

      // Scored again without the agent, as any recording.
      const rescored = await runCliProcess(
        ["eval", "toolscore-results.runs.jsonl", "-o", "again.jsonl"],
        { cwd },
      );
      expect(rescored.stdout).toMatch(/4 cases: 4 passed/);
      expect(rescored.code).toBe(0);
    },
  );

  (python.runs ? it : it.skip)(
    `runs a conversation turn by turn against a long-lived Python process${python.runs ? "" : ` [skipped: ${python.missing}]`}`,
    async () => {
      expect(python.present, python.missing).toBe(true);
      const cwd = exampleFolder();
      const run = await runCliProcess(
        [
          "eval",
          "conversation.jsonl",
          "--agent",
          `${python.path} agent.py --long-lived`,
          "--agent-process",
          "long-lived",
          "--repeat",
          "2",
        ],
        { cwd },
      );
      expect(run.stderr).toMatch(/2 runs of .*agent\.py --long-lived; agent time/);
      expect(run.stdout).toMatch(/2 cases: 2 passed, 0 failed, 0 errors/);
      expect(run.code).toBe(0);
      const [recorded] = readJsonl(path.join(cwd, "toolscore-results.runs.jsonl"));
      const turns = recorded.turns as { trajectory: { tool_calls?: unknown[] }[] }[];
      // Each turn holds what the agent returned for it: the refund took the order from turn 1.
      expect(
        turns.map((turn) => JSON.stringify(turn.trajectory).match(/"name": ?"(\w+)"/)?.[1]),
      ).toEqual(["lookup_order", "refund_order", undefined]);
      expect(recorded.metadata).toMatchObject({ agentRun: { turns: [{}, {}, {}] } });
    },
  );

  it("posts each case to an HTTP agent with headers from the environment, retrying a busy endpoint", async () => {
    const cwd = exampleFolder();
    const asked: string[] = [];
    const server = createServer((request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      request.on("end", () => {
        const body = JSON.parse(text) as { id: string; input: string };
        asked.push(body.id);
        if (request.headers.authorization !== "Bearer s3cret") {
          response.writeHead(401).end("who are you?");
        } else if (
          body.id === "weather-oslo" &&
          asked.filter((id) => id === body.id).length === 1
        ) {
          response.writeHead(503, { "retry-after": "0" }).end("busy");
        } else {
          const city = /in ([A-Z][a-z]+)/.exec(body.input)?.[1] ?? "";
          const date = /\d{4}-\d{2}-\d{2}/.exec(body.input)?.[0] ?? "";
          const call = { name: "get_weather", arguments: JSON.stringify({ city, date }) };
          response.setHeader("content-type", "application/json");
          response.end(
            JSON.stringify([
              { role: "user", content: body.input },
              {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "c", type: "function", function: call }],
              },
            ]),
          );
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
      const run = await runCliProcess(
        [
          "eval",
          "dataset.jsonl",
          "--agent",
          url,
          "--agent-header",
          "Authorization: Bearer ${AGENT_TOKEN}",
        ],
        { cwd, env: { AGENT_TOKEN: "s3cret" } },
      );
      expect(run.stderr).toMatch(/4 runs of http:\/\/127\.0\.0\.1:\d+\/agent; agent time/);
      // The weather cases pass (one after a retry); the flight and the refund get weather.
      expect(run.stdout).toMatch(/4 cases: 2 passed, 2 failed, 0 errors/);
      expect(asked.filter((id) => id === "weather-oslo")).toHaveLength(2);
      const runs = readJsonl(path.join(cwd, "toolscore-results.runs.jsonl"));
      const oslo = runs.find((line) => line.id === "weather-oslo");
      expect(oslo?.metadata).toMatchObject({
        agentRun: { log: ["retry 1: 503 Service Unavailable"] },
      });
      // The key is in no file the run wrote.
      expect(readFileSync(path.join(cwd, "toolscore-results.runs.jsonl"), "utf8")).not.toMatch(
        /s3cret/,
      );
      expect(readFileSync(path.join(cwd, "toolscore-results.jsonl"), "utf8")).not.toMatch(/s3cret/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("runs a TypeScript module agent k times: the double refund fails every run, pass^k says so", async () => {
    const cwd = exampleFolder();
    const run = await runCliProcess(
      ["eval", "dataset.jsonl", "--agent", "agent.ts", "--repeat", "3", "--concurrency", "4"],
      { cwd },
    );
    expect(run.stderr).toMatch(/12 runs of agent\.ts/);
    expect(run.stdout).toMatch(/12 cases: 9 passed, 3 failed, 0 errors/);
    expect(run.stdout).toMatch(/4 cases, 3 runs each: pass@k 75%, pass\^k 75%, 0 flaky/);
    expect(run.stdout).toMatch(/refund-once .*called\[1\] refund_order not expected/);
    expect(run.code).toBe(1);
    const runs = readJsonl(path.join(cwd, "toolscore-results.runs.jsonl"));
    expect(runs.filter((line) => line.id === "refund-once").map((line) => line.run)).toEqual(
      expect.arrayContaining([0, 1, 2]),
    );
    expect(runs[0]).toMatchObject({
      metadata: {
        agentRun: { agent: "agent.ts", model: "rules-v1", usage: { outputTokens: 12 } },
      },
    });
  });

  it("splits the runs over shards, and merge --dataset joins their recordings for one eval to score", async () => {
    const cwd = exampleFolder();
    for (const shard of ["1/2", "2/2"]) {
      const run = await runCliProcess(
        [
          "eval",
          "dataset.jsonl",
          "--agent",
          "agent.ts",
          "--shard",
          shard,
          "-o",
          `r${shard[0]}.jsonl`,
        ],
        { cwd },
      );
      expect(run.stderr).toMatch(/2 runs of agent\.ts/);
      expect(run.stdout).toMatch(/2 cases: /);
    }
    const merged = await runCliProcess(
      ["merge", "r1.runs.jsonl", "r2.runs.jsonl", "--dataset", "dataset.jsonl", "-o", "runs.jsonl"],
      { cwd },
    );
    expect(merged.stdout).toBe(
      "merged: 4 runs of 4 cases into runs.jsonl; score them with toolscore eval runs.jsonl\n",
    );
    expect(merged.code).toBe(0);
    expect(readJsonl(path.join(cwd, "runs.jsonl")).map((line) => line.id)).toEqual([
      "weather-paris",
      "weather-oslo",
      "flight-rome",
      "refund-once",
    ]);
    const scored = await runCliProcess(["eval", "runs.jsonl", "-o", "all.jsonl"], { cwd });
    expect(scored.stdout).toMatch(/4 cases: 3 passed, 1 failed/);
    // A shard left out is named, not skipped; results files are not recordings.
    const short = await runCliProcess(
      ["merge", "r1.runs.jsonl", "--dataset", "dataset.jsonl", "-o", "part.jsonl"],
      { cwd },
    );
    expect(short.stderr).toMatch(/2 of 4 cases of .*dataset\.jsonl are in none of the recordings/);
    expect(short.code).toBe(3);
    const mixed = await runCliProcess(
      ["merge", "r1.jsonl", "--dataset", "dataset.jsonl", "-o", "x.jsonl"],
      { cwd },
    );
    expect(mixed.stderr).toMatch(/r1\.jsonl holds results: --dataset joins recordings/);
    const bare = await runCliProcess(["merge", "r1.runs.jsonl", "-o", "x.jsonl"], { cwd });
    expect(bare.stderr).toMatch(/holds recordings of an agent's runs: give --dataset/);
    expect(bare.code).toBe(2);
  });

  it("checks the agent and counts its runs in a dry run, running none and writing nothing", async () => {
    const cwd = exampleFolder();
    const dry = await runCliProcess(
      ["eval", "dataset.jsonl", "--agent", "agent.ts", "--repeat", "2", "--dry-run"],
      { cwd },
    );
    expect(dry.stdout).toMatch(
      /^dry run: the agent would make 8 runs of agent\.ts; nothing run\.\n/,
    );
    expect(dry.stdout).toMatch(/dry run: dataset\.jsonl: 4 cases read/);
    expect(dry.code).toBe(0);
    expect(existsSync(path.join(cwd, "toolscore-results.runs.jsonl"))).toBe(false);
    expect(existsSync(path.join(cwd, "toolscore-results.jsonl"))).toBe(false);
    // Half the runs recorded, the last line cut: a dry run counts them and leaves the file be.
    await runCliProcess(["eval", "dataset.jsonl", "--agent", "agent.ts"], { cwd });
    const recordings = path.join(cwd, "toolscore-results.runs.jsonl");
    const cut = `${readFileSync(recordings, "utf8").trimEnd()}\n{"id":"torn`;
    writeFileSync(recordings, cut);
    const resumed = await runCliProcess(
      ["eval", "dataset.jsonl", "--agent", "agent.ts", "--repeat", "2", "--resume", "--dry-run"],
      { cwd },
    );
    expect(resumed.stdout).toMatch(
      /^dry run: the agent would make 4 runs of agent\.ts, keep 4 from toolscore-results\.runs\.jsonl; nothing run\./,
    );
    expect(readFileSync(recordings, "utf8")).toBe(cut);
    const missing = await runCliProcess(
      ["eval", "dataset.jsonl", "--agent", "missing.mjs", "--overwrite", "--dry-run"],
      { cwd },
    );
    expect(missing.stderr).toMatch(/--agent missing\.mjs could not be loaded/);
    expect(missing.code).toBe(2);
  });

  it("makes a crash, a hang and an unreadable answer the cases' errors, and goes on", async () => {
    const cwd = folder({
      "dataset.jsonl": jsonl([
        { id: "fine", input: "ok", expectedTools: [] },
        { id: "crash", input: "crash", expectedTools: [] },
        { id: "hang", input: "hang", expectedTools: [] },
        { id: "garbage", input: "garbage", expectedTools: [] },
      ]),
      "agent.mjs": `export default async (input, { signal }) => {
        if (input === "crash") throw new Error("the model API said 401");
        if (input === "hang") return new Promise(() => {});
        if (input === "garbage") return { not: "a transcript" };
        return [{ role: "user", content: input }, { role: "assistant", content: "done" }];
      };`,
    });
    const run = await runCliProcess(
      ["eval", "dataset.jsonl", "--agent", "agent.mjs", "--agent-timeout", "2000", "-o", "r.jsonl"],
      { cwd },
    );
    expect(run.stderr).toMatch(/4 runs of agent\.mjs, 2 failed/);
    expect(run.code).toBe(3);
    const records = [...recordsByIndex(path.join(cwd, "r.jsonl")).values()];
    const byId = new Map(records.map((record) => [record.id, record]));
    expect(byId.get("fine")).toMatchObject({ status: "passed" });
    expect(byId.get("crash")).toMatchObject({
      status: "error",
      error: {
        code: "AGENT_RUN",
        message: expect.stringMatching(/the agent failed: the model API said 401/),
      },
    });
    expect(byId.get("hang")).toMatchObject({
      status: "error",
      error: { code: "AGENT_RUN", message: expect.stringMatching(/did not answer within 2000 ms/) },
    });
    // An answer that is no transcript is read as a transcript is, and refused by the reader.
    expect(byId.get("garbage")).toMatchObject({ status: "error" });
  });

  it("runs an agent a config names from the config's folder, wherever eval runs", async () => {
    const cwd = folder({
      "project/toolscore.config.yaml": "agent: node answer.mjs\n",
      "project/answer.mjs": `process.stdin.resume();
process.stdin.on("end", () => console.log(JSON.stringify([{ role: "assistant", content: process.cwd() }])));`,
      "project/evals/dataset.jsonl": jsonl([{ id: "a", input: "hi", expectedTools: [] }]),
    });
    const sub = path.join(cwd, "project", "evals");
    const run = await runCliProcess(
      ["eval", "dataset.jsonl", "--config", "../toolscore.config.yaml", "-o", "r.jsonl"],
      { cwd: sub },
    );
    expect(run.stderr).toMatch(/1 run of node answer\.mjs/);
    expect(run.code).toBe(0);
    const [recorded] = readJsonl(path.join(sub, "r.runs.jsonl"));
    expect(recorded.trajectory).toEqual([
      { role: "assistant", content: realpathSync(path.join(cwd, "project")) },
    ]);
  });

  it("refuses what does not go with an agent, before running it", async () => {
    const cwd = exampleFolder();
    const cases: [string[], RegExp][] = [
      [["--repeat", "2"], /--repeat runs the agent several times: give --agent/],
      [["--agent-timeout", "10"], /--agent-timeout bounds each run of the agent: give --agent/],
      [["--recordings", "runs.jsonl"], /--recordings is where the agent's runs go: give --agent/],
      [["--agent", "agent.ts", "--repeat", "0"], /--repeat/],
      [["--agent", "nothing-here.mjs"], /--agent nothing-here\.mjs could not be loaded/],
      [["--agent-process", "long-lived"], /--agent-process says how a command agent runs/],
      [["--agent-header", "A: b"], /--agent-header goes to an HTTP agent: give --agent/],
      [
        ["--agent", "http://127.0.0.1:9/", "--agent-header", "Authorization: Bearer ${NOT_SET_X}"],
        /--agent-header Authorization reads \$\{NOT_SET_X\}, which is not set/,
      ],
      [["--agent", "http://127.0.0.1:9/", "--agent-header", "no colon"], /must be 'Name: value'/],
      [
        ["--agent", "agent.ts", "--agent-process", "long-lived"],
        /--agent-process long-lived keeps a command's processes; agent\.ts is not a command/,
      ],
      [
        ["--agent", "agent.ts", "--recordings", "toolscore-results.jsonl"],
        /--recordings is the results file/,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await runCliProcess(["eval", "dataset.jsonl", ...flags], { cwd });
      expect(run.stderr, flags.join(" ")).toMatch(message);
      expect(run.code, flags.join(" ")).toBe(2);
    }
    expect(existsSync(path.join(cwd, "toolscore-results.runs.jsonl"))).toBe(false);
  });
});
