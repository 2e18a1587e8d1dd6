import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { makeImage } from "./support/images.js";
import { closedPort, useLlmServer } from "./support/judge-fixtures.js";
import { readJsonl } from "./support/folders.js";
import { calibrationSet } from "../src/judges/calibration/calibrate.js";

const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-cli-judge-"));
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

const server = useLlmServer();

const lines = (file: string) => readJsonl(path.join(cwd, file));

/** What a run in a folder without a config says first. */
const noConfig =
  "toolscore: no config file here (toolscore.config.json, .yaml or .yml); the defaults apply\n";

describe("toolscore eval with judged metrics (loopback model server)", () => {
  it("judges tool selection and multimodal faithfulness, sends images, caches answers", async () => {
    writeFileSync(path.join(cwd, "receipt.png"), await makeImage("png", 8, 6));
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      [
        {
          id: "flight",
          input: "Book me a flight to Oslo",
          available_tools: [
            { name: "search_flights", description: "find flights" },
            { name: "book", description: "book a flight" },
          ],
          tools_called: [{ name: "search_flights", input_parameters: { to: "OSL" } }],
        },
        {
          id: "receipt",
          input: "What is the total?",
          actual_output: "The total is 12 EUR.",
          retrieved_contexts: ["A receipt from a cafe.", "receipt.png"],
        },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n"),
    );
    server().answer = ({ schema }) =>
      (schema as { properties?: Record<string, unknown> } | undefined)?.properties?.claims !==
      undefined
        ? {
            claims: [
              {
                claim: "The total is 12 EUR.",
                verdict: "supported",
                contexts: [2],
                reason: "on the receipt",
              },
            ],
          }
        : {
            reason: "book was needed too",
            overSelected: [],
            underSelected: ["book"],
            misSelected: [],
            score: 0.5,
          };
    const env = {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: server().openaiBaseURL,
      // The user's cache folder, where the judge cache lives by default.
      XDG_CACHE_HOME: path.join(cwd, "user-cache"),
    };
    const args = [
      "eval",
      "runs.jsonl",
      "--metric",
      "tool-selection",
      "--metric",
      "multimodal-faithfulness",
      "--judge",
      "openai/gpt-4o-mini",
      "--threshold",
      "0.6",
    ];
    const run = await runCliProcess(args, { cwd, env });
    expect(run.stderr).toBe(
      `${noConfig}toolscore: judge openai/gpt-4o-mini at ${server().openaiBaseURL}\n`,
    );
    // The flight case scores 0.5 on tool selection, under the 0.6 threshold.
    expect(run.code).toBe(1);
    const records = lines("toolscore-results.jsonl");
    const byId = new Map(records.map((record) => [record.id, record]));
    expect(byId.get("flight")).toMatchObject({
      status: "failed",
      metrics: {
        "Tool Selection": { status: "scored", score: 0.5, threshold: 0.6, success: false },
        "Multimodal Faithfulness": { status: "skipped" },
      },
    });
    expect(byId.get("receipt")).toMatchObject({
      status: "passed",
      metrics: {
        "Tool Selection": { status: "skipped" },
        "Multimodal Faithfulness": { status: "scored", score: 1, success: true },
      },
    });
    const calls = server().modelCalls;
    expect(calls).toHaveLength(2);
    const images = JSON.stringify(calls.map((call): unknown => call.body));
    expect(images).toContain("data:image/png;base64,");
    expect(records.at(-1)).toMatchObject({ toolscore: "end", judge: { calls: 2, cacheHits: 0 } });
    expect(run.stdout).toMatch(/judge: 2 calls, 0 cached/);

    // The same run again is answered from the judge cache in $XDG_CACHE_HOME/toolscore.
    const again = await runCliProcess(args, { cwd, env });
    expect(again.code).toBe(1);
    expect(server().modelCalls).toHaveLength(2);
    expect(lines("toolscore-results.jsonl").at(-1)).toMatchObject({
      judge: { calls: 0, cacheHits: 2 },
    });

    // --no-cache asks the judge again, and leaves the cache as it was.
    const fresh = await runCliProcess([...args, "--no-cache"], { cwd, env });
    expect(fresh.code).toBe(1);
    expect(server().modelCalls).toHaveLength(4);
    expect(lines("toolscore-results.jsonl").at(-1)).toMatchObject({
      judge: { calls: 2, cacheHits: 0 },
    });
    // toolscore cache clear empties it: the next run asks again.
    const cleared = await runCliProcess(["cache", "clear"], { cwd, env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toBe(
      "removed 2 cached judge answers from user-cache/toolscore/judge-cache\n",
    );
    expect((await runCliProcess(args, { cwd, env })).code).toBe(1);
    expect(server().modelCalls).toHaveLength(6);
    expect((await runCliProcess(["cache", "purge"], { cwd, env })).code).toBe(2);
  });

  it("judges each call's arguments, samples the judge, says when it cannot tell, and gates on it", async () => {
    const call = (name: string, args: object, output: unknown) => ({
      name,
      arguments: args,
      output,
    });
    writeFileSync(
      path.join(cwd, "refunds.jsonl"),
      [
        {
          id: "right",
          input: "Refund 30 EUR on order 4521",
          toolsCalled: [call("refund_order", { order: "4521", amount: 30 }, "ok")],
        },
        {
          id: "wrong",
          input: "Refund 30 EUR on order 4522",
          toolsCalled: [call("refund_order", { order: "4522", amount: 300 }, "ok")],
        },
        {
          id: "unsure",
          input: "Refund what order 4523 cost",
          toolsCalled: [
            call("get_order", { order: "4523" }, null),
            call("refund_order", { order: "4523", amount: 55 }, "ok"),
          ],
        },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n"),
    );
    writeFileSync(
      path.join(cwd, "refunds.yaml"),
      "metrics:\n  - metric: argument-correctness\n    samples: 3\n",
    );
    // Right for 30, wrong for 300; for 4523 the three samples split three ways on the refund.
    let unsureAnswers = 0;
    server().answer = ({ prompt }) => {
      if (prompt.includes("4523")) {
        unsureAnswers++;
        return {
          calls: [
            { call: 1, verdict: "right", reason: "the order asked" },
            {
              call: 2,
              verdict: ["right", "wrong", "cannot_tell"][unsureAnswers % 3],
              reason: "the order's total is not shown",
            },
          ],
        };
      }
      const wrong = prompt.includes('"amount":300');
      return {
        calls: [
          {
            call: 1,
            verdict: wrong ? "wrong" : "right",
            reason: wrong ? "amount is 300, the user asked for 30" : "30 as asked",
          },
        ],
      };
    };
    const env = {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: server().openaiBaseURL,
      XDG_CACHE_HOME: path.join(cwd, "user-cache"),
    };
    const args = ["eval", "refunds.jsonl", "-c", "refunds.yaml", "--judge", "openai/gpt-4o-mini"];
    const out = ["-o", "refunds.results.jsonl"];
    const run = await runCliProcess([...args, ...out], { cwd, env });
    expect(run.code, run.stderr).toBe(1);
    // Three samples a case, over real HTTP through the OpenAI SDK, at the sampling temperature.
    const calls = server().modelCalls;
    expect(calls).toHaveLength(9);
    expect(calls.every((entry) => entry.body.temperature === 0.7)).toBe(true);
    const byId = new Map(lines("refunds.results.jsonl").map((record) => [record.id, record]));
    expect(byId.get("right")).toMatchObject({ status: "passed" });
    expect(byId.get("wrong")).toMatchObject({
      status: "failed",
      metrics: {
        "Argument Correctness": {
          score: 0,
          reason:
            "called[0] refund_order: amount is 300, the user asked for 30; 0 of 1 call judged right.",
        },
      },
    });
    expect(byId.get("unsure")).toMatchObject({
      status: "not-evaluable",
      metrics: { "Argument Correctness": { status: "not-evaluable" } },
    });
    expect(run.stdout).toContain("3 cases: 1 passed, 1 failed, 0 errors, 1 not evaluable");
    // Four calls judged three times each: the samples split on one of them.
    expect(run.stdout).toContain(
      "judge self-consistency: 3 of 4 sampled verdicts unanimous (75%), mean agreement 83.3%",
    );
    expect(run.stdout).toContain(
      "? unsure  Argument Correctness not evaluable: called[1] refund_order: cannot tell: the judge's 3 answers disagreed (right 1, wrong 1, cannot_tell 1). The verdict hangs on it (1 of 2 calls judged right, threshold 1).",
    );
    expect(run.stdout).toContain(
      "gate: 1 of 3 cases failed, 1 not evaluable; every case must pass (no fail_under): exit 1",
    );

    // The same run from the judge cache: no call; leaving the not evaluable case out of the
    // gate, which holds a third of the cases left out past the default limit.
    const ignored = ["--fail-under", "0.5", "--not-evaluable", "ignore"];
    const past = await runCliProcess([...args, ...out, ...ignored], { cwd, env });
    expect(past.code, past.stderr).toBe(1);
    expect(past.stdout).toContain(
      "gate: 1 of 3 cases not evaluable (33.3%) > max_not_evaluable 20%: exit 1",
    );
    const again = await runCliProcess([...args, ...out, ...ignored, "--max-not-evaluable", "40%"], {
      cwd,
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(server().modelCalls).toHaveLength(9);
    expect(lines("refunds.results.jsonl").at(-1)).toMatchObject({
      judge: { calls: 0, cacheHits: 9 },
    });
    expect(again.stdout).toContain(
      "gate: 50% passed (1 not evaluable, left out) ≥ fail_under 50% (--fail-under): exit 0",
    );
    expect(
      (await runCliProcess([...args, ...out, "--not-evaluable", "maybe"], { cwd, env })).stderr,
    ).toContain(`--not-evaluable takes fail or ignore, got "maybe"`);
  });

  it("decides judged values in a dataset's expected calls, and refuses them without a judge", async () => {
    const email = (body: string) => ({
      name: "send_email",
      arguments: { to: "ada@example.com", body },
    });
    const expected = {
      name: "send_email",
      arguments: {
        to: "ada@example.com",
        body: { $match: "judged", criterion: "apologizes and names the 30 EUR refund" },
      },
    };
    writeFileSync(
      path.join(cwd, "emails.jsonl"),
      [
        {
          id: "kind",
          input: "Refund 30 EUR",
          toolsCalled: [email("Sorry! 30 EUR refunded.")],
          expectedTools: [expected],
        },
        {
          id: "curt",
          input: "Refund 30 EUR",
          toolsCalled: [email("Done.")],
          expectedTools: [expected],
        },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n"),
    );
    server().answer = ({ prompt }) =>
      (prompt.split("## The value\n")[1] ?? "").includes("30 EUR")
        ? { reason: "apologizes and names 30 EUR", verdict: "meets" }
        : { reason: "it names no amount", verdict: "fails" };
    const env = {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: server().openaiBaseURL,
      XDG_CACHE_HOME: path.join(cwd, "user-cache"),
    };
    const out = ["-o", "emails.results.jsonl"];
    const run = await runCliProcess(
      ["eval", "emails.jsonl", ...out, "--judge", "openai/gpt-4o-mini"],
      { cwd, env },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(server().modelCalls).toHaveLength(2);
    const byId = new Map(lines("emails.results.jsonl").map((record) => [record.id, record]));
    expect(byId.get("kind")).toMatchObject({ status: "passed" });
    expect(byId.get("curt")).toMatchObject({ status: "failed" });
    expect(run.stdout).toContain(
      '$.body: judged not to meet "apologizes and names the 30 EUR refund": it names no amount',
    );
    // Without a judge: each case holding one is a JUDGE_REQUIRED error (exit 3), never a pass.
    const none = await runCliProcess(["eval", "emails.jsonl", ...out, "--overwrite"], { cwd, env });
    expect(none.code).toBe(3);
    expect(
      lines("emails.results.jsonl").filter((record) => record.status === "error"),
    ).toHaveLength(2);
  });

  it("--batch sends the questions through the Batch API, with the results a run without it gets", async () => {
    const folder = mkdtempSync(path.join(cwd, "batch-"));
    writeFileSync(
      path.join(folder, "refunds.jsonl"),
      [120, 30, 120]
        .map((amount, at) => ({
          id: `refund-${at + 1}`,
          input: `Refund order ${4500 + at} in full: 120 EUR.`,
          toolsCalled: [
            { name: "refund_order", arguments: { order: `${4500 + at}`, amount }, output: "ok" },
          ],
          actualOutput: `Refunded ${amount} EUR.`,
        }))
        .map((item) => JSON.stringify(item))
        .join("\n"),
    );
    writeFileSync(
      path.join(folder, "toolscore.config.json"),
      JSON.stringify({
        metrics: ["task-completion"],
        judge: { model: "openai/gpt-4o-mini", batch_interval_seconds: 0.01 },
      }),
    );
    server().answer = ({ prompt }) =>
      prompt.includes("Refunded 120 EUR")
        ? { reason: "refunded in full", unmet: [], verdict: "completed" }
        : { reason: "a part only", unmet: ["the full refund"], verdict: "partially_completed" };
    const env = {
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: server().openaiBaseURL,
      XDG_CACHE_HOME: path.join(folder, "user-cache"),
    };
    const verdicts = (file: string) =>
      readJsonl(path.join(folder, file))
        .filter((record) => record.id !== undefined)
        .map((record) => [record.id, record.status, record.metrics]);

    const batched = await runCliProcess(["eval", "refunds.jsonl", "--batch", "-o", "batch.jsonl"], {
      cwd: folder,
      env,
    });
    expect(batched.code, batched.stderr).toBe(1);
    expect(batched.stderr).toContain(
      "toolscore: batch 1: 3 judge questions sent through the provider's batch API; checking every 0.01 s, at most 120 times\n",
    );
    expect(server().modelCalls).toHaveLength(0);
    expect(server().requests.filter((request) => request.path === "/v1/batches")).toHaveLength(1);
    expect(batched.stdout).toMatch(/judge: 0 calls, 3 batched, 0 cached/);
    expect(readJsonl(path.join(folder, "batch.jsonl")).at(-1)).toMatchObject({
      judge: { calls: 0, batchedRequests: 3 },
    });

    // Without batches and without the cache: the same records, from three direct calls.
    const direct = await runCliProcess(
      ["eval", "refunds.jsonl", "--no-cache", "-o", "direct.jsonl"],
      { cwd: folder, env },
    );
    expect(direct.code).toBe(1);
    expect(server().modelCalls).toHaveLength(3);
    // What differs from run to run or by where an answer came from is left out.
    const timeless = (file: string): unknown =>
      JSON.parse(JSON.stringify(verdicts(file)), (key, value: unknown) =>
        ["durationMs", "cached", "costUsd"].includes(key) ? undefined : value,
      );
    expect(timeless("batch.jsonl")).toEqual(timeless("direct.jsonl"));
    expect(verdicts("batch.jsonl").map(([id, status]) => [id, status])).toEqual([
      ["refund-1", "passed"],
      ["refund-2", "failed"],
      ["refund-3", "passed"],
    ]);

    // Again with --batch: the cache holds every answer, so no batch is sent.
    const again = await runCliProcess(["eval", "refunds.jsonl", "--batch", "-o", "again.jsonl"], {
      cwd: folder,
      env,
    });
    expect(again.code).toBe(1);
    expect(server().requests.filter((request) => request.path === "/v1/batches")).toHaveLength(1);
    expect(again.stdout).toMatch(/judge: 0 calls, 3 cached/);

    // calibrate --batch: its questions go as one batch, and the figures are those of direct calls.
    writeFileSync(
      path.join(folder, "labels.jsonl"),
      [
        {
          id: "full",
          input: "Refund order 4500 in full: 120 EUR.",
          actual_output: "Refunded 120 EUR.",
          label: 1,
        },
        {
          id: "part",
          input: "Refund order 4501 in full: 120 EUR.",
          actual_output: "Refunded 30 EUR.",
          label: 0.5,
        },
      ]
        .map((item) => JSON.stringify(item))
        .join("\n"),
    );
    const calibrateArgs = ["calibrate", "task-completion", "--cases", "labels.jsonl", "--no-cache"];
    const batchesBefore = server().requests.filter((request) => request.path === "/v1/batches");
    const callsBefore = server().modelCalls.length;
    const calibrated = await runCliProcess([...calibrateArgs, "--batch"], { cwd: folder, env });
    expect(calibrated.code, calibrated.stderr).toBe(0);
    expect(calibrated.stderr).toContain("toolscore: batch 1: 2 judge questions sent");
    expect(server().requests.filter((request) => request.path === "/v1/batches")).toHaveLength(
      batchesBefore.length + 1,
    );
    expect(server().modelCalls).toHaveLength(callsBefore);
    expect(calibrated.stdout).toContain(
      "judge               0 calls, 2 batched, 0 answered from the cache",
    );
    const directly = await runCliProcess(calibrateArgs, { cwd: folder, env });
    const figures = (out: string) => out.split("\n").filter((line) => !line.includes("judge  "));
    expect(figures(calibrated.stdout)).toEqual(figures(directly.stdout));

    // --batch without a judge is refused before anything runs.
    writeFileSync(
      path.join(folder, "toolscore.config.json"),
      JSON.stringify({ metrics: ["tool-call-accuracy"] }),
    );
    const none = await runCliProcess(["eval", "refunds.jsonl", "--batch"], { cwd: folder, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--batch sends the judge's questions in batches: add --judge");
  });

  it("calibrate measures a judge against the labelled cases", async () => {
    // A judge that passes everything agrees with the labels that pass, and no better than chance.
    server().answer = () => ({
      reason: "fine",
      overSelected: [],
      underSelected: [],
      misSelected: [],
      score: 1,
    });
    const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server().openaiBaseURL };
    const run = await runCliProcess(["calibrate", "--judge", "openai/gpt-4o-mini"], { cwd, env });
    expect(run.stderr).toContain(
      `toolscore: judge openai/gpt-4o-mini at ${server().openaiBaseURL}\n`,
    );
    // It is refused, with the figure that refuses it.
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^not trusted: kappa 0\.00 < 0\.60: no better than always answering yes$/m,
    );
    expect(run.stdout).toMatch(/^ {2}also: false passes 100\.0% > 15\.0%/m);
    expect(run.stdout).toMatch(/coverage\s+100(\.0)?% decided/);
    const set = calibrationSet("tool-selection").length;
    expect(server().modelCalls).toHaveLength(set);
    expect(run.stdout).toContain(
      `judge openai/gpt-4o-mini on ${set} labelled cases (0 could not be judged)`,
    );
    expect(run.stdout).toMatch(/Cohen's kappa\s+(0\.00|–)/);
    // The cases labelled as failing are listed as disagreements.
    expect(run.stdout).toMatch(/: label 0(\.\d+)?, judge 1/);
    const json = await runCliProcess(["calibrate", "--judge", "openai/gpt-4o-mini", "--json"], {
      cwd,
      env,
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ cases: set, errors: 0, passed: false });
    // Gates a team sets for itself: this judge meets these.
    const lenient = await runCliProcess(
      [
        "calibrate",
        "--judge",
        "openai/gpt-4o-mini",
        // A negative number joined to its flag, as any option parser needs it.
        "--min-kappa=-1",
        "--max-false-pass",
        "100%",
      ],
      { cwd, env },
    );
    expect(lenient.code, lenient.stdout).toBe(0);
    expect(lenient.stdout).toMatch(
      /^trusted: kappa 0\.00 \(no better than always answering yes\)/m,
    );
    const badGate = await runCliProcess(
      ["calibrate", "--judge", "openai/gpt-4o-mini", "--min-kappa", "2"],
      { cwd, env },
    );
    expect(badGate.code).toBe(2);
    expect(badGate.stderr).toContain("--min-kappa must be a number from -1 to 1");

    // task-completion's labelled set, with a judge that says every run is complete.
    server().answer = () => ({ reason: "done", unmet: [], verdict: "completed" });
    const task = await runCliProcess(
      ["calibrate", "task-completion", "--judge", "openai/gpt-4o-mini"],
      { cwd, env },
    );
    expect(task.code, task.stderr).toBe(1);
    expect(task.stdout).toContain(
      `task-completion: judge openai/gpt-4o-mini on ${calibrationSet("task-completion").length} labelled cases`,
    );
    expect(task.stdout).toContain("cannot tell         0 said, 0 of 7 labelled undecidable");
    expect(task.stdout).toMatch(/refund-output-missing: label not-evaluable, judge 1/);
    const unknown = await runCliProcess(
      ["calibrate", "task-completon", "--judge", "openai/gpt-4o-mini"],
      { cwd, env },
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "task-completion"?');

    // A team's own labelled cases: a refund of 300 asked as 30 is wrong, of 30 right.
    const refund = (id: string, amount: number, label: number) => ({
      id,
      input: "Refund 30 EUR on order 4521",
      tools_called: [{ name: "refund_order", arguments: { order: "4521", amount } }],
      label,
      call_labels: [label === 1 ? "right" : "wrong"],
    });
    server().answer = ({ prompt }) => ({
      calls: [
        prompt.includes('"amount":300')
          ? { call: 1, reason: "300 is not the 30 asked", verdict: "wrong" }
          : { call: 1, reason: "30 as asked", verdict: "right" },
      ],
    });
    const labels = [refund("tenfold", 300, 0), refund("asked", 30, 1)];
    /** Calibrates argument-correctness on labels.jsonl, written first when lines are given. */
    const calibrateOn = (lines?: readonly object[]) => {
      if (lines !== undefined)
        writeFileSync(
          path.join(cwd, "labels.jsonl"),
          lines.map((line) => JSON.stringify(line)).join("\n"),
        );
      return runCliProcess(
        [
          "calibrate",
          "argument-correctness",
          "--cases",
          "labels.jsonl",
          "--judge",
          "openai/gpt-4o-mini",
        ],
        { cwd, env },
      );
    };
    const own = await calibrateOn(labels);
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect(own.stdout).toContain(
      "argument-correctness: judge openai/gpt-4o-mini on 2 labelled cases",
    );
    expect(own.stdout).toMatch(/^trusted: kappa 1\.00/m);
    // A line without a label is said, the others calibrated, and the run exits 3.
    const partly = await calibrateOn([
      ...labels,
      { id: "unlabelled", input: "x", tools_called: [] },
    ]);
    expect(partly.code).toBe(3);
    expect(partly.stderr).toContain("labels.jsonl: line 3: label must be a score from 0 to 1");
    expect(partly.stdout).toContain(
      "1 labelled case could not be read (above): calibrated on the other 2",
    );
    // The same cases labelled the other way: the cached answers now disagree, and the drop since
    // the last calibration of this judge on this file is said.
    const lower = await calibrateOn([refund("tenfold", 300, 1), refund("asked", 30, 0)]);
    expect(lower.code).toBe(1);
    expect(lower.stdout).toMatch(
      /^ {2}lower than the last calibration of this judge \(\d{4}-\d\d-\d\d\): kappa 1\.00 → -1\.00, false passes 0\.0% → 100\.0%, trusted → not trusted$/m,
    );
    // Asked again, every answer comes from the judge cache the gate's runs share.
    const before = server().modelCalls.length;
    const again = await calibrateOn(labels);
    expect(server().modelCalls).toHaveLength(before);
    expect(again.stdout).toContain("judge               0 calls, 2 answered from the cache");
    // The config's judge and the metric's sampling, as the gate runs them: three samples a case.
    writeFileSync(
      path.join(cwd, "toolscore.config.json"),
      JSON.stringify({
        judge: "openai/gpt-4o-mini",
        metrics: [{ metric: "argument-correctness", samples: 3 }],
      }),
    );
    const configured = await runCliProcess(
      ["calibrate", "argument-correctness", "--cases", "labels.jsonl", "--json"],
      { cwd, env },
    );
    rmSync(path.join(cwd, "toolscore.config.json"));
    expect(configured.stderr).toContain("toolscore: judge openai/gpt-4o-mini at");
    const sampled = JSON.parse(configured.stdout) as {
      judge: { calls: number; cacheHits: number };
      results: { id: string }[];
    };
    expect(sampled.judge.calls + sampled.judge.cacheHits).toBe(2 * 3);

    // A judge nothing reaches stops the calibration at once, with one error.
    const port = await closedPort();
    const down = await runCliProcess(["calibrate", "--judge", "openai/gpt-4o-mini", "--no-cache"], {
      cwd,
      env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("the judge cannot be reached, calibration stopped:");
    expect(down.stdout).toBe("");
  });

  it("reruns only the errored cases with --resume --retry-errors, and counts each case once", async () => {
    writeFileSync(
      path.join(cwd, "retry.jsonl"),
      ["alpha", "bravo", "charlie"]
        .map((id) =>
          JSON.stringify({
            id,
            input: `Book me a flight (${id})`,
            availableTools: [{ name: "book" }],
            toolsCalled: [{ name: "book", arguments: {} }],
          }),
        )
        .join("\n"),
    );
    const good = { reason: "fine", overSelected: [], underSelected: [], misSelected: [], score: 1 };
    // The judge's answer for bravo does not fit the schema: that case ends in an error.
    server().answer = ({ prompt }) => (prompt.includes("(bravo)") ? { nonsense: true } : good);
    const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server().openaiBaseURL };
    const args = ["eval", "retry.jsonl", "-m", "tool-selection", "--judge", "openai/gpt-4o-mini"];
    const out = ["--out", "retry-results.jsonl", "--no-cache"];
    const first = await runCliProcess([...args, ...out], { cwd, env });
    expect(first.code).toBe(3);
    const errored = lines("retry-results.jsonl").filter((line) => line.status === "error");
    expect(errored.map((line) => line.id)).toEqual(["bravo"]);

    // Resumed without --retry-errors: nothing is left to run, the error stays.
    const calls = server().modelCalls.length;
    const resumed = await runCliProcess([...args, ...out, "--resume"], { cwd, env });
    expect(resumed.code).toBe(3);
    expect(server().modelCalls).toHaveLength(calls);

    // With --retry-errors the judge is asked again for bravo alone, and now answers well.
    server().answer = () => good;
    const retried = await runCliProcess([...args, ...out, "--resume", "--retry-errors"], {
      cwd,
      env,
    });
    expect(retried.stderr).toBe(
      `${noConfig}toolscore: judge openai/gpt-4o-mini at ${server().openaiBaseURL}\n`,
    );
    expect(retried.code).toBe(0);
    const asked = server().modelCalls.slice(calls);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((call) => JSON.stringify(call.body).includes("(bravo)"))).toBe(true);
    // Three cases, each counted once: the earlier error line is kept, the later record wins.
    expect(retried.stdout).toMatch(/3 cases: 3 passed, 0 failed, 0 errors/);
    const records = lines("retry-results.jsonl").filter((line) => line.id === "bravo");
    expect(records.map((line) => line.status)).toEqual(["error", "passed"]);
    const report = await runCliProcess(["report", "retry-results.jsonl"], { cwd });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/3 cases: 3 passed, 0 failed, 0 errors/);
  });

  it("asks for a judge when a judged metric has none, and for a key when the provider needs one", async () => {
    writeFileSync(path.join(cwd, "one.jsonl"), '{"id":"a","tools_called":[]}\n');
    const noJudge = await runCliProcess(["eval", "one.jsonl", "--metric", "tool-selection"], {
      cwd,
    });
    expect(noJudge.code).toBe(2);
    expect(noJudge.stderr).toContain("tool-selection needs a judge: add --judge");
    const noKey = await runCliProcess(
      ["eval", "one.jsonl", "--metric", "tool-selection", "--judge", "openai/gpt-4o-mini"],
      { cwd },
    );
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("OPENAI_API_KEY");
  });

  it("gives each judge call the deadline --judge-timeout or judge.timeout_ms sets (issue 22, item 9)", async () => {
    writeFileSync(
      path.join(cwd, "slow.jsonl"),
      JSON.stringify({
        id: "slow",
        input: "Book me a flight",
        availableTools: [{ name: "book" }],
        toolsCalled: [{ name: "book", arguments: {} }],
      }),
    );
    server().latencyMs = 3_000;
    const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server().openaiBaseURL };
    const args = ["eval", "slow.jsonl", "-m", "tool-selection", "--judge", "openai/gpt-4o-mini"];
    const started = performance.now();
    const run = await runCliProcess([...args, "--judge-timeout", "200", "--out", "slow-1.jsonl"], {
      cwd,
      env,
    });
    expect(run.code).toBe(3);
    expect(lines("slow-1.jsonl").find((line) => line.id === "slow")).toMatchObject({
      status: "error",
    });
    writeFileSync(
      path.join(cwd, "slow.config.yaml"),
      "judge:\n  model: openai/gpt-4o-mini\n  timeout_ms: 200\n  max_retries: 0\n  cache: false\n",
    );
    const fromConfig = await runCliProcess(
      [
        "eval",
        "slow.jsonl",
        "-m",
        "tool-selection",
        "-c",
        "slow.config.yaml",
        "--out",
        "slow-2.jsonl",
      ],
      { cwd, env },
    );
    expect(fromConfig.code).toBe(3);
    // Well under one 3-second answer per attempt: the deadline cut them short.
    expect(performance.now() - started).toBeLessThan(20_000);
    const bad = await runCliProcess([...args, "--judge-timeout", "soon"], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--judge-timeout must be a number/);
    server().latencyMs = 0;
  });

  it("stops a run whose judge no call reaches, with one error, and resumes it once the judge is up (issue 49, item 4)", async () => {
    const port = await closedPort();
    const cases = Array.from({ length: 40 }, (_, at) => ({
      id: `refund-${at}`,
      input: `Refund order ${at}`,
      toolsCalled: [{ name: "refund_order", arguments: { order: at } }],
      expectedTools: [{ name: "refund_order", arguments: { order: at } }],
    }));
    writeFileSync(path.join(cwd, "forty.jsonl"), cases.map((c) => JSON.stringify(c)).join("\n"));
    const args = [
      "eval",
      "forty.jsonl",
      "--metric",
      "argument-correctness",
      "-o",
      "forty.results.jsonl",
    ];
    const judge = ["--judge", "openai/gpt-4o-mini", "--no-cache"];
    const down = await runCliProcess([...args, ...judge, "--json"], {
      cwd,
      env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(down.code, down.stderr).toBe(3);
    const output = JSON.parse(down.stdout) as { stopped: string; gate: { text: string } };
    expect(output.stopped).toBe("judge-unreachable");
    expect(output.gate.text).toBe("gate: stopped: the judge cannot be reached: exit 3");
    // One error line however many cases it failed, and the stop said once, with what to do.
    expect(down.stderr.match(/could not connect/g)).toHaveLength(2);
    expect(down.stderr).toMatch(
      new RegExp(
        `toolscore: the judge cannot be reached: its first calls failed with openai: the model API at http://127\\.0\\.0\\.1:${port}/v1 could not connect.*; check its address and that its server runs\\. \\d+ cases? saved; the rest runs with --resume --retry-errors\\.`,
      ),
    );
    const saved = lines("forty.results.jsonl").filter((line) => "status" in line);
    expect(saved.length).toBeLessThan(40);
    // The judge is up: the run goes on where it stopped and finishes.
    server().answer = () => ({ calls: [{ call: 1, verdict: "right", reason: "as asked" }] });
    const up = await runCliProcess([...args, ...judge, "--resume", "--retry-errors"], {
      cwd,
      env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server().openaiBaseURL },
    });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain("gate: all 40 cases passed: exit 0");
  });
});
