/**
 * `toolscore view` over real HTTP on loopback, and in headless Chromium: the list of runs, a
 * run, a case, two runs compared, a run that updates in place while it is written, and every
 * request it must refuse. Screenshots go to test-results/.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { verdictMark } from "../reporters/html.js";
import type { RecordedGate } from "../core/gate.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserWaitMs,
  describeInChromium,
  launchChromium,
  openPage,
} from "../../test/support/chromium.js";
import { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
import { startViewer } from "./viewer.js";
import type { Viewer } from "./viewer.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "toolscore-view-"));
const screenshots = path.resolve("test-results");
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A refund case: right when the agent refunds `amount` of the 30 expected. */
const refund = (id: string, amount: number) => ({
  id,
  input: `Refund 30 EUR on order ${id}`,
  toolsCalled: [{ name: "refund_order", arguments: { order: id, amount } }],
  expectedTools: [{ name: "refund_order", arguments: { order: id, amount: 30 } }],
});

/**
 * Cases as `dataset.jsonl`, and a run of them into `file`; `limit` leaves it unfinished, `gate`
 * is the gate the run records.
 */
async function run(
  file: string,
  amounts: readonly number[],
  limit?: number,
  gate?: RecordedGate,
): Promise<void> {
  const dataset = path.join(folder, `${path.basename(file, ".jsonl")}.dataset.jsonl`);
  writeFileSync(
    dataset,
    amounts.map((amount, at) => JSON.stringify(refund(`order-${at + 1}`, amount))).join("\n"),
  );
  await evaluateToFile({
    dataset,
    metrics: [{ metric: "tool-call-accuracy" }],
    out: path.join(folder, file),
    resume: true,
    ...(limit === undefined ? {} : { limit }),
    ...(gate === undefined ? {} : { gate }),
  });
}

/** A GET (or another method) to the viewer, as any client sends it. */
function fetchRaw(
  url: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        headers: options.host === undefined ? {} : { host: options.host },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

/**
 * A viewer's events stream read until `until` matches what it said; `onOpen` runs once it is
 * open (to change a file the stream should tell of).
 */
function eventsUntil(url: string, until: RegExp, onOpen?: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(`${url}events`);
    const sent = request(
      { host: target.hostname, port: target.port, path: "/events" },
      (response) => {
        let said = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          said += chunk;
          if (until.test(said)) {
            response.destroy();
            resolve(said);
          }
        });
        onOpen?.();
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

let viewer: Viewer;
beforeAll(async () => {
  await run("baseline.jsonl", [30, 30, 300, 30]);
  await run("candidate.jsonl", [30, 300, 30, 30]);
  writeFileSync(path.join(folder, "notes.jsonl"), '{"not":"results"}\n');
  viewer = await startViewer({ paths: [folder], cwd: folder });
});
afterAll(async () => {
  await viewer.close();
});

describe("toolscore view over HTTP", () => {
  it("listens on loopback and lists the folder's runs with their summaries and gates", async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const list = await fetchRaw(viewer.url);
    expect(list.status).toBe(200);
    expect(list.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    expect(list.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(list.body).toContain('<a href="/runs/baseline">baseline</a>');
    expect(list.body).toContain('<a href="/runs/candidate">candidate</a>');
    expect(list.body).toContain(
      `${verdictMark(false)} gate: 1 of 4 cases failed; every case must pass (no fail_under): exit 1`,
    );
    // The compare form starts on two different runs: the newest, against the one before it.
    const chosen = (select: string) =>
      new RegExp(`id="${select}">.*?<option value="([^"]+)" selected>`).exec(list.body)?.[1];
    expect(chosen("compare-new")).toBeDefined();
    expect(chosen("compare-base")).toBeDefined();
    expect(chosen("compare-base")).not.toBe(chosen("compare-new"));
    // A .jsonl that is not a results file is not served.
    expect(list.body).not.toContain("notes");
    expect((await fetchRaw(`${viewer.url}runs/notes`)).status).toBe(404);
  });

  it("answers what it cannot serve with a 4xx, and goes on", async () => {
    expect((await fetchRaw(`${viewer.url}runs/nothing`)).status).toBe(404);
    expect((await fetchRaw(`${viewer.url}runs/%E0%A4%A`)).status).toBe(404);
    expect((await fetchRaw(`${viewer.url}..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetchRaw(`${viewer.url}runs/baseline/extra`)).status).toBe(404);
    expect((await fetchRaw(`${viewer.url}compare?base=baseline&new=nothing`)).status).toBe(404);
    const post = await fetchRaw(viewer.url, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    // Another site's name resolved to this address (DNS rebinding) is refused.
    expect((await fetchRaw(viewer.url, { host: "attacker.example:80" })).status).toBe(421);
    expect((await fetchRaw(`${viewer.url}runs/baseline`)).status).toBe(200);
  });

  it("shows a run as the HTML report does, and two runs compared with both reasons", async () => {
    const page = await fetchRaw(`${viewer.url}runs/candidate`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a id="home" href="/">← all runs</a>');
    expect(page.headers["content-security-policy"]).toContain("connect-src 'self'");
    const redirect = await fetchRaw(`${viewer.url}compare?base=baseline&new=candidate`);
    expect(redirect.status).toBe(303);
    expect(redirect.headers.location).toBe("/compare/baseline/candidate");
    const compared = await fetchRaw(`${viewer.url}compare/baseline/candidate`);
    expect(compared.body).toContain("Compared with baseline");
    // order-2 newly failed (300 refunded), order-3 newly passed: each with why, before and now.
    expect(compared.body).toContain("<th>why, before</th><th>why, now</th>");
    expect(compared.body).toMatch(
      /<td>order-2<\/td><td>newly failed<\/td>.*<td>passed<\/td><td>Tool Call Accuracy: called\[0\] refund_order: \$\.amount is 300, expected 30/,
    );
  });

  it("lists a run that began after it opened, whose file was empty when first seen", async () => {
    const later = path.join(folder, "later");
    mkdirSync(later);
    const seen = await startViewer({ paths: [later], cwd: folder });
    try {
      // The run's lock makes its file empty; the list reads it then, before any line is written.
      await eventsUntil(seen.url, /data: \*/, () => {
        writeFileSync(path.join(later, "fresh.jsonl"), "");
      });
      expect((await fetchRaw(seen.url)).body).toContain("No results files here yet");
      const finished = readFileSync(path.join(folder, "baseline.jsonl"));
      appendFileSync(path.join(later, "fresh.jsonl"), finished);
      await expect
        .poll(async () => (await fetchRaw(seen.url)).body.includes('href="/runs/fresh"'), {
          timeout: 60_000,
        })
        .toBe(true);
    } finally {
      await seen.close();
    }
  });

  it("tells open pages when a run's file changes, and a page made before a change it missed", async () => {
    // The count of changes a page was made at, in its live script's call.
    const generationOf = (body: string) => Number(/, (\d+)\);<\/script>/.exec(body)?.[1]);
    const made = generationOf((await fetchRaw(viewer.url)).body);
    expect(Number.isInteger(made)).toBe(true);
    // The stream is open: the file grows.
    const events = await eventsUntil(viewer.url, /data: candidate/, () => {
      setTimeout(() => {
        const text = readFileSync(path.join(folder, "candidate.jsonl"), "utf8");
        writeFileSync(path.join(folder, "candidate.jsonl"), text);
      }, 300);
    });
    expect(events).toContain("event: change\ndata: candidate\n\n");
    // A stream opened now says the count is past the page's: the page fetches itself again.
    const hello = await eventsUntil(viewer.url, /event: hello\ndata: \d+\n\n/);
    expect(Number(/event: hello\ndata: (\d+)/.exec(hello)?.[1])).toBeGreaterThan(made);
  });
});

describe("toolscore view: each run under its own gate, with when it ran (issue 49, item 4)", () => {
  it("states a run under the gate it recorded, not the folder's, unless told otherwise", async () => {
    const own = path.join(folder, "own-gates");
    mkdirSync(own);
    await run("own-gates/lenient.jsonl", [30, 30, 30, 300], undefined, {
      failUnder: 0.7,
      failUnderFrom: "ci.yaml",
    });
    await run("own-gates/strict.jsonl", [30, 30, 30, 300]);
    const header = (file: string) =>
      JSON.parse(readFileSync(file, "utf8").split("\n")[0]) as object;
    expect(header(path.join(own, "lenient.jsonl"))).toHaveProperty("gate", {
      failUnder: 0.7,
      failUnderFrom: "ci.yaml",
    });
    // A file from elsewhere whose gate makes no sense: stated under the current config's, said so.
    const made = readFileSync(path.join(own, "strict.jsonl"), "utf8").split("\n");
    made[0] = JSON.stringify({ ...header(path.join(own, "strict.jsonl")), gate: { failUnder: 7 } });
    writeFileSync(path.join(own, "made-up.jsonl"), made.join("\n"));
    const warnings: string[] = [];
    const current = { failUnder: 0.9, failUnderFrom: "toolscore.config.yaml" };
    const viewed = await startViewer({
      paths: [own],
      cwd: folder,
      gate: current,
      onWarning: (message) => warnings.push(message),
    });
    const overridden = await startViewer({
      paths: [own],
      cwd: folder,
      gate: current,
      gateOverRecorded: true,
    });
    try {
      const cell = (body: string, id: string) =>
        new RegExp(
          `data-run="${id}">.*?<td class="(?:pass|fail)">[^<]*<svg.*?</svg> ([^<]*)</td>`,
        ).exec(body)?.[1];
      const list = (await fetchRaw(viewed.url)).body;
      expect(cell(list, "lenient")).toBe("gate: 75% passed ≥ fail_under 70% (ci.yaml): exit 0");
      expect(cell(list, "strict")).toBe(
        "gate: 75% passed &lt; fail_under 90% (toolscore.config.yaml): exit 1",
      );
      expect(cell(list, "made-up")).toBe(
        "gate: 75% passed &lt; fail_under 90% (toolscore.config.yaml): exit 1",
      );
      expect(warnings).toEqual([
        "made-up: its results file records a gate that cannot be read (gate.failUnder is not a share from 0 to 1); the run is stated under the current config's gate",
      ]);
      // When it ran, in the list and on the run's page.
      expect(list).toMatch(
        /data-run="lenient"><td><a [^>]*>lenient<\/a><div class="when">ran \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC → [^<]*UTC<\/div>/,
      );
      const page = (await fetchRaw(`${viewed.url}runs/lenient`)).body;
      expect(page).toContain("gate: 75% passed ≥ fail_under 70% (ci.yaml): exit 0");
      expect(page).toMatch(/<div class="meta">dataset [^<]* · ran \d{4}-[^<]* UTC · generated /);
      // A config named to the viewer is the user's word for every run.
      const told = (await fetchRaw(overridden.url)).body;
      expect(cell(told, "lenient")).toBe(
        "gate: 75% passed &lt; fail_under 90% (toolscore.config.yaml): exit 1",
      );
    } finally {
      await viewed.close();
      await overridden.close();
    }
  });
});

describe("toolscore view over many runs (issue 48, item 8)", () => {
  it("lists the newest 50 a page, reading only the files a page shows, and pages through the rest", async () => {
    const many = path.join(folder, "many");
    mkdirSync(many);
    await run("many/first.jsonl", [30, 30]);
    const text = readFileSync(path.join(many, "first.jsonl"));
    // 120 runs, each a minute newer than the one before; a dataset and a file of notes beside them.
    for (let at = 0; at < 120; at++) {
      const file = path.join(many, `run-${String(at).padStart(3, "0")}.jsonl`);
      writeFileSync(file, text);
      utimesSync(file, new Date(2026, 0, 1, 0, at), new Date(2026, 0, 1, 0, at));
    }
    rmSync(path.join(many, "first.jsonl"));
    writeFileSync(path.join(many, "notes.jsonl"), '{"not":"results"}\n');
    utimesSync(path.join(many, "notes.jsonl"), new Date(2026, 0, 2), new Date(2026, 0, 2));
    const paged = await startViewer({ paths: [many], cwd: folder });
    try {
      const ids = (body: string) => [...body.matchAll(/data-run="([^"]+)"/g)].map((m) => m[1]);
      const first = await fetchRaw(paged.url);
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual(
        Array.from({ length: 50 }, (_, at) => `run-${String(119 - at).padStart(3, "0")}`),
      );
      expect(first.body).toContain("runs 1–50, newest first, of 121 .jsonl files here");
      expect(first.body).toContain('<a href="/?page=2" rel="next">older runs →</a>');
      const third = await fetchRaw(`${paged.url}?page=3`);
      expect(ids(third.body)).toEqual(
        Array.from({ length: 20 }, (_, at) => `run-${String(19 - at).padStart(3, "0")}`),
      );
      expect(third.body).toContain('<a href="/?page=2" rel="prev">← newer runs</a>');
      expect(third.body).not.toContain("older runs");
      expect((await fetchRaw(`${paged.url}?page=0`)).status).toBe(400);
      expect((await fetchRaw(`${paged.url}?page=x`)).status).toBe(400);
      // A file that is not results is never a run.
      expect((await fetchRaw(`${paged.url}runs/notes`)).status).toBe(404);
      expect((await fetchRaw(`${paged.url}runs/run-000`)).status).toBe(200);
    } finally {
      await paged.close();
    }
  });
});

describeInChromium("toolscore view in Chromium", () => {
  let browser: Browser | undefined;
  let page: Page;
  const blocked: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
    page.on("console", (message) => {
      if (message.type() === "error") blocked.push(message.text());
    });
    mkdirSync(screenshots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const shot = async (name: string) => {
    const file = path.join(screenshots, `view-${name}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    // A PNG of the page, drawn: the signature, the viewport's width, and more than a blank page.
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.length).toBeGreaterThan(20_000);
    return png;
  };

  it("lists the runs, opens one, a case in it, and two compared, loading nothing else", async () => {
    await page.goto(viewer.url);
    expect(await page.locator("table.runs tbody tr").count()).toBe(2);
    await shot("runs");
    await page.locator('a[href="/runs/candidate"]').click();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator("details.case").count()).toBe(4);
    await shot("run");
    const failing = page.locator('details.case[data-status="failed"]').first();
    await failing.locator("summary").click();
    expect(await failing.textContent()).toContain("$.amount");
    await shot("case");
    await page.locator("#home").click();
    await page.selectOption("#compare-base", "baseline");
    await page.selectOption("#compare-new", "candidate");
    await page.locator("form.compare button").click();
    await page.waitForSelector("#comparison");
    expect(page.url()).toBe(`${viewer.url}compare/baseline/candidate`);
    expect(await page.locator("#comparison").textContent()).toContain("newly failed");
    // The calls side by side: order-2's amount went 30 → 300, order-3's 300 → 30.
    const calls = page.locator("#calls");
    expect(await calls.textContent()).toContain(
      "2 of 4 cases part from the baseline: 2 regressions",
    );
    const first = calls.locator("tr.first").first();
    expect(await first.locator("td.expected").textContent()).toBe(
      '1. refund_order({"order":"order-2","amount":30})',
    );
    expect(await first.locator("td.actual").textContent()).toBe(
      '1. refund_order({"order":"order-2","amount":300}) parts here',
    );
    await shot("compare");
    expect(blocked).toEqual([]);
  });

  it("updates a run in place while it is written: no reload, filters kept", async () => {
    await run("live.jsonl", [30, 300, 30, 30, 300, 30], 2);
    await page.goto(viewer.url);
    await page.waitForSelector('a[href="/runs/live"]');
    await page.locator('a[href="/runs/live"]').click();
    await page.waitForSelector('html[data-live="true"]', { state: "attached" });
    expect(await page.locator("details.case").count()).toBe(2);
    await page.fill("#filter-text", "order");
    const before = await shot("live-before");
    // Marks this document: a reload would lose it.
    await page.evaluate(() => {
      (globalThis as unknown as { marked: boolean }).marked = true;
    });
    await run("live.jsonl", [30, 300, 30, 30, 300, 30]);
    await expect
      .poll(() => page.locator("details.case").count(), { timeout: browserWaitMs })
      .toBe(6);
    expect(await page.evaluate(() => (globalThis as unknown as { marked?: boolean }).marked)).toBe(
      true,
    );
    expect(await page.inputValue("#filter-text")).toBe("order");
    expect(await page.locator("#filter-count").textContent()).toBe("6 of 6 cases");
    expect(Number(await page.getAttribute("html", "data-updates"))).toBeGreaterThanOrEqual(1);
    const after = await shot("live-after");
    expect(after.equals(before)).toBe(false);
    expect(blocked).toEqual([]);
  });
});
