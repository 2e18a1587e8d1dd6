import { createHash } from "node:crypto";
import type { GateVerdict } from "../core/gate.js";
import type { RunComparison } from "../core/comparison.js";
import type { RepeatSummary } from "../core/repeats.js";
import { repeatedCaseName, repeatsRows, repeatsVerdict } from "./repeats.js";
import { changedCases, comparisonVerdict, movedText } from "./comparison.js";
import { formatRate, formatRunTime } from "./format.js";
import type { CaseRecord } from "../core/case-record.js";
import type { EvaluationSummary } from "../core/summary.js";
import { reportScript, reportStyle } from "./html-assets.js";
import { escapeXml } from "./junit.js";
import type { AlignedCall, CaseDivergence, TrajectoryComparison } from "../core/trajectory-diff.js";
import {
  alignedCallText,
  casesToShow,
  differenceText,
  divergenceSummary,
  maxShownRows,
  noiseText,
} from "./divergence.js";

export interface HtmlReportOptions {
  readonly summary: EvaluationSummary;
  /** The run's metric names, in order. */
  readonly metrics: readonly string[];
  /**
   * The cases to show, in the order to show them. Image paths should already be inlined as
   * data URIs (the report is one file and loads nothing local); http(s) images load as links.
   */
  readonly records: readonly CaseRecord[];
  /** Cases in the run, when `records` holds only some of them. Default `records.length`. */
  readonly totalCases?: number;
  /** Default "toolscore report". */
  readonly title?: string;
  /** What was evaluated (the dataset), shown under the title. */
  readonly source?: string;
  /** When the report was made (ISO 8601). */
  readonly generatedAt?: string;
  /** When the run happened, from its results file (ISO 8601; no end: not finished). */
  readonly ran?: { readonly startedAt: string; readonly endedAt?: string | undefined };
  /**
   * A comparison with a baseline run, shown above the cases; with `reasons` (by case id), each
   * changed case shows why it scored as it did in both runs.
   */
  readonly comparison?: {
    readonly comparison: RunComparison;
    readonly baseline: string;
    readonly reasons?: ReadonlyMap<string, { readonly before?: string; readonly after?: string }>;
    /** The calls compared with the baseline's, when they were: each case side by side. */
    readonly calls?: TrajectoryComparison;
  };
  /** The run's verdict under its gate, shown above the summary. */
  readonly gate?: Pick<GateVerdict, "passed" | "text">;
  /**
   * Served by `toolscore view`: its script (allowed by hash, with requests to the page's own
   * origin, nowhere else) and the address of the list of runs, linked above the title.
   */
  readonly viewer?: { readonly script: string; readonly home: string };
}

/**
 * A page's head: its content-security policy, title, stylesheet and (for the viewer) a script,
 * the text of each escaped or allowed by hash. The report's and the viewer's pages share it.
 */
export function pageHead(input: {
  readonly policy: string;
  readonly title: string;
  readonly style: string;
  readonly script?: string | undefined;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeXml(input.policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeXml(input.title)}</title>
<style>${input.style}</style>
${input.script === undefined ? "" : `<script>${input.script}</script>\n`}</head>`;
}

/**
 * A verdict's mark drawn in SVG: a check or a cross that any machine shows, where an emoji (✅ ❌)
 * is a box without an emoji font.
 */
export function verdictMark(passed: boolean): string {
  const path = passed ? "M3 8.5l3.2 3.2L13 4.8" : "M4 4l8 8M12 4l-8 8";
  return `<svg class="mark" role="img" aria-label="${passed ? "passed" : "failed"}" viewBox="0 0 16 16" width="1em" height="1em"><path d="${path}" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
}

/**
 * A page's Content-Security-Policy: nothing but its own scripts and style, by hash, and images
 * embedded in it (opening it fetches nothing, internal addresses included); with `connect`,
 * requests to its own origin (the viewer's updates); with `forms`, forms sent to it.
 */
export function contentPolicy(input: {
  readonly scripts: readonly string[];
  readonly style: string;
  readonly connect?: boolean;
  readonly forms?: boolean;
}): string {
  return [
    "default-src 'none'",
    `script-src ${input.scripts.map((script) => `'sha256-${sha256(script)}'`).join(" ")}`,
    `style-src 'sha256-${sha256(input.style)}'`,
    "img-src data:",
    ...(input.connect === true ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    `form-action ${input.forms === true ? "'self'" : "'none'"}`,
  ].join("; ");
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

/**
 * JSON that can sit inside a `<script>` element: `<` is written `\u003c`, so no `</script>` or
 * `<!--` in the data can end or change the element, and U+2028/2029 are escaped for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Chooses the cases a capped report shows, as they stream by: errors and failures first (in
 * dataset order), then passes, at most `max`; `chosen()` returns them in dataset order.
 */
export function createCaseSelector<T extends Pick<CaseRecord, "status" | "index">>(max: number) {
  const problems: T[] = [];
  const passes: T[] = [];
  return {
    add(record: T): void {
      if (record.status === "passed") {
        if (passes.length < max) passes.push(record);
      } else if (problems.length < max) problems.push(record);
    },
    chosen(): T[] {
      return problems
        .concat(passes.slice(0, Math.max(0, max - problems.length)))
        .sort((a, b) => a.index - b.index);
    },
  };
}

/** {@link createCaseSelector} over a list. */
export function selectReportCases<T extends Pick<CaseRecord, "status" | "index">>(
  records: Iterable<T>,
  max: number,
): T[] {
  const selector = createCaseSelector<T>(max);
  for (const record of records) selector.add(record);
  return selector.chosen();
}

const two = (value: number | null) => (value === null ? "–" : value.toFixed(2));
const percent = (value: number | null) => (value === null ? "–" : formatRate(value));

/** The comparison with a baseline, as static markup (every text escaped): metrics, then cases. */
function comparisonSection({
  comparison,
  baseline,
  reasons,
}: NonNullable<HtmlReportOptions["comparison"]>): string {
  const metricRows = comparison.metrics
    .map(
      (metric) =>
        `<tr><td>${escapeXml(metric.name)}</td><td>${two(metric.meanBefore)}</td><td>${two(metric.meanAfter)}</td><td>${percent(metric.passRateBefore)}</td><td>${percent(metric.passRateAfter)}</td></tr>`,
    )
    .join("");
  const changeRows = changedCases(comparison)
    .slice(0, 200)
    .map(
      ({ kind, change }) =>
        `<tr><td>${escapeXml(change.id)}</td><td>${kind}</td><td>${escapeXml(movedText(change))}</td>${
          reasons === undefined
            ? ""
            : `<td>${escapeXml(reasons.get(change.id)?.before ?? "")}</td><td>${escapeXml(reasons.get(change.id)?.after ?? "")}</td>`
        }</tr>`,
    )
    .join("");
  const reasonHeads = reasons === undefined ? "" : "<th>why, before</th><th>why, now</th>";
  return `<section id="comparison" aria-label="comparison with a baseline">
<h2>Compared with ${escapeXml(baseline)}</h2>
<p>${escapeXml(comparisonVerdict(comparison))}</p>
<table class="diff"><thead><tr><th>metric</th><th>mean before</th><th>mean now</th><th>pass rate before</th><th>pass rate now</th></tr></thead><tbody>${metricRows}</tbody></table>
${changeRows === "" ? "" : `<table class="diff"><thead><tr><th>case</th><th>change</th><th>scores</th>${reasonHeads}</tr></thead><tbody>${changeRows}</tbody></table>`}
</section>`;
}

/** Cases shown side by side at most in the calls' section. */
const maxCallCases = 50;

/** One side of an aligned row: the call's place and text, or nothing. */
function alignedCell(call: AlignedCall | undefined, side: string, first: boolean): string {
  const text = call === undefined ? "" : escapeXml(`${call.call}. ${alignedCallText(call)}`);
  return `<td class="${side}">${text}${first ? " <mark>parts here</mark>" : ""}</td>`;
}

/** One case's calls beside the baseline's, the row where they part marked, then what followed. */
function divergenceBlock(divergence: CaseDivergence): string {
  const id = escapeXml(divergence.id);
  if (divergence.error !== undefined) {
    return `<div class="divergence"><h3>${id}</h3><p class="error-text">not compared: ${escapeXml(divergence.error)}</p></div>`;
  }
  const [first, ...rest] = divergence.places;
  const kind = divergence.regressions > 0 ? "parts from the baseline" : "noise only";
  const rows = (divergence.rows ?? [])
    .slice(0, maxShownRows)
    .map(
      (row) =>
        `<tr class="${row.kind}${row.first === true ? " first" : ""}"><td>${row.turn}</td>${alignedCell(row.baseline, "expected", false)}${alignedCell(row.current ?? undefined, "actual", row.first === true)}</tr>`,
    )
    .join("");
  const later = rest
    .slice(0, 10)
    .map(
      (at) =>
        `<li>${escapeXml(differenceText(at.difference))} (${escapeXml(noiseText(at, divergence))})</li>`,
    )
    .join("");
  return `<div class="divergence"><h3>${id}: ${kind}</h3>
<p>${escapeXml(differenceText(first.difference))} (${escapeXml(noiseText(first, divergence))})</p>
${rows === "" ? "" : `<table class="diff aligned"><thead><tr><th class="turn-col">turn</th><th>baseline</th><th>new run</th></tr></thead><tbody>${rows}</tbody></table>`}
${later === "" ? "" : `<ul class="later">${later}</ul>`}</div>`;
}

/** The calls compared with the baseline's, as static markup (every text escaped). */
function callsSection(calls: TrajectoryComparison): string {
  const cases = casesToShow(calls);
  const more =
    cases.length > maxCallCases
      ? `<p>The first ${maxCallCases} of ${cases.length} cases are shown.</p>`
      : "";
  return `<section id="calls" aria-label="calls compared with the baseline">
<h2>Calls compared with the baseline</h2>
<p>${escapeXml(divergenceSummary(calls))}</p>
${cases.slice(0, maxCallCases).map(divergenceBlock).join("\n")}${more}
</section>`;
}

/** Repeated runs as static markup (every text escaped): the figures at each k, then every case listed. */
function repeatsSection(repeats: RepeatSummary): string {
  const rows = repeatsRows(repeats)
    .map((row) => `<tr>${row.map((value) => `<td>${escapeXml(value)}</td>`).join("")}</tr>`)
    .join("");
  const cases = repeats.listed
    .map((item) => {
      const kind = item.passed === item.runs ? "passed" : item.passed === 0 ? "failed" : "flaky";
      return `<tr><td>${escapeXml(repeatedCaseName(item, repeats.by))}</td><td>${item.runs}</td><td>${item.passed}</td><td>${kind}</td></tr>`;
    })
    .join("");
  const more =
    repeats.cases > repeats.listed.length
      ? `<p>The first ${repeats.listed.length} of ${repeats.cases} cases are listed.</p>`
      : "";
  return `<section id="repeats" aria-label="repeated runs">
<h2>Repeated runs</h2>
<p>${escapeXml(repeatsVerdict(repeats))}</p>
<table class="diff"><thead><tr><th>k</th><th>cases</th><th>pass@k</th><th>pass^k</th></tr></thead><tbody>${rows}</tbody></table>
<table class="diff"><thead><tr><th>case</th><th>runs</th><th>passed</th><th>verdict</th></tr></thead><tbody>${cases}</tbody></table>
${more}
</section>`;
}

/**
 * The run as one self-contained HTML file: summary figures and a score histogram per metric, a
 * filterable list of cases, and for each case the expected and actual calls side by side with
 * missing, unexpected and out-of-order calls and mismatched arguments highlighted at their
 * paths, and its images. All data is embedded as JSON and rendered with `textContent`; a strict
 * Content-Security-Policy allows only the report's own script and style (by hash) and embedded
 * images (data URIs); an image given by URL is shown as a link the reader may follow.
 */
export function formatHtmlReport(options: HtmlReportOptions): string {
  const title = options.title ?? "toolscore report";
  const data = {
    title,
    summary: options.summary,
    metrics: options.metrics,
    records: options.records,
    shown: options.records.length,
    total: options.totalCases ?? options.records.length,
  };
  const { viewer } = options;
  const policy = contentPolicy({
    scripts: viewer === undefined ? [reportScript] : [reportScript, viewer.script],
    style: reportStyle,
    // The viewer asks its own server for updates; a report file asks nothing of anyone.
    connect: viewer !== undefined,
  });
  const meta = [
    options.source === undefined ? undefined : `dataset ${options.source}`,
    options.ran === undefined
      ? undefined
      : formatRunTime(options.ran.startedAt, options.ran.endedAt),
    options.generatedAt === undefined ? undefined : `generated ${options.generatedAt}`,
    "toolscore",
  ]
    .filter((part) => part !== undefined)
    .join(" · ");
  return `${pageHead({ policy, title, style: reportStyle, script: viewer?.script })}
<body>
<header>${viewer === undefined ? "" : `<nav><a id="home" href="${escapeXml(viewer.home)}">← all runs</a></nav>`}<h1>${escapeXml(title)}</h1><div class="meta">${escapeXml(meta)}</div></header>
<main>
${options.gate === undefined ? "" : `<p id="gate" class="gate ${options.gate.passed ? "pass" : "fail"}">${verdictMark(options.gate.passed)} ${escapeXml(options.gate.text)}</p>`}
<section id="summary" aria-label="summary"></section>
${options.comparison === undefined ? "" : comparisonSection(options.comparison)}
${options.comparison?.calls === undefined ? "" : callsSection(options.comparison.calls)}
${options.summary.repeats === undefined ? "" : repeatsSection(options.summary.repeats)}
<div id="truncated"></div>
<div class="filters" role="search">
<input id="filter-text" type="search" placeholder="Filter by case id, tool name or reason" aria-label="filter cases">
<select id="filter-status" aria-label="status"><option value="all">all statuses</option><option value="passed">passed</option><option value="failed">failed</option><option value="error">error</option><option value="not-evaluable">not evaluable</option></select>
<select id="filter-metric" aria-label="metric"><option value="">any metric</option></select>
<select id="filter-order" aria-label="order"><option value="failures">failures first</option><option value="dataset">dataset order</option></select>
<span id="filter-count" class="count"></span>
</div>
<section id="cases" class="cases" aria-label="cases"></section>
</main>
<script type="application/json" id="toolscore-data">${scriptSafeJson(data)}</script>
<script>${reportScript}</script>
</body>
</html>
`;
}
