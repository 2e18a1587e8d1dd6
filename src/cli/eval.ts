import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { DatasetCase } from "../adapters/dataset-case.js";
import { DatasetParseError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import { datasetFingerprint, datasetFormatOf, readDataset } from "../node/dataset.js";
import type { DatasetEntry } from "../node/dataset.js";
import { createFileJudgeCache } from "../node/file-judge-cache.js";
import type { ResultsHeader } from "../node/results-file.js";
import { concludeRun, openResultsRun } from "../node/results-run.js";
import { createJudgeSession } from "../providers/judge-session.js";
import type { JudgeSession } from "../providers/judge-session.js";
import { resolveJudgeModel } from "../providers/registry.js";
import { formatConsoleSummary } from "../reporters/console.js";
import { evaluate } from "../runner/evaluate.js";
import { caseContentOf, metricResultsOf, toCaseRecord } from "../runner/record.js";
import type { CaseContent } from "../runner/record.js";

type CaseSource = { readonly offset: number; readonly bytes: number };
import { createSummaryBuilder } from "../runner/summary.js";
import { applySetting, configHash, findConfigFile, readConfigFile } from "./config.js";
import type { EvalConfig, MetricConfig } from "./config.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { cliMetrics, createMetrics, defaultMetrics, needsJudge } from "./metrics.js";
import { describeEntry, errorSummary } from "./batch.js";
import { runInWorkers } from "./parallel.js";
import { createProgress } from "./progress.js";
import { writeReports } from "./reports.js";

export const evalHelp = `Usage: toolscore eval <dataset> [options]

Scores every case of a dataset (.jsonl, .json, .yaml) and writes one JSON line per finished
case to the results file, at once, so a stopped run can be resumed.

Metrics and options
  -m, --metric <id>         a metric to run (repeatable); default tool-call-accuracy
      --set <id.opt=value>  set a metric option (repeatable), e.g. --set tool-call-accuracy.order=strict
  -c, --config <file>       toolscore.config.json / .yaml (default: one in the current folder)
      --threshold <0..1>    passing score of every metric that sets none
      --judge <model>       the judge of judged metrics, e.g. openai/gpt-4o-mini
      --normalize-names     strip random suffixes from tool names read from transcripts
      --concurrency <n>     cases in flight at once (default 8)
      --workers <n>         worker threads for deterministic metrics on JSONL (default: 2 for
                            datasets of 16 MiB or more, none on 1 core; each adds about 40 MB)

Results and reports
  -o, --out <file>          results file (default toolscore-results.jsonl)
      --resume              skip cases the results file already holds
      --retry-errors        with --resume, run again the cases that ended in an error
      --overwrite           start over even if the results file holds an unfinished run
      --report <file.html>  single-file HTML report
      --junit <file.xml>    JUnit XML, one test per case and metric
      --markdown <file.md>  Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)
      --details <failed|all>
                            which cases keep their alignment in the results file: the failed
                            ones (default; a passing case read from a JSONL line keeps its score
                            and reason, and reports compute its alignment again) or all
      --shard <i/n>         run only cases whose position mod n is i-1 (merge them with merge)
      --fail-under <0..1>   pass when at least this share of cases passes (default: all)
  -h, --help

Exit codes: 0 passed, 1 some case failed, 2 usage or configuration error, 3 runtime error
(a case could not be read or scored), 130/143 interrupted (finished cases are kept).

Metrics: ${cliMetrics.map((metric) => metric.id).join(", ")}
`;

/** Datasets this large are scored in worker threads by default. */
const parallelFromBytes = 16 << 20;

function numberFlag(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < min || number > max) {
    throw usageError(
      `--${name} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      `--${name}`,
    );
  }
  return number;
}

function shardOf(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match === null ? NaN : Number(match[1]);
  const count = match === null ? NaN : Number(match[2]);
  if (!(count >= 1 && index >= 1 && index <= count)) {
    throw usageError(
      `--shard takes i/n with 1 <= i <= n (e.g. --shard 2/4), got ${JSON.stringify(value)}`,
      "--shard",
    );
  }
  return { index: index - 1, count };
}

/** Runs `toolscore eval`; resolves to the exit code. */
export async function evalCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      metric: { type: "string", short: "m", multiple: true },
      set: { type: "string", multiple: true },
      config: { type: "string", short: "c" },
      threshold: { type: "string" },
      judge: { type: "string" },
      "normalize-names": { type: "boolean" },
      concurrency: { type: "string" },
      workers: { type: "string" },
      out: { type: "string", short: "o" },
      resume: { type: "boolean" },
      "retry-errors": { type: "boolean" },
      overwrite: { type: "boolean" },
      report: { type: "string" },
      junit: { type: "string" },
      markdown: { type: "string" },
      shard: { type: "string" },
      details: { type: "string" },
      "fail-under": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(evalHelp);
    return ExitCode.OK;
  }
  if (positionals.length !== 1) {
    throw usageError(
      positionals.length === 0
        ? "eval needs a dataset: toolscore eval runs.jsonl (see toolscore eval --help)"
        : `eval takes one dataset, got ${positionals.length}: ${positionals.join(" ")}`,
    );
  }
  if (values.resume === true && values.overwrite === true) {
    throw usageError("--resume and --overwrite contradict each other; choose one");
  }
  if (values["retry-errors"] === true && values.resume !== true) {
    throw usageError(
      "--retry-errors goes with --resume (it re-runs the errored cases of a results file)",
    );
  }
  const resolve = (file: string) => path.resolve(io.cwd, file);
  const datasetArgument = positionals[0];
  const dataset = resolve(datasetArgument);
  const configFile = values.config === undefined ? findConfigFile(io.cwd) : resolve(values.config);
  const config: EvalConfig =
    configFile === undefined ? { metrics: [] } : readConfigFile(configFile);
  if (configFile !== undefined && values.config === undefined) {
    io.stderr.write(`toolscore: using ${path.relative(io.cwd, configFile)}\n`);
  }

  let metricConfigs: MetricConfig[];
  if (values.metric !== undefined && values.metric.length > 0) {
    metricConfigs = values.metric.map((id) => ({
      metric: id,
      options: config.metrics.find((item) => item.metric === id)?.options ?? {},
    }));
  } else metricConfigs = config.metrics.length > 0 ? [...config.metrics] : [...defaultMetrics];
  for (const setting of values.set ?? []) metricConfigs = applySetting(metricConfigs, setting);
  const threshold = numberFlag("threshold", values.threshold, 0, 1) ?? config.threshold;
  const failUnder = numberFlag("fail-under", values["fail-under"], 0, 1) ?? config.failUnder;
  const concurrency =
    numberFlag("concurrency", values.concurrency, 1, 10_000) ?? config.concurrency;
  if (concurrency !== undefined && !Number.isInteger(concurrency)) {
    throw usageError("--concurrency must be a whole number", "--concurrency");
  }
  const normalizeNames = values["normalize-names"] === true || config.normalizeNames === true;
  const shard = shardOf(values.shard);
  const details = values.details ?? config.details ?? "failed";
  if (details !== "failed" && details !== "all") {
    throw usageError(`--details takes failed or all, got ${JSON.stringify(details)}`, "--details");
  }
  const out =
    values.out === undefined
      ? (config.out ?? resolve("toolscore-results.jsonl"))
      : resolve(values.out);
  const reports = {
    report: values.report === undefined ? config.report : resolve(values.report),
    junit: values.junit === undefined ? config.junit : resolve(values.junit),
    markdown: values.markdown === undefined ? config.markdown : resolve(values.markdown),
  };

  if (!existsSync(dataset) || !statSync(dataset).isFile()) {
    throw usageError(`no dataset at ${datasetArgument} (looked in ${io.cwd})`, "dataset");
  }
  const datasetDirectory = path.dirname(dataset);

  let session: JudgeSession | undefined;
  const judgeSpec = values.judge ?? config.judge?.model;
  if (needsJudge(metricConfigs) && judgeSpec === undefined) {
    const judged = metricConfigs.filter(
      (item) => cliMetrics.find((m) => m.id === item.metric)?.judged === true,
    );
    throw usageError(
      `${judged.map((item) => item.metric).join(", ")} needs a judge: add --judge openai/gpt-4o-mini (or judge: in the config)`,
      "--judge",
    );
  }
  const judgeModel = (): JudgeModel => {
    if (session === undefined) {
      const model = resolveJudgeModel(judgeSpec ?? "", {
        env: io.env,
        ...(config.judge?.baseURL === undefined ? {} : { baseURL: config.judge.baseURL }),
      });
      const cacheDirectory =
        config.judge?.cache === false
          ? undefined
          : resolve(config.judge?.cache ?? ".toolscore/judge-cache");
      session = createJudgeSession(model, {
        ...(config.judge?.concurrency === undefined
          ? {}
          : { concurrency: config.judge.concurrency }),
        ...(config.judge?.requestsPerMinute === undefined
          ? {}
          : { requestsPerMinute: config.judge.requestsPerMinute }),
        ...(cacheDirectory === undefined ? {} : { cache: createFileJudgeCache(cacheDirectory) }),
      });
    }
    return session.model;
  };
  const metrics = createMetrics(metricConfigs, { judge: judgeModel, datasetDirectory }, threshold);
  const names = metrics.map((metric) => metric.name);
  const duplicate = names.find((name, at) => names.indexOf(name) !== at);
  if (duplicate !== undefined) {
    throw usageError(
      `two metrics are named ${JSON.stringify(duplicate)}; give one a name option`,
      "metric",
    );
  }

  // Each metric's options with the run's threshold: what its results depend on.
  const configured = metricConfigs.map((item) => ({
    metric: item.metric,
    options:
      threshold === undefined || "threshold" in item.options
        ? item.options
        : { ...item.options, threshold },
  }));
  // Passing cases of these metrics keep no details when their line can be read again.
  const passingWithoutDetails = new Set(
    details === "all" ? [] : names.filter((_, at) => !needsJudge([metricConfigs[at]])),
  );
  const header: ResultsHeader = {
    toolscore: "results",
    version: 1,
    dataset: datasetArgument,
    fingerprint: await datasetFingerprint(dataset),
    config: configHash({ metrics: configured, normalizeNames }),
    metrics: names,
    metricConfigs: configured,
    ...(normalizeNames ? { normalizeNames } : {}),
    ...(shard === undefined ? {} : { shard }),
    startedAt: new Date().toISOString(),
  };

  // What the results file already holds.
  const run = await openResultsRun({
    file: out,
    header,
    resume: values.resume === true,
    overwrite: values.overwrite === true,
    retryErrors: values["retry-errors"] === true,
    wording: {
      file: path.relative(io.cwd, out),
      resume: "--resume",
      overwrite: "--overwrite",
      out: "--out",
    },
  });
  const { previous, done, writer } = run;
  const builder = createSummaryBuilder(names);
  let carried = 0;
  for await (const record of run.carried()) {
    builder.add({ id: record.id, status: record.status, results: metricResultsOf(record) });
    carried++;
  }

  const progress = createProgress({
    stream: io.stderr,
    totalBytes: statSync(dataset).size,
    label: "toolscore",
  });
  // What each case in flight brings to its record: where its JSONL line is (reports read it
  // again from there), or its content (JSON and YAML datasets).
  const contents = new Map<number, { content?: CaseContent; source?: CaseSource }>();
  const errors: { id: string; line?: number; message: string }[] = [];
  let datasetCases = 0;
  let notesShown = 0;
  let ran = 0;
  let replaced = 0;

  const indexOf = (entry: DatasetEntry, fallback: number) =>
    DatasetParseError.isInstance(entry) ? (entry.item ?? fallback) : entry.index;
  async function* cases(): AsyncGenerator<DatasetEntry> {
    let position = 0;
    for await (const entry of readDataset(dataset, {
      normalizeNames,
      onProgress: (bytes) => {
        progress.bytes(bytes);
      },
    })) {
      const index = indexOf(entry, position++);
      if (shard !== undefined && index % shard.count !== shard.index) continue;
      datasetCases++;
      if (done(index)) {
        progress.tick("skipped");
        continue;
      }
      if (!DatasetParseError.isInstance(entry)) {
        contents.set(
          index,
          entry.offset !== undefined && entry.bytes !== undefined
            ? { source: { offset: entry.offset, bytes: entry.bytes } }
            : { content: caseContentOf(entry) },
        );
        for (const note of entry.notes ?? []) {
          if (notesShown++ < 10) {
            io.stderr.write(
              `toolscore: ${entry.line === undefined ? entry.id : `line ${entry.line}`}: ${note}\n`,
            );
          } else if (notesShown === 11) {
            io.stderr.write("toolscore: (more notes left out)\n");
          }
        }
      }
      yield entry;
    }
  }
  const started = performance.now();
  let failure: unknown;
  // JSONL with deterministic metrics is scored in batches, in worker threads for big files.
  const batchable = datasetFormatOf(dataset) === "jsonl" && !needsJudge(metricConfigs);
  const workersFlag = numberFlag("workers", values.workers, 0, 64);
  if (workersFlag !== undefined && workersFlag > 0 && !batchable) {
    throw usageError("--workers runs deterministic metrics on JSONL datasets only", "--workers");
  }
  // Two workers on two cores score 1.7 times as fast as the main thread alone (npm run bench):
  // this thread only reads lines and writes records. Each worker adds about 40 MB at full load;
  // two keep a run under 200 MB, more are for --workers to ask.
  const workers =
    workersFlag ??
    (statSync(dataset).size >= parallelFromBytes && availableParallelism() >= 2 ? 2 : 0);
  try {
    if (batchable) {
      const outcome = await runInWorkers({
        setup: {
          dataset,
          metrics: metricConfigs,
          ...(threshold === undefined ? {} : { threshold }),
          normalizeNames,
          passingWithoutDetails: [...passingWithoutDetails],
        },
        workers,
        writer,
        builder,
        progress,
        inShard: (index) => shard === undefined || index % shard.count === shard.index,
        done,
        had: (index) => previous?.has(index) === true,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        onError: (error) => {
          if (errors.length < 50) errors.push(error);
        },
        onNote: (note) => {
          if (notesShown++ < 10) io.stderr.write(`toolscore: ${note}\n`);
          else if (notesShown === 11) io.stderr.write("toolscore: (more notes left out)\n");
        },
      });
      datasetCases = outcome.datasetCases;
      ran = outcome.ran;
      replaced = outcome.replaced;
    } else
      await evaluate<DatasetCase>({
        testCases: cases(),
        metrics,
        ...(concurrency === undefined ? {} : { concurrency }),
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        keepResults: false,
        describe: describeEntry,
        onEvent: (event) => {
          if (event.type !== "case-end") return;
          const { result } = event;
          const extra = contents.get(result.index);
          writer.write(
            toCaseRecord(result, extra?.content, extra?.source, { passingWithoutDetails }),
          );
          contents.delete(result.index);
          builder.add(result);
          ran++;
          if (previous?.has(result.index) === true) replaced++;
          progress.tick(result.status);
          if (result.status === "error" && errors.length < 50) errors.push(errorSummary(result));
        },
      });
  } catch (error) {
    failure = error;
  }
  progress.finish();
  const aborted = io.signal?.aborted === true;
  const summary = concludeRun(
    {
      failure,
      aborted,
      ran,
      replaced,
      datasetCases,
      judge: session?.summary(),
      started,
      builder,
    },
    run,
  );
  io.stdout.write(
    `${formatConsoleSummary(summary, { color: io.stdout.isTTY === true && io.env.NO_COLOR === undefined, errors })}\n`,
  );
  io.stdout.write(`results: ${path.relative(io.cwd, out) || out}\n`);
  await writeReports({
    out,
    summary,
    metrics: names,
    reports,
    io,
    dataset,
    source: datasetArgument,
    ...(config.reportMaxCases === undefined ? {} : { maxCases: config.reportMaxCases }),
  });

  if (aborted) {
    io.stderr.write(
      `toolscore: interrupted; ${carried + ran} cases saved. Continue with --resume.\n`,
    );
    const reason: unknown = io.signal.reason;
    return reason === "SIGTERM" ? ExitCode.SIGTERM : ExitCode.SIGINT;
  }
  if (datasetCases === 0 && shard === undefined) {
    // A gate that passes on nothing would hide a wrong path or an emptied file.
    io.stderr.write(`toolscore: ${datasetArgument} holds no test cases\n`);
    return ExitCode.USAGE;
  }
  if (summary.errors > 0) return ExitCode.RUNTIME;
  if (failUnder !== undefined) {
    return (summary.passRate ?? 1) >= failUnder ? ExitCode.OK : ExitCode.FAILED;
  }
  return summary.failed > 0 ? ExitCode.FAILED : ExitCode.OK;
}
