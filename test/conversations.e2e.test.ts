/**
 * Conversations scored turn by turn, through the built command line on the bundled example
 * (examples/conversations): the guide's commands with the exit codes it states, the console, the
 * Markdown and the HTML report (in headless Chromium) of a refund made one turn too early, the
 * results file, a report written again from it, compare, worker threads, `dataset --turns`, and
 * ADK eval results read as conversations.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { evaluateToFile } from "../src/entries/node.js";
import { describeInChromium, launchChromium, openPage } from "./support/chromium.js";
import { runCliProcess, startCli, viewerUrl } from "./support/cli.js";
import { docPages } from "./support/doc-pages.js";
import { readJsonl, testFolders } from "./support/folders.js";
import { comparableRecords } from "./support/records.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const example = path.join(root, "examples", "conversations");
const guide = path.join(root, "docs", "guides", "conversations.md");
const folder = testFolders("toolscore-conversations-");
const screenshots = path.resolve("test-results");

/** A copy of the example to run in. */
const copy = () => {
  const cwd = folder();
  cpSync(example, cwd, { recursive: true });
  return cwd;
};

describe("conversations, through the command line", () => {
  it("runs the guide's commands on the example with the exit codes it states", async () => {
    const { blocksOf } = docPages();
    const lines = blocksOf(guide)
      .filter((block) => block.language === "sh")
      .flatMap((block) => block.code.split("\n"))
      .filter((line) => line.startsWith("npx toolscore "));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const cwd = copy();
    for (const line of lines) {
      const [command, comment = ""] = line.split("#");
      const expected = Number(/exit (\d+)/.exec(comment)?.[1] ?? 0);
      const run = await runCliProcess(command.trim().split(/\s+/).slice(2), { cwd });
      expect(run.code, `${line}\n${run.stdout}${run.stderr}`).toBe(expected);
    }
  });

  it("names the refund made before the customer confirmed, in the console, Markdown and results", async () => {
    const cwd = copy();
    const run = await runCliProcess(
      ["eval", "runs/", "-e", "expected.jsonl", "--markdown", "report.md"],
      { cwd },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      '✗ runs/too-early.json  Tool Call Accuracy 0.556: turn 1: refund_order made too early, before the user said "Yes, please refund it." (expected at turn 2).',
    );
    expect(run.stdout).toContain(
      "✗ runs/refund-300.json  Tool Call Accuracy 0.833: turn 2: called[0] refund_order: $.amount is 300, expected 30",
    );
    expect(run.stdout).toContain(
      "by turn (3 conversations): turn 1 2 of 3 passed (1 failed), turn 2 1 of 3 passed (2 failed), turn 3 3 of 3 passed",
    );
    const markdown = readFileSync(path.join(cwd, "report.md"), "utf8");
    expect(markdown).toContain("| 2 | 3 | 1 | 2 | 0 | 0 |");
    expect(markdown).toContain("**runs/too-early.json**, turn by turn:");
    expect(markdown).toContain(
      "| 1 | Where is my order 4521? It arrived broken. | ❌ 0.667 | ✅ 1 | refund\\_order made here, expected at turn 2 ·",
    );
    expect(markdown).toContain("| 3 | Thanks, that's all. | ✅ 1 | ✅ 1 |  |");
    const records = readJsonl(path.join(cwd, "toolscore-results.jsonl")).filter(
      (record) => "index" in record,
    );
    const byId = Object.fromEntries(records.map((record) => [record.id, record]));
    expect(byId["runs/too-early.json"]?.turns).toEqual(["failed", "failed", "passed"]);
    expect(byId["runs/confirmed.json"]?.turns).toEqual(["passed", "passed", "passed"]);

    // The report written again from the results file reads the turns' details back.
    const again = await runCliProcess(
      ["report", "toolscore-results.jsonl", "--markdown", "again.md"],
      { cwd },
    );
    expect(again.code, again.stderr).toBe(0);
    const timeless = (text: string) => text.replace(/ in [\d.]+ m?s\./, " in …");
    expect(timeless(readFileSync(path.join(cwd, "again.md"), "utf8"))).toBe(timeless(markdown));
  });

  it("runs min and all by the run's flag, and compare names the turns that changed", async () => {
    const cwd = copy();
    const min = await runCliProcess(
      ["eval", "runs/", "-e", "expected.jsonl", "--turn-aggregate", "min", "--out", "min.jsonl"],
      { cwd },
    );
    expect(min.code, min.stderr).toBe(1);
    const scores = readJsonl(path.join(cwd, "min.jsonl"))
      .filter((record) => "index" in record)
      .map((record) => [
        record.id,
        (record.metrics as Record<string, { score: number } | undefined>)["Tool Call Accuracy"]
          ?.score,
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(scores).toEqual([
      ["runs/confirmed.json", 1],
      ["runs/refund-300.json", 0.5],
      ["runs/too-early.json", 0],
    ]);
    const bad = await runCliProcess(
      ["eval", "runs/", "-e", "expected.jsonl", "--turn-aggregate", "median"],
      {
        cwd,
      },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--turn-aggregate takes mean, min or all, got "median"`);

    // The agent fixed: the refund waits for the customer's yes.
    await runCliProcess(["eval", "runs/", "-e", "expected.jsonl", "--out", "before.jsonl"], {
      cwd,
    });
    cpSync(path.join(cwd, "runs", "confirmed.json"), path.join(cwd, "runs", "too-early.json"));
    await runCliProcess(["eval", "runs/", "-e", "expected.jsonl", "--out", "after.jsonl"], { cwd });
    const compared = await runCliProcess(["compare", "before.jsonl", "after.jsonl"], { cwd });
    expect(compared.stdout).toContain(
      "runs/too-early.json  failed → passed, Tool Call Accuracy 0.56 → 1.00, turn 1 failed → passed, turn 2 failed → passed",
    );
  });

  it("says which turn is flaky over repeated runs of one conversation (--group-by)", async () => {
    const cwd = copy();
    const run = await runCliProcess(
      ["eval", "runs/", "-e", "expected.jsonl", "--group-by", "metadata.conversation"],
      { cwd },
    );
    expect(run.stdout).toContain(
      "by turn (1 conversation): turn 1 2 of 3 passed (1 failed); every run passed it in 0 of 1, flaky in 1, turn 2 1 of 3 passed (2 failed); every run passed it in 0 of 1, flaky in 1, turn 3 3 of 3 passed; every run passed it in 1 of 1",
    );
  });

  it("writes a dataset with turns from recordings, and notes turns that no longer line up", async () => {
    const cwd = copy();
    const written = await runCliProcess(
      ["dataset", "runs/", "--turns", "--out", "reviewed.jsonl"],
      {
        cwd,
      },
    );
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(
      "3 with turns whose expected calls are the calls recorded: review them",
    );
    const first = readJsonl(path.join(cwd, "reviewed.jsonl")).find(
      (line) => line.id === "runs/too-early.json",
    );
    expect(first?.turns).toEqual([
      {
        input: "Where is my order 4521? It arrived broken.",
        expected_tools: [
          { name: "lookup_order", arguments: { order_id: "4521" } },
          { name: "refund_order", arguments: { order_id: "4521", amount: 30 } },
        ],
      },
      { input: "Yes, please refund it.", expected_tools: [] },
      { input: "Thanks, that's all.", expected_tools: [] },
    ]);
    // A re-recorded conversation whose user says something else at turn 2.
    const run = JSON.parse(readFileSync(path.join(cwd, "runs", "confirmed.json"), "utf8")) as {
      role: string;
      content: string | null;
    }[];
    const second = run.filter((message) => message.role === "user").at(1);
    if (second !== undefined) second.content = "No, keep it.";
    writeFileSync(path.join(cwd, "runs", "confirmed.json"), JSON.stringify(run));
    const scored = await runCliProcess(["eval", "reviewed.jsonl"], { cwd });
    expect(scored.stderr).toContain(
      `turns[1].input is not what the user said at turn 2 of the transcript ("No, keep it."); the transcript's is used: do the turns still line up?`,
    );
  });

  it("parse shows a conversation's calls turn by turn, as a case's turns read them", async () => {
    const run = await runCliProcess(["parse", "runs/too-early.json"], { cwd: copy() });
    expect(run.stdout.split("\n")).toEqual([
      "format: openai-chat; 2 tool calls in 3 user turns",
      'turn 1 "Where is my order 4521? It arrived broken.":',
      '  1. lookup_order({"order_id":"4521"}) → "{\\"status\\": \\"delivered\\", \\"total\\": 30}"',
      '  2. refund_order({"order_id":"4521","amount":30}) → "{\\"refunded\\": 30}"',
      'turn 2 "Yes, please refund it.": no calls',
      `turn 3 "Thanks, that's all.": no calls`,
      "",
    ]);
  });

  it("reads an ADK eval result as conversations, an invocation a turn", async () => {
    const cwd = folder();
    cpSync(
      path.join(root, "src", "adapters", "fixtures", "adk", "support.evalset_result.json"),
      path.join(cwd, "support.evalset_result.json"),
    );
    const run = await runCliProcess(["eval", "support.evalset_result.json", "--json"], { cwd });
    const output = JSON.parse(run.stdout) as {
      summary: { turns?: { turn: number; cases: number }[] };
    };
    const records = readJsonl(path.join(cwd, "toolscore-results.jsonl"))
      .filter((record) => "index" in record)
      .map((record) => [record.id, (record.turns as string[] | undefined)?.length])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(records).toEqual([
      ["refund", 1],
      ["status-then-refund", 2],
    ]);
    expect(output.summary.turns?.map((turn) => [turn.turn, turn.cases])).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });
});

describe("conversations in worker threads", () => {
  it("gives the same records and turn counts with and without workers", async () => {
    const cwd = copy();
    const dataset = path.join(cwd, "dataset.jsonl");
    const built = await runCliProcess(
      ["dataset", "runs/", "-e", "expected.jsonl", "--out", "dataset.jsonl"],
      { cwd },
    );
    expect(built.code, built.stderr).toBe(0);
    const outs: string[] = [];
    const summaries: unknown[] = [];
    for (const workers of [0, 1]) {
      const out = path.join(cwd, `w${workers}.jsonl`);
      const run = await evaluateToFile({
        dataset,
        metrics: [{ metric: "tool-call-accuracy" }, { metric: "response-contains" }],
        out,
        workers,
        turnAggregate: "min",
      });
      summaries.push(run.summary.turns);
      outs.push(comparableRecords(out));
    }
    expect(outs[0]).toBe(outs[1]);
    expect(outs[0]).toContain('"turns":["failed","failed","passed"]');
    expect(summaries[0]).toEqual(summaries[1]);
    expect(summaries[0]).toEqual([
      { turn: 1, cases: 3, passed: 2, failed: 1, errors: 0, notEvaluable: 0 },
      { turn: 2, cases: 3, passed: 1, failed: 2, errors: 0, notEvaluable: 0 },
      { turn: 3, cases: 3, passed: 3, failed: 0, errors: 0, notEvaluable: 0 },
    ]);
  });
});

describeInChromium("a conversation in the HTML report", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  it("shows the turns side by side, the misplaced refund at both turns", async () => {
    const cwd = copy();
    const run = await runCliProcess(
      ["eval", "runs/", "-e", "expected.jsonl", "--report", "report.html"],
      { cwd },
    );
    expect(run.code, run.stderr).toBe(1);
    const page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`file://${path.join(cwd, "report.html")}`);
    await page.waitForSelector("body[data-ready=true]");
    const conversation = page.locator("details.case", { hasText: "runs/too-early.json" });
    await conversation.locator("summary").click();
    const turns = conversation.locator(".turns > section.turn");
    await turns.first().waitFor();
    expect(await turns.count()).toBe(3);
    const classes = await Promise.all([0, 1, 2].map((at) => turns.nth(at).getAttribute("class")));
    expect(classes).toEqual(["turn failed", "turn failed", "turn"]);
    expect(await turns.nth(0).locator(".misplaced").innerText()).toBe(
      "refund_order made here, expected at turn 2",
    );
    expect(await turns.nth(1).locator(".misplaced").innerText()).toBe(
      "refund_order expected here, made at turn 1",
    );
    expect(await turns.nth(1).innerText()).toContain("Yes, please refund it.");
    expect(await turns.nth(2).innerText()).toContain("no calls expected, none made");
    // Side by side: the turns share a row at this width.
    const boxes = await Promise.all([0, 1, 2].map((at) => turns.nth(at).boundingBox()));
    const tops = boxes.map((box) => box?.y);
    expect(new Set(tops).size).toBe(1);
    mkdirSync(screenshots, { recursive: true });
    const png = await page.screenshot({
      path: path.join(screenshots, "conversation-report.png"),
      fullPage: true,
    });
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(errors).toEqual([]);
    await page.close();

    // toolscore view serves the same report: the conversation turn by turn.
    const { child, done } = startCli(["view"], { cwd });
    const url = await viewerUrl(child);
    const viewed = await openPage(browser, { viewport: { width: 1200, height: 900 } });
    await viewed.goto(`${url}runs/toolscore-results`);
    await viewed.waitForSelector("body[data-ready=true]");
    const shown = viewed.locator("details.case", { hasText: "runs/too-early.json" });
    await shown.locator("summary").click();
    await shown.locator(".turns > section.turn").first().waitFor();
    expect(await shown.locator(".turns > section.turn").count()).toBe(3);
    await viewed.close();
    child.kill("SIGINT");
    expect((await done).code).toBe(0);
  });

  it("wraps long values inside each turn's card: ids, URLs, reasons, replies (issue 49, item 4)", async () => {
    const cwd = copy();
    const long = "x".repeat(600);
    const url = `https://example.com/${"a/".repeat(200)}`;
    const turn = (input: string, name: string, args: object, expected: object, reply: string) => ({
      input,
      toolsCalled: [{ name, arguments: args }],
      expectedTools: [{ name, arguments: expected }],
      actualOutput: reply,
    });
    writeFileSync(
      path.join(cwd, "long.jsonl"),
      `${JSON.stringify({
        id: "long",
        turns: [
          turn(
            `Look up ${long}`,
            "lookup_order",
            { order: long, url },
            { order: "short", url },
            long,
          ),
          turn("Refund it", "refund_order", { note: long }, { note: long }, url),
        ],
      })}\n`,
    );
    const run = await runCliProcess(["eval", "long.jsonl", "--report", "long.html"], { cwd });
    expect(run.code, run.stderr).toBe(1);
    const page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
    await page.goto(`file://${path.join(cwd, "long.html")}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.locator("details.case summary").first().click();
    await page.locator(".turns > section.turn").first().waitFor();
    // Nothing in a card reaches past its edge, and the page does not scroll sideways.
    // (Run in the page, as text: this project's types have no DOM.)
    const past = await page.evaluate<string[]>(`
      [...document.querySelectorAll("details.case, section.turn")].flatMap((card) => {
        const edge = card.getBoundingClientRect().right;
        return [...card.querySelectorAll("*")]
          .filter((inner) => inner.getBoundingClientRect().right > edge + 1)
          .map((inner) => inner.tagName.toLowerCase() + "." + inner.className);
      })`);
    expect(past).toEqual([]);
    expect(
      await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth"),
    ).toBe(true);
    await page.close();
  });
});
