/**
 * The viewer's pages: the list of runs (static markup, every value escaped) and the script that
 * keeps a page in step with its files. A run's page is the HTML report itself (`htmlReportOf`).
 */
import { readFileSync } from "node:fs";
import { percent } from "../core/gate.js";
import type { GateVerdict } from "../core/gate.js";
import type { EvaluationSummary } from "../core/summary.js";
import { simulatorShare } from "../reporters/format.js";
import { reportStyle } from "../reporters/html-assets.js";
import { contentPolicy, pageHead, verdictMark } from "../reporters/html.js";
import { escapeXml } from "../reporters/junit.js";

const liveScript = readFileSync(new URL("./viewer-live.js", import.meta.url), "utf8");

/**
 * The live script of a page that shows these runs (`*`: the list of runs), made when the viewer
 * had announced `generation` changes: a page that connects later than a change it missed asks
 * for itself again.
 */
export function viewerScript(watched: readonly string[], generation: number): string {
  // `<` written as an escape: no run id can end the script element.
  // The file is one function expression (a formatter may end it with ";"): called here.
  const call = liveScript.trim().replace(/;$/, "");
  return `${call}(${JSON.stringify(watched).replace(/</g, "\\u003c")}, ${generation});`;
}

const listStyle = `
table.runs { border-collapse: collapse; width: 100%; margin: 1rem 0; }
table.runs th, table.runs td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid #ddd; }
table.runs td.fail { color: #b42318; }
table.runs td.pass { color: #067647; }
form.compare { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
nav a { font-size: 0.9rem; }
table.runs .when { font-size: 0.8rem; color: #555; }
`;

/** One row of the list: a run, and what its file says (or why it cannot be read). */
export interface ListedRun {
  readonly run: { readonly id: string; readonly file: string };
  readonly facts: {
    readonly summary?: EvaluationSummary;
    readonly dataset?: string;
    /** When the run happened (`formatRunTime`). */
    readonly ran?: string | undefined;
    readonly gate?: GateVerdict;
    readonly finished: boolean;
    readonly problem?: string;
  };
}

function row({ run, facts }: ListedRun): string {
  const link = `<a href="/runs/${encodeURIComponent(run.id)}">${escapeXml(run.id)}</a>${facts.ran === undefined ? "" : `<div class="when">${escapeXml(facts.ran)}</div>`}`;
  const { summary, gate } = facts;
  if (summary === undefined) {
    return `<tr data-run="${escapeXml(run.id)}"><td>${link}</td><td colspan="9">cannot be read: ${escapeXml(facts.problem ?? "")}</td><td>–</td></tr>`;
  }
  const repeats =
    summary.repeats === undefined
      ? "–"
      : `pass@k ${percent(summary.repeats.passAtK)}, pass^k ${percent(summary.repeats.passHatK)}, ${summary.repeats.flaky} flaky`;
  const cells = [
    escapeXml(facts.dataset ?? ""),
    String(summary.cases),
    String(summary.passed),
    String(summary.failed),
    String(summary.errors),
    `${summary.notEvaluable}${simulatorShare(summary)}`,
    summary.passRate === null ? "–" : percent(summary.passRate),
    escapeXml(repeats),
  ];
  const verdict =
    gate === undefined
      ? "<td>–</td>"
      : `<td class="${gate.passed ? "pass" : "fail"}">${verdictMark(gate.passed)} ${escapeXml(gate.text)}</td>`;
  const state = facts.finished ? "finished" : "in progress or stopped";
  return `<tr data-run="${escapeXml(run.id)}"><td>${link}</td>${cells.map((cell) => `<td>${cell}</td>`).join("")}${verdict}<td>${state}</td></tr>`;
}

/** Which runs of how many a list page shows. */
export interface ListPaging {
  /** 1-based. */
  readonly page: number;
  /** How many runs come before this page's first, newest first. */
  readonly first: number;
  /** Whether older runs follow on the next page. */
  readonly more: boolean;
  /** The `.jsonl` files looked at (results files and others). */
  readonly files: number;
}

/** What the header says of the runs shown: all of them, or which of a longer list. */
function shownRuns(count: number, paging: ListPaging): string {
  if (paging.page === 1 && !paging.more) return `${count} run${count === 1 ? "" : "s"}`;
  return `runs ${paging.first + 1}–${paging.first + count}, newest first, of ${paging.files} .jsonl files here`;
}

/** The links to the newer and older pages, when there are any. */
function pagingNav(paging: ListPaging): string {
  const links = [
    paging.page > 1 ? `<a href="/?page=${paging.page - 1}" rel="prev">← newer runs</a>` : "",
    paging.more ? `<a href="/?page=${paging.page + 1}" rel="next">older runs →</a>` : "",
  ].filter((link) => link !== "");
  return links.length === 0 ? "" : `<nav class="pages">${links.join(" · ")}</nav>`;
}

/** The list of runs, newest first, a page at a time, with a form to compare two of them. */
export function viewerPage(
  runs: readonly ListedRun[],
  paging: ListPaging = { page: 1, first: 0, more: false, files: runs.length },
  generation = 0,
): string {
  const script = viewerScript(["*"], generation);
  const style = `${reportStyle}${listStyle}`;
  const policy = contentPolicy({ scripts: [script], style, connect: true, forms: true });
  // Newest first: the new run is the newest, its baseline the one before it, never one run twice.
  const options = (selected: number) =>
    runs
      .map(
        ({ run }, at) =>
          `<option value="${escapeXml(run.id)}"${at === selected ? " selected" : ""}>${escapeXml(run.id)}</option>`,
      )
      .join("");
  const compare =
    runs.length < 2
      ? ""
      : `<form class="compare" method="get" action="/compare"><label>baseline <select name="base" id="compare-base">${options(1)}</select></label><label>new <select name="new" id="compare-new">${options(0)}</select></label><button type="submit">compare</button></form>`;
  return `${pageHead({ policy, title: "toolscore view", style, script })}
<body>
<header><h1>toolscore view</h1><div class="meta">${shownRuns(runs.length, paging)} · follows the files as they change</div></header>
<main>
${pagingNav(paging)}
${runs.length === 0 ? '<p class="notice">No results files here yet: run toolscore eval, and this page shows the run as it is written.</p>' : ""}
<table class="runs" aria-label="runs"><thead><tr><th>run</th><th>dataset</th><th>cases</th><th>passed</th><th>failed</th><th>errors</th><th>not evaluable</th><th>pass rate</th><th>repeated runs</th><th>gate</th><th>state</th></tr></thead>
<tbody>${runs.map(row).join("\n")}</tbody></table>
${pagingNav(paging)}
${compare}
</main>
</body>
</html>
`;
}
