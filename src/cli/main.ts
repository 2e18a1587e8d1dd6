import { guardConsole, printable, printableLines } from "../reporters/printable.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { createRedactor } from "../core/redact.js";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseTrajectory } from "../adapters/parse-trajectory.js";
import { formatToolCall } from "../core/call-diff.js";
import { ToolscoreError } from "../core/errors.js";
import { didYouMean } from "../core/suggest.js";
import type { TrajectoryFormat } from "../core/trajectory.js";
import { firstFailures, mergeResults } from "../node/results-file.js";
import { gateVerdict } from "../core/gate.js";
import { configFor, failUnderOf } from "./config.js";
import { readTranscriptFile } from "../node/transcript-file.js";
import { calibrateToolSelectionJudge } from "../judges/calibration/calibrate.js";
import { resolveJudgeModel } from "../providers/registry.js";
import { formatConsoleSummary, maxFailuresShown } from "../reporters/console.js";
import { formatRate } from "../reporters/format.js";
import { cacheCommand, cacheHelp } from "./cache.js";
import { initCommand, initHelp } from "./init.js";
import { compareCommand, compareHelp } from "./compare.js";
import { evalCommand, evalHelp, judgeShown } from "./eval.js";
import { datasetCommand, datasetHelp } from "./dataset.js";
import { ExitCode, exitCodeOf, namedFile, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { datasetPath, readRun, writeReports } from "./reports.js";
import type { ReportTargets } from "./reports.js";

const mainHelp = `Usage: toolscore <command> [options]

Commands
  init                  start here: a config, a dataset of three cases, a CI workflow
  eval <dataset>        score a dataset of agent runs, write results and reports
  dataset <recordings>  write a dataset from recorded transcripts and expected cases
  parse <transcript>    print the normalized tool calls of a transcript (for debugging)
  report <results>      render reports again from a results file
  merge <results...>    join the results of shards (eval --shard i/n) into one file
  compare <base> <new>  what changed between two runs; exit 1 when a case regressed
  calibrate             measure a tool-selection judge against toolscore's labelled cases
  cache clear           empty the judge cache

Run toolscore <command> --help for a command's options.
`;

const parseHelp = `Usage: toolscore parse <transcript.json|.jsonl> [options]

Reads a transcript (OpenAI chat or Responses, Anthropic, Gemini, Bedrock, LangChain,
OpenTelemetry GenAI spans, ... detected from its shape) and prints the tool calls found.

      --format <name>      the transcript's format, when detection guesses wrong
      --normalize-names    strip random suffixes from tool names
      --trace-id <id>      of an export of spans holding several traces, the one to read
      --json               print the whole normalized trajectory as JSON
  -h, --help
`;

const reportHelp = `Usage: toolscore report <results.jsonl> [options]

Renders reports from a results file written by eval (or merge), lists its failed cases, and
states the run's gate verdict as eval decided it (every case must pass, or the share --fail-under,
else the config's fail_under, names). Exits 0 once the reports are written.

      --fail-under <0..1>   the gate's pass rate (default: the config's fail_under, else all)
  -c, --config <file>       the config whose fail_under applies (default: the current folder's)
  -v, --verbose             print failed cases' whole reasons
      --report <file.html>  single-file HTML report
      --junit <file.xml>    JUnit XML
      --markdown <file.md>  Markdown summary
      --max-cases <n>       most cases in the HTML report (failures first; default 2000)
  -h, --help
`;

const mergeHelp = `Usage: toolscore merge <shard results...> --out <merged.jsonl> [options]

Joins the results files of all n shards of one run (eval --shard i/n) into one, cases in
dataset order, and decides the run's gate as eval does: every case must pass, or the share
--fail-under (else the config's fail_under) names.

  -o, --out <file>          the merged results file (required)
      --fail-under <0..1>   pass when at least this share of cases passes (default: all)
  -c, --config <file>       the config whose fail_under applies (default: toolscore.config.json,
                            .yaml or .yml in the current folder, as eval reads it)
      --report <file.html>  also render reports from the merged results
      --junit <file.xml>
      --markdown <file.md>
  -h, --help

Exit codes: 0 the gate passed; 1 too few cases passed; 2 a usage error; 3 a shard missing or
unfinished, or a case that could not be scored.
`;

const calibrateHelp = `Usage: toolscore calibrate --judge <provider/model> [options]

Runs a tool-selection judge over toolscore's fifty labelled cases and prints how well it agrees
with the labels: pass/fail accuracy, Cohen's kappa, mean absolute error, the cases it got wrong.

      --judge <model>       the judge, e.g. openai/gpt-4o-mini (key from the environment)
      --threshold <0..1>    the pass/fail line (default 0.5)
      --concurrency <n>     judgements in flight (default 8)
      --json                print the whole report as JSON
  -h, --help
`;

async function calibrateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      judge: { type: "string" },
      threshold: { type: "string" },
      concurrency: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(calibrateHelp);
    return ExitCode.OK;
  }
  if (positionals.length > 0) throw usageError("calibrate takes no files (see --help)");
  if (values.judge === undefined) {
    throw usageError("calibrate needs --judge, e.g. --judge openai/gpt-4o-mini", "--judge");
  }
  const threshold = values.threshold === undefined ? 0.5 : Number(values.threshold);
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!(threshold >= 0 && threshold <= 1)) {
    throw usageError("--threshold must be a number from 0 to 1", "--threshold");
  }
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw usageError("--concurrency must be a whole number of at least 1", "--concurrency");
  }
  const model = resolveJudgeModel(values.judge, { env: io.env });
  io.stderr.write(`toolscore: ${judgeShown(model)}\n`);
  const report = await calibrateToolSelectionJudge(model, {
    threshold,
    concurrency,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  });
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return ExitCode.OK;
  }
  const kappa = report.cohensKappa === undefined ? "–" : report.cohensKappa.toFixed(2);
  io.stdout.write(
    [
      `judge ${report.model} on ${report.cases} labelled cases (${report.errors} could not be judged)`,
      `  pass/fail accuracy  ${formatRate(report.accuracy)}`,
      `  Cohen's kappa       ${kappa}`,
      `  mean abs. error     ${report.meanAbsoluteError.toFixed(3)}`,
      `  exact agreement     ${formatRate(report.exactAgreement)}`,
      `  tokens ${report.usage.inputTokens + report.usage.outputTokens}${report.costUsd === undefined ? "" : `, ~$${report.costUsd.toFixed(4)}`}`,
      "",
    ].join("\n"),
  );
  const wrong = report.results.filter(
    (result) =>
      result.score === undefined || result.score >= threshold !== result.label >= threshold,
  );
  for (const result of wrong.slice(0, 20)) {
    io.stdout.write(
      `  ${result.id}: label ${result.label}, judge ${result.score ?? "error"}${result.reason === undefined ? "" : ` (${result.reason})`}\n`,
    );
  }
  return report.errors > 0 ? ExitCode.RUNTIME : ExitCode.OK;
}

async function parseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: "string" },
      "normalize-names": { type: "boolean" },
      "trace-id": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(parseHelp);
    return ExitCode.OK;
  }
  if (positionals.length !== 1)
    throw usageError("parse takes one transcript file (see toolscore parse --help)");
  const file = namedFile(
    positionals[0],
    { noun: "transcript", kinds: ".json or .jsonl", option: "transcript" },
    io,
  );
  let value: unknown;
  try {
    value = await readTranscriptFile(file);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw usageError(`cannot read ${positionals[0]}: ${detail}`, "transcript");
  }
  const trajectory = parseTrajectory(value, {
    ...(values.format === undefined ? {} : { format: values.format as TrajectoryFormat }),
    normalizeNames: values["normalize-names"] === true,
    ...(values["trace-id"] === undefined ? {} : { traceId: values["trace-id"] }),
  });
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(trajectory, null, 2)}\n`);
    return ExitCode.OK;
  }
  io.stdout.write(`format: ${trajectory.format}; ${trajectory.calls.length} tool calls\n`);
  trajectory.calls.forEach((call, index) => {
    const output =
      call.output === null
        ? ""
        : ` → ${formatToolCall({ name: "", arguments: call.output }).slice(1, -1)}`;
    const shown = `${index + 1}. ${formatToolCall({ name: call.name, arguments: call.inputParameters })}${call.isError === true ? " [error]" : ""}${output.length > 100 ? `${output.slice(0, 99)}…` : output}`;
    io.stdout.write(`${printable(shown)}\n`);
  });
  for (const mapping of trajectory.nameMapping)
    io.stdout.write(`renamed: ${printable(mapping.original)} → ${printable(mapping.normalized)}\n`);
  for (const warning of trajectory.warnings) {
    io.stderr.write(`warning: ${printable(warning.message)}\n`);
  }
  return ExitCode.OK;
}

/** The report files named by --report, --junit and --markdown, resolved against the cwd. */
function targetsOf(
  values: { report?: string; junit?: string; markdown?: string },
  cwd: string,
): ReportTargets {
  const resolve = (file: string | undefined) =>
    file === undefined ? undefined : path.resolve(cwd, file);
  return {
    report: resolve(values.report),
    junit: resolve(values.junit),
    markdown: resolve(values.markdown),
  };
}

async function reportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      report: { type: "string" },
      junit: { type: "string" },
      markdown: { type: "string" },
      "max-cases": { type: "string" },
      "fail-under": { type: "string" },
      config: { type: "string", short: "c" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(reportHelp);
    return ExitCode.OK;
  }
  const { failUnder, failUnderFrom } = failUnderOf(
    values["fail-under"],
    configFor(values.config, io),
    io,
  );
  if (positionals.length !== 1)
    throw usageError("report takes one results file (see toolscore report --help)");
  const maxCases = values["max-cases"] === undefined ? undefined : Number(values["max-cases"]);
  if (maxCases !== undefined && !(Number.isInteger(maxCases) && maxCases >= 1)) {
    throw usageError("--max-cases must be a whole number of at least 1", "--max-cases");
  }
  const results = { noun: "results", kinds: "the .jsonl that eval wrote", option: "results" };
  const file = namedFile(positionals[0], results, io);
  const { summary, metrics, dataset } = await readRun(file);
  const failures = summary.failed > 0 ? await firstFailures(file, maxFailuresShown) : [];
  const width = io.stdout.isTTY === true ? io.stdout.columns : undefined;
  io.stdout.write(
    `${formatConsoleSummary(summary, {
      failures,
      verbose: values.verbose === true,
      ...(width === undefined ? {} : { width }),
    })}\n`,
  );
  const gate = gateVerdict(summary, { failUnder, failUnderFrom });
  await writeReports({
    out: file,
    summary,
    metrics,
    reports: targetsOf(values, io.cwd),
    io: { ...io, env: { ...io.env, GITHUB_STEP_SUMMARY: undefined } },
    dataset: datasetPath(dataset, file, io.cwd),
    source: dataset,
    ...(maxCases === undefined ? {} : { maxCases }),
    gate,
  });
  io.stdout.write(`${gate.text}\n`);
  return ExitCode.OK;
}

async function mergeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      "fail-under": { type: "string" },
      config: { type: "string", short: "c" },
      report: { type: "string" },
      junit: { type: "string" },
      markdown: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    io.stdout.write(mergeHelp);
    return ExitCode.OK;
  }
  const { failUnder, failUnderFrom } = failUnderOf(
    values["fail-under"],
    configFor(values.config, io),
    io,
  );
  if (values.out === undefined) throw usageError("merge needs --out <merged.jsonl>", "--out");
  if (positionals.length === 0) throw usageError("merge needs the shard results files", "files");
  const out = path.resolve(io.cwd, values.out);
  refuseLinkedOutput(out, { option: "--out", within: io.cwd });
  const results = { noun: "results", kinds: "the .jsonl that eval wrote", option: "files" };
  const inputs = positionals.map((file) => namedFile(file, results, io));
  if (inputs.includes(out)) throw usageError("--out must not be one of the files merged", "--out");
  try {
    await mergeResults({ inputs, out });
  } catch (error) {
    // Shards that do not fit together are a failed run, not a bad command line.
    if (ToolscoreError.isInstance(error) && error.code === "RESULTS_FILE") {
      io.stderr.write(`toolscore merge: ${printableLines(error.message)}\n`);
      return ExitCode.RUNTIME;
    }
    throw error;
  }
  const { summary, metrics, dataset } = await readRun(out);
  io.stdout.write(`${formatConsoleSummary(summary)}\nmerged: ${values.out}\n`);
  const gate = gateVerdict(summary, { failUnder, failUnderFrom });
  await writeReports({
    out,
    summary,
    metrics,
    reports: targetsOf(values, io.cwd),
    io,
    dataset: datasetPath(dataset, out, io.cwd),
    source: dataset,
    gate,
  });
  io.stdout.write(`${gate.text}\n`);
  return gate.exitCode;
}

const commands: Record<
  string,
  { run: (argv: readonly string[], io: CliIo) => Promise<number>; help: string }
> = {
  eval: { run: evalCommand, help: evalHelp },
  dataset: { run: datasetCommand, help: datasetHelp },
  parse: { run: parseCommand, help: parseHelp },
  report: { run: reportCommand, help: reportHelp },
  merge: { run: mergeCommand, help: mergeHelp },
  compare: { run: compareCommand, help: compareHelp },
  cache: { run: cacheCommand, help: cacheHelp },
  init: { run: initCommand, help: initHelp },
  calibrate: { run: calibrateCommand, help: calibrateHelp },
};

/**
 * What was wrong with the flags: an unknown one with the closest the command's help lists ("did
 * you mean"), else node's own words.
 */
function flagProblem(error: TypeError, help: string): string {
  const unknown = /^Unknown option '(--?[^']+)'/.exec(error.message)?.[1];
  if (unknown === undefined) return error.message;
  const flags = new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map(([flag]) => flag));
  return `unknown flag ${unknown}${didYouMean(unknown, flags)}`;
}

/** The values of the environment's variables that hold credentials, by their names. */
function secretsOf(env: CliIo["env"]): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(name) ? [value] : [],
  );
}

/**
 * The toolscore command line, callable in-process (tests) or from `bin`: runs one command and
 * resolves to its exit code; errors are printed, never thrown.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  // Values from data reach the console: none may become a CI log's workflow command, and no key
  // of the environment's (a server may echo the one it was sent) may show.
  const redact = createRedactor(secretsOf(given.env));
  const io: CliIo = {
    ...given,
    stdout: guardConsole(given.stdout, redact),
    stderr: guardConsole(given.stderr, redact),
  };
  const name = argv.at(0);
  const rest = argv.slice(1);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(mainHelp);
    return name === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  if (name === "--version" || name === "-v") {
    const pkg = JSON.parse(
      await readFile(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    io.stdout.write(`${pkg.version}\n`);
    return ExitCode.OK;
  }
  // Own keys only: "toString" is on every object's prototype, not a command.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (command === undefined) {
    io.stderr.write(
      `toolscore: unknown command ${printable(JSON.stringify(name))}${didYouMean(name, Object.keys(commands))}\n\n${mainHelp}`,
    );
    return ExitCode.USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const parseArgsError =
      error instanceof TypeError &&
      (error as { code?: unknown }).code !== undefined &&
      String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    if (parseArgsError) {
      io.stderr.write(
        `toolscore ${name}: ${printable(flagProblem(error, command.help))}\nSee toolscore ${name} --help\n`,
      );
      return ExitCode.USAGE;
    }
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    const prefix = ToolscoreError.isInstance(error) ? `${error.code}: ` : "";
    io.stderr.write(`toolscore ${name}: ${prefix}${printableLines(message)}\n`);
    if (!ToolscoreError.isInstance(error) && error instanceof Error && error.stack !== undefined) {
      io.stderr.write(`${error.stack}\n`);
    }
    return code;
  }
}
