/**
 * The settings of a run, one entry each: `eval`'s flags and --help, the config file's keys and its
 * published JSON Schema, and what `report`, `merge`, `view` and `cache` read of them come from this
 * table. Adding a setting is one entry here and the code that uses it.
 */
import { defaultMaxNotEvaluable, gateRates, notEvaluablePolicies } from "../core/gate.js";
import { divergenceModes } from "../core/trajectory-diff.js";
import type { Divergences } from "../core/trajectory-diff.js";
import type { GateRate, NotEvaluablePolicy } from "../core/gate.js";
import { readGroupBy } from "../core/repeats.js";
import type { GroupBy } from "../core/repeats.js";
import { turnAggregates } from "../core/turns.js";
import type { TurnAggregate } from "../core/turns.js";
import { isJsonObject } from "../core/json.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { detailsChoices } from "../evaluate-to-file/run-options.js";
import type { DetailsChoice } from "../evaluate-to-file/run-options.js";
import { commandProcesses } from "../agent/command-agent.js";
import type { CommandProcess } from "../agent/command-agent.js";
import { usageError } from "./io.js";
import { configSchemaOf, kinds } from "./settings.js";
import type { ConfigGroup, Kind, SettingsTable } from "./settings.js";

/** One metric of a run as configured: a registry id, and its options. */
export interface MetricConfig {
  readonly metric: string;
  readonly options: JsonObject;
}

/** A shard of the dataset: the cases whose position mod `count` is `index`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Every setting of a run, resolved: the flags over the config file over the defaults. */
export interface RunSettings {
  readonly expected: string | undefined;
  readonly metrics: readonly MetricConfig[];
  /** `--set metric.option=value`, applied to the metrics in order. */
  readonly set: readonly string[];
  readonly config: string | undefined;
  readonly threshold: number | undefined;
  /** The judge's `provider/model`. */
  readonly judge: string | undefined;
  /** Each try of a judge call, the answer's read included. */
  readonly judgeTimeoutMs: number | undefined;
  readonly batch: boolean;
  readonly noCache: boolean;
  readonly normalizeNames: boolean;
  readonly concurrency: number | undefined;
  readonly workers: number | undefined;
  readonly out: string;
  readonly resume: boolean;
  readonly retryErrors: boolean;
  readonly overwrite: boolean;
  readonly report: string | undefined;
  readonly junit: string | undefined;
  readonly markdown: string | undefined;
  readonly details: DetailsChoice;
  readonly shard: Shard | undefined;
  readonly failUnder: number | undefined;
  readonly notEvaluable: NotEvaluablePolicy | undefined;
  readonly maxNotEvaluable: number | undefined;
  readonly gateOn: GateRate | undefined;
  readonly failOnFlaky: boolean;
  readonly groupBy: GroupBy | undefined;
  readonly turnAggregate: TurnAggregate | undefined;
  readonly baseline: string | undefined;
  readonly tolerance: number | undefined;
  /** Argument and output paths a trajectory diff leaves out (ids, timestamps). */
  readonly ignorePaths: readonly string[];
  /** The rate of the baseline's runs that may differ at a place before it is noise. */
  readonly flakyRate: number | undefined;
  /** Whether a trajectory diff compares each turn's final answer. */
  readonly compareAnswers: boolean;
  /** Whether a trajectory diff leaves tools' outputs out. */
  readonly ignoreOutputs: boolean;
  /** Whether a regression in the calls fails the comparison, or is only reported. */
  readonly divergences: Divergences | undefined;
  readonly otlpEvents: string | undefined;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly filter: string | undefined;
  readonly onlyFailed: string | undefined;
  readonly limit: number | undefined;
  readonly bail: number | undefined;
  readonly watch: boolean;
  readonly dryRun: boolean;
  readonly help: boolean;
  readonly judgeBaseURL: string | undefined;
  readonly judgeConcurrency: number | undefined;
  readonly judgeRequestsPerMinute: number | undefined;
  readonly judgeMaxRetries: number | undefined;
  /** The judge cache folder (relative to the current folder), or false for none. */
  readonly judgeCache: string | false | undefined;
  readonly judgeBatchIntervalSeconds: number;
  readonly judgeBatchMaxChecks: number;
  /** Most cases the HTML report shows (failures first). */
  readonly reportMaxCases: number | undefined;
  /** The agent under test: a module, or a command (see docs/guides/agent-protocol.md). */
  readonly agent: string | undefined;
  /** Runs of each case by the agent. */
  readonly repeat: number;
  /** Each run's deadline (default 300000 ms). */
  readonly agentTimeoutMs: number | undefined;
  /** Where the agent's runs are recorded (default: beside the results file). */
  readonly recordings: string | undefined;
  /** A command agent's processes: one per run (default), or long-lived. */
  readonly agentProcess: CommandProcess | undefined;
  /** Headers sent to an HTTP agent, `Name: value`, `${VAR}` read from the environment. */
  readonly agentHeaders: readonly string[];
  /** The tools simulated for the agent (definitions: OpenAI, Anthropic, MCP). */
  readonly tools: string | undefined;
  /** What the simulated tools answer: entries of outputs and faults (JSONL, JSON, YAML). */
  readonly toolOutputs: string | undefined;
  /** Recordings of an earlier run whose outputs the simulated tools answer each case's calls with. */
  readonly toolOutputsFrom: string | undefined;
  /** The seed of the simulated tools' draws and of the simulated users' questions. */
  readonly seed: number | undefined;
  /** The model that plays the cases' simulated users (`provider/model`). */
  readonly userModel: string | undefined;
}

const metrics = "Metrics and options";
const results = "Results and reports";
const agentGroup = "The agent under test";

/** The metrics as configured, in either form the schema allows. */
function metricsOf(value: JsonValue): MetricConfig[] {
  // `metrics: { tool-call-accuracy: { order: strict } }`
  if (isJsonObject(value)) {
    return Object.entries(value).map(([metric, options]) => ({
      metric,
      options: (options ?? {}) as JsonObject,
    }));
  }
  // `metrics: [tool-call-accuracy, { metric: axion-tool-correctness, strict_order: true }]`
  return (value as (string | JsonObject)[]).map((item) => {
    if (typeof item === "string") return { metric: item, options: {} };
    const { metric, ...options } = item;
    return { metric: metric as string, options };
  });
}

const metricEntry: JsonObject = {
  oneOf: [
    { $ref: "#/definitions/metricId" },
    {
      type: "object",
      required: ["metric"],
      properties: { metric: { $ref: "#/definitions/metricId" } },
      errorMessage: 'must be a metric id, or an object with a "metric" id and its options',
    },
  ],
  errorMessage: 'must be a metric id, or an object with a "metric" id and its options',
};

/** `--metric` ids, else the config's metrics; an id named by both keeps the config's options. */
const metricList: Kind<readonly MetricConfig[]> = {
  flagType: "string",
  multiple: true,
  schema: {
    errorMessage: "must be a list, or an object of options by metric id",
    oneOf: [
      { type: "array", items: metricEntry },
      {
        type: "object",
        propertyNames: { $ref: "#/definitions/metricId" },
        additionalProperties: {
          type: ["object", "null"],
          errorMessage: "must be an object of the metric's options",
        },
      },
    ],
  },
  fromFlag: (value) => (value as readonly string[]).map((metric) => ({ metric, options: {} })),
  // An empty list or object is no metrics given: the default runs.
  fromConfig: (value) => metricsOf(value),
};

function shardOf(value: string, flag: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match === null ? NaN : Number(match[1]);
  const count = match === null ? NaN : Number(match[2]);
  if (!(count >= 1 && index >= 1 && index <= count)) {
    throw usageError(
      `${flag} takes i/n with 1 <= i <= n (e.g. ${flag} 2/4), got ${JSON.stringify(value)}`,
      flag,
    );
  }
  return { index: index - 1, count };
}

const whole = (minimum: number, errorMessage: string) => ({
  type: "integer",
  minimum,
  errorMessage,
});

/** The run's settings: the order is --help's within each group, and the schema's. */
/** The config file's objects of settings (`judge: { model, ... }`), each described in `configGroups`. */
type RunConfigGroup = "judge" | "user";

export const runSettings: SettingsTable<RunSettings, RunConfigGroup> = {
  expected: {
    kind: kinds.text,
    flag: {
      short: "e",
      value: "<file>",
      help: "with recordings: the expected cases, by recording id (see\ntoolscore dataset --help)",
      group: metrics,
    },
  },
  metrics: {
    kind: metricList,
    flag: {
      name: "metric",
      short: "m",
      value: "<id>",
      help: "a metric to run (repeatable); default tool-call-accuracy",
      group: metrics,
    },
    config: {
      doc: "The metrics of the run: a list of ids or { metric, ...options }, or an object of options by metric id. Default: tool-call-accuracy.",
    },
    fallback: () => [{ metric: "tool-call-accuracy", options: {} }],
    combine: (fromFlag, fromConfig) =>
      fromFlag.map(({ metric }) => ({
        metric,
        options: fromConfig.find((item) => item.metric === metric)?.options ?? {},
      })),
  },
  set: {
    kind: kinds.texts,
    flag: {
      value: "<id.opt=value>",
      help: "set a metric option (repeatable), e.g. --set tool-call-accuracy.order=strict",
      group: metrics,
    },
  },
  config: {
    kind: kinds.text,
    flag: {
      short: "c",
      value: "<file>",
      help: "toolscore.config.json / .yaml (default: one in the current folder)",
      group: metrics,
    },
  },
  threshold: {
    kind: kinds.share,
    flag: {
      value: "<0..1|N%>",
      help: "passing score of every metric that sets none",
      group: metrics,
    },
    config: {
      doc: "The passing score of every metric that sets none: a share from 0 to 1, or a percentage",
    },
  },
  judge: {
    kind: kinds.text,
    flag: {
      value: "<model>",
      help: "the judge of judged metrics, e.g. openai/gpt-4o-mini",
      group: metrics,
    },
    config: {
      key: "judge.model",
      doc: "provider/model, e.g. openai/gpt-4o-mini",
      schema: { errorMessage: "must be provider/model (openai/gpt-4o-mini)" },
    },
  },
  judgeBaseURL: {
    kind: kinds.text,
    config: {
      key: "judge.baseURL",
      doc: "The judge's endpoint, for an OpenAI-compatible server",
      schema: { errorMessage: "must be a URL" },
    },
  },
  judgeConcurrency: {
    kind: kinds.number(1, 10_000, { type: "number", errorMessage: "must be a number" }),
    config: { key: "judge.concurrency", doc: "Judge calls at once" },
  },
  judgeRequestsPerMinute: {
    kind: kinds.number(1, 1_000_000, { type: "number", errorMessage: "must be a number" }),
    config: { key: "judge.requestsPerMinute", doc: "Most judge calls a minute" },
  },
  judgeTimeoutMs: {
    kind: kinds.number(1, 3_600_000),
    flag: {
      name: "judge-timeout",
      value: "<ms>",
      help: "each try of a judge call, the answer's read included (default\n60000); a call with its retries ends within (retries + 1) times it",
      group: metrics,
    },
    config: {
      key: "judge.timeoutMs",
      doc: "Each try's deadline in milliseconds (default 60000)",
      schema: whole(0, "must be a whole number of milliseconds"),
    },
  },
  judgeMaxRetries: {
    kind: kinds.number(0, 100, whole(0, "must be a whole number of retries")),
    config: { key: "judge.maxRetries", doc: "The SDK's retries (default 3)" },
  },
  judgeCache: {
    kind: {
      ...kinds.text,
      schema: {
        type: ["string", "boolean"],
        not: { const: true },
        errorMessage: "must be a folder, or false for none",
      },
      fromConfig: (value) => value as string | false,
    },
    config: { key: "judge.cache", doc: "The judge cache folder, or false for none" },
  },
  batch: {
    kind: kinds.yesNo,
    flag: {
      help: "send the judge's questions through the provider's batch API (half\nthe price, answers within hours), then score every case from them",
      group: metrics,
    },
    config: {
      key: "judge.batch",
      doc: "Send the judge's questions through the provider's batch API (as --batch)",
    },
  },
  judgeBatchIntervalSeconds: {
    kind: kinds.number(0, 86_400, {
      type: "number",
      minimum: 0,
      maximum: 86400,
      errorMessage: "must be a number of seconds, from 0 to 86400",
    }),
    config: {
      key: "judge.batchIntervalSeconds",
      doc: "Seconds between status checks of a batch (default 30)",
    },
    fallback: () => 30,
  },
  judgeBatchMaxChecks: {
    kind: kinds.number(
      1,
      Number.MAX_SAFE_INTEGER,
      whole(1, "must be a whole number of checks, at least 1"),
    ),
    config: {
      key: "judge.batchMaxChecks",
      doc: "Status checks of a batch at most before the run stops, resumable (default 120)",
    },
    fallback: () => 120,
  },
  noCache: {
    kind: kinds.yesNo,
    flag: {
      help: "ask the judge again: judge answers are neither read from nor\nwritten to the cache (toolscore cache clear empties it)",
      group: metrics,
    },
  },
  normalizeNames: {
    kind: kinds.yesNo,
    flag: {
      help: "strip random suffixes from tool names read from transcripts",
      group: metrics,
    },
    config: { doc: "Compare tool names normalized (case, separators)" },
  },
  concurrency: {
    kind: kinds.number(1, 10_000, { type: "number", errorMessage: "must be a number" }),
    flag: { value: "<n>", help: "cases in flight at once (default 8)", group: metrics },
    config: { doc: "Cases scored at once" },
  },
  workers: {
    kind: kinds.number(0, 64),
    flag: {
      value: "<n>",
      help: "worker threads for deterministic metrics on JSONL (default: 2 for\ndatasets of 16 MiB or more, none on 1 core; each adds about 40 MB)",
      group: metrics,
    },
  },
  out: {
    kind: kinds.file,
    flag: {
      short: "o",
      value: "<file>",
      help: "results file (default toolscore-results.jsonl)",
      group: results,
    },
    config: { doc: "The results file (JSONL), relative to this file" },
    fallback: (cwd) => kinds.file.fromFlag("toolscore-results.jsonl", "--out", cwd),
  },
  resume: {
    kind: kinds.yesNo,
    flag: { help: "skip cases the results file already holds", group: results },
  },
  retryErrors: {
    kind: kinds.yesNo,
    flag: { help: "with --resume, run again the cases that ended in an error", group: results },
  },
  overwrite: {
    kind: kinds.yesNo,
    flag: {
      help: "start over even if the results file holds an unfinished run",
      group: results,
    },
  },
  report: {
    kind: kinds.file,
    flag: { value: "<file.html>", help: "single-file HTML report", group: results },
    config: { doc: "The HTML report, relative to this file" },
  },
  junit: {
    kind: kinds.file,
    flag: { value: "<file.xml>", help: "JUnit XML, one test per case and metric", group: results },
    config: { doc: "The JUnit XML report, relative to this file" },
  },
  markdown: {
    kind: kinds.file,
    flag: {
      value: "<file.md>",
      help: "Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)",
      group: results,
    },
    config: { doc: "The Markdown report, relative to this file" },
  },
  reportMaxCases: {
    kind: kinds.number(
      1,
      Number.MAX_SAFE_INTEGER,
      whole(1, "must be a whole number of at least 1"),
    ),
    config: { doc: "Most cases the HTML report shows, failures first (default 2000)" },
  },
  details: {
    kind: kinds.choice(detailsChoices),
    flag: {
      value: "<none|failed|all>",
      help: "which cases keep their alignment in the results file: none (default;\na case read from a JSONL line keeps its score and reason, and reports\ncompute its alignment again from the line), the failed ones, or all",
      group: results,
    },
    config: { doc: "Which cases keep their alignment in the results file (default none)" },
    fallback: () => "none",
  },
  shard: {
    kind: kinds.read(shardOf),
    flag: {
      value: "<i/n>",
      help: "run only cases whose position mod n is i-1 (merge them with merge)",
      group: results,
    },
  },
  failUnder: {
    kind: kinds.share,
    flag: {
      value: "<0..1|N%>",
      help: "pass when at least this share of cases passes (default: the config's fail_under, else all)",
      group: results,
    },
    config: {
      doc: 'The gate: the run fails when fewer cases than this share pass (0.9 or "90%")',
    },
  },
  notEvaluable: {
    kind: kinds.choice(notEvaluablePolicies),
    flag: {
      value: "fail|ignore",
      help: "cases a judge could not tell fail the gate (default), or are left out of it",
      group: results,
    },
    config: {
      doc: "Cases a judge could not tell: they fail the gate (fail, the default) or are left out of it, the pass rate taken over the rest (ignore)",
    },
  },
  maxNotEvaluable: {
    kind: kinds.share,
    flag: {
      value: "<0..1|N%>",
      help: `with --not-evaluable ignore, fail past this share of cases not evaluable\n(default ${defaultMaxNotEvaluable * 100}%)`,
      group: results,
    },
    config: {
      doc: `With not_evaluable: ignore, the gate fails past this share of cases a judge could not tell, and when none is left (default ${defaultMaxNotEvaluable * 100}%)`,
    },
  },
  gateOn: {
    kind: kinds.choice(gateRates),
    flag: {
      value: "pass-rate|pass@k|pass^k",
      help: "the rate --fail-under holds: cases passed (default), or over repeated\nruns the cases some run (pass@k) or every run (pass^k) passed",
      group: results,
    },
    config: {
      doc: "The rate fail_under holds: cases passed (pass-rate, the default), or over repeated runs the cases some run (pass@k) or every run (pass^k) passed",
    },
  },
  failOnFlaky: {
    kind: kinds.yesNo,
    flag: {
      help: "fail when a case passed in some of its runs and failed in others",
      group: results,
    },
    config: {
      doc: "Fail the gate when a case passed in some of its runs and failed in others",
    },
  },
  groupBy: {
    kind: kinds.read(readGroupBy, {
      type: "string",
      pattern: "^(id|metadata\\.[^.]+(\\.[^.]+)*)$",
      errorMessage: "takes id or metadata.<key> (e.g. metadata.task_id)",
    }),
    flag: {
      value: "<key>",
      help: "cases that are runs of one case: id, or metadata.<key> (e.g.\nmetadata.task_id); the summary adds pass@k, pass^k and the flaky\ncases (cases with a run number are grouped by id without it)",
      group: results,
    },
    config: { doc: "What makes cases runs of one case: id or metadata.<key>" },
  },
  turnAggregate: {
    kind: kinds.choice(turnAggregates),
    flag: {
      value: "mean|min|all",
      help: "how a conversation's turns (a case's turns) make its score, unless\nthe case says: mean (default), min, or all (1 only when every turn\npasses)",
      group: metrics,
    },
    config: {
      doc: "How a conversation's turns make its score, unless a case says: mean (default), min, or all (every turn passes)",
    },
  },
  baseline: {
    kind: kinds.text,
    flag: {
      value: "<results>",
      help: "compare with an earlier run's results file: regressions fail the run\n(exit 1) instead of failed cases (see toolscore compare)",
      group: results,
    },
  },
  tolerance: {
    kind: kinds.number(0, 1),
    flag: {
      value: "<0..1>",
      help: "with --baseline, how far a score may move without counting (default 0)",
      group: results,
    },
  },
  ignorePaths: {
    kind: kinds.texts,
    flag: {
      name: "ignore",
      value: "<path>",
      help: "with a baseline, an argument or output path that varies from run to\nrun and is not compared (repeatable): --ignore request_id",
      group: results,
    },
    config: {
      doc: "Argument and output paths that vary from run to run (ids, timestamps), left out when the calls are compared with a baseline's",
    },
  },
  flakyRate: {
    kind: kinds.number(0, 1),
    flag: {
      value: "<0..1>",
      help: "with a baseline, how often its own runs may differ at a place before\na difference there is noise, not a regression (default 0: never)",
      group: results,
    },
    config: {
      doc: "How often the baseline's own runs may differ at a place before a difference there is noise (default 0)",
    },
  },
  compareAnswers: {
    kind: kinds.yesNo,
    flag: {
      name: "answers",
      help: "with a baseline, compare each turn's final answer too",
      group: results,
    },
    config: { doc: "Compare each turn's final answer with the baseline's too" },
  },
  ignoreOutputs: {
    kind: kinds.yesNo,
    flag: {
      help: "with a baseline, leave tools' outputs and errors out of the comparison",
      group: results,
    },
    config: {
      doc: "Leave tools' outputs and errors out when the calls are compared with a baseline's",
    },
  },
  divergences: {
    kind: kinds.choice(divergenceModes),
    flag: {
      value: "fail|report",
      help: "whether calls that part from the baseline's fail the run (default)\nor are only reported",
      group: results,
    },
    config: {
      doc: "Whether calls that part from the baseline's (where its own runs do not) fail the run (fail, the default) or are only reported",
    },
  },
  otlpEvents: {
    kind: kinds.file,
    flag: {
      value: "<file.json>",
      help: "each score as an OpenTelemetry gen_ai.evaluation.result event on the\nroot span of the trace its run came from (OTLP JSON logs)",
      group: results,
    },
  },
  json: {
    kind: kinds.yesNo,
    flag: {
      help: "print one JSON object on stdout (summary, gate, files written); the\nconsole's lines go to stderr",
      group: results,
    },
  },
  quiet: {
    kind: kinds.yesNo,
    flag: {
      short: "q",
      help: "print the summary only: no failed cases, errors or notes",
      group: results,
    },
  },
  verbose: {
    kind: kinds.yesNo,
    flag: {
      short: "v",
      help: "print failed cases' whole reasons (default: one line each, cut to\nthe terminal's width)",
      group: results,
    },
  },
  filter: {
    kind: kinds.text,
    flag: {
      value: "<pattern>",
      help: "run only the cases whose id matches: a glob (tau-*, *-retry-?) or a\n/regular expression/ with flags i, m, s (RE2 syntax, run in\nlinear time: no lookarounds or backreferences)",
      group: results,
    },
  },
  onlyFailed: {
    kind: kinds.text,
    flag: {
      value: "<results>",
      help: "run only the cases that failed or errored in that results file",
      group: results,
    },
  },
  limit: {
    kind: kinds.number(1, Number.MAX_SAFE_INTEGER),
    flag: {
      value: "<n>",
      help: "run at most n cases (of those not done yet), in dataset order; the\nresults file is then unfinished, and --resume runs the rest",
      group: results,
    },
  },
  bail: {
    kind: kinds.number(1, Number.MAX_SAFE_INTEGER),
    flag: {
      value: "<n>",
      help: "stop cleanly once n cases failed or errored (--resume goes on)",
      group: results,
    },
  },
  watch: {
    kind: kinds.yesNo,
    flag: {
      help: "run again when the dataset, the recordings, the config or the expected\nfile change, scoring only the cases that changed (Ctrl-C ends it)",
      group: results,
    },
  },
  dryRun: {
    kind: kinds.yesNo,
    flag: {
      help: "check the config, the metrics, the judge's setup and every case of\nthe dataset, and score nothing (the results file is left alone)",
      group: results,
    },
  },
  help: { kind: kinds.yesNo, flag: { short: "h", group: results } },
  agent: {
    kind: kinds.text,
    flag: {
      value: "<module|command>",
      help: 'run the agent under test on each case that holds an input and no\nrecorded run, then score its runs: a module (agent.ts) or a command\n("python agent.py"); see docs/guides/agent-protocol.md',
      group: agentGroup,
    },
    config: { doc: "The agent under test: a module (agent.ts) or a command (python agent.py)" },
  },
  repeat: {
    kind: kinds.number(1, 1000, whole(1, "must be a whole number of runs, at least 1")),
    flag: {
      value: "<k>",
      help: "runs of each case by the agent (default 1): pass@k, pass^k and\nflaky cases come from them",
      group: agentGroup,
    },
    config: { doc: "Runs of each case by the agent (default 1)" },
    fallback: () => 1,
  },
  agentTimeoutMs: {
    kind: kinds.number(1, 86_400_000, whole(1, "must be a whole number of milliseconds")),
    flag: {
      name: "agent-timeout",
      value: "<ms>",
      help: "each run's deadline (default 300000): a run past it is the case's\nerror",
      group: agentGroup,
    },
    config: { doc: "Each run's deadline in milliseconds (default 300000)" },
  },
  recordings: {
    kind: kinds.file,
    flag: {
      value: "<file>",
      help: "where the agent's runs are recorded, a case a line (default: the\nresults file's name with .runs.jsonl); eval reads it again later",
      group: agentGroup,
    },
    config: { doc: "Where the agent's runs are recorded (JSONL), relative to this file" },
  },
  agentProcess: {
    kind: kinds.choice(commandProcesses),
    flag: {
      value: "per-run|long-lived",
      help: "a command agent's processes: one per run (default), or long-lived,\nanswering a JSON line per run (see docs/guides/agent-protocol.md)",
      group: agentGroup,
    },
    config: {
      doc: "A command agent's processes: one per run (per-run, the default) or long-lived, answering a JSON line per run",
    },
  },
  agentHeaders: {
    kind: kinds.texts,
    flag: {
      name: "agent-header",
      value: "<'Name: value'>",
      help: "a header sent to an HTTP agent (repeatable); ${VAR} in the value is\nread from the environment: --agent-header 'Authorization: Bearer ${TOKEN}'",
      group: agentGroup,
    },
    config: {
      doc: "Headers sent to an HTTP agent, each 'Name: value'; ${VAR} in a value is read from the environment",
    },
  },
  tools: {
    kind: kinds.file,
    flag: {
      value: "<file>",
      help: "tools toolscore simulates for the agent (OpenAI, Anthropic or MCP\ndefinitions): a module gets them in its context, a command or an\nendpoint over MCP (see docs/guides/simulated-tools.md)",
      group: agentGroup,
    },
    config: {
      doc: "Tools simulated for the agent: a JSON or YAML file of definitions, relative to this file",
    },
  },
  toolOutputs: {
    kind: kinds.file,
    flag: {
      value: "<file>",
      help: "what the simulated tools answer: a line per tool, arguments and\noutput or fault (error, timeout, rate-limit, malformed, latency);\na case's own toolOutputs come first",
      group: agentGroup,
    },
    config: {
      doc: "What the simulated tools answer: a JSONL, JSON or YAML file of entries, relative to this file",
    },
  },
  toolOutputsFrom: {
    kind: kinds.file,
    flag: {
      value: "<recordings>",
      help: "answer each case's tool calls as its run in these recordings was\nanswered (the same call of a tool with the same arguments; else the\nlast output those arguments got), before --tool-outputs",
      group: agentGroup,
    },
    config: {
      doc: "Recordings of an earlier run whose tool outputs answer each case's calls, relative to this file",
    },
  },
  seed: {
    kind: kinds.number(0, 4_294_967_295, whole(0, "must be a whole number, 0 or more")),
    flag: {
      value: "<n>",
      help: "the seed of the simulated tools' faults on a share of calls and\nof the simulated users' questions (default 0): the same seed, the\nsame faults, and a user's questions replayed from the judge cache",
      group: agentGroup,
    },
    config: {
      doc: "The seed of the simulated tools' faults on a share of calls and of the simulated users' questions (default 0)",
    },
  },
  userModel: {
    kind: kinds.text,
    flag: {
      value: "<model>",
      help: "the model that plays the cases' simulated users (a case's user:\ngoal, facts, persona, maxTurns), e.g. openai/gpt-4o-mini; asked\nthrough the judge's cache and limits (see docs/guides/simulated-users.md)",
      group: agentGroup,
    },
    config: {
      key: "user.model",
      doc: "provider/model that plays the cases' simulated users, e.g. openai/gpt-4o-mini",
      schema: { errorMessage: "must be provider/model (openai/gpt-4o-mini)" },
    },
  },
};

/** How calls are compared with a baseline's, in eval, compare and view. */
export const callComparingSettings = [
  "ignorePaths",
  "flakyRate",
  "compareAnswers",
  "ignoreOutputs",
] as const;

/** How a trajectory diff against a baseline is made and gated, in eval and compare. */
export const diffSettings = [...callComparingSettings, "divergences"] as const;

export type DiffSettings = Pick<RunSettings, (typeof diffSettings)[number]>;

/** The gate's settings, the same in every command that states a run's gate (eval, report, merge, view). */
export const gateSettings = [
  "failUnder",
  "notEvaluable",
  "maxNotEvaluable",
  "gateOn",
  "failOnFlaky",
] as const;

/** The config file's objects of settings. */
export const configGroups: Readonly<Record<RunConfigGroup, ConfigGroup>> = {
  judge: {
    description:
      "The judge of judged metrics: a model string, or { model, ... } with its settings.",
    errorMessage: 'must be a model string ("openai/gpt-4o-mini") or { model, ... }',
    shorthand: "model",
  },
  user: {
    description:
      "The model that plays the cases' simulated users: a model string, or { model }; asked through the judge's cache and limits.",
    errorMessage: 'must be a model string ("openai/gpt-4o-mini") or { model }',
    shorthand: "model",
  },
};

/** Whether a config file's top-level key is one of its objects of settings. */
export function isConfigGroup(key: string): key is RunConfigGroup {
  return Object.hasOwn(configGroups, key);
}

/**
 * The config file's JSON Schema, also published for editors (`toolscore/config.schema.json`):
 * each setting with its description and, as `errorMessage`, what it must be.
 */
export function runConfigSchema(metricIds: readonly string[]): JsonObject {
  return configSchemaOf(runSettings, configGroups, {
    top: {
      $schema: "http://json-schema.org/draft-07/schema#",
      title: "toolscore config",
      description:
        "toolscore.config.json / .yaml: the metrics, judge and gate of `toolscore eval`. Keys in camelCase or snake_case.",
      type: "object",
    },
    first: {
      $schema: {
        type: "string",
        description: "The schema an editor checks this file against; toolscore does not read it.",
      },
    },
    definitions: {
      metricId: {
        enum: [...metricIds],
        description: "A metric of toolscore's registry (toolscore eval --help lists them)",
      },
      share: {
        oneOf: [
          { type: "number", minimum: 0, maximum: 1 },
          { type: "string", pattern: "^\\s*\\d+(\\.\\d+)?\\s*%\\s*$" },
        ],
        errorMessage: 'must be a share from 0 to 1 (0.9) or a percentage ("90%")',
      },
      path: { type: "string", minLength: 1, errorMessage: "must be a path" },
    },
  });
}
