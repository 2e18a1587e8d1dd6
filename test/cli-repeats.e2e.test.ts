/**
 * Repeated runs of a non-deterministic agent, through the built CLI: cases grouped by a `run`
 * number or `--group-by`, pass@k, pass^k and flaky cases in the console, Markdown and HTML, the
 * same on every run path, after a resume, from `report`, and matched by run in `compare`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-cli-repeats-");
const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const tau = path.join(root, "examples/benchmarks/tau-bench");

/** C(a, k) / C(n, k), written out: the test's own oracle for the estimates. */
function ratio(a: number, n: number, k: number): number {
  let value = 1;
  for (let i = 0; i < k; i++) value *= Math.max(0, a - i) / (n - i);
  return value;
}

const percent = (value: number) => `${Number((value * 100).toFixed(1))}%`;

/** A case that passes (the call expected made) or fails (another call made). */
function run(id: string, runNumber: number | undefined, passes: boolean): object {
  return {
    id,
    ...(runNumber === undefined ? {} : { run: runNumber }),
    toolsCalled: [{ name: passes ? "search" : "book", inputParameters: {} }],
    expectedTools: [{ name: "search", inputParameters: {} }],
  };
}

/** a: 3 runs, 2 pass (flaky); b: 2 runs, none pass; c: 2 runs, both pass; d: no run number. */
const repeated = [
  run("a", 0, true),
  run("b", 0, false),
  run("a", 1, false),
  run("c", 0, true),
  run("a", 2, true),
  run("b", 1, false),
  run("c", 1, true),
  run("d", undefined, true),
];

/** The summary lines about repeated runs, from a run's console output. */
function repeatLines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => /^(repeated runs| {2}pass\^k by k| {2}~ | {2}… and)/.test(line));
}

describe("repeated runs", () => {
  it("reproduce tau-bench's pass^k over its tasks' trials, with --group-by", async () => {
    const cwd = folder();
    const ran = await runCliProcess(
      [
        "eval",
        path.join(tau, "dataset.jsonl"),
        "-c",
        path.join(tau, "toolscore.config.yaml"),
        "--group-by",
        "metadata.task_id",
        "-o",
        "results.jsonl",
        "--markdown",
        "summary.md",
      ],
      { cwd },
    );
    expect(ran.code).toBe(1);
    // Each task's trials and how many passed, from the records and the dataset's task ids.
    const taskOf = new Map(
      readFileSync(path.join(tau, "dataset.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { id: string; metadata: { task_id: number } })
        .map((item) => [item.id, String(item.metadata.task_id)]),
    );
    const tasks = new Map<string, { n: number; c: number }>();
    for (const record of recordsByIndex(path.join(cwd, "results.jsonl")).values()) {
      const task = taskOf.get(record.id as string) as string;
      expect(record.group).toBe(task);
      const tally = tasks.get(task) ?? { n: 0, c: 0 };
      tally.n++;
      if (record.status === "passed") tally.c++;
      tasks.set(task, tally);
    }
    expect(tasks.size).toBe(5);
    const counts = [...tasks.values()];
    const mean = (f: (t: { n: number; c: number }) => number) =>
      counts.reduce((sum, t) => sum + f(t), 0) / counts.length;
    const flaky = [...tasks].filter(([, t]) => t.c > 0 && t.c < t.n);
    const lines = repeatLines(ran.stdout);
    expect(lines[0]).toBe(
      `repeated runs by metadata.task_id: 5 cases, 4 runs each: pass@k ${percent(mean((t) => (t.c > 0 ? 1 : 0)))}, pass^k ${percent(mean((t) => (t.c === t.n ? 1 : 0)))}, ${flaky.length} flaky`,
    );
    expect(lines[1]).toBe(
      `  pass^k by k: ${[1, 2, 3, 4].map((k) => `${k}: ${percent(mean((t) => ratio(t.c, t.n, k)))}`).join("  ")}`,
    );
    expect(lines.slice(2)).toEqual(
      flaky.map(([task, t]) => `  ~ task_id ${task}: ${t.c} of ${t.n} runs passed`),
    );
    const markdown = readFileSync(path.join(cwd, "summary.md"), "utf8");
    expect(markdown).toContain("### Repeated runs");
    for (const k of [1, 2, 3, 4]) {
      const at = percent(mean((t) => 1 - ratio(t.n - t.c, t.n, k)));
      const hat = percent(mean((t) => ratio(t.c, t.n, k)));
      expect(markdown).toContain(`| ${k} | 5 | ${at} | ${hat} |`);
    }
  });

  it("group cases with run numbers by id, the same on every run path and read back", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl(repeated),
      "runs.yaml": toYaml(repeated),
    });
    const expected = [
      "repeated runs: 3 cases, 2–3 runs each: pass@k 66.7%, pass^k 33.3%, 1 flaky; 1 run without a group",
      `  pass^k by k: 1: ${percent((2 / 3 + 0 + 1) / 3)}  2: ${percent((1 / 3 + 0 + 1) / 3)}  3: 0%`,
      "  ~ a: 2 of 3 runs passed",
    ];
    for (const args of [
      ["runs.jsonl", "--workers", "0", "-o", "w0.jsonl"],
      ["runs.jsonl", "--workers", "1", "-o", "w1.jsonl"],
      ["runs.yaml", "-o", "yaml.jsonl", "--report", "r.html"],
    ]) {
      const ran = await runCliProcess(["eval", ...args], { cwd });
      expect(ran.code, args.join(" ")).toBe(1);
      expect(repeatLines(ran.stdout), args.join(" ")).toEqual(expected);
    }
    const records = [...recordsByIndex(path.join(cwd, "w1.jsonl")).values()];
    expect(records.map((record) => [record.id, record.run, record.group])).toEqual([
      ["a", 0, "a"],
      ["b", 0, "b"],
      ["a", 1, "a"],
      ["c", 0, "c"],
      ["a", 2, "a"],
      ["b", 1, "b"],
      ["c", 1, "c"],
      ["d", undefined, undefined],
    ]);
    const html = readFileSync(path.join(cwd, "r.html"), "utf8");
    expect(html).toContain('<section id="repeats"');
    expect(html).toContain("<tr><td>a</td><td>3</td><td>2</td><td>flaky</td></tr>");

    // Read back by report, and rebuilt from the records a resumed run carries.
    const report = await runCliProcess(["report", "w0.jsonl"], { cwd });
    expect(repeatLines(report.stdout)).toEqual(expected);
    const first = await runCliProcess(["eval", "runs.jsonl", "--limit", "3", "-o", "half.jsonl"], {
      cwd,
    });
    expect(first.code).toBe(1);
    const resumed = await runCliProcess(["eval", "runs.jsonl", "--resume", "-o", "half.jsonl"], {
      cwd,
    });
    expect(repeatLines(resumed.stdout)).toEqual(expected);
    // Grouped otherwise, the run cannot be resumed into the same file.
    const regrouped = await runCliProcess(
      ["eval", "runs.jsonl", "--resume", "-o", "half.jsonl", "--group-by", "id"],
      { cwd },
    );
    expect(regrouped.code).toBe(2);
    expect(regrouped.stderr).toContain("it grouped its runs otherwise (--group-by)");
    // --quiet keeps the figures, not the flaky cases.
    const quiet = await runCliProcess(["eval", "runs.jsonl", "-q", "-o", "q.jsonl"], { cwd });
    expect(repeatLines(quiet.stdout)).toEqual(expected.slice(0, 2));
  });

  it("are compared run by run against the baseline's spread", async () => {
    const cwd = folder({ "base.jsonl": jsonl(repeated) });
    // Runs in another order; run 2 of a (already flaky) fails, and run 1 of c (always passed).
    const now = [...repeated].reverse().map((item) => {
      const { id, run: number } = item as { id: string; run?: number };
      if (id === "a" && number === 2) return run("a", 2, false);
      return id === "c" && number === 1 ? run("c", 1, false) : item;
    });
    writeFileSync(path.join(cwd, "now.jsonl"), jsonl(now));
    await runCliProcess(["eval", "base.jsonl", "-o", "base-results.jsonl"], { cwd });
    await runCliProcess(["eval", "now.jsonl", "-o", "now-results.jsonl"], { cwd });
    const compared = await runCliProcess(
      ["compare", "base-results.jsonl", "now-results.jsonl", "--divergences", "report"],
      { cwd },
    );
    expect(compared.code).toBe(1);
    // c passed in every run and now fails in one: a regression; a failing more often is not.
    expect(compared.stdout).toMatch(/newly failed[^\n]*\n[^\n]*\bc\b/);
    expect(compared.stdout).not.toMatch(/^\s+a\b.*passed → failed/m);
  });

  it("refuse a group-by or run they cannot use, with what to write instead", async () => {
    const cwd = folder({ "runs.jsonl": jsonl([{ ...run("a", 0, true), run: -1 }]) });
    const bad = await runCliProcess(["eval", "runs.jsonl", "--group-by", "task_id"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--group-by takes id or metadata.<key> (e.g. metadata.task_id), got "task_id"',
    );
    const negative = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(negative.code).toBe(3);
    expect(negative.stdout).toContain("run must be a whole number (0, 1, 2, ...), got -1");
  });
});

describe("the gate on repeated runs, and --json", () => {
  it("holds --fail-under to pass@k or pass^k, fails on flaky cases, and prints JSON on stdout", async () => {
    const cwd = folder();
    writeFileSync(path.join(cwd, "runs.jsonl"), jsonl(repeated));
    const gate = async (...flags: string[]) => {
      const ran = await runCliProcess(["eval", "runs.jsonl", "-o", "results.jsonl", ...flags], {
        cwd,
      });
      return { code: ran.code, line: ran.stdout.trim().split("\n").at(-1), ran };
    };
    // a, b and c (d has no run number: left out, and said so): some run passed for a and c
    // (2 of 3); every run for c (1 of 3).
    const without = "(1 run without a group left out)";
    expect(await gate("--gate-on", "pass@k", "--fail-under", "0.6")).toMatchObject({
      code: 0,
      line: `gate: pass@k 66.7% over 3 cases ${without} ≥ fail_under 60% (--fail-under): exit 0`,
    });
    expect(await gate("--gate-on", "pass^k", "--fail-under", "0.6")).toMatchObject({
      code: 1,
      line: `gate: pass^k 33.3% over 3 cases ${without} < fail_under 60% (--fail-under): exit 1`,
    });
    expect(await gate("--gate-on", "pass@k")).toMatchObject({
      code: 1,
      line: `gate: pass@k 66.7% over 3 cases ${without} < 100% (no fail_under): exit 1`,
    });
    expect(await gate("--fail-under", "0.1", "--fail-on-flaky")).toMatchObject({
      code: 1,
      line: "gate: 1 flaky case (passed in some runs, failed in others; fail_on_flaky): exit 1",
    });
    expect((await gate("--gate-on", "pass@2")).ran.stderr).toContain(
      `--gate-on takes pass-rate, pass@k or pass^k, got "pass@2"`,
    );

    // The config says the same; --json prints one object on stdout, the console's lines on stderr.
    writeFileSync(
      path.join(cwd, "toolscore.config.yaml"),
      toYaml({ gate_on: "pass^k", fail_under: 0.3, fail_on_flaky: false }),
    );
    const { ran } = await gate("--json", "--markdown", "summary.md");
    expect(ran.code).toBe(0);
    const printed = JSON.parse(ran.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      toolscore: "eval",
      gate: {
        passed: true,
        exitCode: 0,
        text: `gate: pass^k 33.3% over 3 cases ${without} ≥ fail_under 30% (toolscore.config.yaml): exit 0`,
      },
      results: "results.jsonl",
      reports: { markdown: "summary.md" },
      summary: { cases: 8, passed: 5, repeats: { cases: 3, flaky: 1, ungrouped: 1 } },
      stopped: null,
    });
    expect(ran.stderr).toContain("results: results.jsonl");
    expect(ran.stderr).toContain("gate: pass^k 33.3%");
  });
});
