import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { validateXML } from "xmllint-wasm";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/core/errors.js";
import { toToolCall } from "../src/core/tool-call.js";
import { toolCallAccuracy } from "../src/metrics/tool-call-accuracy.js";
import { evaluate as evaluateCases } from "../src/evaluate/evaluate.js";
import { evaluateObserved, observe, traceTool, updateCurrentSpan } from "../src/entries/tracing.js";
import type { Golden } from "../src/entries/tracing.js";
import { browserWaitMs, describeInChromium, launchChromium, openPage } from "./support/chromium.js";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { readJsonl } from "./support/folders.js";

const root = mkdtempSync(path.join(os.tmpdir(), "toolscore-tracing-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const call = (name: string, inputParameters: Record<string, unknown> = {}) =>
  toToolCall({ name, inputParameters });
const lines = readJsonl;

/**
 * A support agent with two observed components: `router` (every golden) picks a tool and sets
 * its test case; `refunds` (only for refund requests) calls the payments tool. The agent's
 * tools are recorded for the end-to-end score.
 */
function supportAgent(counter: { runs: number }) {
  const lookupOrder = traceTool("lookup_order", (args: { order: string }) => ({
    order: args.order,
    total: 40,
  }));
  const refund = traceTool("refund", async (args: { order: string; amount: number }) => {
    await Promise.resolve();
    return { refunded: args.amount };
  });
  const router = observe(
    (request: string) => {
      const route = request.includes("refund") ? "refunds" : "orders";
      updateCurrentSpan({
        testCase: {
          input: request,
          actualOutput: route,
          expectedOutput: request.includes("refund") ? "refunds" : "orders",
          toolsCalled: [call(route)],
          expectedTools: [call(request.includes("money back") ? "refunds" : route)],
        },
      });
      return route;
    },
    { name: "router", metrics: [toolCallAccuracy({ name: "route" })] },
  );
  const refunds = observe(
    async (order: string) => {
      const { total } = lookupOrder({ order });
      const result = await refund({ order, amount: total });
      updateCurrentSpan({
        testCase: {
          input: order,
          expectedTools: [call("lookup_order", { order }), call("refund", { order, amount: 40 })],
        },
      });
      return result;
    },
    { name: "refunds", metrics: [toolCallAccuracy({ name: "refund calls", order: "strict" })] },
  );
  return async (input: unknown) => {
    counter.runs++;
    if (typeof input !== "string") throw new TypeError("the request is not text");
    const request = input;
    const order = /#(\d+)/.exec(request)?.[1] ?? "0";
    if (router(request) === "refunds") {
      await refunds(order);
      return `refunded order ${order}`;
    }
    return `order ${order}: ${JSON.stringify(lookupOrder({ order }))}`;
  };
}

const goldens: Golden[] = Array.from({ length: 8 }, (_, at) => {
  const order = String(100 + at);
  const refund = at % 2 === 0;
  return {
    id: `g${at + 1}`,
    input: refund ? `please refund #${order}` : `where is #${order}`,
    expectedTools: refund
      ? [call("lookup_order", { order }), call("refund", { order })]
      : [call("lookup_order", { order: at === 7 ? "999" : order })],
  };
});

/** The support run's results, rendered once by `toolscore report` into report.html, junit.xml and r.md. */
let rendered: ReturnType<typeof runCliProcess> | undefined;
function renderReports(): ReturnType<typeof runCliProcess> {
  rendered ??= (async () => {
    const out = path.join(root, "report.jsonl");
    await evaluateObserved({
      observedCallback: supportAgent({ runs: 0 }),
      goldens: [...goldens, { id: "crash", input: { not: "text" } as never }],
      metrics: [toolCallAccuracy({ score: "recall", threshold: 0.5 })],
      out,
      name: "support goldens",
    });
    return runCliProcess(
      ["report", out, "--junit", "junit.xml", "--report", "report.html", "--markdown", "r.md"],
      { cwd: root },
    );
  })();
  return rendered;
}

describe("evaluateObserved with an observed callback, through the runner", () => {
  it("writes each golden as it finishes, resumes a stopped run, and equals an uninterrupted one", async () => {
    const out = path.join(root, "stopped.jsonl");
    const counter = { runs: 0 };
    const controller = new AbortController();
    const first = await evaluateObserved({
      observedCallback: supportAgent(counter),
      goldens,
      metrics: [toolCallAccuracy({ score: "recall", threshold: 0.5 })],
      concurrency: 1,
      signal: controller.signal,
      out,
      onResult: (result) => {
        if (result.index === 2) controller.abort();
      },
    });
    expect(first.summary).toMatchObject({ cases: 3, aborted: true });
    expect(lines(out).at(-1)).toMatchObject({ toolscore: "end", complete: false, cases: 3 });
    // Without resume, an unfinished run is not clobbered.
    await expect(
      evaluateObserved({ observedCallback: supportAgent(counter), goldens, metrics: [], out }),
    ).rejects.toMatchObject({ code: ErrorCode.RESULTS_FILE });

    counter.runs = 0;
    const second = await evaluateObserved({
      observedCallback: supportAgent(counter),
      goldens,
      metrics: [toolCallAccuracy({ score: "recall", threshold: 0.5 })],
      out,
      resume: true,
    });
    expect(counter.runs).toBe(5);
    expect(second.results.map((result) => result.id)).toEqual(["g4", "g5", "g6", "g7", "g8"]);
    expect(second.summary).toMatchObject({ cases: 8, aborted: false, passed: 7, failed: 1 });
    expect(lines(out).at(-1)).toMatchObject({ toolscore: "end", complete: true, cases: 8 });

    const whole = path.join(root, "whole.jsonl");
    const uninterrupted = await evaluateObserved({
      observedCallback: supportAgent({ runs: 0 }),
      goldens,
      metrics: [toolCallAccuracy({ score: "recall", threshold: 0.5 })],
      out: whole,
    });
    expect(recordsByIndex(out)).toEqual(recordsByIndex(whole));
    expect(uninterrupted.summary.metrics).toEqual(second.summary.metrics);

    // Per component as well as end to end: refunds runs on even goldens only, and the last
    // golden expects another order end to end.
    const byName = Object.fromEntries(
      second.summary.metrics.map((metric) => [metric.name, metric]),
    );
    expect(Object.keys(byName)).toEqual([
      "Tool Call Accuracy",
      "router › route",
      "refunds › refund calls",
    ]);
    expect(byName["router › route"]).toMatchObject({ cases: 8, passed: 8 });
    expect(byName["refunds › refund calls"]).toMatchObject({ cases: 4, scored: 4, passed: 4 });
    // Refund goldens leave out the amount: recall of their calls still 1 (a subset of
    // arguments matches); g8 expects order 999.
    expect(byName["Tool Call Accuracy"]).toMatchObject({ cases: 8, failedIds: ["g8"] });
    const g2 = uninterrupted.results[1];
    expect(g2.components.map((component) => component.name)).toEqual(["router"]);
    expect(g2.trace.spans.map((span) => span.name)).toEqual(["router", "lookup_order"]);
    // The record holds the calls the trace recorded, for the report's call diff.
    const record = recordsByIndex(whole).get(0) as { case: { toolsCalled: { name: string }[] } };
    expect(record.case.toolsCalled.map((call) => call.name)).toEqual(["lookup_order", "refund"]);

    // Resuming with other goldens is refused.
    await expect(
      evaluateObserved({
        observedCallback: supportAgent(counter),
        goldens: goldens.slice(1),
        metrics: [toolCallAccuracy({ score: "recall", threshold: 0.5 })],
        out,
        resume: true,
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.RESULTS_FILE,
      message: expect.stringContaining(
        "the dataset, or a transcript file its cases name, has changed",
      ) as unknown,
    });
  });

  it("renders JUnit and Markdown reports per component with toolscore report", async () => {
    const run = await renderReports();
    // report reads the folder's config for the gate's fail_under, and says it found none.
    expect(run.stderr).toBe(
      "toolscore: no config file here (toolscore.config.json, .yaml or .yml); the defaults apply\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("refunds › refund calls");
    const xml = readFileSync(path.join(root, "junit.xml"), "utf8");
    const validation = await validateXML({
      xml: [{ fileName: "junit.xml", contents: xml }],
      schema: [
        {
          fileName: "junit.xsd",
          contents: readFileSync(new URL("./support/junit.xsd", import.meta.url), "utf8"),
        },
      ],
    });
    expect(validation.errors).toEqual([]);
    // 9 goldens end to end and for the router, 4 refunds, and the crashed golden once more for
    // each component metric the run knows (it has no results at all).
    const testcases = [...xml.matchAll(/<testcase /g)].length;
    expect(testcases).toBe(8 + 8 + 4 + 3);
    expect(xml).toContain(`tests="${testcases}"`);
    expect(xml).toContain('classname="refunds › refund calls"');
    expect(readFileSync(path.join(root, "r.md"), "utf8")).toContain("support goldens");
  });

  it("names a component's second run in a golden, and checks its options", async () => {
    const step = observe(
      (n: number) => {
        updateCurrentSpan({
          testCase: { toolsCalled: [call(`t${n}`)], expectedTools: [call("t1")] },
        });
      },
      { name: "step", metrics: [toolCallAccuracy({ name: "acc" })] },
    );
    const { results } = await evaluateObserved({
      observedCallback: () => {
        step(1);
        step(2);
      },
      goldens: [{ input: "x" }],
    });
    expect(results[0].results.map((result) => [result.metric, result.status])).toEqual([
      ["step › acc", "scored"],
      ["step [2] › acc", "scored"],
    ]);
    expect(results[0]).toMatchObject({ id: "golden-1", status: "failed" });

    await expect(
      evaluateObserved({ observedCallback: () => 1, goldens: [], resume: true }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_OPTION, option: "resume" });
    await expect(
      evaluateCases({
        observedCallback: () => 1,
        goldens: [],
        testCases: [],
        metrics: [toolCallAccuracy()],
      } as never),
    ).rejects.toMatchObject({
      code: ErrorCode.INVALID_OPTION,
      message: expect.stringContaining("toolscore/tracing") as unknown,
    });
  });
});

describeInChromium("the per-component HTML report in Chromium", () => {
  it("filters by component metric and status, and opens an errored golden", async () => {
    expect((await renderReports()).code).toBe(0);
    const browser = await launchChromium();
    try {
      const page = await openPage(browser);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      await page.goto(`file://${path.join(root, "report.html")}`);
      await page.waitForSelector("body[data-ready=true]", { timeout: browserWaitMs });
      expect(problems).toEqual([]);
      expect(await page.locator("#filter-metric option").allTextContents()).toEqual(
        expect.arrayContaining(["failing router › route", "failing refunds › refund calls"]),
      );
      expect(await page.locator("details.case").count()).toBe(9);
      await page.selectOption("#filter-status", "error");
      const errored = page.locator("details.case:not([hidden])");
      expect(await errored.count()).toBe(1);
      await errored.locator("summary").click();
      // The body is built when the case is opened.
      await errored.getByText("the request is not text", { exact: false }).first().waitFor();
      expect(await errored.textContent()).toContain("the request is not text");
    } finally {
      await browser.close();
    }
  });
});
