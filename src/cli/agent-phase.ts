/**
 * The agent phase of `eval --agent`: the agent run on the dataset's cases into the recordings
 * file (or, with --dry-run, the runs it would make). Loaded only by a run with an agent: an eval of
 * recordings never loads the agent runner.
 */
import { statSync } from "node:fs";
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
import { plural } from "../core/words.js";
import { printable } from "../reporters/printable.js";
import { shownPath, usageError } from "./io.js";
import type { CliIo } from "./io.js";
import { judgeOnDemand } from "./run-judge.js";
import type { RunJudge } from "./run-judge.js";
import type { AgentRunPlan, SimulationFiles } from "./eval-agent.js";

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
    // What its calls spent, as the judge's line says it: the run's cost is the agent's and theirs.
    const spent =
      asked.calls === 0
        ? ""
        : `, ${asked.inputTokens + asked.outputTokens} tokens, ${asked.estimatedCostUsd === undefined ? "cost unknown" : `~$${asked.estimatedCostUsd.toFixed(4)}`}`;
    parts.push(
      `the user model asked ${plural(asked.calls, "time")}${asked.cacheHits > 0 ? ` (${asked.cacheHits} answered from the cache)` : ""}${spent}`,
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
