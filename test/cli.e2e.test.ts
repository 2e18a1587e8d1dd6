import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { validateXML } from "xmllint-wasm";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess, startCli } from "./support/cli.js";
import { jsonl, readJsonl, testFolders } from "./support/folders.js";
import { DatasetParseError } from "../src/core/errors.js";
import { readDataset } from "../src/node/dataset.js";
import { readParityCases } from "./parity-files.js";
import { anthropicRun, openAiRun } from "./support/transcripts.js";

const folder = testFolders("toolscore-cli-");

const lines = readJsonl;

const call = (name: string, args: Record<string, unknown> = {}) => ({
  name,
  inputParameters: args,
});

describe("toolscore CLI: commands and help", () => {
  it("prints help for every command, and rejects unknown commands and flags with exit 2", async () => {
    const cwd = folder();
    for (const command of [
      "init",
      "eval",
      "dataset",
      "parse",
      "report",
      "merge",
      "compare",
      "cache",
      "calibrate",
    ]) {
      const run = await runCliProcess([command, "--help"], { cwd });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: toolscore ${command}`));
    }
    expect((await runCliProcess(["--help"], { cwd })).stdout).toContain("Commands");
    const unknown = await runCliProcess(["evaluate", "x.jsonl"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "evaluate"');
    const flag = await runCliProcess(["eval", "x.jsonl", "--thresold", "0.5"], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--thresold/);
    writeFileSync(path.join(cwd, "empty.jsonl"), "\n  \n");
    const empty = await runCliProcess(["eval", "empty.jsonl"], { cwd });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("empty.jsonl holds no test cases");
    const missing = await runCliProcess(["eval", "nope.jsonl"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no dataset at nope.jsonl");
  });

  it("names the failed cases under the summary, a screenful at most; --quiet prints the summary only", async () => {
    const cases = Array.from({ length: 40 }, (_, index) => ({
      id: `case-${index}`,
      ...(index === 0 ? { toolsCaled: [] } : {}),
      toolsCalled: [call(index % 2 === 0 ? "search" : "book", { to: "OSL" })],
      expectedTools: [call("search", { to: "OSL" })],
    }));
    const cwd = folder({ "runs.jsonl": `${jsonl(cases)}not json\n` });
    const run = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(run.code).toBe(3);
    const failed = run.stdout.split("\n").filter((line) => line.startsWith("✗ "));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(15);
    expect(failed[0]).toMatch(
      /^✗ case-1 {2}Tool Call Accuracy 0: expected\[0\] search missing; called\[0\] \w+ not expected\. 0 of 1 expected call matched/,
    );
    expect(run.stdout).toContain(
      `… and ${20 - failed.length} more failed cases in the results file`,
    );
    expect(run.stdout).toContain("! case-41: line 41: not valid JSON");
    expect(run.stderr).toContain(
      'unknown field "toolsCaled" ignored (did you mean "toolsCalled"?)',
    );

    const quiet = await runCliProcess(["eval", "runs.jsonl", "--quiet", "--overwrite"], { cwd });
    expect(quiet.code).toBe(3);
    expect(quiet.stdout).toContain("41 cases: 20 passed, 20 failed, 1 error");
    expect(quiet.stdout).not.toContain("✗ ");
    expect(quiet.stdout).not.toContain("! case-41");
    expect(quiet.stderr).not.toContain("toolsCaled");
  });

  it("compares a run with a baseline: compare, and eval --baseline as the CI gate", async () => {
    const right = (id: string) => ({
      id,
      toolsCalled: [call("search")],
      expectedTools: [call("search")],
    });
    const wrong = (id: string) => ({
      id,
      toolsCalled: [call("book")],
      expectedTools: [call("search")],
    });
    const cwd = folder({
      "v1.jsonl": jsonl([right("a"), right("b"), wrong("c"), right("d")]),
      "v2.jsonl": jsonl([right("a"), wrong("b"), right("c"), right("e")]),
    });
    expect((await runCliProcess(["eval", "v1.jsonl", "--out", "base.jsonl"], { cwd })).code).toBe(
      1,
    );
    expect((await runCliProcess(["eval", "v2.jsonl", "--out", "new.jsonl"], { cwd })).code).toBe(1);

    const compared = await runCliProcess(
      ["compare", "base.jsonl", "new.jsonl", "--markdown", "comparison.md", "--report", "r.html"],
      { cwd },
    );
    expect(compared.code).toBe(1);
    expect(compared.stdout).toContain("compared with base.jsonl");
    expect(compared.stdout).toContain(
      "Tool Call Accuracy: mean 0.75 → 0.75 (±0.00), pass rate 75% → 75% (±0.0 pts)",
    );
    expect(compared.stdout).toContain(
      "1 regressed (1 newly failed, 0 newly errored, 0 scores dropped)",
    );
    expect(compared.stdout).toContain("✗ b  passed → failed, Tool Call Accuracy 1.00 → 0.00");
    expect(compared.stdout).toContain("✓ c  failed → passed");
    expect(compared.stdout).toContain("only in the baseline: d");
    expect(compared.stdout).toContain("new (not in the baseline): e");
    const markdown = readFileSync(path.join(cwd, "comparison.md"), "utf8");
    expect(markdown).toContain("### ❌ Compared with base.jsonl");
    expect(markdown).toContain("| b | newly failed | Tool Call Accuracy 1.00 → 0.00 |");
    const html = readFileSync(path.join(cwd, "r.html"), "utf8");
    expect(html).toContain("<h2>Compared with base.jsonl</h2>");
    expect(html).toContain("<td>b</td><td>newly failed</td>");
    // Compared with itself, nothing regressed.
    expect((await runCliProcess(["compare", "base.jsonl", "base.jsonl"], { cwd })).code).toBe(0);

    // As the gate: a run that fails only where the baseline failed passes.
    const same = await runCliProcess(
      ["eval", "v1.jsonl", "--out", "again.jsonl", "--baseline", "base.jsonl"],
      { cwd },
    );
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("0 regressed");
    const worse = await runCliProcess(
      ["eval", "v2.jsonl", "--out", "worse.jsonl", "--baseline", "base.jsonl"],
      { cwd },
    );
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain("✗ b  passed → failed");
    const clobber = await runCliProcess(
      ["eval", "v1.jsonl", "--out", "base.jsonl", "--baseline", "base.jsonl"],
      { cwd },
    );
    expect(clobber.code).toBe(2);
    expect(clobber.stderr).toContain("is the results file this run writes");
    const stray = await runCliProcess(["eval", "v1.jsonl", "--tolerance", "0.1"], { cwd });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("--tolerance goes with --baseline");
  });

  it("--dry-run checks the config, the metrics, the judge's setup and every case, and scores nothing", async () => {
    const cwd = folder({
      "runs.jsonl": `${jsonl([
        { id: "a", toolsCalled: [call("a")], expectedTools: [call("a")] },
        { id: "b", toolsCaled: [], toolsCalled: [call("a")], expectedTools: [call("b")] },
      ])}not json\n`,
      "clean.jsonl": jsonl([{ id: "a", toolsCalled: [call("a")], expectedTools: [call("a")] }]),
    });
    const dry = await runCliProcess(["eval", "runs.jsonl", "--dry-run"], { cwd });
    expect(dry.code).toBe(3);
    expect(dry.stdout).toContain(
      "dry run: runs.jsonl: 2 cases read, 1 that cannot be; metrics: Tool Call Accuracy. Nothing scored; toolscore-results.jsonl left as it was.",
    );
    expect(dry.stdout).toContain("! line 3: not valid JSON");
    expect(dry.stderr).toContain('b: unknown field "toolsCaled" ignored');
    expect(existsSync(path.join(cwd, "toolscore-results.jsonl"))).toBe(false);
    expect((await runCliProcess(["eval", "clean.jsonl", "--dry-run"], { cwd })).code).toBe(0);
    // A judged metric sets its judge up: a missing key fails here, before any case would run.
    const judged = await runCliProcess(
      ["eval", "clean.jsonl", "--dry-run", "-m", "tool-selection", "--judge", "openai/gpt-4o-mini"],
      { cwd, env: { OPENAI_API_KEY: "" } },
    );
    expect(judged.code).toBe(2);
    expect(judged.stderr).toContain("PROVIDER_CONFIG");
    expect(existsSync(path.join(cwd, "toolscore-results.jsonl"))).toBe(false);
  });

  it("init starts a project that runs as it is, and never overwrites a file", async () => {
    const cwd = folder({ ".github/workflows/toolscore.yml": "mine\n" });
    const init = await runCliProcess(["init"], { cwd });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("wrote toolscore.config.yaml");
    expect(init.stdout).toContain("wrote evals/dataset.jsonl");
    expect(init.stdout).toContain("kept .github/workflows/toolscore.yml (it exists)");
    expect(readFileSync(path.join(cwd, ".github/workflows/toolscore.yml"), "utf8")).toBe("mine\n");
    // Results, reports and the judge cache are not for committing.
    expect(init.stdout).toContain("added node_modules/, toolscore-results.jsonl, reports/");
    const ignored = readFileSync(path.join(cwd, ".gitignore"), "utf8").split("\n");
    expect(ignored).toEqual(
      expect.arrayContaining(["node_modules/", "toolscore-results.jsonl", "reports/"]),
    );
    // The dataset passes under the config it came with, and the reports it names are written.
    const run = await runCliProcess(["eval", "evals/dataset.jsonl"], { cwd });
    expect(run.stderr).toBe("toolscore: using toolscore.config.yaml\n");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("3 cases: 3 passed, 0 failed, 0 errors");
    expect(existsSync(path.join(cwd, "reports/toolscore.html"))).toBe(true);
    // The workflow runs the same command.
    rmSync(path.join(cwd, ".github/workflows/toolscore.yml"));
    expect((await runCliProcess(["init"], { cwd })).stdout).toContain(
      "wrote .github/workflows/toolscore.yml",
    );
    const workflow = parseYaml(
      readFileSync(path.join(cwd, ".github/workflows/toolscore.yml"), "utf8"),
    ) as {
      jobs: { evals: { steps: { run?: string }[] } };
    };
    expect(workflow.jobs.evals.steps.map((step) => step.run)).toContain(
      "npx toolscore eval evals/dataset.jsonl",
    );
    const again = await runCliProcess(["init"], { cwd });
    expect(again.stdout).toContain("nothing written: every file exists");
  });

  it("runs part of a dataset: --limit, and --bail that stops after n failures; --resume goes on", async () => {
    const cases = Array.from({ length: 40 }, (_, index) => ({
      id: `case-${index}`,
      toolsCalled: [call(index % 2 === 0 ? "search" : "book")],
      expectedTools: [call("search")],
    }));
    const cwd = folder({ "runs.jsonl": jsonl(cases) });
    const count = () => recordsByIndex(path.join(cwd, "toolscore-results.jsonl")).size;
    const limited = await runCliProcess(["eval", "runs.jsonl", "--limit", "5"], { cwd });
    expect(limited.code).toBe(1);
    expect(limited.stdout).toContain("5 cases: 3 passed, 2 failed");
    expect(limited.stderr).toContain(
      "stopped at --limit 5; 5 cases saved; the rest runs with --resume",
    );
    expect(count()).toBe(5);
    expect(
      (await runCliProcess(["eval", "runs.jsonl", "--resume", "--limit", "5"], { cwd })).code,
    ).toBe(1);
    expect(count()).toBe(10);
    // An unfinished file is not replaced by accident; worker threads started for the run end
    // with the refusal (the process would wait on them forever).
    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd })).code).toBe(2);
    expect((await runCliProcess(["eval", "runs.jsonl", "--workers", "2"], { cwd })).code).toBe(2);
    for (const workers of ["0", "1"]) {
      const bail = await runCliProcess(
        ["eval", "runs.jsonl", "--overwrite", "--bail", "3", "--workers", workers],
        { cwd },
      );
      expect(bail.code, workers).toBe(1);
      expect(bail.stderr).toContain("stopped after 3 failed cases (--bail)");
      expect(count()).toBeGreaterThanOrEqual(5);
      expect(count()).toBeLessThan(40);
      const rest = await runCliProcess(["eval", "runs.jsonl", "--resume"], { cwd });
      expect(rest.code).toBe(1);
      expect(rest.stdout).toContain("40 cases: 20 passed, 20 failed");
      expect(count()).toBe(40);
    }
    expect((await runCliProcess(["eval", "runs.jsonl", "--limit", "0"], { cwd })).code).toBe(2);
  });

  it("runs the cases an id filter or an earlier run's failures choose", async () => {
    const made = (id: string, good: boolean) => ({
      id,
      toolsCalled: [call(good ? "search" : "book")],
      expectedTools: [call("search")],
    });
    const cwd = folder({
      "runs.jsonl": jsonl([
        made("tau-1", true),
        made("tau-2", false),
        made("tau-3", true),
        made("bfcl-1", false),
        made("bfcl-2", true),
        made("bfcl-3", false),
      ]),
    });
    const ids = (file: string) =>
      [...recordsByIndex(path.join(cwd, file)).values()].map((record) => record.id).sort();
    for (const workers of ["0", "1"]) {
      const tau = await runCliProcess(
        [
          "eval",
          "runs.jsonl",
          "--filter",
          "tau-*",
          "--out",
          "tau.jsonl",
          "--overwrite",
          "--workers",
          workers,
        ],
        { cwd },
      );
      expect(tau.code, workers).toBe(1);
      expect(ids("tau.jsonl")).toEqual(["tau-1", "tau-2", "tau-3"]);
    }
    const regex = await runCliProcess(
      ["eval", "runs.jsonl", "--filter", "/^BFCL-[12]$/i", "--out", "b.jsonl"],
      { cwd },
    );
    expect(regex.code).toBe(1);
    expect(ids("b.jsonl")).toEqual(["bfcl-1", "bfcl-2"]);

    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd })).code).toBe(1);
    const failed = await runCliProcess(
      ["eval", "runs.jsonl", "--only-failed", "toolscore-results.jsonl", "--out", "failed.jsonl"],
      { cwd },
    );
    expect(failed.stdout).toContain("3 cases: 0 passed, 3 failed");
    expect(ids("failed.jsonl")).toEqual(["bfcl-1", "bfcl-3", "tau-2"]);
    const both = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--only-failed",
        "toolscore-results.jsonl",
        "--filter",
        "bfcl-*",
        "--out",
        "both.jsonl",
      ],
      { cwd },
    );
    expect(both.code).toBe(1);
    expect(ids("both.jsonl")).toEqual(["bfcl-1", "bfcl-3"]);

    const none = await runCliProcess(
      ["eval", "runs.jsonl", "--filter", "nope-*", "--out", "none.jsonl"],
      { cwd },
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("runs.jsonl has no case chosen by filter nope-*");
    // A resumed run must choose the same cases.
    writeFileSync(
      path.join(cwd, "tau.jsonl"),
      readFileSync(path.join(cwd, "tau.jsonl"), "utf8").replace(/\{"toolscore":"end".*\n$/, ""),
    );
    const other = await runCliProcess(
      ["eval", "runs.jsonl", "--filter", "bfcl-*", "--out", "tau.jsonl", "--resume"],
      { cwd },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("it was run on another selection of cases");
    const badRegex = await runCliProcess(["eval", "runs.jsonl", "--filter", "/(/"], { cwd });
    expect(badRegex.code).toBe(2);
    expect(badRegex.stderr).toContain("is not a regular expression");
  });

  it("says what was meant: a misspelled command, flag, metric, option or setting, a directory", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl([{ id: "a", toolsCalled: [call("a")], expectedTools: [call("a")] }]),
      "evals/runs.jsonl": jsonl([
        { id: "a", toolsCalled: [call("a")], expectedTools: [call("a")] },
      ]),
    });
    const said = async (args: string[], files: Record<string, string> = {}) => {
      for (const [name, content] of Object.entries(files))
        writeFileSync(path.join(cwd, name), content);
      const run = await runCliProcess(args, { cwd });
      for (const name of Object.keys(files)) rmSync(path.join(cwd, name));
      expect(run.code, args.join(" ")).toBe(2);
      return run.stderr;
    };
    expect(await said(["evl", "runs.jsonl"])).toContain(
      'unknown command "evl" (did you mean "eval"?)',
    );
    expect(await said(["eval", "runs.jsonl", "--reprot", "r.html"])).toContain(
      'unknown flag --reprot (did you mean "--report"?)',
    );
    // Node's flag errors in one line each, saying what to write.
    expect(await said(["eval", "runs.jsonl", "--judge-timeout", "-1"])).toContain(
      'toolscore eval: --judge-timeout takes a value; for one that starts with a dash, write --judge-timeout=-1 (with "=")\n',
    );
    expect(await said(["eval", "runs.jsonl", "--out"])).toContain(
      "toolscore eval: --out takes a value, and none followed it\n",
    );
    expect(await said(["eval", "runs.jsonl", "--quiet=yes"])).toContain(
      "toolscore eval: --quiet takes no value\n",
    );
    expect(await said(["eval", "runs.jsonl", "--limit", "0"])).toContain(
      '--limit must be a number of 1 or more, got "0"',
    );
    expect(await said(["report", "results.jsonl", "--junti", "j.xml"])).toContain(
      '(did you mean "--junit"?)',
    );
    expect(await said(["eval", "runs.jsonl", "-m", "tool-call-acuracy"])).toContain(
      'unknown metric "tool-call-acuracy" (did you mean "tool-call-accuracy"?)',
    );
    expect(await said(["eval", "runs.jsonl", "--set", "tool-call-accuracy.ordr=strict"])).toContain(
      '(did you mean "order"?)',
    );
    expect(
      await said(["eval", "runs.jsonl"], { "toolscore.config.yaml": "fail_undr: 0.9\n" }),
    ).toContain('unknown setting "fail_undr" (did you mean "fail_under"?)');
    // A folder is recordings; one holding no transcript, but a dataset, says so.
    const folderRun = await said(["eval", "evals"]);
    expect(folderRun).toContain(
      "evals holds no transcript, only toolscore's results or datasets (evals/",
    );
    expect(folderRun).toContain("give the dataset file in it");
    expect(await said(["parse", "evals"])).toContain("evals is a directory; give the transcript");
    expect(await said(["report", "evals"])).toContain("evals is a directory; give the results");
    expect(await said(["merge", "evals", "--out", "m.jsonl"])).toContain("evals is a directory");
  });

  it("leaves an earlier results file alone when a run cannot start", async () => {
    const cwd = folder({
      "empty.jsonl": "\n  \n",
      "runs.csv": "a,b\n",
      "runs.jsonl": `${JSON.stringify({ toolsCalled: [], expectedTools: [] })}\n`,
    });
    const results = path.join(cwd, "results.jsonl");
    const first = await runCliProcess(["eval", "runs.jsonl", "--out", "results.jsonl"], { cwd });
    expect(first.code).toBe(0);
    const before = readFileSync(results, "utf8");
    for (const args of [
      ["eval", "empty.jsonl", "--out", "results.jsonl"],
      ["eval", "runs.csv", "--out", "results.jsonl"],
      ["eval", "runs.jsonl", "--out", "results.jsonl", "--details", "nope"],
      ["eval", "runs.jsonl", "--out", "results.jsonl", "--metric", "tool-call-acuracy"],
      [
        "eval",
        "runs.jsonl",
        "--out",
        "results.jsonl",
        "--workers",
        "2",
        "--metric",
        "tool-selection",
        "--judge",
        "openai/x",
      ],
    ]) {
      const run = await runCliProcess(args, { cwd, env: { OPENAI_API_KEY: "k" } });
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2);
      expect(readFileSync(results, "utf8"), args.join(" ")).toBe(before);
    }
  });

  it("parse prints a transcript's normalized calls", async () => {
    const cwd = folder({ "run.json": JSON.stringify(anthropicRun) });
    const run = await runCliProcess(["parse", "run.json"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("format: anthropic; 1 tool calls");
    expect(run.stdout).toContain('1. get_weather({"city":"Oslo"}) → "3C"');
  });
});

describe("toolscore eval", () => {
  it("reads mixed formats, reports a malformed line by number, runs the rest, exits 3", async () => {
    const cwd = folder({
      "runs/anthropic.json": JSON.stringify(anthropicRun),
      "runs/dataset.jsonl": [
        JSON.stringify({
          id: "inline",
          toolsCalled: [call("a", { x: 1 })],
          expectedTools: [call("a", { x: 1 })],
          expected_output_tools: [],
        }),
        JSON.stringify({
          id: "openai",
          trajectory: openAiRun,
          expected_tools: [{ name: "get_weather", input_parameters: { city: "Paris" } }],
        }),
        '{"id": "broken", ',
        JSON.stringify({
          id: "file",
          trajectoryFile: "anthropic.json",
          expectedTools: [call("get_weather", { city: "Rome" })],
        }),
        "",
        JSON.stringify({ id: "no-expected", toolsCalled: [call("a")] }),
        JSON.stringify({ id: "escape", trajectoryFile: "../../outside.json", expectedTools: [] }),
      ].join("\r\n"),
    });
    const run = await runCliProcess(["eval", "runs/dataset.jsonl", "--out", "out/results.jsonl"], {
      cwd,
    });
    expect(run.code).toBe(3);
    const records = lines(path.join(cwd, "out/results.jsonl"));
    expect(records[0]).toMatchObject({ toolscore: "results", dataset: "runs/dataset.jsonl" });
    expect(records.at(-1)).toMatchObject({
      toolscore: "end",
      complete: true,
      cases: 6,
      datasetCases: 6,
    });
    const byId = new Map(records.slice(1, -1).map((record) => [record.id, record]));
    expect(byId.get("inline")).toMatchObject({ status: "passed", line: 1 });
    expect(byId.get("openai")).toMatchObject({ status: "passed", line: 2 });
    expect(byId.get("case-3")).toMatchObject({
      status: "error",
      line: 3,
      error: {
        code: "DATASET_PARSE",
        message: expect.stringMatching(/^line 3: not valid JSON/) as unknown,
      },
    });
    expect(byId.get("file")).toMatchObject({ status: "failed", line: 4 });
    expect(byId.get("no-expected")).toMatchObject({
      status: "error",
      metrics: { "Tool Call Accuracy": { status: "error", error: { code: "MISSING_PARAMS" } } },
    });
    expect(byId.get("escape")).toMatchObject({ status: "error", error: { code: "DATASET_PARSE" } });
    expect(run.stdout).toMatch(/6 cases: 2 passed, 1 failed, 3 errors/);
    expect(run.stdout).toContain("! case-3: line 3: not valid JSON");
    expect(run.stderr).toMatch(/toolscore: line 1: unknown field "expected_output_tools" ignored/);
  });

  it("reads JSON and YAML datasets, and a YAML config with --set and per-case options", async () => {
    const cases = [
      { id: "swapped", toolsCalled: [call("b"), call("a")], expectedTools: [call("a"), call("b")] },
      {
        id: "own-options",
        toolsCalled: [call("b"), call("a")],
        expectedTools: [call("a"), call("b")],
        metric_options: { "tool-call-accuracy": { order: "any" } },
      },
    ];
    const cwd = folder({
      "cases.json": JSON.stringify({ cases }),
      "cases.yaml": cases.map((item) => `- ${JSON.stringify(item)}`).join("\n"),
      "toolscore.config.yaml":
        "metrics:\n  - metric: tool-call-accuracy\n    order: strict\nfail_under: 0.5\n",
    });
    for (const dataset of ["cases.json", "cases.yaml"]) {
      const run = await runCliProcess(["eval", dataset, "--out", `${dataset}.results.jsonl`], {
        cwd,
      });
      expect(run.stderr).toContain("using toolscore.config.yaml");
      // One case fails in strict order; half the cases passing meets fail_under 0.5.
      expect(run.code).toBe(0);
      const records = lines(path.join(cwd, `${dataset}.results.jsonl`)).slice(1, -1);
      expect(records.map((record) => record.status)).toEqual(["failed", "passed"]);
    }
    const strict = await runCliProcess(
      [
        "eval",
        "cases.json",
        "--set",
        "tool-call-accuracy.order=strict",
        "--fail-under",
        "1",
        "--out",
        "strict.jsonl",
      ],
      { cwd },
    );
    expect(strict.code).toBe(1);
    // The run records the gate it was stated under, for the viewer to state it the same way.
    expect(lines(path.join(cwd, "strict.jsonl"))[0]).toMatchObject({
      gate: { failUnder: 1, failUnderFrom: "--fail-under" },
    });
    const bad = await runCliProcess(
      ["eval", "cases.json", "--set", "tool-call-accuracy.order=sideways"],
      { cwd },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/order/);
    const badConfig = await runCliProcess(["eval", "cases.json", "--config", "nope.yaml"], { cwd });
    expect(badConfig.code).toBe(2);
  });

  it("matches the deepeval and axion parity numbers through datasets with per-case options", async () => {
    interface DeepevalCase {
      id: string;
      metric: string;
      input: unknown;
      actual_output: unknown;
      tools_called: unknown[] | null;
      expected_tools: unknown[] | null;
      evaluation_params: string[];
      should_consider_ordering: boolean;
      should_exact_match: boolean;
      strict_mode: boolean;
      threshold: number;
      intended: { score?: number; success?: boolean; error?: string };
      score_tolerance: number;
    }
    interface AxionCase {
      id: string;
      config: Record<string, unknown>;
      tools_called: unknown[];
      expected_tools: unknown[];
      intended: { score?: number; error?: string };
      score_tolerance: number;
    }
    const deepeval = readParityCases<DeepevalCase>("deepeval.jsonl").filter(
      (c) =>
        c.metric === "tool_correctness" &&
        c.intended.error === undefined &&
        c.tools_called !== null &&
        c.expected_tools !== null,
    );
    const axion = readParityCases<AxionCase>("axion.jsonl");
    expect(deepeval.length).toBeGreaterThan(50);
    const cwd = folder({
      "deepeval.jsonl": jsonl(
        deepeval.map((c) => ({
          id: c.id,
          input: c.input,
          actual_output: c.actual_output,
          tools_called: c.tools_called,
          expected_tools: c.expected_tools,
          metric_options: {
            "deepeval-tool-correctness": {
              evaluation_params: c.evaluation_params,
              should_consider_ordering: c.should_consider_ordering,
              should_exact_match: c.should_exact_match,
              strict_mode: c.strict_mode,
              threshold: c.threshold,
            },
          },
        })),
      ),
      "axion.jsonl": jsonl(
        axion.map((c) => ({
          id: c.id,
          tools_called: c.tools_called,
          expected_tools: c.expected_tools,
          metric_options: { "axion-tool-correctness": c.config },
        })),
      ),
    });
    const checks: [
      string,
      string,
      {
        id: string;
        intended: { score?: number; success?: boolean; error?: string };
        score_tolerance: number;
      }[],
    ][] = [
      ["deepeval.jsonl", "deepeval-tool-correctness", deepeval],
      ["axion.jsonl", "axion-tool-correctness", axion],
    ];
    for (const [dataset, metric, expected] of checks) {
      await runCliProcess(["eval", dataset, "--metric", metric, "--out", `${metric}.jsonl`], {
        cwd,
      });
      const records = lines(path.join(cwd, `${metric}.jsonl`)).slice(1, -1);
      const byId = new Map(records.map((record) => [record.id, record]));
      expect(byId.size).toBe(expected.length);
      for (const c of expected) {
        const record = byId.get(c.id) as {
          status: string;
          error?: { code: string };
          metrics: Record<string, { score: number; success: boolean }>;
        };
        if (c.intended.error !== undefined) {
          // An option the metric rejects makes that case an error; the others still run.
          expect(record.status, c.id).toBe("error");
          expect(Object.values(record.metrics)[0], c.id).toMatchObject({
            status: "error",
            error: { code: "INVALID_OPTION" },
          });
          continue;
        }
        const entry = Object.values(record.metrics)[0];
        expect(Math.abs(entry.score - (c.intended.score ?? NaN)), c.id).toBeLessThanOrEqual(
          c.score_tolerance,
        );
        if (c.intended.success !== undefined) expect(entry.success, c.id).toBe(c.intended.success);
      }
    }
  });

  it("refuses to clobber an unfinished run or a file that is not results, and resume checks the config", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl([{ id: "a", toolsCalled: [call("a")], expectedTools: [call("a")] }]),
      "notes.jsonl": '{"mine": true}\n',
    });
    const first = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(first.code).toBe(0);
    // A finished run is simply replaced by the next one, told finished by its first and last
    // lines alone (a damaged line between them is not read).
    const finished = path.join(cwd, "toolscore-results.jsonl");
    const lines = readFileSync(finished, "utf8").split("\n");
    writeFileSync(finished, [lines[0], "{damaged", ...lines.slice(2)].join("\n"));
    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd })).code).toBe(0);
    expect(readFileSync(finished, "utf8")).not.toContain("{damaged");
    const notes = await runCliProcess(["eval", "runs.jsonl", "--out", "notes.jsonl"], { cwd });
    expect(notes.code).toBe(2);
    expect(notes.stderr).toContain("not a usable results file");
    expect(readFileSync(path.join(cwd, "notes.jsonl"), "utf8")).toBe('{"mine": true}\n');
    const file = path.join(cwd, "toolscore-results.jsonl");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.lastIndexOf('{"toolscore":"end"')));
    const unfinished = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(unfinished.code).toBe(2);
    expect(unfinished.stderr).toContain("unfinished run");
    const changed = await runCliProcess(
      ["eval", "runs.jsonl", "--resume", "--set", "tool-call-accuracy.order=strict"],
      { cwd },
    );
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain("the metrics or their options have changed");
    expect((await runCliProcess(["eval", "runs.jsonl", "--resume"], { cwd })).code).toBe(0);
  });

  it("refuses to resume when a byte in the middle of a large dataset changed", async () => {
    // Over 2 MiB, so the edit is neither in the first nor in the last MiB.
    const cases = Array.from({ length: 18_000 }, (_, index) => ({
      id: `case-${String(index).padStart(5, "0")}`,
      toolsCalled: [call("lookup", { city: "Paris" })],
      expectedTools: [call("lookup", { city: "Paris" })],
    }));
    const cwd = folder({ "runs.jsonl": jsonl(cases) });
    const dataset = path.join(cwd, "runs.jsonl");
    expect(statSync(dataset).size).toBeGreaterThan(2.5 * 2 ** 20);
    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd })).code).toBe(0);
    const results = path.join(cwd, "toolscore-results.jsonl");
    const text = readFileSync(results, "utf8");
    writeFileSync(results, text.slice(0, text.lastIndexOf('{"toolscore":"end"')));
    // The same size, one case's expected city changed, half way through.
    const original = readFileSync(dataset, "utf8");
    const middle = original.indexOf('"Paris"', original.length / 2);
    writeFileSync(dataset, `${original.slice(0, middle)}"Pisa!"${original.slice(middle + 7)}`);
    expect(statSync(dataset).size).toBe(Buffer.byteLength(original));
    const resumed = await runCliProcess(["eval", "runs.jsonl", "--resume"], { cwd });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      "the dataset, or a transcript file its cases name, has changed since",
    );
    // Put back, the run resumes.
    writeFileSync(dataset, original);
    expect((await runCliProcess(["eval", "runs.jsonl", "--resume"], { cwd })).code).toBe(0);
  });
});

describe("toolscore eval: runs that survive", () => {
  const count = 60_000;
  const cwd = folder();
  const dataset = path.join(cwd, "big.jsonl");
  const out: string[] = [];
  for (let index = 0; index < count; index++) {
    const wrong = index % 7 === 0;
    out.push(
      JSON.stringify({
        id: `run-${index}`,
        input: `Book a flight to city ${index}`,
        toolsCalled: [
          { name: "search_flights", inputParameters: { to: `city${index}`, date: "2026-05-03" } },
          {
            name: wrong ? "cancel" : "book",
            inputParameters: { flight: `F${index}`, seat: "12A" },
          },
        ],
        expectedTools: [
          { name: "search_flights", inputParameters: { to: `city${index}`, date: "2026-05-03" } },
          { name: "book", inputParameters: { flight: `F${index}`, seat: "12A" } },
        ],
      }),
    );
    if (index === 4242) out.push("{not json");
  }
  writeFileSync(dataset, `${out.join("\n")}\n`);

  let reference: Map<number, Record<string, unknown>>;
  it("runs uninterrupted, for reference", async () => {
    const run = await runCliProcess(["eval", "big.jsonl", "--out", "reference.jsonl"], { cwd });
    expect(run.code).toBe(3);
    reference = recordsByIndex(path.join(cwd, "reference.jsonl"));
    expect(reference.size).toBe(count + 1);
  });

  it("scores the same in worker threads, and through the runner (a JSON dataset)", async () => {
    const threaded = await runCliProcess(
      ["eval", "big.jsonl", "--workers", "2", "--out", "threaded.jsonl"],
      { cwd },
    );
    expect(threaded.code).toBe(3);
    const inThreads = recordsByIndex(path.join(cwd, "threaded.jsonl"));
    expect(inThreads.size).toBe(reference.size);
    for (const [index, record] of reference) expect(inThreads.get(index)).toEqual(record);

    // The first 2,000 cases as a JSON file go through evaluate() instead of batches.
    const items = out.slice(0, 2000).map((text) => JSON.parse(text) as unknown);
    writeFileSync(path.join(cwd, "first.json"), JSON.stringify(items));
    await runCliProcess(["eval", "first.json", "--out", "first-results.jsonl"], { cwd });
    const viaRunner = recordsByIndex(path.join(cwd, "first-results.jsonl"));
    expect(viaRunner.size).toBe(2000);
    for (const [index, record] of viaRunner) {
      const batched = reference.get(index) as Record<string, unknown>;
      // A JSON dataset's records hold their cases, and every alignment; a JSONL line's metrics
      // keep none by default (their line can be read again).
      const metrics = Object.entries(record.metrics as Record<string, Record<string, unknown>>);
      const expected = batched.metrics as Record<string, Record<string, unknown>>;
      for (const [name, entry] of metrics) {
        const { details, ...rest } = entry;
        if (expected[name].details === undefined) {
          expect(rest, String(index)).toEqual(expected[name]);
        } else expect({ ...rest, details }, String(index)).toEqual(expected[name]);
      }
      expect(metrics.length).toBe(Object.keys(expected).length);
      expect(record.status).toBe(batched.status);
    }
  });

  it("is killed with SIGKILL mid-run, resumed, and ends with the same results", async () => {
    const results = path.join(cwd, "killed.jsonl");
    const { child, done } = startCli(["eval", "big.jsonl", "--out", "killed.jsonl"], { cwd });
    // Kill once a good part of the run is on disk, while it is still running.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      let size: number;
      try {
        size = statSync(results).size;
      } catch {
        continue;
      }
      if (size > statSync(dataset).size / 4) break;
    }
    child.kill("SIGKILL");
    const killed = await done;
    expect(killed.signal).toBe("SIGKILL");
    const partial = recordsByIndex(results);
    expect(partial.size).toBeGreaterThan(0);
    expect(partial.size).toBeLessThan(count);
    expect(readFileSync(results, "utf8")).not.toContain('"toolscore":"end"');

    const resumed = await runCliProcess(
      ["eval", "big.jsonl", "--out", "killed.jsonl", "--resume"],
      { cwd },
    );
    expect(resumed.code).toBe(3);
    const final = recordsByIndex(results);
    expect(final.size).toBe(reference.size);
    for (const [index, record] of reference) expect(final.get(index)).toEqual(record);
    expect(resumed.stdout).toMatch(new RegExp(`${count + 1} cases:`));
  });

  it("stops on SIGINT, saving what finished (exit 130), and resumes to the same end", async () => {
    const results = path.join(cwd, "interrupted.jsonl");
    const { child, done } = startCli(["eval", "big.jsonl", "--out", "interrupted.jsonl"], { cwd });
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      try {
        if (statSync(results).size > 1_000_000) break;
      } catch {
        continue;
      }
    }
    child.kill("SIGINT");
    const run = await done;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("--resume");
    const last = lines(results).at(-1);
    expect(last).toMatchObject({ toolscore: "end", complete: false });
    const resumed = await runCliProcess(
      ["eval", "big.jsonl", "--out", "interrupted.jsonl", "--resume"],
      { cwd },
    );
    expect(resumed.code).toBe(3);
    const final = recordsByIndex(results);
    for (const [index, record] of reference) expect(final.get(index)).toEqual(record);
  });

  it("splits into shards that merge into the same results; a missing shard fails the merge", async () => {
    const shards = [1, 2, 3].map((shard) => `shard-${shard}.jsonl`);
    await Promise.all(
      shards.map((file, at) =>
        runCliProcess(["eval", "big.jsonl", "--shard", `${at + 1}/3`, "--out", file], { cwd }),
      ),
    );
    const sizes = shards.map((file) => recordsByIndex(path.join(cwd, file)).size);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(count + 1);
    for (const [at, file] of shards.entries()) {
      for (const index of recordsByIndex(path.join(cwd, file)).keys()) expect(index % 3).toBe(at);
    }
    const merged = await runCliProcess(
      ["merge", ...shards.reverse(), "--out", "merged.jsonl", "--junit", "merged.xml"],
      { cwd },
    );
    expect(merged.code).toBe(3); // the malformed line is still an error case
    const final = recordsByIndex(path.join(cwd, "merged.jsonl"));
    expect([...final.keys()]).toEqual([...reference.keys()].sort((a, b) => a - b));
    for (const [index, record] of reference) expect(final.get(index)).toEqual(record);
    const gap = await runCliProcess(["merge", shards[0], shards[1], "--out", "gap.jsonl"], { cwd });
    expect(gap.code).toBe(3);
    expect(gap.stderr).toMatch(/shard \d\/3 missing/);
  });
});

describe("toolscore eval: reports", () => {
  it("writes a valid JUnit file, a Markdown summary and an HTML report; report re-renders them", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl([
        { id: "good", toolsCalled: [call("a")], expectedTools: [call("a")] },
        {
          id: "bad <script>",
          toolsCalled: [call("b")],
          expectedTools: [call("a", { q: "</testcase>" })],
        },
      ]),
    });
    const summary = path.join(cwd, "step-summary.md");
    const run = await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "--junit",
        "out/junit.xml",
        "--markdown",
        "out/summary.md",
        "--report",
        "out/report.html",
      ],
      { cwd, env: { GITHUB_STEP_SUMMARY: summary } },
    );
    expect(run.code).toBe(1);
    const xml = readFileSync(path.join(cwd, "out/junit.xml"), "utf8");
    const schema = readFileSync(new URL("./support/junit.xsd", import.meta.url), "utf8");
    const validation = await validateXML({
      xml: [{ fileName: "junit.xml", contents: xml }],
      schema: [{ fileName: "junit.xsd", contents: schema }],
    });
    expect(validation.errors).toEqual([]);
    expect(xml).toContain('<testcase name="bad &lt;script&gt;" classname="Tool Call Accuracy"');
    expect(readFileSync(path.join(cwd, "out/summary.md"), "utf8")).toContain("**2** cases");
    expect(readFileSync(summary, "utf8")).toContain("**2** cases");
    const html = readFileSync(path.join(cwd, "out/report.html"), "utf8");
    expect(html).toContain("toolscore-data");
    expect(html).not.toContain("bad <script>");

    const again = await runCliProcess(
      ["report", "toolscore-results.jsonl", "--junit", "again.xml", "--report", "again.html"],
      { cwd },
    );
    expect(again.code).toBe(0);
    writeFileSync(path.join(cwd, "capped.yaml"), "report_max_cases: 1\n");
    await runCliProcess(
      [
        "eval",
        "runs.jsonl",
        "-c",
        "capped.yaml",
        "--out",
        "capped.jsonl",
        "--report",
        "capped.html",
      ],
      { cwd },
    );
    // Only the failing case is shown, and the report says how many there were.
    expect(readFileSync(path.join(cwd, "capped.html"), "utf8")).toContain('"shown":1,"total":2');
    expect(readFileSync(path.join(cwd, "again.xml"), "utf8").replace(/time="[^"]*"/g, "")).toBe(
      xml.replace(/time="[^"]*"/g, ""),
    );
  });
});

describe("toolscore eval: which cases keep their alignment", () => {
  const cases = [
    { id: "pass", toolsCalled: [call("a", { q: 1 })], expectedTools: [call("a", { q: 1 })] },
    { id: "fail", toolsCalled: [call("b")], expectedTools: [call("a", { q: 1 })] },
    // Its own options: the report must apply them as the run did (in order, any argument).
    {
      id: "own-options",
      toolsCalled: [call("a", { q: 2 })],
      expectedTools: [call("a", { q: 1 })],
      metricOptions: { "tool-call-accuracy": { order: "in-order", arguments: "ignore" } },
    },
  ];
  const metricsOf = (record: Record<string, unknown> | undefined) =>
    (record?.metrics as Record<string, Record<string, unknown>> | undefined)?.[
      "Tool Call Accuracy"
    ];
  const reportData = (file: string) => {
    const html = readFileSync(file, "utf8");
    const data = /id="toolscore-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "null";
    return JSON.parse(data) as { records: Record<string, unknown>[] };
  };

  it("keeps none by default; reports compute every case's again from its line", async () => {
    const cwd = folder({ "runs.jsonl": jsonl(cases) });
    const run = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(run.code).toBe(1);
    const records = recordsByIndex(path.join(cwd, "toolscore-results.jsonl"));
    expect(metricsOf(records.get(0))).toMatchObject({ score: 1, success: true });
    expect(metricsOf(records.get(0))).not.toHaveProperty("details");
    expect(metricsOf(records.get(0))?.reason).toMatch(/made as expected/);
    expect(metricsOf(records.get(1))).toMatchObject({ score: 0, success: false });
    expect(metricsOf(records.get(1))).not.toHaveProperty("details");
    expect(metricsOf(records.get(1))?.reason).toMatch(/expected\[0\] a missing/);
    // --details failed keeps the failed cases' alignment, and only theirs.
    const failedOnly = await runCliProcess(
      ["eval", "runs.jsonl", "--details", "failed", "--out", "failed.jsonl"],
      { cwd },
    );
    expect(failedOnly.code).toBe(1);
    const kept = recordsByIndex(path.join(cwd, "failed.jsonl"));
    expect(metricsOf(kept.get(0))).not.toHaveProperty("details");
    expect(metricsOf(kept.get(1))?.details).toMatchObject({ missing: [{ name: "a" }] });
    const header = lines(path.join(cwd, "toolscore-results.jsonl"))[0];
    expect(header.metricConfigs).toEqual([{ metric: "tool-call-accuracy", options: {} }]);

    // The report reads every case's line again and shows the same alignment as --details all.
    const report = await runCliProcess(
      ["report", "toolscore-results.jsonl", "--report", "report.html"],
      { cwd },
    );
    expect(report.code).toBe(0);
    const full = await runCliProcess(
      ["eval", "runs.jsonl", "--details", "all", "--out", "all.jsonl", "--report", "all.html"],
      { cwd },
    );
    expect(full.code).toBe(1);
    const all = recordsByIndex(path.join(cwd, "all.jsonl"));
    expect(metricsOf(all.get(0))?.details).toMatchObject({
      pairs: [{ expectedIndex: 0, calledIndex: 0, arguments: [{ path: "$.q", verdict: "match" }] }],
    });
    expect(metricsOf(all.get(1))).toEqual(metricsOf(kept.get(1)));
    expect(metricsOf(all.get(1))?.reason).toBe(metricsOf(records.get(1))?.reason);
    const shown = (file: string) =>
      new Map(reportData(path.join(cwd, file)).records.map((record) => [record.id, record]));
    expect(metricsOf(all.get(2))?.details).toMatchObject({ algorithm: "weighted-lcs" });
    for (const id of ["pass", "fail", "own-options"]) {
      expect(metricsOf(shown("report.html").get(id))?.details).toBeDefined();
      expect(metricsOf(shown("report.html").get(id))?.details).toEqual(
        metricsOf(shown("all.html").get(id))?.details,
      );
    }
  });

  it("reads details from the config file, and refuses an unknown value", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl(cases),
      "toolscore.config.yaml": "details: all\n",
      "bad.yaml": "details: some\n",
    });
    expect((await runCliProcess(["eval", "runs.jsonl"], { cwd })).code).toBe(1);
    const records = recordsByIndex(path.join(cwd, "toolscore-results.jsonl"));
    expect(metricsOf(records.get(0))?.details).toBeDefined();
    const flag = await runCliProcess(["eval", "runs.jsonl", "--details", "passed"], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--details takes none, failed or all, got "passed"');
    const config = await runCliProcess(["eval", "runs.jsonl", "-c", "bad.yaml"], { cwd });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('details must be "none", "failed" or "all"');
  });
});

describe("toolscore eval: reading JSONL in batches", () => {
  it("places every line as readDataset does, across read and batch boundaries", async () => {
    const item = (id: string, input = "") =>
      JSON.stringify({ id, input, toolsCalled: [call("a")], expectedTools: [call("a")] });
    const parts = [`\ufeff${item("first")}`, "   ", item("huge", "x".repeat(1_500_000)), ""];
    for (let i = 0; i < 3000; i++)
      parts.push(
        i === 1200 ? item("wide", "y".repeat(700_000)) : item(i === 7 ? "日本語 🚀 ü" : `c${i}`),
      );
    parts.push("\t", item("last-without-newline"));
    const cwd = folder({ "runs.jsonl": parts.join("\r\n") });
    const file = path.join(cwd, "runs.jsonl");
    const expected: { id: string; line: number; offset: number; bytes: number }[] = [];
    for await (const entry of readDataset(file)) {
      if (DatasetParseError.isInstance(entry)) throw entry;
      expected.push({
        id: entry.id,
        line: entry.line ?? 0,
        offset: entry.offset ?? -1,
        bytes: entry.bytes ?? -1,
      });
    }
    expect(expected).toHaveLength(3003);
    const bytes = readFileSync(file);
    for (const workers of ["0", "2"]) {
      const run = await runCliProcess(
        ["eval", "runs.jsonl", "--workers", workers, "--out", `w${workers}.jsonl`],
        { cwd },
      );
      expect(run.code).toBe(0);
      const records = recordsByIndex(path.join(cwd, `w${workers}.jsonl`));
      expect(records.size).toBe(expected.length);
      expected.forEach((want, index) => {
        const record = records.get(index) as {
          id: string;
          line: number;
          source: { offset: number; bytes: number };
        };
        expect({ id: record.id, line: record.line, ...record.source }).toEqual(want);
        const text = bytes.subarray(want.offset, want.offset + want.bytes).toString("utf8");
        expect((JSON.parse(text.replace(/^\ufeff/, "")) as { id: string }).id).toBe(want.id);
      });
    }
  });
});

describe("a console reader that goes away", () => {
  it("ends nothing: `eval | head` writes the whole results file and exits with the run's code", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const { binPath } = await import("./support/cli.js");
    const cwd = folder();
    const call = (id: number, city: string) => ({
      id: `c${id}`,
      toolsCalled: [{ name: "weather", arguments: { city } }],
      expectedTools: [{ name: "weather", arguments: { city: "Paris" } }],
    });
    const cases = Array.from({ length: 300 }, (_, id) => call(id, id % 2 === 0 ? "Paris" : "Lyon"));
    writeFileSync(path.join(cwd, "cases.jsonl"), jsonl(cases));
    const { stdout } = await promisify(execFile)(
      "bash",
      [
        "-c",
        `set -o pipefail; node ${JSON.stringify(binPath)} eval cases.jsonl -o results.jsonl 2>stderr.txt | head -1; echo "exit \${PIPESTATUS[0]}"`,
      ],
      { cwd },
    );
    expect(stdout).toMatch(/exit 1\n$/);
    expect(readFileSync(path.join(cwd, "stderr.txt"), "utf8")).not.toMatch(/EPIPE|Unhandled/);
    const lines = readFileSync(path.join(cwd, "results.jsonl"), "utf8").trim().split("\n");
    // The header, every case, the summary.
    expect(lines).toHaveLength(302);
  });
});
