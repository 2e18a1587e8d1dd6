/**
 * Issue 48: hostile input against what landed with conversations, the viewer and watch mode,
 * end to end through the real CLI: a line that could wipe a run, files that are no files, and
 * waits that must end at the first signal.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  openSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { browserWaitMs, describeInChromium, launchChromium, openPage } from "./support/chromium.js";
import { runCliProcess, startCli, viewerUrl } from "./support/cli.js";
import { jsonl, readJsonl, testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-hostile-");

/** A conversation of `turns` user turns, each calling `lookup` as expected. */
function conversation(id: string, turns: number) {
  const messages: object[] = [];
  for (let at = 0; at < turns; at++) {
    messages.push(
      { role: "user", content: `turn ${at}` },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `c${at}`, type: "function", function: { name: "lookup", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: `c${at}`, content: "ok" },
    );
  }
  return {
    id,
    trajectory: messages,
    turns: Array.from({ length: turns }, () => ({ expected_tools: [{ name: "lookup" }] })),
  };
}

const flat = (id: string) => ({
  id,
  tools_called: [{ name: "x" }],
  expected_tools: [{ name: "x" }],
});

describe("one line cannot wipe a run (item 1)", () => {
  it("a conversation of 100,000 turns is its own LIMIT_EXCEEDED; the cases around it are scored, and a resume has nothing left", async () => {
    const cwd = folder({
      "runs.jsonl": jsonl([flat("a"), conversation("huge", 100_000), flat("b")]),
    });
    const run = await runCliProcess(["eval", "runs.jsonl", "--out", "out.jsonl"], { cwd });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain(
      "! huge (line 2): the conversation has 100000 turns, over the 10000 a case may have",
    );
    const records = readJsonl(path.join(cwd, "out.jsonl"))
      .filter((line) => "index" in line)
      .sort((a, b) => Number(a.index) - Number(b.index));
    expect(records.map((record) => [record.id, record.status])).toEqual([
      ["a", "passed"],
      ["huge", "error"],
      ["b", "passed"],
    ]);
    expect(records[1].error).toMatchObject({ code: "LIMIT_EXCEEDED", field: "turns", line: 2 });
    const resumed = await runCliProcess(["eval", "runs.jsonl", "--out", "out.jsonl", "--resume"], {
      cwd,
    });
    expect(resumed.code).toBe(3);
    expect(resumed.stdout).toContain("3 cases: 2 passed, 0 failed, 1 error");
  });
});

describe("files that are no files (items 4 and 5)", () => {
  it("report and view read no device a results file names, and say why", async () => {
    const cwd = folder({ "runs.jsonl": jsonl([flat("a"), { ...flat("b"), tools_called: [] }]) });
    expect((await runCliProcess(["eval", "runs.jsonl", "--out", "out.jsonl"], { cwd })).code).toBe(
      1,
    );
    // The header names a dataset that is a link to /dev/zero.
    symlinkSync("/dev/zero", path.join(cwd, "zero.jsonl"));
    const results = path.join(cwd, "out.jsonl");
    const [header, ...rest] = readFileSync(results, "utf8").split("\n");
    writeFileSync(
      results,
      [JSON.stringify({ ...JSON.parse(header), dataset: "zero.jsonl" }), ...rest].join("\n"),
    );
    const report = await runCliProcess(
      ["report", "out.jsonl", "--report", "report.html", "--markdown", "report.md"],
      { cwd },
    );
    expect(report.code).toBe(0);
    expect(report.stderr).toContain("zero.jsonl is not at hand (cannot read the dataset");
    expect(report.stderr).toContain("it is a device, not a regular file)");
    expect(readFileSync(path.join(cwd, "report.md"), "utf8")).toContain("b");

    const view = startCli(["view", ".", "--port", "0"], { cwd });
    const url = await viewerUrl(view.child);
    const page = await fetch(`${url}runs/out`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("out (zero.jsonl)");
    view.child.kill("SIGTERM");
    const viewed = await view.done;
    expect(viewed.code).toBe(0);
    expect(viewed.stderr).toContain("it is a device, not a regular file)");
  });

  it("a FIFO as the dataset, the config or a results file is refused at once", async () => {
    const cwd = folder({ "runs.jsonl": jsonl([flat("a")]) });
    for (const name of ["pipe.jsonl", "pipe.yaml", "results/pipe.jsonl"]) {
      execFileSync("mkdir", ["-p", path.dirname(path.join(cwd, name))]);
      execFileSync("mkfifo", [path.join(cwd, name)]);
    }
    const dataset = await runCliProcess(["eval", "pipe.jsonl"], { cwd });
    expect(dataset.code).toBe(2);
    expect(dataset.stderr).toContain("pipe.jsonl is not a regular file");
    const watch = await runCliProcess(["eval", "pipe.jsonl", "--watch"], { cwd });
    expect(watch.code).toBe(2);
    expect(watch.stderr).toContain("pipe.jsonl is not a regular file");
    const config = await runCliProcess(["eval", "runs.jsonl", "--config", "pipe.yaml"], { cwd });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain("it is a FIFO (named pipe), not a regular file");
    const named = await runCliProcess(["view", "results/pipe.jsonl"], { cwd });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("is not a toolscore results file");
    // In a folder the viewer lists, it is passed over, and the viewer ends at the first signal.
    const view = startCli(["view", "results", "--port", "0"], { cwd });
    const url = await viewerUrl(view.child);
    expect((await fetch(url)).status).toBe(200);
    view.child.kill("SIGINT");
    expect((await view.done).code).toBe(0);
  });
});

/** A case whose expected call's arguments are nested `levels` deep (the reader lets it in). */
function deepCase(id: string, levels: number): string {
  const deep = `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
  return `{"id":${JSON.stringify(id)},"tools_called":[{"name":"x"}],"expected_tools":[{"name":"x","arguments":{"a":${deep}}}]}`;
}

describeInChromium("a case nested 5,000 levels deep (item 6)", () => {
  it("is written to the HTML report and served by the viewer, shown without its deep values", async () => {
    const cwd = folder({
      "runs.jsonl": `${deepCase("deep", 5000)}\n${JSON.stringify(flat("fine"))}\n`,
    });
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "--out", "out.jsonl", "--report", "report.html"],
      { cwd },
    );
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("report: report.html");
    const view = startCli(["view", ".", "--port", "0"], { cwd });
    const url = await viewerUrl(view.child);
    expect((await fetch(`${url}runs/out`)).status).toBe(200);
    view.child.kill("SIGINT");
    expect((await view.done).code).toBe(0);

    const browser = await launchChromium();
    try {
      const page = await openPage(browser);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      await page.goto(`file://${path.join(cwd, "report.html")}`);
      await page.waitForSelector("body[data-ready=true]", { timeout: browserWaitMs });
      const deep = page.locator('details.case[data-status="error"]');
      await deep.locator("summary").click();
      await expect
        .poll(async () => deep.textContent(), { timeout: 60_000 })
        .toContain("nested more than 1000 levels deep");
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe("every wait ends at the first signal (item 5)", () => {
  it("report ends at the first SIGTERM while it reads a huge dataset, where it went on", async () => {
    const cwd = folder({ "runs.jsonl": jsonl([flat("a"), { ...flat("b"), tools_called: [] }]) });
    expect((await runCliProcess(["eval", "runs.jsonl", "--out", "out.jsonl"], { cwd })).code).toBe(
      1,
    );
    // The header names a dataset of 8 GiB (sparse: no disk), whose hash takes many seconds.
    closeSync(openSync(path.join(cwd, "huge.jsonl"), "w"));
    truncateSync(path.join(cwd, "huge.jsonl"), 8 * 2 ** 30);
    const results = path.join(cwd, "out.jsonl");
    const [header, ...rest] = readFileSync(results, "utf8").split("\n");
    writeFileSync(
      results,
      [JSON.stringify({ ...JSON.parse(header), dataset: "huge.jsonl" }), ...rest].join("\n"),
    );
    const report = startCli(["report", "out.jsonl", "--report", "report.html"], { cwd });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sent = Date.now();
    report.child.kill("SIGTERM");
    const done = await report.done;
    expect(done.code).toBe(143);
    // At once: well before the hash could have ended.
    expect(Date.now() - sent).toBeLessThan(5000);
  });
});
