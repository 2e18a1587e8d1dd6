/**
 * `eval --agent` with simulated users, through the built CLI: a loopback model server plays the
 * users (scripted: one that behaves, one that makes a fact up, one that ends at once, one that
 * never ends), and the example's scripted agent answers them. No model is reached.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { jsonl, readJsonl, testFolders } from "./support/folders.js";
import { closedPort, useLlmServer } from "./support/judge-fixtures.js";
import type { AnswerContext } from "./support/llm-server.mjs";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const example = path.join(root, "examples", "simulated-users");
const at = (file: string) => path.join(example, file);
const folder = testFolders("toolscore-simulated-users-");
const server = useLlmServer();

/** The example's user, with a goal that says which scripted user plays it. */
const [exampleCase] = readJsonl(at("dataset.jsonl")) as [{ user: Record<string, unknown> }];
const userOf = (goal: string) => ({ ...exampleCase.user, goal });

/** The messages the user has sent so far, as its prompt shows the conversation. */
const sentSoFar = (prompt: string) => prompt.match(/^you: /gm)?.length ?? 0;

/** The scripted users, told apart by their goals. */
function scriptedUsers({ prompt }: AnswerContext): unknown {
  const turn = sentSoFar(prompt);
  if (prompt.includes("quits")) return { message: "never mind", intent: null, done: true };
  // Its case lists no intents: its answers have none.
  if (prompt.includes("endless")) return { message: "Hello? Is anyone there?", done: false };
  if (turn === 0) {
    return {
      message: "Hi, my blender (order A-1001) came broken",
      intent: "identify",
      done: false,
    };
  }
  if (turn === 1 && prompt.includes("invents")) {
    return { message: "Yes, and my card ends in 4242", intent: "refund", done: false };
  }
  if (turn === 1) return { message: "Yes please", intent: "refund", done: false };
  return { message: "Thanks!", intent: null, done: true };
}

function evalUsers(
  cwd: string,
  dataset: string,
  extra: readonly string[] = [],
): ReturnType<typeof runCliProcess> {
  return runCliProcess(
    [
      "eval",
      dataset,
      "--config",
      at("toolscore.config.yaml"),
      "--user-model",
      "openai/scripted-user",
      "-o",
      "results.jsonl",
      ...extra,
    ],
    {
      cwd,
      env: {
        OPENAI_BASE_URL: server().openaiBaseURL,
        OPENAI_API_KEY: "test-key",
        // Each test's own judge cache, where the users' answers are kept.
        XDG_CACHE_HOME: path.join(cwd, "cache"),
      },
    },
  );
}

describe("eval --agent with simulated users", () => {
  it("passes the example's conversation; reports the spoiled runs as the simulator's, not the agent's; scoring again asks nothing", async () => {
    server().answer = scriptedUsers;
    const cwd = folder();
    const dataset = path.join(cwd, "dataset.jsonl");
    writeFileSync(
      dataset,
      jsonl([
        { id: "behaves", user: exampleCase.user },
        { id: "invents", user: userOf("Get a refund for order A-1001 (invents)") },
        { id: "quits", user: userOf("Get a refund for order A-1001 (quits)") },
        { id: "endless", user: { ...userOf("A refund (endless)"), maxTurns: 3, intents: [] } },
      ]),
    );
    const run = await evalUsers(cwd, dataset);
    expect(run.stdout).toMatch(
      /4 cases: 1 passed, 0 failed, 0 errors, 3 not evaluable \(3 spoiled by the simulated user\)/,
    );
    // Not evaluable fails the gate unless the run lets it go (--not-evaluable ignore).
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`user model openai/scripted-user at ${server().openaiBaseURL}`);
    expect(run.stderr).toContain("4 runs of ");
    expect(run.stderr).toContain("3 spoiled by the simulated user (not evaluable)");
    const results = new Map(
      readJsonl(path.join(cwd, "results.jsonl")).map((record) => [record.id, record]),
    );
    expect(results.get("behaves")).toMatchObject({ status: "passed", turns: ["passed", "passed"] });
    const reasonOf = (id: string) =>
      (results.get(id)?.metrics as Record<string, { status: string; reason: string }>)[
        "Tool Call Accuracy"
      ];
    expect(reasonOf("invents")).toEqual({
      status: "not-evaluable",
      reason: expect.stringMatching(
        /^not the agent's to answer for: turn 2: the simulated user said "4242"/,
      ) as string,
    });
    expect(reasonOf("quits").reason).toContain("ended the conversation before the agent answered");
    expect(reasonOf("endless").reason).toContain("did not end the conversation in its 3 turns");
    for (const id of ["invents", "quits", "endless"]) {
      expect(results.get(id)).toMatchObject({ status: "not-evaluable", simulatorFault: true });
    }
    // The recordings hold each conversation whole: scoring them again asks no model.
    const asked = server().modelCalls.length;
    const again = await runCliProcess(["eval", "results.runs.jsonl", "-o", "again.jsonl"], { cwd });
    expect(again.stderr).not.toContain("user model");
    expect(again.stdout).toMatch(/4 cases: 1 passed, 0 failed, 0 errors, 3 not evaluable/);
    expect(server().modelCalls).toHaveLength(asked);
    const recorded = readJsonl(path.join(cwd, "results.runs.jsonl"));
    expect(recorded.find((line) => line.id === "behaves")).toMatchObject({
      turns: [
        {
          input: "Hi, my blender (order A-1001) came broken",
          expectedTools: [{ name: "get_order" }],
        },
        { input: "Yes please", expectedTools: [{ name: "refund_order" }] },
      ],
      metadata: {
        agentRun: {
          user: { model: "openai/scripted-user", seed: 0, ended: "done", closing: "Thanks!" },
        },
      },
    });
  });

  it("replays a user's questions from the cache with the same seed, and asks anew with another", async () => {
    server().answer = scriptedUsers;
    const cwd = folder();
    const first = await evalUsers(cwd, at("dataset.jsonl"));
    expect(first.code).toBe(0);
    const asked = server().modelCalls.length;
    expect(asked).toBe(3);
    // What the user model's calls spent is said with them (this model has no price).
    expect(first.stderr).toMatch(/the user model asked 3 times, [1-9]\d* tokens, cost unknown/);
    const replay = await evalUsers(cwd, at("dataset.jsonl"), ["--overwrite"]);
    expect(replay.code).toBe(0);
    expect(server().modelCalls).toHaveLength(asked);
    expect(replay.stderr).toContain("the user model asked 0 times (3 answered from the cache)");
    const reseeded = await evalUsers(cwd, at("dataset.jsonl"), ["--overwrite", "--seed", "1"]);
    expect(reseeded.code).toBe(0);
    expect(server().modelCalls).toHaveLength(2 * asked);
  });

  it("stops the runs when the user model cannot be reached, keeping those recorded", async () => {
    const cwd = folder();
    const dataset = path.join(cwd, "dataset.jsonl");
    const cases = ["a", "b", "c", "d", "e"].map((id) => ({ id, user: exampleCase.user }));
    writeFileSync(dataset, jsonl(cases));
    // The example's agent and user model; the judge's settings (no retries of a call that
    // cannot connect) are the user model's too.
    writeFileSync(
      path.join(cwd, "toolscore.config.yaml"),
      `agent: ${JSON.stringify(at("agent.mjs"))}\nuser: openai/gpt-4o-mini\njudge:\n  model: openai/gpt-4o-mini\n  max_retries: 0\n`,
    );
    const run = await runCliProcess(
      ["eval", dataset, "--concurrency", "1", "-o", "results.jsonl"],
      {
        cwd,
        env: {
          OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
          OPENAI_API_KEY: "test-key",
          XDG_CACHE_HOME: path.join(cwd, "cache"),
        },
      },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "toolscore: the user model cannot be reached, the agent's runs stopped; those recorded are kept in results.runs.jsonl (--resume goes on from them)",
    );
    expect(run.stderr).toMatch(/toolscore eval: PROVIDER_CALL: openai: .*could not connect/);
    // The runs that met it before it was found unreachable (at its third call) are recorded,
    // each the simulator's fault; the third was stopped, and no more ran.
    const recorded = readJsonl(path.join(cwd, "results.runs.jsonl"));
    expect(recorded.map((line) => line.id)).toEqual(["a", "b"]);
    for (const line of recorded) expect(line.runError).toMatchObject({ code: "USER_SIMULATOR" });
  });

  it("refuses --user-model without --agent", async () => {
    const cwd = folder({ "runs.jsonl": jsonl([{ id: "a", input: "x", toolsCalled: [] }]) });
    const refused = await runCliProcess(["eval", "runs.jsonl", "--user-model", "openai/x"], {
      cwd,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "--user-model plays the simulated users of the agent under test: give --agent",
    );
  });
});
