/**
 * `eval --agent`: the agent under test run on the dataset's cases into a recordings file, which
 * the run then scores as its dataset (see agent/record-runs.ts).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { recordAgentRuns } from "../agent/record-runs.js";
import type { RecordAgentRunsOptions, RecordedRuns } from "../agent/record-runs.js";
import type { Agent } from "../agent/agent.js";
import { createProgress } from "./progress.js";
import { resolveAgent } from "../agent/resolve-agent.js";
import { loadToolSimulation } from "../agent/simulation.js";
import { requireMcpSdk } from "../agent/mcp-tools.js";
import type { ToolSimulation } from "../agent/simulation.js";
import { InvalidInputError } from "../core/errors.js";
import { agentCommit } from "../agent/commit.js";
import type { CommandProcess } from "../agent/command-agent.js";
import { refuseLinkedOutput } from "../node/output-path.js";
import { plural } from "../core/words.js";
import { printable } from "../reporters/printable.js";
import { shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import type { RunSettings } from "./run-settings.js";
import { judgeOnDemand } from "./run-judge.js";
import type { JudgeSettings, RunJudge } from "./run-judge.js";
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
interface SimulationFiles {
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

/**
 * `--dry-run` with an agent: the agent is loaded (a module) or checked (a URL) and the dataset read
 * for the runs it would make; nothing is run and the recordings file is left alone.
 */
export async function dryRunAgent(plan: AgentRunPlan, dataset: string, io: CliIo): Promise<void> {
  const agent = await resolveAgent(plan.spec, {
    cwd: plan.cwd,
    process: plan.process,
    headers: plan.headers,
  });
  await agent.close?.();
  const simulation = await simulationOf(plan);
  const runs = await recordAgentRuns({
    ...recordOptions(plan, dataset, agent, io),
    simulation,
    dryRun: true,
  });
  const parts = [`would make ${plural(runs.ran, "run")} of ${printable(agent.name)}`];
  if (runs.kept > 0) parts.push(`keep ${runs.kept} from ${shownPath(plan.recordings, io)}`);
  if (runs.copied > 0) parts.push(`copy ${plural(runs.copied, "case")} as recorded`);
  io.stdout.write(`dry run: the agent ${parts.join(", ")}; nothing run.\n`);
}

/** Runs the agent on the dataset's cases into the recordings file; says what it did. */
export async function runAgentPhase(plan: AgentRunPlan, dataset: string, io: CliIo): Promise<void> {
  // Read before the agent starts: a tools file that cannot be read refuses the run.
  const simulation = await simulationOf(plan);
  const agent = await resolveAgent(plan.spec, {
    cwd: plan.cwd,
    process: plan.process,
    headers: plan.headers,
    fresh: plan.fresh,
  });
  // A command or an endpoint gets its simulated tools over MCP: the SDK is needed before any run.
  if (simulation !== undefined && agent.toolsInContext !== true) {
    await requireMcpSdk().catch(async (error: unknown) => {
      await agent.close?.();
      throw error;
    });
  }
  const shown = shownPath(plan.recordings, io);
  const progress = createProgress({
    stream: io.stderr,
    totalBytes: statSync(dataset).size,
    label: "toolscore: agent",
    noun: "run",
    slots: plan.concurrency,
  });
  const commit = await agentCommit(plan.cwd);
  const started = performance.now();
  const user = plan.user === undefined ? undefined : judgeOnDemand(plan.user, io, "user model");
  // A user model the first calls cannot reach stops the runs: one error, not one spoiled run a case.
  const signal =
    user === undefined || io.signal === undefined
      ? (user?.stop ?? io.signal)
      : AbortSignal.any([io.signal, user.stop]);
  let runs: RecordedRuns;
  try {
    runs = await recordAgentRuns({
      ...recordOptions(plan, dataset, agent, io, commit),
      signal,
      simulation,
      user: user?.model === undefined ? undefined : { model: user.model, seed: plan.seed },
      onStart: () => {
        progress.started();
      },
      onRun: (run) => {
        progress.busy(run.durationMs);
        progress.tick(
          run.status === "answered"
            ? "passed"
            : run.status === "spoiled"
              ? "not-evaluable"
              : "failed",
        );
      },
      onProgress: (bytes) => {
        progress.bytes(bytes);
      },
    });
  } catch (error) {
    const unreachable = unreachableUser(user, shown, io);
    if (unreachable !== undefined) throw unreachable;
    throw error;
  } finally {
    progress.finish();
    await agent.close?.();
  }
  const unreachable = unreachableUser(user, shown, io);
  if (unreachable !== undefined) throw unreachable;
  const parts = [`${plural(runs.ran, "run")} of ${printable(agent.name)}`];
  if (runs.failed > 0) parts.push(`${runs.failed} failed`);
  if (runs.spoiled > 0) {
    parts.push(`${runs.spoiled} spoiled by the simulated user (not evaluable)`);
  }
  if (runs.kept > 0) parts.push(`${runs.kept} kept from ${shown}`);
  if (runs.copied > 0) parts.push(`${plural(runs.copied, "case")} copied as recorded`);
  // How much of the time the run's slots spent in the agent: the rest was toolscore's, or idle.
  const wall = (performance.now() - started) * Math.min(plan.concurrency, Math.max(1, runs.ran));
  const busy =
    runs.ran > 0 && wall > 0
      ? `, ${Math.round(Math.min(1, runs.agentMs / wall) * 100)}% of the run`
      : "";
  if (runs.unanswered > 0) {
    io.stderr.write(
      `toolscore: warning: ${plural(runs.unanswered, "call")} of simulated tools found no output to answer them (recorded as unanswered in ${shown}): add entries for them to the tool outputs\n`,
    );
  }
  const asked = user?.summary();
  if (asked !== undefined) {
    parts.push(
      `the user model asked ${plural(asked.calls, "time")}${asked.cacheHits > 0 ? ` (${asked.cacheHits} answered from the cache)` : ""}`,
    );
  }
  io.stderr.write(
    `toolscore: ${parts.join(", ")}; agent time ${(runs.agentMs / 1000).toFixed(1)} s${busy}; recorded in ${shown}\n`,
  );
}

/** The run's simulated tools read from their files; a usage error naming the flag otherwise. */
async function simulationOf(plan: AgentRunPlan): Promise<ToolSimulation | undefined> {
  if (plan.simulation === undefined) return undefined;
  const { tools, outputs, recorded, seed } = plan.simulation;
  // Each file on its own: an error names the flag of the file it is in.
  const read = async (flag: string, files: Omit<SimulationFiles, "seed">) => {
    try {
      return await loadToolSimulation({ ...files, seed });
    } catch (error) {
      if (!InvalidInputError.isInstance(error)) throw error;
      throw usageError(error.message, flag);
    }
  };
  const served = await read("--tools", tools === undefined ? {} : { tools });
  const answers = await read("--tool-outputs", outputs === undefined ? {} : { outputs });
  const replayed = await read("--tool-outputs-from", recorded === undefined ? {} : { recorded });
  return {
    tools: served.tools,
    fixtures: answers.fixtures,
    seed,
    ...(replayed.recorded === undefined ? {} : { recorded: replayed.recorded }),
  };
}

function recordOptions(
  plan: AgentRunPlan,
  dataset: string,
  agent: Agent,
  io: CliIo,
  commit?: string,
): RecordAgentRunsOptions {
  return {
    commit,
    dataset,
    recordings: plan.recordings,
    agent,
    repeat: plan.repeat,
    concurrency: plan.concurrency,
    timeoutMs: plan.timeoutMs,
    resume: plan.resume,
    retryFailed: plan.retryFailed,
    shard: plan.shard,
    signal: io.signal,
  };
}

/**
 * Why the runs stopped, when the user model could not be reached (said on stderr, with where the
 * runs made so far are); undefined otherwise.
 */
function unreachableUser(user: RunJudge | undefined, shown: string, io: CliIo): Error | undefined {
  if (user?.stop.aborted !== true) return undefined;
  io.stderr.write(
    `toolscore: the user model cannot be reached, the agent's runs stopped; those recorded are kept in ${shown} (--resume goes on from them)\n`,
  );
  const reason: unknown = user.stop.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
