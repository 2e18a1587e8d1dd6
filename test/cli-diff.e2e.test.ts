/**
 * `toolscore compare` on trajectories, through the built CLI: recordings with known differences
 * (an added call, a dropped one, an argument's drift, a reorder, parallel to serial, a changed
 * output, a call the baseline made in 2 of 5 runs) must come out as exactly those, the flaky one
 * set aside; results files compare their calls and their scores.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliProcess } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-cli-diff-");

interface Call {
  readonly name: string;
  readonly args?: Record<string, unknown>;
  readonly output?: unknown;
}

const call = (name: string, args: Record<string, unknown> = {}, output: unknown = "ok"): Call => ({
  name,
  args,
  output,
});

/** A recorded run whose calls are given as they were made, one step each. */
function recorded(id: string, calls: readonly Call[], run?: number): object {
  return {
    id,
    ...(run === undefined ? {} : { run }),
    input: `case ${id}`,
    toolsCalled: calls.map((made) => ({
      name: made.name,
      inputParameters: made.args,
      output: made.output,
    })),
  };
}

/** A recorded run as an OpenAI chat transcript, calls grouped into steps (parallel calls). */
function transcript(id: string, steps: readonly (readonly Call[])[]): object {
  let n = 0;
  const messages: object[] = [{ role: "user", content: `case ${id}` }];
  for (const step of steps) {
    const ids = step.map(() => `call_${++n}`);
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: step.map((made, at) => ({
        id: ids[at],
        type: "function",
        function: { name: made.name, arguments: JSON.stringify(made.args) },
      })),
    });
    step.forEach((made, at) =>
      messages.push({ role: "tool", tool_call_id: ids[at], content: String(made.output) }),
    );
  }
  messages.push({ role: "assistant", content: "done" });
  return { id, input: `case ${id}`, trajectory: messages };
}

const lookup = call("lookup_order", { order: "A1" }, "total 30");
const refund = (amount: number) => call("refund_order", { order: "A1", amount });
const email = call("send_email", { to: "ann@example.com" });
const faq = call("search_faq", { q: "refunds" });

/** Five baseline runs of each case and one new run, each new run with one known difference. */
function pair() {
  const baseline: object[] = [];
  for (let run = 1; run <= 5; run++) {
    baseline.push(
      recorded("same", [lookup, refund(30)], run),
      recorded("added", [lookup, refund(30)], run),
      recorded("dropped", [lookup, refund(30), email], run),
      recorded("drift", [lookup, refund(30)], run),
      recorded("reorder", [lookup, refund(30), email], run),
      recorded("output", [lookup, refund(30)], run),
      recorded(
        "flaky",
        run === 2 || run === 4 ? [lookup, faq, refund(30)] : [lookup, refund(30)],
        run,
      ),
      transcript("serial", [[lookup, email]]),
    );
  }
  const current = [
    recorded("same", [lookup, refund(30)]),
    recorded("added", [lookup, refund(30), refund(30)]),
    recorded("dropped", [lookup, email]),
    recorded("drift", [lookup, refund(300)]),
    recorded("reorder", [lookup, email, refund(30)]),
    recorded("output", [call("lookup_order", { order: "A1" }, "total 31"), refund(30)]),
    recorded("flaky", [lookup, faq, refund(30)]),
    transcript("serial", [[lookup], [email]]),
  ];
  // The serial case's baseline is one transcript, five times over: the same run, repeated.
  return folder({ "base.jsonl": jsonl(baseline), "new.jsonl": jsonl(current) });
}

interface Json {
  trajectories: {
    compared: number;
    regressions: number;
    flaky: number;
    diverged: {
      id: string;
      regressions: number;
      flaky: number;
      places: {
        difference: Record<string, unknown>;
        runs: number;
        baselineRuns: number;
        verdict: string;
      }[];
    }[];
  };
}

describe("toolscore compare: trajectories", () => {
  it("names exactly the known differences, and sets the flaky call aside", async () => {
    const cwd = pair();
    const ran = await runCliProcess(["compare", "base.jsonl", "new.jsonl", "--json"], { cwd });
    expect(ran.stderr).not.toMatch(/left out|not at hand/);
    expect(ran.code).toBe(1);
    const { trajectories } = JSON.parse(ran.stdout) as Json;
    const found = Object.fromEntries(
      trajectories.diverged.map((divergence) => [
        divergence.id,
        divergence.places.map(({ difference, verdict, baselineRuns }) => ({
          kind: difference.kind,
          name: difference.name,
          ...(difference.path === undefined ? {} : { path: difference.path }),
          verdict,
          baselineRuns,
        })),
      ]),
    );
    const regression = { verdict: "regression", baselineRuns: 0 };
    expect(found).toEqual({
      added: [{ kind: "added", name: "refund_order", ...regression }],
      dropped: [{ kind: "dropped", name: "refund_order", ...regression }],
      drift: [{ kind: "arguments", name: "refund_order", path: "$.amount", ...regression }],
      reorder: [{ kind: "moved", name: "send_email", ...regression }],
      output: [{ kind: "output", name: "lookup_order", ...regression }],
      serial: [{ kind: "serial", name: "send_email", ...regression }],
      flaky: [{ kind: "added", name: "search_faq", verdict: "flaky", baselineRuns: 2 }],
    });
    expect(trajectories).toMatchObject({ compared: 8, regressions: 6, flaky: 1 });
  });

  it("prints each case's first divergence like a line of a code diff, with the noise counted", async () => {
    const cwd = pair();
    const ran = await runCliProcess(["compare", "base.jsonl", "new.jsonl"], { cwd });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(
      "Trajectories: 7 of 8 cases part from the baseline: 6 regressions, 1 flaky place set aside (the baseline's own runs differ there)",
    );
    expect(ran.stdout).toContain(
      "    turn 1, call 2: refund_order $.amount 30 → 300  (baseline: same in 5 of 5 runs)",
    );
    expect(ran.stdout).toMatch(
      /~ flaky: noise only\n {4}turn 1, call 2: search_faq\(\{"q":"refunds"\}\) added {2}\(baseline: same in 3 of 5 runs; flaky, set aside\)/,
    );
    // Regressions first, the noise after them.
    expect(ran.stdout.indexOf("✗ drift")).toBeLessThan(ran.stdout.indexOf("~ flaky"));
  });

  it("exits 0 when the only differences are noise, ignored paths, or only reported", async () => {
    const cwd = pair();
    const report = await runCliProcess(
      ["compare", "base.jsonl", "new.jsonl", "--divergences", "report"],
      { cwd },
    );
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("6 regressions");
    const quiet = folder({
      "base.jsonl": jsonl([recorded("a", [call("create", { id: "r-1", name: "x" }, "id o-1")])]),
      "new.jsonl": jsonl([recorded("a", [call("create", { id: "r-2", name: "x" }, "id o-2")])]),
    });
    const loud = await runCliProcess(["compare", "base.jsonl", "new.jsonl"], { cwd: quiet });
    expect(loud.code).toBe(1);
    const ignored = await runCliProcess(
      ["compare", "base.jsonl", "new.jsonl", "--ignore", "id", "--ignore-outputs"],
      { cwd: quiet },
    );
    expect(ignored.stdout).toContain("0 of 1 case part from the baseline: 0 regressions");
    expect(ignored.code).toBe(0);
  });

  it("refuses bad flags with a usage error naming them", async () => {
    const cwd = pair();
    const rate = await runCliProcess(["compare", "base.jsonl", "new.jsonl", "--flaky-rate", "1"], {
      cwd,
    });
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--flaky-rate must be below 1/);
    const mode = await runCliProcess(
      ["compare", "base.jsonl", "new.jsonl", "--divergences", "warn"],
      { cwd },
    );
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/--divergences/);
    expect(mode.stderr).toMatch(/fail.*report/);
  });

  it("says which runs it could not read, and fails rather than pass them", async () => {
    const cwd = folder({
      "base.jsonl": jsonl([recorded("a", [lookup]), recorded("b", [lookup])]),
      "new.jsonl": `${JSON.stringify(recorded("a", [lookup]))}\n{"id": "b", "toolsCalled": [\n`,
    });
    const ran = await runCliProcess(["compare", "base.jsonl", "new.jsonl"], { cwd });
    expect(ran.stderr).toMatch(/new\.jsonl: line 2: .*left out of the trajectory diff/);
    expect(ran.stdout).toContain("1 run could not be read");
    expect(ran.code).toBe(1);
  });

  it("compares two results files' calls, read again from their datasets, beside their scores", async () => {
    const expected = [
      { name: "lookup_order", inputParameters: { order: "A1" } },
      { name: "refund_order", inputParameters: { order: "A1", amount: 30 } },
    ];
    const cwd = folder({
      "base.jsonl": jsonl([{ ...recorded("r", [lookup, refund(30)]), expectedTools: expected }]),
      "new.jsonl": jsonl([
        { ...recorded("r", [lookup, refund(30), email]), expectedTools: expected },
      ]),
    });
    for (const side of ["base", "new"]) {
      const ran = await runCliProcess(
        [
          "eval",
          `${side}.jsonl`,
          "--out",
          `${side}-results.jsonl`,
          "--set",
          "tool-call-accuracy.order=all-expected",
        ],
        { cwd },
      );
      // The new run fails its case: an extra call of a tool that changes state.
      expect(ran.code, ran.stderr).toBe(side === "base" ? 0 : 1);
    }
    const ran = await runCliProcess(["compare", "base-results.jsonl", "new-results.jsonl"], {
      cwd,
    });
    expect(ran.stdout).toMatch(/newly failed/i);
    expect(ran.stdout).toContain("Trajectories: 1 of 1 case part from the baseline: 1 regression");
    expect(ran.stdout).toContain('turn 1, call 3: send_email({"to":"ann@example.com"}) added');
    expect(ran.code).toBe(1);
    // Without the datasets, the calls are not at hand: said, and not taken for a regression.
    const moved = folder({});
    for (const side of ["base", "new"]) {
      const { copyFileSync } = await import("node:fs");
      copyFileSync(
        path.join(cwd, `${side}-results.jsonl`),
        path.join(moved, `${side}-results.jsonl`),
      );
    }
    const alone = await runCliProcess(["compare", "base-results.jsonl", "base-results.jsonl"], {
      cwd: moved,
    });
    expect(alone.stderr).toMatch(/the calls of 1 case are not at hand/);
    expect(alone.stdout).toContain("1 case without calls at hand, not compared");
    expect(alone.code).toBe(0);
  });

  it("gates eval --baseline on the calls too, and takes the diff settings from the config", async () => {
    const expected = [{ name: "lookup_order", inputParameters: { order: "A1" } }];
    const cwd = folder({
      "base.jsonl": jsonl([{ ...recorded("r", [lookup]), expectedTools: expected }]),
      "new.jsonl": jsonl([
        {
          ...recorded("r", [call("lookup_order", { order: "A1" }, "total 31")]),
          expectedTools: expected,
        },
      ]),
    });
    const base = await runCliProcess(["eval", "base.jsonl", "--out", "base-results.jsonl"], {
      cwd,
    });
    expect(base.code, base.stderr).toBe(0);
    const args = [
      "eval",
      "new.jsonl",
      "--out",
      "new-results.jsonl",
      "--baseline",
      "base-results.jsonl",
    ];
    // The score holds (outputs are not scored); the tool's answer changed.
    const ran = await runCliProcess([...args, "--json"], { cwd });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      'turn 1, call 1: lookup_order output "total 30" → "total 31"  (baseline: same in 1 of 1 run)',
    );
    const json = JSON.parse(ran.stdout) as {
      gate: { text: string };
      trajectories: { regressions: number };
    };
    expect(json.trajectories.regressions).toBe(1);
    expect(json.gate.text).toMatch(/1 regression against base-results\.jsonl/);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      path.join(cwd, "toolscore.config.json"),
      JSON.stringify({ ignore_outputs: true }),
    );
    const quiet = await runCliProcess(args, { cwd });
    expect(quiet.stdout).toContain("0 of 1 case part from the baseline");
    expect(quiet.code).toBe(0);
    const compared = await runCliProcess(["compare", "base.jsonl", "new.jsonl"], { cwd });
    expect(compared.code).toBe(0);
    // From the config, a diff setting waits for a baseline; as a flag without one, it is refused.
    const alone = await runCliProcess(["eval", "new.jsonl", "--out", "alone.jsonl"], { cwd });
    expect(alone.code).toBe(0);
    const flag = await runCliProcess(
      ["eval", "new.jsonl", "--out", "alone.jsonl", "--flaky-rate", "0.2"],
      { cwd },
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--flaky-rate goes with --baseline");
  });

  it("writes the calls' diff as Markdown for recordings, to a file and the CI summary", async () => {
    const cwd = pair();
    const ran = await runCliProcess(
      ["compare", "base.jsonl", "new.jsonl", "--markdown", "calls.md"],
      { cwd, env: { GITHUB_STEP_SUMMARY: path.join(cwd, "summary.md") } },
    );
    expect(ran.code).toBe(1);
    const { readFileSync } = await import("node:fs");
    const markdown = readFileSync(path.join(cwd, "calls.md"), "utf8");
    expect(markdown).toContain("#### ❌ Calls compared with the baseline");
    expect(markdown).toContain(
      [
        "```diff",
        '  1.1 lookup_order({"order":"A1"})',
        '- 1.2 refund_order({"order":"A1","amount":30})',
        '+ 1.2 refund_order({"order":"A1","amount":300})   ← parts here',
        "```",
      ].join("\n"),
    );
    expect(readFileSync(path.join(cwd, "summary.md"), "utf8")).toBe(markdown);
    // The HTML report shows a run's scores: recordings have none to show.
    const html = await runCliProcess(["compare", "base.jsonl", "new.jsonl", "--report", "r.html"], {
      cwd,
    });
    expect(html.code).toBe(2);
    expect(html.stderr).toMatch(/--report needs two results files/);
  });
});
