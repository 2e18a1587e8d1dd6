/**
 * `toolscore view`: a local web app over results files, on Node's own HTTP server. It lists the
 * runs it was given (or those of a folder) with their summaries and gates, shows a run as the HTML
 * report shows it, two runs compared, and follows a run while an eval writes it: pages update in
 * place when a file changes. It serves only those files, on a loopback address by default, under
 * the report's content-security rules, and answers what it cannot serve with a 4xx.
 */
import { watch } from "node:fs";
import type { FSWatcher } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gateVerdict, readRecordedGate } from "../core/gate.js";
import type { RecordedGate } from "../core/gate.js";
import type { CaseRecord } from "../core/case-record.js";
import { isResultsHead } from "../adapters/detect-format.js";
import { fileHead } from "../node/recordings.js";
import { readRecords, scanResults } from "../node/results-file.js";
import {
  compareResults,
  datasetPath,
  htmlReportOf,
  summarizeResults,
} from "../reports/results-reports.js";
import { formatRunTime } from "../reporters/format.js";
import { compareTrajectories } from "../reports/trajectory-comparison.js";
import type { CompareTrajectoriesOptions } from "../reports/trajectory-comparison.js";
import { viewerPage, viewerScript } from "./pages.js";
import type { ListedRun } from "./pages.js";

export interface ViewerOptions {
  /** Results files to serve, or folders whose results files (`*.jsonl`) are served. */
  readonly paths: readonly string[];
  /** Where datasets named by the runs are looked for first (as `toolscore report` does). */
  readonly cwd: string;
  /** Default 127.0.0.1: only this machine reaches it. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /**
   * The gate a run's verdict is stated under when its results file recorded none (files written
   * before runs recorded theirs): the current config's, as `report` takes it.
   */
  readonly gate?: RecordedGate;
  /** State every run under `gate`, not under the gate the run recorded (a config named to `view`). */
  readonly gateOverRecorded?: boolean;
  /** Most cases a run's page shows, failures first. Default 2000. */
  readonly maxCases?: number;
  /** Warnings about what a page could not show (a dataset gone since the run). */
  readonly onWarning?: (message: string) => void;
  /** How two runs' calls are compared on the compare page (see `compareTrajectories`). */
  readonly calls?: Pick<CompareTrajectoriesOptions, "diff" | "flakyRate">;
}

export interface Viewer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  close(): Promise<void>;
}

/** A run the viewer serves: its id in addresses, and its file. */
interface Run {
  readonly id: string;
  readonly file: string;
}

/** What the list of runs shows of one, kept until its file changes (its size and time). */
type RunFacts = ListedRun["facts"] & { readonly key: string };

/** Ids made from file names: `results` from `results.jsonl`, `results-2` for a second one. */
function idsFor(files: readonly string[]): Run[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const base =
      path
        .basename(file)
        .replace(/\.jsonl$/i, "")
        .replace(/[^\w.-]/g, "_") || "run";
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return { id, file };
  });
}

/** A `.jsonl` file the viewer may serve, with what tells it changed. */
interface Candidate {
  readonly file: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/**
 * The `.jsonl` files the paths name, newest first: files as given (each checked to be results),
 * and each folder's `*.jsonl` (told to be results only when shown, by their first line).
 */
async function candidatesOf(paths: readonly string[]): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const given of paths) {
    const info = await stat(given);
    if (info.isDirectory()) {
      const names = (await readdir(given)).filter((name) => name.endsWith(".jsonl")).sort();
      for (const name of names) {
        const file = path.join(given, name);
        const entry = await stat(file).catch(() => undefined);
        if (entry?.isFile() === true)
          found.push({ file, mtimeMs: entry.mtimeMs, size: entry.size });
      }
    } else {
      const head = await fileHead(given);
      if (head === undefined || !isResultsHead(head)) {
        throw new Error(`${given} is not a toolscore results file (the .jsonl that eval writes)`);
      }
      found.push({ file: given, mtimeMs: info.mtimeMs, size: info.size });
    }
  }
  return found;
}

/** Runs a list page shows at most. */
export const runsPerPage = 50;

/** A case's reason in one line: what each metric that did not pass said. */
function reasonOf(record: CaseRecord): string {
  if (record.status === "passed") return "passed";
  const reasons = Object.entries(record.metrics).flatMap(([name, entry]) =>
    entry.status === "error"
      ? [`${name}: ${entry.error.message}`]
      : entry.status === "not-evaluable" || (entry.status === "scored" && !entry.success)
        ? [`${name}: ${entry.reason ?? ""}`]
        : [],
  );
  return record.error?.message ?? reasons.join("; ");
}

/** Each wanted case's reason in a results file, by id (its first run). */
async function reasonsIn(file: string, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  if (ids.size === 0) return reasons;
  const scan = await scanResults(file);
  for await (const record of readRecords(file, scan)) {
    if (ids.has(record.id) && !reasons.has(record.id)) reasons.set(record.id, reasonOf(record));
  }
  return reasons;
}

/**
 * The runs served: the `.jsonl` files of the paths, found again when a folder changes (read by
 * its entries' sizes and times; a file's first line only when a page shows it, once until it
 * changes), and followed by watching their folders, never by polling each file.
 */
async function createRunList(paths: readonly string[], announce: (id: string) => void) {
  const folders: string[] = [];
  for (const given of paths) if ((await stat(given)).isDirectory()) folders.push(given);
  /** Whether each file is a results file, by the size and time it had when its head was read. */
  const heads = new Map<string, { key: string; results: boolean }>();
  let candidates: Candidate[] = [];
  let runs: Run[] = [];
  let byFile = new Map<string, Run>();
  const take = (found: Candidate[]) => {
    candidates = found;
    // Ids from every candidate, in the order given: a file keeps its id while the others change.
    runs = idsFor(found.map((entry) => entry.file));
    byFile = new Map(runs.map((run) => [path.resolve(run.file), run]));
  };
  take(await candidatesOf(paths));
  const isResults = async (entry: Candidate): Promise<boolean> => {
    // Its size and time now, not when the folder was read: a run's file is empty at first (its
    // lock makes it) and grows by appends, which read no folder again.
    const info = await stat(entry.file).catch(() => undefined);
    if (info === undefined) return false;
    const key = `${info.size}:${info.mtimeMs}`;
    const known = heads.get(entry.file);
    if (known?.key === key) return known.results;
    const head = await fileHead(entry.file);
    const results = head !== undefined && isResultsHead(head);
    heads.set(entry.file, { key, results });
    return results;
  };
  let rescanning: Promise<void> | undefined;
  // Changes seen, counted: one seen while the folders are being read has them read once more.
  let changes = 0;
  const rescan = (): Promise<void> => {
    changes++;
    if (rescanning !== undefined) return rescanning;
    rescanning = (async () => {
      let read: number;
      do {
        read = changes;
        try {
          const next = await candidatesOf(paths);
          const changed =
            next.map((entry) => entry.file).join("\n") !==
            candidates.map((entry) => entry.file).join("\n");
          take(next);
          if (changed) announce("*");
        } catch {
          // A folder mid-change: the next event reads it again.
        }
      } while (read !== changes);
      rescanning = undefined;
    })();
    return rescanning;
  };
  // The folders of the runs (a folder given, or a file's own): an append to a file, a new file.
  const watchedFolders = new Set([
    ...folders.map((folder) => path.resolve(folder)),
    ...paths
      .filter((given) => !folders.includes(given))
      .map((file) => path.dirname(path.resolve(file))),
  ]);
  const watchers: FSWatcher[] = [...watchedFolders].map((folder) =>
    watch(folder, (event, name) => {
      const run = name === null ? undefined : byFile.get(path.join(folder, name));
      if (run !== undefined) {
        announce(run.id);
        announce("*");
      }
      // A file made, removed or renamed in a folder given: the list is read again (an append to
      // a run it has is only announced).
      const listed = folders.some((given) => path.resolve(given) === folder);
      if (listed && (event === "rename" || run === undefined)) void rescan();
    }),
  );
  return {
    /** The results files among the candidates, newest first, `runsPerPage` from `first`. */
    async page(first: number): Promise<{ runs: Run[]; more: boolean; files: number }> {
      const ordered = candidates
        .map((entry, at) => ({ entry, run: runs[at] }))
        .sort((a, b) => b.entry.mtimeMs - a.entry.mtimeMs || a.run.id.localeCompare(b.run.id));
      const shown: Run[] = [];
      let seen = 0;
      for (const { entry, run } of ordered) {
        if (!(await isResults(entry))) continue;
        if (seen++ < first) continue;
        if (shown.length === runsPerPage)
          return { runs: shown, more: true, files: candidates.length };
        shown.push(run);
      }
      return { runs: shown, more: false, files: candidates.length };
    },
    /** The run of an id, when its file is a results file. */
    async runOf(id: string): Promise<Run | undefined> {
      const at = runs.findIndex((run) => run.id === id);
      if (at === -1) return undefined;
      return (await isResults(candidates[at])) ? runs[at] : undefined;
    },
    close() {
      for (const watcher of watchers) watcher.close();
    },
  };
}

type RunList = Awaited<ReturnType<typeof createRunList>>;

/** The viewer's pages: the list of runs (each run's figures kept until its file changes), a run. */
function createPages(options: ViewerOptions, list: RunList, generation: () => number) {
  const facts = new Map<string, RunFacts>();
  const fallback = options.gate ?? {};
  const warned = new Set<string>();
  /** The gate a run is stated under: the one it ran with, as its file recorded it. */
  const gateOf = (run: Run, recorded: unknown): RecordedGate => {
    if (options.gateOverRecorded === true || recorded === undefined) return fallback;
    const read = readRecordedGate(recorded);
    if (!("problem" in read)) return read;
    if (!warned.has(run.file)) {
      warned.add(run.file);
      options.onWarning?.(
        `${run.id}: its results file records a gate that cannot be read (${read.problem}); the run is stated under the current config's gate`,
      );
    }
    return fallback;
  };
  /** What the list shows of a run: read again only when its file changed. */
  const factsOf = async (run: Run): Promise<RunFacts> => {
    const key = await stat(run.file)
      .then((info) => `${info.size}:${info.mtimeMs}`)
      .catch(() => "gone");
    const known = facts.get(run.id);
    if (known?.key === key) return known;
    let fresh: RunFacts;
    try {
      const { summary, dataset, gate, startedAt, endedAt } = await summarizeResults(run.file);
      fresh = {
        key,
        summary,
        dataset,
        ran: formatRunTime(startedAt, endedAt),
        gate: gateVerdict(summary, gateOf(run, gate)),
        finished: !summary.aborted,
      };
    } catch (error) {
      fresh = {
        key,
        finished: false,
        problem: error instanceof Error ? error.message : String(error),
      };
    }
    facts.set(run.id, fresh);
    return fresh;
  };
  /** The comparison of two runs, with why each changed case scored as it did in both. */
  const comparisonOf = async (run: Run, against: Run) => {
    const compared = await compareResults(against.file, run.file);
    const ids = new Set(
      [
        ...compared.newlyFailed,
        ...compared.newlyErrored,
        ...compared.newlyPassed,
        ...compared.scoreDropped,
        ...compared.scoreRose,
      ].map((change) => change.id),
    );
    const [before, after] = await Promise.all([
      reasonsIn(against.file, ids),
      reasonsIn(run.file, ids),
    ]);
    const reasons = new Map(
      [...ids].map((id) => [id, { before: before.get(id) ?? "", after: after.get(id) ?? "" }]),
    );
    const calls = await compareTrajectories({
      baseline: against.file,
      current: run.file,
      cwd: options.cwd,
      ...options.calls,
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
    return { comparison: compared, baseline: against.id, reasons, calls };
  };
  return {
    async list(page: number): Promise<string> {
      // The count before the files are read: a change while they are, the page asks again.
      const made = generation();
      const first = (page - 1) * runsPerPage;
      const shown = await list.page(first);
      const rows = await Promise.all(
        shown.runs.map(async (run) => ({ run, facts: await factsOf(run) })),
      );
      return viewerPage(rows, { page, first, more: shown.more, files: shown.files }, made);
    },
    /** A run as the HTML report shows it, compared with another when `against` is given. */
    async run(run: Run, against?: Run): Promise<string> {
      const made = generation();
      const { summary, metrics, dataset, gate } = await summarizeResults(run.file);
      const comparison = against === undefined ? undefined : await comparisonOf(run, against);
      return htmlReportOf({
        results: run.file,
        summary,
        metrics,
        dataset: datasetPath(dataset, run.file, options.cwd),
        source:
          against === undefined ? `${run.id} (${dataset})` : `${run.id} against ${against.id}`,
        gate: gateVerdict(summary, gateOf(run, gate)),
        ...(options.maxCases === undefined ? {} : { maxCases: options.maxCases }),
        ...(comparison === undefined ? {} : { comparison }),
        viewer: {
          script: viewerScript(against === undefined ? [run.id] : [run.id, against.id], made),
          home: "/",
        },
        onWarning: options.onWarning ?? (() => undefined),
      });
    },
  };
}

/** Writes a response with the headers every answer of the viewer has. */
function send(
  response: ServerResponse,
  status: number,
  body: string,
  page?: { readonly policy: string },
): void {
  response.writeHead(status, {
    "content-type": page === undefined ? "text/plain; charset=utf-8" : "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": page?.policy ?? "default-src 'none'; frame-ancestors 'none'",
  });
  response.end(body);
}

/** A page as an answer: its own policy, from its meta tag, with frames refused. */
function sendPage(response: ServerResponse, page: string): void {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1];
  const policy = `${(meta ?? "default-src 'none'").replace(/&#39;|&apos;/g, "'")}; frame-ancestors 'none'`;
  send(response, 200, page, { policy });
}

/** The path's parts, decoded; one that cannot be decoded becomes a part no route has. */
function partsOf(pathname: string): string[] {
  return pathname
    .split("/")
    .slice(1)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return "\u0000";
      }
    });
}

/** Answers one request: the routes, and a 4xx for anything else. */
function createRouter(input: {
  readonly host: string;
  readonly list: RunList;
  readonly pages: ReturnType<typeof createPages>;
  readonly clients: Set<ServerResponse>;
  /** Changes announced so far, said to a page when its events stream opens. */
  readonly generation: () => number;
}) {
  const { host, list, pages, clients } = input;
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.setHeader("allow", "GET, HEAD");
      send(response, 405, "toolscore view only reads: GET\n");
      return;
    }
    // A page of another site that resolves its name to this address is not served (DNS rebinding).
    const hostName = (request.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
    if (!["127.0.0.1", "localhost", "::1", host].includes(hostName)) {
      send(response, 421, `toolscore view answers requests for ${host} only\n`);
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? "/", "http://viewer");
    } catch {
      send(response, 400, "a malformed address\n");
      return;
    }
    const parts = partsOf(url.pathname);
    if (url.pathname === "/") {
      const asked = url.searchParams.get("page") ?? "1";
      const page = /^[1-9][0-9]{0,6}$/.test(asked) ? Number(asked) : undefined;
      if (page === undefined) send(response, 400, "page must be a page number: /?page=2\n");
      else sendPage(response, await pages.list(page));
    } else if (url.pathname === "/events") {
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
        "x-content-type-options": "nosniff",
      });
      response.write(`retry: 1000\n\nevent: hello\ndata: ${input.generation()}\n\n`);
      clients.add(response);
      request.on("close", () => clients.delete(response));
    } else if (url.pathname === "/compare") {
      const base = url.searchParams.get("base") ?? "";
      const next = url.searchParams.get("new") ?? "";
      if ((await list.runOf(base)) === undefined || (await list.runOf(next)) === undefined) {
        send(response, 404, "compare needs two runs of the list: /compare?base=<run>&new=<run>\n");
        return;
      }
      response.writeHead(303, {
        location: `/compare/${encodeURIComponent(base)}/${encodeURIComponent(next)}`,
        "cache-control": "no-store",
      });
      response.end();
    } else if (parts[0] === "runs" && parts.length === 2) {
      const run = await list.runOf(parts[1]);
      if (run === undefined) send(response, 404, `no run ${JSON.stringify(parts[1])} here\n`);
      else sendPage(response, await pages.run(run));
    } else if (parts[0] === "compare" && parts.length === 3) {
      const base = await list.runOf(parts[1]);
      const next = await list.runOf(parts[2]);
      if (base === undefined || next === undefined)
        send(response, 404, "compare needs two runs of the list\n");
      else sendPage(response, await pages.run(next, base));
    } else {
      send(response, 404, "not found\n");
    }
  };
}

/** Starts the viewer; resolves once it listens. */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const host = options.host ?? "127.0.0.1";
  const clients = new Set<ServerResponse>();
  // Changes announced so far: a page made at an earlier count missed one (see `viewerScript`).
  const changes = { generation: 0 };
  /** Tells every open page that a run changed (or `*`: the list itself). */
  const announce = (id: string) => {
    changes.generation++;
    for (const client of clients) client.write(`event: change\ndata: ${id}\n\n`);
  };
  const list = await createRunList(options.paths, announce);
  const handle = createRouter({
    host,
    list,
    pages: createPages(options, list, () => changes.generation),
    clients,
    generation: () => changes.generation,
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A file mid-write or gone: the page says so; the server goes on.
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) send(response, 503, `cannot show it now: ${message}\n`);
      else response.end();
    });
  });
  // Events streams stay open: a heartbeat keeps them from being timed out along the way.
  const heartbeat = setInterval(() => {
    for (const client of clients) client.write(": alive\n\n");
  }, 15_000);
  heartbeat.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    async close() {
      clearInterval(heartbeat);
      list.close();
      for (const client of clients) client.end();
      clients.clear();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
