import { isTranscriptHead } from "../adapters/detect-format.js";
import { printable } from "../reporters/printable.js";
import { existsSync, statSync } from "node:fs";
import { plural } from "../core/words.js";
import path from "node:path";
import { createCaseMemory } from "../evaluate-to-file/case-memory.js";
import type { WatchChanges } from "../evaluate-to-file/case-memory.js";
import { watchLoop } from "./watch.js";
import { gateVerdict } from "../core/gate.js";
import type { GateVerdict } from "../core/gate.js";
import { diffPlanOf } from "./diff-plan.js";
import type { BaselinePlan } from "./baseline-comparison.js";
import { formatConsoleReport, maxFailuresShown } from "../reporters/console.js";
import { firstFailures } from "../node/results-file.js";
import { jsonlLines } from "../node/dataset.js";
import { isJsonObject } from "../core/json.js";
import type { MetricEntry } from "../core/case-record.js";
import { addConsistency, noConsistency } from "../reporters/judge-consistency.js";
import type { JudgeConsistency } from "../reporters/judge-consistency.js";
import { evaluateToFile } from "../evaluate-to-file/evaluate-to-file.js";
import type { EvaluateToFileOptions, FileEvaluation } from "../evaluate-to-file/run-options.js";
import { oldOrderNote } from "../core/options.js";
import { dryRun as dryRunToFile } from "../evaluate-to-file/dry-run.js";
import { applySetting, gateRuleOf, findConfigFile, placedInConfig, settingsFor } from "./config.js";
import { judgeOnDemand } from "./run-judge.js";
import type { RunJudge } from "./run-judge.js";
import type { EvalConfig, MetricConfig } from "./config.js";
import { ExitCode, namedFile, shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { isJudged, metricEntry } from "../evaluate-to-file/metric-set.js";
import { metricCatalog } from "../core/metric-catalog.js";
import { createProgress } from "./progress.js";
import { refuseLinkedReports, writeReports } from "./reports.js";
import type { ReportTargets } from "./reports.js";
import { summarizeResults } from "../reports/results-reports.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { globMatches } from "../matchers/glob.js";
import { linearRegExp } from "../matchers/linear-regex.js";
import type { LinearRegExp } from "../matchers/linear-regex.js";
import { createHash } from "node:crypto";
import { datasetFromRecordings, namesRecordings } from "./dataset.js";
import { fileHead } from "../node/recordings.js";
import { diffSettings, runSettings } from "./run-settings.js";
import { flagName } from "./settings.js";
import type { Setting, SettingSources } from "./settings.js";
import { agentRunOf } from "./eval-agent.js";
import { namesModule } from "../agent/module-agent.js";
import type { AgentRunPlan } from "./eval-agent.js";
import type { DiffSettings, RunSettings } from "./run-settings.js";

/** Every setting of a run. */
const allSettings = Object.keys(runSettings) as (keyof RunSettings)[];

type EvalFlags = Readonly<Record<string, unknown>>;

/** Notes printed on the console at most; the results file has them all. */
const maxNotesShown = 10;

/** Runs `toolscore eval` on its read flags; resolves to the exit code. */
export async function runEval(
  values: EvalFlags,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  if (values.watch === true) return watchEval(values, positionals, io);
  const planned = await planEval(values, positionals, io);
  let plan = planned;
  if (planned.agentRun !== undefined && values["dry-run"] === true) {
    // The agent checked and its runs counted; the dataset's cases checked as a dry run does.
    const { dryRunAgent } = await import("./agent-phase.js");
    await dryRunAgent(planned.agentRun, planned.dataset, io);
  } else plan = await agentThenScore(planned, io);
  const judge = judgeOnDemand(plan, io);
  let outcome: FileEvaluation;
  try {
    if (values["dry-run"] === true) return await dryRun(plan, judge, io);
    outcome = await runPlan(plan, judge, io);
  } catch (error) {
    throw placedInConfig(error, plan.fromConfig);
  }
  if (!outcome.written) {
    // A gate that passes on nothing would hide a wrong path, an emptied file or a bad filter.
    const what =
      plan.select === undefined
        ? "holds no test cases"
        : `has no case chosen by ${plan.select.name}`;
    io.stderr.write(
      `toolscore: ${plan.datasetArgument} ${what}; ${shownPath(plan.out, io)} was left as it was\n`,
    );
    return ExitCode.USAGE;
  }
  return (await showOutcome(plan, outcome, io)).exitCode;
}

/**
 * The plan's agent run (when it names an agent), then the plan that scores its recordings: the
 * runs are the dataset now, scored whole each time (the runs themselves resume), the shard's only
 * when sharded (merge --dataset joins the shards' recordings).
 */
async function agentThenScore(planned: EvalPlan, io: CliIo): Promise<EvalPlan> {
  if (planned.agentRun === undefined) return planned;
  const { runAgentPhase } = await import("./agent-phase.js");
  await runAgentPhase(planned.agentRun, planned.dataset, io);
  const recordings = planned.agentRun.recordings;
  return {
    ...planned,
    dataset: recordings,
    datasetArgument: shownPath(recordings, io),
    resume: false,
    overwrite: true,
    retryErrors: false,
    shard: undefined,
  };
}

/** Everything a run needs: its settings, and what they name, checked. */
interface EvalPlan extends Omit<RunSettings, "baseline"> {
  readonly dataset: string;
  /** The dataset as the user named it. */
  readonly datasetArgument: string;
  /** What the config file set, and which file it was. */
  readonly fromConfig: EvalConfig;
  /** The gate's pass rate (with where it came from) and what not-evaluable cases do. */
  readonly gate: ReturnType<typeof gateRuleOf>;
  readonly reports: ReportTargets;
  /** What chooses the cases to run by id, when something does. */
  readonly select: { readonly accepts: (id: string) => boolean; readonly name: string } | undefined;
  /** An earlier run's results file to compare with, and the score tolerance. */
  readonly baseline?: BaselinePlan;
  /** The agent to run on the dataset first, when the run names one. */
  readonly agentRun: AgentRunPlan | undefined;
}

/** Reads and checks the flags and the config file into a plan; throws a usage error. */
async function planEval(
  values: EvalFlags,
  positionals: readonly string[],
  io: CliIo,
): Promise<EvalPlan> {
  if (positionals.length === 0) {
    throw usageError(
      "eval needs a dataset, or a folder of recordings: toolscore eval runs.jsonl (see toolscore eval --help)",
    );
  }
  const resolveIn = (file: string) => path.resolve(io.cwd, file);
  const recordings = await namesRecordings(positionals, io, values.expected !== undefined);
  // A single file read as a dataset may be a transcript: said so, not misread line by line.
  const head =
    !recordings && positionals.length === 1 ? await fileHead(resolveIn(positionals[0])) : undefined;
  if (head !== undefined && isTranscriptHead(head)) {
    throw usageError(
      `${positionals[0]} is a transcript, not a dataset: give its expected calls with --expected <expected.jsonl> (a case whose id is the file's path from that file's folder), or make a dataset of it with toolscore dataset ${positionals[0]}`,
      "dataset",
    );
  }
  if (!recordings && values.expected !== undefined) {
    throw usageError(
      `--expected goes with recordings (a folder, a glob, transcript files); ${positionals[0]} is a dataset: put the expected fields in its cases`,
      "--expected",
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
  const resolved = await settingsFor(allSettings, values, io);
  const { settings, config } = resolved;
  let metrics = settings.metrics;
  for (const setting of settings.set) metrics = applySetting([...metrics], setting);
  optionNotes(metrics, io);
  if (metrics.some(isJudged) && settings.judge === undefined) {
    const judged = metrics.filter(
      (item) => metricCatalog.find((m) => m.id === item.metric)?.judge === "required",
    );
    throw usageError(
      `${judged.map((item) => item.metric).join(", ")} needs a judge: add --judge openai/gpt-4o-mini (or judge: in the config)`,
      "--judge",
    );
  }
  if (settings.batch && settings.judge === undefined) {
    throw usageError(
      "--batch sends the judge's questions in batches: add --judge openai/gpt-4o-mini (or judge: in the config)",
      "--batch",
    );
  }
  // Each judged metric named with its judge's last calibration; a decision model takes its band.
  // Loaded for a run with a judge only.
  if (settings.judge !== undefined) {
    const { withCalibrations } = await import("./judge-calibration.js");
    metrics = await withCalibrations(metrics, settings, io);
  }
  const { out } = settings;
  const baseline = baselineOf(settings, io, resolved.from);
  const reports = {
    report: settings.report,
    junit: settings.junit,
    markdown: settings.markdown,
    otlpEvents: settings.otlpEvents,
  };
  // Refused before the run, not after it: nothing is written through a symbolic link.
  refuseLinkedOutput(out, { option: "--out", within: io.cwd });
  refuseLinkedReports(reports, io);
  const resolve = (file: string) => path.resolve(io.cwd, file);
  const dataset = recordings
    ? await datasetFromRecordings(
        {
          inputs: positionals,
          expected: settings.expected,
          out,
          resume: settings.resume,
          overwrite: settings.overwrite,
          // Files the run reads or writes are never recordings.
          exclude: [
            ...Object.values(reports).filter((file) => file !== undefined),
            ...[
              baseline?.file,
              settings.onlyFailed,
              settings.config ?? findConfigFile(io.cwd),
            ].flatMap((file) => (file === undefined ? [] : [resolve(file)])),
          ],
        },
        io,
      )
    : namedFile(
        positionals[0],
        { noun: "dataset", kinds: ".jsonl, .json, .yaml or .yml", option: "dataset" },
        io,
      );
  const agentRun = agentRunOf(
    settings,
    {
      datasetGiven: !recordings,
      namedBy: values.agent === undefined ? config.file : undefined,
    },
    io,
  );
  return {
    ...settings,
    agentRun,
    metrics,
    dataset,
    // Recordings are run as the dataset built from them, and named by it (reports read it again).
    datasetArgument: recordings ? shownPath(dataset, io) : positionals[0],
    fromConfig: config,
    gate: gateRuleOf(resolved, io),
    reports,
    select: await selectionOf(settings, io),
    baseline,
  };
}

/** --filter and --only-failed: which cases to run, by id (both: the cases both choose). */
async function selectionOf(
  values: Pick<RunSettings, "filter" | "onlyFailed">,
  io: CliIo,
): Promise<EvalPlan["select"]> {
  const tests: ((id: string) => boolean)[] = [];
  const names: string[] = [];
  if (values.filter !== undefined) {
    tests.push(idPattern(values.filter));
    names.push(`filter ${values.filter}`);
  }
  if (values.onlyFailed !== undefined) {
    const given = values.onlyFailed;
    const results = {
      noun: "results",
      kinds: "the .jsonl an earlier eval wrote",
      option: "--only-failed",
    };
    const failed = new Set<string>();
    await summarizeResults(namedFile(given, results, io), (record) => {
      if (record.status !== "passed") failed.add(record.id);
    });
    tests.push((id) => failed.has(id));
    const ids = createHash("sha256")
      .update(JSON.stringify([...failed].sort()))
      .digest("hex");
    names.push(`only the ${failed.size} failed of ${given} (${ids.slice(0, 16)})`);
  }
  if (tests.length === 0) return undefined;
  return { accepts: (id) => tests.every((test) => test(id)), name: names.join(" and ") };
}

/**
 * An id pattern: `/regex/flags`, or a glob (`*` any characters, `?` one). A regular expression
 * runs on the linear-time engine, as patterns from data do: the ids it tests come from the data.
 */
function idPattern(pattern: string): (id: string) => boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (regex === null) return (id) => globMatches(pattern, id);
  let compiled: LinearRegExp;
  try {
    compiled = linearRegExp(regex[1], regex[2]);
  } catch (error) {
    throw usageError(
      `--filter ${pattern} is not a regular expression toolscore runs: ${error instanceof Error ? error.message : String(error)}`,
      "--filter",
    );
  }
  return (id) => compiled.test(id);
}

/** --baseline and --tolerance, checked: the baseline exists and is not the file this run writes. */
function baselineOf(
  settings: Pick<RunSettings, "baseline" | "tolerance" | "out"> & DiffSettings,
  io: CliIo,
  from: SettingSources<DiffSettings>,
): EvalPlan["baseline"] {
  const { baseline, tolerance, out } = settings;
  if (baseline === undefined) {
    if (tolerance !== undefined)
      throw usageError("--tolerance goes with --baseline", "--tolerance");
    // A config's diff settings serve compare too; a flag given here would do nothing.
    const given = diffSettings.find((name) => from[name] === "flag");
    if (given !== undefined) {
      const flag = `--${flagName(given, runSettings[given] as Setting<unknown>)}`;
      throw usageError(
        `${flag} goes with --baseline (or compare two runs with toolscore compare)`,
        flag,
      );
    }
    return undefined;
  }
  const results = {
    noun: "baseline results",
    kinds: "the .jsonl an earlier eval wrote",
    option: "--baseline",
  };
  const file = namedFile(baseline, results, io);
  if (file === out) {
    throw usageError(
      `--baseline ${baseline} is the results file this run writes; copy it aside first, or give --out another file`,
      "--baseline",
    );
  }
  return { file, name: baseline, tolerance: tolerance ?? 0, calls: diffPlanOf(settings) };
}

/** What the run's metric options say in words the run reads otherwise (old names), as notes. */
function optionNotes(metrics: readonly MetricConfig[], io: CliIo): void {
  for (const { metric, options } of metrics) {
    const old = oldOrderNote(options, metric);
    if (old !== undefined) io.stderr.write(`toolscore: ${old}\n`);
  }
}

/**
 * Checks what a run would need, and scores nothing: the metrics are made (a judged one sets its
 * judge up: SDK, key, model string), and every case of the dataset is read, in the shard.
 */
async function dryRun(plan: EvalPlan, judge: RunJudge, io: CliIo): Promise<number> {
  const checked = await dryRunToFile({
    ...runOptions(plan, judge, io),
    onNote: plan.quiet ? () => undefined : cappedNotes(io),
  });
  const { cases, unreadable } = checked;
  const shown = checked.errors.slice(0, 10);
  io.stdout.write(
    `dry run: ${plan.datasetArgument}: ${cases} case${cases === 1 ? "" : "s"} read${unreadable > 0 ? `, ${unreadable} that cannot be` : ""}; metrics: ${checked.metrics.join(", ")}${plan.judge === undefined ? "" : `; judge: ${plan.judge}`}. Nothing scored; ${shownPath(plan.out, io)} left as it was.\n`,
  );
  for (const error of shown) io.stdout.write(`! ${printable(error.message)}\n`);
  if (unreadable > shown.length) io.stdout.write(`  … and ${unreadable - shown.length} more\n`);
  if (cases + unreadable === 0) {
    io.stderr.write(`toolscore: ${plan.datasetArgument} holds no test cases\n`);
    return ExitCode.USAGE;
  }
  return unreadable > 0 ? ExitCode.RUNTIME : ExitCode.OK;
}

/** The run engine's options for the plan (the dry run checks the same ones). */
function runOptions(plan: EvalPlan, judge: RunJudge, io: CliIo): EvaluateToFileOptions {
  return {
    dataset: plan.dataset,
    name: plan.datasetArgument,
    metrics: plan.metrics.map(metricEntry),
    out: plan.out,
    resume: plan.resume,
    overwrite: plan.overwrite,
    retryErrors: plan.retryErrors,
    shard: plan.shard,
    details: plan.details,
    groupBy: plan.groupBy,
    ...(plan.turnAggregate === undefined ? {} : { turnAggregate: plan.turnAggregate }),
    gate: plan.gate,
    workers: plan.workers,
    concurrency: plan.concurrency,
    threshold: plan.threshold,
    normalizeNames: plan.normalizeNames,
    judge: judge.model,
    judgeSummary: judge.summary,
    batch: judge.batch,
    signal: io.signal,
    limit: plan.limit,
    bail: plan.bail,
    stop: judge.stop,
    select: plan.select,
    wording: { resume: "--resume", overwrite: "--overwrite", out: "--out" },
  };
}

/** Runs the plan through the run engine, with a progress line and the first notes shown. */
async function runPlan(
  plan: EvalPlan,
  judge: RunJudge,
  io: CliIo,
  watched?: Pick<EvaluateToFileOptions, "reuse" | "onResult">,
): Promise<FileEvaluation> {
  const progress = createProgress({
    stream: io.stderr,
    totalBytes: statSync(plan.dataset).size,
    label: "toolscore",
  });
  try {
    return await evaluateToFile({
      ...runOptions(plan, judge, io),
      ...watched,
      progress,
      onNote: plan.quiet ? () => undefined : cappedNotes(io),
    });
  } finally {
    progress.finish();
  }
}

/**
 * `eval --watch`: a run, then another each time the inputs change (the dataset and what is beside
 * it, the recordings, the config, the expected file), planned again (a changed config applies)
 * and scoring only the cases whose content changed: the others keep the last run's results, under
 * the same configuration. Each run says what changed, then prints and gates as a run does.
 */
async function watchEval(
  values: EvalFlags,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  // With an agent, --resume keeps the runs recorded before the first round.
  const agentFlag = values.agent !== undefined;
  for (const flag of ["resume", "retry-errors", "dry-run", "workers", "only-failed"] as const) {
    if (values[flag] !== undefined && !(agentFlag && flag === "resume")) {
      throw usageError(
        `--watch runs the whole dataset each time, scoring what changed: leave out --${flag}`,
        "--watch",
      );
    }
  }
  const memory = createCaseMemory();
  const first = await planEval(values, positionals, io);
  const resolve = (file: string) => path.resolve(io.cwd, file);
  const recordings = first.dataset !== resolve(positionals[0] ?? "");
  // A dataset is watched as a file; recordings by their folders, with what is below them (a
  // glob by the folder before its first pattern character).
  const folders: string[] = [];
  const files = [first.fromConfig.file, first.expected].flatMap((file) =>
    file === undefined ? [] : [resolve(file)],
  );
  if (!recordings) files.push(first.dataset);
  const agentFile = watchedAgentFile(first.agentRun);
  if (agentFile !== undefined) files.push(agentFile);
  for (const given of recordings ? positionals : []) {
    const full = resolve(given);
    if (existsSync(full) && statSync(full).isDirectory()) folders.push(full);
    else if (existsSync(full)) files.push(full);
    else {
      const base = resolve(given.slice(0, given.search(/[*?[{]/)).replace(/[^/\\]*$/, "") || ".");
      if (existsSync(base)) folders.push(base);
    }
  }
  const { report, junit, markdown, otlpEvents } = first.reports;
  const outputs = [first.out, report, junit, markdown, otlpEvents].flatMap((file) =>
    file === undefined ? [] : [file],
  );
  return watchLoop({
    folders: [...new Set(folders)],
    files,
    // The run's own files, and the dataset it builds from recordings or an agent's runs.
    ignore: [
      ...outputs,
      ...(recordings ? [first.dataset] : []),
      ...(first.agentRun === undefined ? [] : [first.agentRun.recordings]),
    ],
    io,
    run: async (changed) => {
      // An agent runs again whole when it or the config changed; else only the new cases run.
      const again = changed.some((file) => file === agentFile || file === first.fromConfig.file);
      const flags =
        first.agentRun === undefined || again
          ? { ...values, overwrite: true, resume: undefined }
          : { ...values, resume: true, overwrite: undefined };
      const planned = changed.length === 0 ? first : await planEval(flags, positionals, io);
      const plan = await agentThenScore(
        planned.agentRun === undefined
          ? planned
          : { ...planned, agentRun: { ...planned.agentRun, fresh: true } },
        io,
      );
      if (changed.length > 0) {
        io.stderr.write(
          `toolscore: changed: ${changed.map((file) => shownPath(file, io)).join(", ")}\n`,
        );
      }
      memory.begin(
        JSON.stringify([plan.metrics, plan.threshold, plan.normalizeNames, plan.turnAggregate]),
      );
      const outcome = await runPlan(plan, judgeOnDemand(plan, io), io, {
        reuse: (item, where) => memory.reuse(item, where),
        onResult: (result) => {
          memory.remember(result);
        },
      });
      const changes = memory.finish();
      if (changed.length > 0) io.stdout.write(`${watchChangesLine(changes)}\n`);
      return (await showOutcome(plan, outcome, io)).exitCode;
    },
  });
}

/** The file of a module agent, watched with the dataset: a change runs every case again. */
function watchedAgentFile(agentRun: AgentRunPlan | undefined): string | undefined {
  if (agentRun === undefined || !namesModule(agentRun.spec)) return undefined;
  return path.resolve(agentRun.cwd, agentRun.spec.trim());
}

/** What a watched run changed: cases scored again or taken over, removed, and moved. */
function watchChangesLine(changes: WatchChanges): string {
  const moved = changes.moved.map((item) => `${printable(item.id)} ${item.before} → ${item.after}`);
  const unreadable = changes.unreadable.map(
    (item) =>
      `${item.line === undefined ? "a case" : `line ${item.line}`}${item.was === undefined ? "" : ` (${printable(item.was)})`} cannot be read: ${printable(item.message.replace(/^line \d+: /, ""))}`,
  );
  return [
    `watch: ${plural(changes.scored, "case")} scored (changed or new), ${changes.reused} unchanged`,
    ...(changes.removed.length === 0 ? [] : [`${changes.removed.length} removed`]),
    ...unreadable.slice(0, 5),
    ...(unreadable.length > 5 ? [`${unreadable.length - 5} more lines cannot be read`] : []),
    moved.length === 0
      ? "no case changed status"
      : `changed status: ${moved.slice(0, 10).join(", ")}${moved.length > 10 ? ` and ${moved.length - 10} more` : ""}`,
  ].join("; ");
}

/** Prints the first notes of a run, then says that more were left out. */
function cappedNotes(io: CliIo): (note: string) => void {
  let seen = 0;
  return (note) => {
    seen++;
    if (seen <= maxNotesShown) io.stderr.write(`toolscore: ${printable(note)}\n`);
    else if (seen === maxNotesShown + 1) io.stderr.write("toolscore: (more notes left out)\n");
  };
}

/** How far the run's sampled judge agreed with itself, from the metrics' details in its records. */
async function judgeConsistencyOf(file: string): Promise<JudgeConsistency> {
  let tally = noConsistency;
  for await (const { text } of jsonlLines(file)) {
    // Only records with a sampled verdict say "agreement".
    if (!text.includes('"agreement"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      continue; // a line torn by a kill
    }
    if (!isJsonObject(record) || !isJsonObject(record.metrics)) continue;
    for (const entry of Object.values(record.metrics))
      tally = addConsistency(tally, entry as unknown as MetricEntry);
  }
  return tally;
}

/**
 * The summary, where the results are, the reports, how to go on after a stop, and the gate's
 * verdict, the console's last line; resolves to that verdict.
 */
async function showOutcome(
  plan: EvalPlan,
  outcome: FileEvaluation,
  given: CliIo,
): Promise<GateVerdict> {
  // With --json, stdout holds the JSON object alone: the console's lines go to stderr.
  const io = plan.json ? { ...given, stdout: given.stderr } : given;
  const { summary } = outcome;
  const color = io.stdout.isTTY === true && io.env.NO_COLOR === undefined;
  const shownCases = plan.quiet
    ? { flaky: false }
    : {
        errors: outcome.errors,
        failures:
          summary.failed + summary.notEvaluable > 0
            ? await firstFailures(plan.out, maxFailuresShown)
            : [],
        verbose: plan.verbose,
        // On a terminal, a line each; in a log (CI), the whole first line of each reason.
        ...(io.stdout.isTTY === true && io.stdout.columns !== undefined
          ? { width: io.stdout.columns }
          : {}),
      };
  const judgeConsistency =
    summary.judge === undefined ? undefined : await judgeConsistencyOf(plan.out);
  io.stdout.write(
    `${formatConsoleReport({ summary, color, ...shownCases, ...(judgeConsistency === undefined ? {} : { judgeConsistency }) })}\n`,
  );
  io.stdout.write(`results: ${shownPath(plan.out, io)}\n`);
  const compared =
    plan.baseline === undefined || outcome.aborted
      ? undefined
      : await (
          await import("./baseline-comparison.js")
        ).compareWithBaseline(plan.baseline, plan.out, io, color);
  const comparison = compared?.comparison;
  const calls = compared?.calls;
  const stop: unknown = outcome.aborted ? io.signal?.reason : undefined;
  const verdict = gateVerdict(summary, {
    ...plan.gate,
    baseline:
      compared === undefined || plan.baseline === undefined
        ? undefined
        : { name: plan.baseline.name, regressions: compared.regressions },
    stoppedBy: outcome.aborted
      ? stop === "SIGTERM"
        ? "SIGTERM"
        : "SIGINT"
      : outcome.halted === undefined
        ? undefined
        : "judge-unreachable",
  });
  const written = await writeReports({
    gate: verdict,
    out: plan.out,
    summary,
    metrics: summary.metrics.map((metric) => metric.name),
    reports: plan.reports,
    io,
    dataset: plan.dataset,
    source: plan.datasetArgument,
    maxCases: plan.reportMaxCases,
    ...(comparison === undefined || plan.baseline === undefined
      ? {}
      : {
          comparison: {
            comparison,
            baseline: plan.baseline.name,
            ...(calls === undefined ? {} : { calls }),
          },
        }),
  });
  const saved = `${outcome.carried + outcome.ran} cases saved; the rest runs with --resume`;
  if (outcome.bailed) {
    io.stderr.write(
      `toolscore: stopped after ${plan.bail} failed case${plan.bail === 1 ? "" : "s"} (--bail); ${saved}.\n`,
    );
  } else if (outcome.halted !== undefined) {
    const { reason } = outcome.halted;
    io.stderr.write(
      `toolscore: the judge cannot be reached: its first calls failed with ${printable(reason instanceof Error ? reason.message : String(reason))}; check its address and that its server runs. ${saved} --retry-errors.\n`,
    );
  } else if (outcome.aborted) {
    io.stderr.write(`toolscore: interrupted; ${saved}.\n`);
  } else if (outcome.limited) {
    io.stderr.write(`toolscore: stopped at --limit ${plan.limit}; ${saved}.\n`);
  }
  io.stdout.write(`${verdict.text}\n`);
  if (plan.json) {
    given.stdout.write(
      `${JSON.stringify({
        toolscore: "eval",
        version: 1,
        gate: verdict,
        results: shownPath(plan.out, given),
        reports: Object.fromEntries(
          written.map(({ kind, file }) => [kind, shownPath(file, given)]),
        ),
        summary,
        ...(comparison === undefined ? {} : { comparison }),
        ...(calls === undefined ? {} : { trajectories: calls }),
        stopped: outcome.bailed
          ? "bail"
          : outcome.halted !== undefined
            ? "judge-unreachable"
            : outcome.aborted
              ? "signal"
              : outcome.limited
                ? "limit"
                : null,
      })}\n`,
    );
  }
  return verdict;
}
