/**
 * Decision-model judges end to end, over loopback: `calibrate` fits a band on a team's labelled
 * cases and records it beside the judge cache; `eval` names that calibration and judges with its
 * band. The judge's probabilities lean yes (every wrong call still gets 0.6 or more), so the default
 * band leaves wrong calls undecided and the fitted one fails them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { startDecisionServer } from "./support/decision-server.js";
import type { DecisionServer } from "./support/decision-server.js";
import { readJsonl } from "./support/folders.js";

const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-cli-decisions-"));
let server: DecisionServer;
beforeAll(async () => {
  // P(right) by the amount refunded: 30 was asked for.
  server = await startDecisionServer((question, state) => {
    if (question.type !== "yes-no") return undefined;
    // The state is the request's input as JSON text: quotes in it are escaped.
    const amount = /amount\\?":(\d+)/.exec(state)?.[1];
    return amount === "30" ? 0.93 : amount === "31" ? 0.81 : 0.64 + Number(amount ?? 0) / 100_000;
  });
});
afterAll(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const refund = (id: string, amount: number, label: "right" | "wrong") => ({
  id,
  input: "Refund 30 EUR on order 4521",
  tools_called: [{ name: "refund_order", arguments: { order: "4521", amount } }],
  label: label === "right" ? 1 : 0,
  call_labels: [label],
});

describe("decision-model judges on the command line", () => {
  it("calibrate fits a band and records it; eval names the calibration and judges with that band", async () => {
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: `${server.url}/v1`,
      XDG_CACHE_HOME: path.join(cwd, "cache"),
    };
    const labels = [
      refund("asked", 30, "right"),
      refund("rounded", 31, "right"),
      ...[300, 3, 3000, 130, 303].map((amount) => refund(`wrong-${amount}`, amount, "wrong")),
    ];
    writeFileSync(path.join(cwd, "labels.jsonl"), labels.map((l) => JSON.stringify(l)).join("\n"));
    const judge = ["--judge", "openai-decisions/gpt-6-luna"];
    const calibrated = await runCliProcess(
      ["calibrate", "argument-correctness", "--cases", "labels.jsonl", ...judge],
      { cwd, env },
    );
    expect(calibrated.code, calibrated.stdout + calibrated.stderr).toBe(0);
    expect(calibrated.stdout).toMatch(
      /^ {2}band {16}\[0\.740, 0\.740\] fitted for 5% false passes and fails/m,
    );
    expect(calibrated.stdout).toMatch(
      /^ {2}probabilities {7}Brier 0\.\d{3}, ECE 0\.\d{3} \(7 calls\)$/m,
    );
    expect(calibrated.stdout).toMatch(/^trusted: kappa 1\.00/m);
    expect(server.requests.every((request) => request.path === "/v1/decisions")).toBe(true);
    const history = readFileSync(
      path.join(cwd, "cache", "toolscore", "judge-cache", "calibrations.jsonl"),
      "utf8",
    );
    const entry = JSON.parse(history.trim().split("\n").at(-1) ?? "{}") as {
      model: string;
      promptVersion: string;
      band: [number, number];
      brier: number;
    };
    expect(entry).toMatchObject({
      model: "openai-decisions/gpt-6-luna",
      promptVersion: "argument-correctness-decision/1",
    });
    // Between the likeliest wrong call (0.67) and the least likely right one (0.81).
    expect(entry.band).toEqual([0.74, 0.74]);

    // The same judge gates a run with the band fitted above, said on stderr: the tenfold refund
    // (P 0.643) fails, where the default band would leave it undecided.
    writeFileSync(
      path.join(cwd, "runs.jsonl"),
      [refund("ok", 30, "right"), refund("tenfold", 300, "wrong")]
        .map(({ label: _label, call_labels: _calls, ...run }) => JSON.stringify(run))
        .join("\n"),
    );
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "--metric", "argument-correctness", ...judge, "--out", "out.jsonl"],
      { cwd, env },
    );
    expect(run.stderr).toMatch(
      /toolscore: judge openai-decisions\/gpt-6-luna on argument-correctness \(argument-correctness-decision\/1\): last calibrated \d{4}-\d\d-\d\d on labels\.jsonl: kappa 1\.00, coverage 100\.0%, trusted; band \[0\.74, 0\.74\] from that calibration/,
    );
    const results = readJsonl(path.join(cwd, "out.jsonl")) as {
      id?: string;
      metrics?: Record<string, { status: string; score?: number; reason?: string }>;
    }[];
    const byId = new Map(results.map((line) => [line.id, line.metrics?.["Argument Correctness"]]));
    expect(byId.get("ok")).toMatchObject({ status: "scored", score: 1 });
    expect(byId.get("tenfold")).toMatchObject({ status: "scored", score: 0 });
    expect(byId.get("tenfold")?.reason).toContain("P(right) 0.64");
    expect(run.code).toBe(1);

    // A band of the metric's own wins, and the line says the judge was calibrated all the same.
    const own = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--metric",
        "argument-correctness",
        "--set",
        "argument-correctness.band=[0.5,0.6]",
        ...judge,
        "--out",
        "own.jsonl",
        "--overwrite",
      ],
      { cwd, env },
    );
    expect(own.stderr).toMatch(/argument-correctness-decision\/1\): last calibrated .*trusted\n/);
    expect(own.stderr).not.toContain("from that calibration");
  });

  it("eval says when a judge was never calibrated", async () => {
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: `${server.url}/v1`,
      XDG_CACHE_HOME: path.join(cwd, "fresh-cache"),
    };
    writeFileSync(
      path.join(cwd, "one.jsonl"),
      JSON.stringify({ ...refund("one", 30, "right"), label: undefined, call_labels: undefined }),
    );
    const run = await runCliProcess(
      [
        "eval",
        "one.jsonl",
        "--metric",
        "argument-correctness",
        "--judge",
        "openai-decisions/gpt-6-luna",
        "--out",
        "one-out.jsonl",
      ],
      { cwd, env },
    );
    expect(run.stderr).toContain(
      "toolscore: judge openai-decisions/gpt-6-luna on argument-correctness (argument-correctness-decision/1): never calibrated; run toolscore calibrate argument-correctness --judge openai-decisions/gpt-6-luna; band [0.25, 0.75] by default: no trusted calibration fitted one",
    );
  });
});
