import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserWaitMs,
  describeInChromium,
  launchChromium,
  openPage,
} from "../../test/support/chromium.js";
import { makeImage } from "../../test/support/images.js";
import { metricNames, sampleRecords, summaryOf } from "../../test/support/records.js";
import type { CaseRecord } from "../core/case-record.js";
import { matchToolCalls } from "../metrics/match-tool-calls.js";
import { reportScript } from "./html-assets.js";
import { formatHtmlReport, scriptSafeJson, selectReportCases } from "./html.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-html-"));
const screenshots = path.resolve("test-results");
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

// An "internal" server an image URL in the data points at: opening the report must not reach it.
const requests: string[] = [];
const internal = createServer((request, response) => {
  requests.push(request.url ?? "");
  response.writeHead(200, { "content-type": "image/png" }).end();
});
let internalUrl = "";

async function reportRecords(): Promise<CaseRecord[]> {
  const png = (await makeImage("png", 40, 30)).toString("base64");
  const records = sampleRecords();
  const [first, failed, ...rest] = records;
  const failedCase = failed.case ?? {};
  const [search, deleteAll] = failedCase.toolsCalled ?? [];
  // A call besides the expected one, of a read-only tool, which order all-expected allows.
  const passingCalls = [...(first.case?.toolsCalled ?? []), { name: "log_event", arguments: {} }];
  const superset = matchToolCalls(passingCalls, first.case?.expectedTools ?? [], {
    order: "all-expected",
    sideEffects: { readOnly: ["log_event"] },
  });
  const [firstMetric] = metricNames;
  return [
    {
      ...first,
      metrics: {
        ...first.metrics,
        [firstMetric]: {
          status: "scored",
          score: superset.score,
          threshold: 1,
          success: superset.success,
          reason: superset.reason,
          details: superset,
        },
      },
      case: {
        ...first.case,
        toolsCalled: passingCalls,
        finalReply: "Here are three flights to Oslo.",
        retrievedContexts: [
          "The receipt total is 12 EUR.",
          { kind: "base64", data: png, mimeType: "image/png" },
          `${internalUrl}/latest/meta-data.png`,
        ],
      },
    },
    {
      ...failed,
      case: {
        ...failedCase,
        // A tool's output sent as JSON text, and an expected value that is a matcher.
        toolsCalled: [{ ...search, output: '{"status":"shipped","items":[1,2]}' }, deleteAll],
        expectedTools: [
          (failedCase.expectedTools ?? [])[0],
          {
            name: "book",
            arguments: {
              seat: { $match: "oneOf", values: ["1C", "2C"], description: 'one of "1C", "2C"' },
            },
          },
        ],
      },
    },
    ...rest,
  ];
}

describe("formatHtmlReport (static)", () => {
  it("embeds data so that no value can close the script element", () => {
    const json = scriptSafeJson({ text: "</script><script>alert(1)</script><!--", line: "\u2028" });
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual({
      text: "</script><script>alert(1)</script><!--",
      line: "\u2028",
    });
  });

  it("allows its own script by hash and nothing else", async () => {
    const html = formatHtmlReport({
      summary: summaryOf(sampleRecords()),
      metrics: metricNames,
      records: await reportRecords(),
    });
    const hash = createHash("sha256").update(reportScript).digest("base64");
    expect(html).toContain(`script-src &apos;sha256-${hash}&apos;`);
    expect(html).toContain("default-src &apos;none&apos;");
    // Images: embedded ones only.
    expect(html).toMatch(/img-src data:;/);
    // Two script elements: the data and the report's own.
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it("caps a huge run to failures first, in dataset order", () => {
    const records = Array.from({ length: 10 }, (_, index) => ({
      index,
      status: index % 3 === 0 ? ("failed" as const) : ("passed" as const),
    }));
    expect(selectReportCases(records, 5).map((record) => record.index)).toEqual([0, 1, 3, 6, 9]);
  });
});

describeInChromium("formatHtmlReport in Chromium", () => {
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
    internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
    const records = await reportRecords();
    const file = path.join(directory, "report.html");
    writeFileSync(
      file,
      formatHtmlReport({
        summary: summaryOf(records),
        metrics: metricNames,
        records,
        totalCases: 6,
        title: "agent <evals>",
        source: "runs.jsonl",
        generatedAt: "2026-11-21T10:00:00.000Z",
      }),
    );
    browser = await launchChromium();
    page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`file://${file}`);
    // Generous: a loaded machine launches a browser slowly.
    await page.waitForSelector("body[data-ready=true]", { timeout: browserWaitMs });
  });

  afterAll(async () => {
    // Undefined when the launch failed: that failure is the one to report.
    await browser?.close();
    internal.close();
  });

  it("loads without errors and shows the summary and a histogram per metric", async () => {
    expect(problems).toEqual([]);
    expect(await page.title()).toBe("agent <evals>");
    const cards = await page.locator(".card .label").allTextContents();
    expect(cards).toEqual(expect.arrayContaining(["cases", "passed", "failed", "errors"]));
    expect(await page.locator(".metric svg rect.bar").count()).toBe(10 * metricNames.length);
    expect(await page.locator("#truncated .notice").textContent()).toContain("shows 4 of 6 cases");
  });

  it("filters cases by text, status and failing metric", async () => {
    const visible = () => page.locator("details.case:not([hidden])").count();
    expect(await visible()).toBe(4);
    await page.fill("#filter-text", "DELETE_ALL");
    expect(await visible()).toBe(1);
    expect(await page.locator("#filter-count").textContent()).toBe("1 of 4 cases");
    await page.fill("#filter-text", "");
    await page.selectOption("#filter-status", "error");
    expect(await visible()).toBe(2);
    await page.selectOption("#filter-status", "all");
    await page.selectOption("#filter-metric", metricNames[0]);
    // Failing the first metric: the case below threshold and the one it could not score.
    expect(await visible()).toBe(2);
    await page.selectOption("#filter-metric", "");
    expect(await visible()).toBe(4);
  });

  it("shows expected and actual calls side by side, highlighting what went wrong", async () => {
    const failing = page.locator('details.case[data-status="failed"]');
    await failing.locator("summary").click();
    const table = failing.locator("table.diff");
    await table.waitFor();
    expect(await table.locator("tr.partial").count()).toBeGreaterThan(0);
    expect(await table.locator("tr.missing .tag.missing").textContent()).toBe("missing");
    expect(await table.locator("tr.unexpected .call-name").textContent()).toBe("delete_all");
    const highlighted = await table.locator(".arg.bad").allTextContents();
    expect(highlighted).toEqual([
      '.filters.date = "2026-05-03"',
      '.filters.date = "<script>alert(1)</script>"',
    ]);
    expect(await failing.locator(".mismatch-list li").textContent()).toBe(
      '$.filters.date: expected "2026-05-03", got "<script>alert(1)</script>"',
    );
  });

  it("shows hostile content as text and never runs it", async () => {
    const failing = page.locator('details.case[data-status="failed"]');
    expect(await failing.locator(".case-id").textContent()).toBe(
      'fail <script>alert("id")</script> & "quotes"',
    );
    expect(await failing.locator(".reason").first().textContent()).toContain(
      "<img src=x onerror=alert(1)>",
    );
    expect(await failing.locator("pre.text").nth(1).textContent()).toBe(
      "</script><script>alert('out')</script>",
    );
    expect(await page.locator("script").count()).toBe(2);
    expect(await page.locator("main img[src^='x'], main img[onerror]").count()).toBe(0);
    // The javascript: image is named, not loaded.
    expect(await failing.locator(".images figcaption").first().textContent()).toBe(
      "(image not shown: javascript:alert(1))",
    );
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("fetches no image URL from the data, showing it as a link (issue 22, item 8)", async () => {
    const passing = page.locator('details.case[data-status="passed"]');
    await passing.locator("summary").click();
    const link = passing.locator(`.images a[href="${internalUrl}/latest/meta-data.png"]`);
    await link.waitFor();
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await passing.locator(`img[src^="http"]`).count()).toBe(0);
    expect(requests).toEqual([]);
    await passing.locator("summary").click(); // closed again, as the next test expects
  });

  it("lists failures first, each collapsed row with its first difference; dataset order on request", async () => {
    const statuses = () =>
      page
        .locator("details.case")
        .evaluateAll((nodes: unknown[]) =>
          nodes.map((node) =>
            (node as { getAttribute(name: string): string | null }).getAttribute("data-status"),
          ),
        );
    expect(await statuses()).toEqual(["failed", "error", "error", "passed"]);
    const failing = page.locator('details.case[data-status="failed"]');
    // As text, never markup.
    expect(await failing.locator("summary .first-diff").textContent()).toContain(
      "<img src=x onerror=alert(1)> | pipes | `ticks`",
    );
    await page.selectOption("#filter-order", "dataset");
    expect(await statuses()).toEqual(["passed", "failed", "error", "error"]);
    await page.selectOption("#filter-order", "failures");
    expect(await statuses()).toEqual(["failed", "error", "error", "passed"]);
  });

  it("shows outputs as JSON, matchers as what they mean, calls in the order made, thresholds, and takes a screenshot", async () => {
    expect(await page.locator(".metric svg line.threshold").count()).toBe(metricNames.length);
    const failing = page.locator('details.case[data-status="failed"]');
    if (!(await failing.evaluate((node) => (node as unknown as { open: boolean }).open))) {
      await failing.locator("summary").click();
    }
    await failing.locator("table.diff").waitFor();
    expect(await failing.locator("pre.output").first().textContent()).toBe(
      JSON.stringify({ status: "shipped", items: [1, 2] }, null, 2),
    );
    expect(await failing.locator(".arg .matcher").textContent()).toBe('one of "1C", "2C"');
    const order = await failing.locator("ol.call-order li").allTextContents();
    expect(order).toHaveLength(2);
    expect(order[0]).toMatch(/^search\(.*\) {2}~ expected\[0\], score 0\.50$/);
    expect(order[1]).toBe("delete_all({})  not expected");
    mkdirSync(screenshots, { recursive: true });
    const shot = path.join(screenshots, "html-report-failed-case.png");
    await failing.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    await failing.locator("summary").click();
  });

  it("shows a case's images and final reply, and takes a screenshot", async () => {
    const passing = page.locator('details.case[data-status="passed"]');
    await passing.locator("summary").click();
    const image = passing.locator(".images img");
    await image.waitFor();
    expect(await passing.locator(".final-reply").textContent()).toBe(
      "Here are three flights to Oslo.",
    );
    // The call besides the expected one is shown as allowed by the order, not as unexpected.
    expect(await passing.locator("ol.call-order li").allTextContents()).toEqual([
      'search({"q":"x"})  = expected[0]',
      "log_event({})  besides the expected calls (the order allows it)",
    ]);
    expect(await passing.locator("table.diff tr.unexpected").count()).toBe(0);
    expect(await passing.locator("table.diff tr.allowed .tag.allowed").textContent()).toBe(
      "extra, allowed",
    );
    await expect
      .poll(() =>
        image.evaluate((node) => (node as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(40);
    mkdirSync(screenshots, { recursive: true });
    const shot = path.join(screenshots, "html-report.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });
});

describeInChromium("formatHtmlReport in Chromium: cases a judge could not tell", () => {
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    const [first, second] = sampleRecords();
    const [metric] = metricNames;
    const unsure: CaseRecord = {
      ...second,
      status: "not-evaluable",
      error: undefined,
      metrics: {
        [metric]: { status: "not-evaluable", reason: "the refund's tool output was cut off" },
      },
    };
    const records = [first, unsure];
    const file = path.join(directory, "not-evaluable.html");
    writeFileSync(
      file,
      formatHtmlReport({ summary: summaryOf(records), metrics: metricNames, records }),
    );
    browser = await launchChromium();
    page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`file://${file}`);
    await page.waitForSelector("body[data-ready=true]", { timeout: browserWaitMs });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("counts them apart, shows the judge's reason, and filters them", async () => {
    const cards = await page.locator(".card").allTextContents();
    expect(cards).toContain("1not evaluable");
    // Each metric's card counts them too.
    expect(await page.locator(".metric .figures").first().textContent()).toContain(
      "1 not evaluable",
    );
    const unsure = page.locator('details.case[data-status="not-evaluable"]');
    expect(await unsure.locator(".badge").textContent()).toBe("not-evaluable");
    expect(await unsure.locator("summary").textContent()).toContain(
      "not evaluable: the refund's tool output was cut off",
    );
    await page.selectOption("#filter-status", "not-evaluable");
    expect(await page.locator("details.case:not([hidden])").count()).toBe(1);
    await page.selectOption("#filter-status", "all");
    await page.selectOption("#filter-metric", metricNames[0]);
    expect(await page.locator("details.case:not([hidden])").count()).toBe(1);
  });
});
