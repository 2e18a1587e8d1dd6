/**
 * `eval --agent`: the agent under test run on the dataset's cases into a recordings file, which
 * the run then scores as its dataset (see agent/record-runs.ts).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { CommandProcess } from "../agent/command-agent.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import type { RunSettings } from "./run-settings.js";
import type { JudgeSettings } from "./run-judge.js";
import { defaultConcurrency } from "../core/options.js";

/** What running the agent needs, checked. */
export interface AgentRunPlan {
  readonly spec: string;
  /** Where a module's path is read from and a command runs. */
  readonly cwd: string;
  readonly recordings: string;
  readonly repeat: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly process: CommandProcess | undefined;
  /** Run again the runs the agent failed (`--retry-errors`), keeping the rest. */
  readonly retryFailed: boolean;
  /** The shard whose cases the agent runs; the recordings hold them only. */
  readonly shard: RunSettings["shard"];
  /** Headers for an HTTP agent, their `${VAR}`s read. */
  readonly headers: Readonly<Record<string, string>>;
  /** Load a module agent anew (`--watch`: it may have been edited). */
  readonly fresh?: boolean;
  /** The simulated tools' files and seed, when the run gives any. */
  readonly simulation: SimulationFiles | undefined;
  /**
   * The model that plays simulated users, when the run names one: asked as the run's judge is
   * (its cache, timeouts and limits), with the run's seed.
   */
  readonly user: JudgeSettings | undefined;
  readonly seed: number;
}

/** The simulated tools' files, as the run names them, and the seed. */
export interface SimulationFiles {
  readonly tools?: string;
  readonly outputs?: string;
  readonly recorded?: string;
  readonly seed: number;
}

/** The agent run of `settings`, checked; undefined without --agent. */
export function agentRunOf(
  settings: RunSettings,
  context: {
    readonly datasetGiven: boolean;
    /** The config file that named the agent, when the command line did not. */
    readonly namedBy: string | undefined;
  },
  io: CliIo,
): AgentRunPlan | undefined {
  const { datasetGiven } = context;
  if (settings.agent === undefined) {
    // Said, not ignored: each of these means something only with an agent.
    if (settings.repeat !== 1) {
      throw usageError("--repeat runs the agent several times: give --agent", "--repeat");
    }
    if (settings.agentTimeoutMs !== undefined) {
      throw usageError(
        "--agent-timeout bounds each run of the agent: give --agent",
        "--agent-timeout",
      );
    }
    if (settings.recordings !== undefined) {
      throw usageError("--recordings is where the agent's runs go: give --agent", "--recordings");
    }
    if (settings.agentProcess !== undefined) {
      throw usageError(
        "--agent-process says how a command agent runs: give --agent",
        "--agent-process",
      );
    }
    if (settings.agentHeaders.length > 0) {
      throw usageError("--agent-header goes to an HTTP agent: give --agent", "--agent-header");
    }
    for (const [flag, given] of [
      ["--tools", settings.tools],
      ["--tool-outputs", settings.toolOutputs],
      ["--tool-outputs-from", settings.toolOutputsFrom],
      ["--seed", settings.seed],
      ["--user-model", settings.userModel],
    ] as const) {
      if (given !== undefined) {
        throw usageError(
          `${flag} ${flag === "--user-model" ? "plays the simulated users of the agent under test" : "simulates the tools of the agent under test"}: give --agent`,
          flag,
        );
      }
    }
    return undefined;
  }
  if (settings.expected !== undefined) {
    throw usageError("--expected goes with recordings; --agent runs a dataset of cases", "--agent");
  }
  if (!datasetGiven) {
    throw usageError(
      "--agent runs a dataset's cases (a .jsonl, .json or .yaml file): give one, not recordings",
      "--agent",
    );
  }
  const recordings =
    settings.recordings ?? settings.out.replace(/(\.jsonl)?$/, (ext) => `.runs${ext || ".jsonl"}`);
  if (recordings === settings.out) {
    throw usageError("--recordings is the results file: give each its own file", "--recordings");
  }
  refuseLinkedOutput(recordings, { option: "--recordings", within: io.cwd });
  if (settings.retryErrors && !settings.resume) {
    throw usageError(
      "--retry-errors runs again the runs the agent failed in the recordings: give --resume too",
      "--retry-errors",
    );
  }
  if (existsSync(recordings) && !settings.resume && !settings.overwrite) {
    throw usageError(
      `${shownPath(recordings, io)} holds earlier runs of the agent: --resume runs only the cases it lacks, --overwrite runs them all again`,
      "--recordings",
    );
  }
  return {
    spec: settings.agent,
    // An agent a config names runs from the config's folder, as its other paths are read.
    cwd: context.namedBy === undefined ? io.cwd : path.dirname(context.namedBy),
    recordings: path.resolve(io.cwd, recordings),
    repeat: settings.repeat,
    timeoutMs: settings.agentTimeoutMs ?? 300_000,
    concurrency: settings.concurrency ?? defaultConcurrency,
    resume: settings.resume,
    process: settings.agentProcess,
    shard: settings.shard,
    retryFailed: settings.retryErrors,
    headers: headersOf(settings.agentHeaders, io.env),
    simulation: simulationFilesOf(settings),
    user: settings.userModel === undefined ? undefined : { ...settings, judge: settings.userModel },
    seed: settings.seed ?? 0,
  };
}

/** The simulated tools' files and seed the run gives; undefined when it gives none. */
function simulationFilesOf(settings: RunSettings): SimulationFiles | undefined {
  const { tools, toolOutputs, toolOutputsFrom, seed } = settings;
  if ([tools, toolOutputs, toolOutputsFrom, seed].every((given) => given === undefined)) {
    return undefined;
  }
  return {
    ...(tools === undefined ? {} : { tools }),
    ...(toolOutputs === undefined ? {} : { outputs: toolOutputs }),
    ...(toolOutputsFrom === undefined ? {} : { recorded: toolOutputsFrom }),
    seed: seed ?? 0,
  };
}

/**
 * Headers given as `Name: value`, each `${VAR}` in a value read from the environment, so that a
 * key is neither typed on the command line nor written in a config.
 */
export function headersOf(
  given: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of given) {
    const colon = header.indexOf(":");
    const name = header.slice(0, colon).trim();
    if (colon === -1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw usageError(
        `--agent-header ${JSON.stringify(header)} must be 'Name: value' (Authorization: Bearer \${TOKEN})`,
        "--agent-header",
      );
    }
    headers[name] = header
      .slice(colon + 1)
      .trim()
      .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
        const value = env[variable];
        if (value === undefined || value === "") {
          throw usageError(
            `--agent-header ${name} reads \${${variable}}, which is not set in the environment`,
            "--agent-header",
          );
        }
        return value;
      });
  }
  return headers;
}
