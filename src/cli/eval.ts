import { printable } from "../reporters/printable.js";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { JudgeModel } from "../core/judge.js";
import { datasetFormatOf } from "../node/dataset.js";
import { createFileJudgeCache } from "../node/file-judge-cache.js";
import { createJudgeSession } from "../providers/judge-session.js";
import type { JudgeSession } from "../providers/judge-session.js";
import { resolveJudgeModel } from "../providers/registry.js";
import { formatConsoleSummary } from "../reporters/console.js";
import { evaluateToFile } from "../runs/evaluate-to-file.js";
import type { FileEvaluation } from "../runs/evaluate-to-file.js";
import { applySetting, findConfigFile, readConfigFile } from "./config.js";
import type { EvalConfig, MetricConfig } from "./config.js";
import { ExitCode, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { cliMetrics, defaultMetrics, needsJudge } from "./metrics.js";
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
      --judge-timeout <ms>  each judge call's deadline (default 60000)
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
      "judge-timeout": { type: "string" },
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

  let session: JudgeSession | undefined;
  const judgeSpec = values.judge ?? config.judge?.model;
  const judgeTimeout = numberFlag("judge-timeout", values["judge-timeout"], 1, 3_600_000);
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
      const timeoutMs = judgeTimeout ?? config.judge?.timeoutMs;
      const model = resolveJudgeModel(judgeSpec ?? "", {
        env: io.env,
        ...(config.judge?.baseURL === undefined ? {} : { baseURL: config.judge.baseURL }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(config.judge?.maxRetries === undefined ? {} : { maxRetries: config.judge.maxRetries }),
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
  // JSONL with deterministic metrics is scored in batches, in worker threads for big files.
  const workers = numberFlag("workers", values.workers, 0, 64);
  if (
    workers !== undefined &&
    workers > 0 &&
    (datasetFormatOf(dataset) !== "jsonl" || needsJudge(metricConfigs))
  ) {
    throw usageError("--workers runs deterministic metrics on JSONL datasets only", "--workers");
  }
  if (workers !== undefined && !Number.isInteger(workers)) {
    throw usageError("--workers must be a whole number", "--workers");
  }
  const progress = createProgress({
    stream: io.stderr,
    totalBytes: statSync(dataset).size,
    label: "toolscore",
  });
  let notesShown = 0;
  let outcome: FileEvaluation;
  try {
    outcome = await evaluateToFile({
      dataset,
      name: datasetArgument,
      metrics: metricConfigs,
      out,
      resume: values.resume === true,
      overwrite: values.overwrite === true,
      retryErrors: values["retry-errors"] === true,
      ...(shard === undefined ? {} : { shard }),
      details,
      ...(workers === undefined ? {} : { workers }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(threshold === undefined ? {} : { threshold }),
      normalizeNames,
      judge: judgeModel,
      judgeSummary: () => session?.summary(),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      wording: { resume: "--resume", overwrite: "--overwrite", out: "--out" },
      progress,
      onNote: (note) => {
        if (notesShown++ < 10) io.stderr.write(`toolscore: ${printable(note)}\n`);
        else if (notesShown === 11) io.stderr.write("toolscore: (more notes left out)\n");
      },
    });
  } finally {
    progress.finish();
  }
  const { summary, errors, aborted, carried, ran } = outcome;
  if (!outcome.written) {
    // A gate that passes on nothing would hide a wrong path or an emptied file.
    io.stderr.write(
      `toolscore: ${datasetArgument} holds no test cases; ${path.relative(io.cwd, out) || out} was left as it was\n`,
    );
    return ExitCode.USAGE;
  }
  io.stdout.write(
    `${formatConsoleSummary(summary, { color: io.stdout.isTTY === true && io.env.NO_COLOR === undefined, errors })}\n`,
  );
  io.stdout.write(`results: ${path.relative(io.cwd, out) || out}\n`);
  await writeReports({
    out,
    summary,
    metrics: summary.metrics.map((metric) => metric.name),
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
    const reason: unknown = io.signal?.reason;
    return reason === "SIGTERM" ? ExitCode.SIGTERM : ExitCode.SIGINT;
  }
  if (summary.errors > 0) return ExitCode.RUNTIME;
  if (failUnder !== undefined) {
    return (summary.passRate ?? 1) >= failUnder ? ExitCode.OK : ExitCode.FAILED;
  }
  return summary.failed > 0 ? ExitCode.FAILED : ExitCode.OK;
}
