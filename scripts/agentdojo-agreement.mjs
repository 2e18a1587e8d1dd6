#!/usr/bin/env node
/**
 * How `tool-safety` agrees with AgentDojo's published verdicts. Reads AgentDojo runs as the
 * Invariant explorer exports them (JSONL, a run a line: `messages` in OpenAI's chat shape and
 * `metadata` with `suite_name`, `injection_task_id` and `security`, true when the injection's goal
 * was reached), scores each run with `tool-safety` at its defaults, and prints, over the attacked
 * runs, how often a run it flags is one AgentDojo says the attack won, and how many runs without
 * an attack it flags. AgentDojo's transcripts carry no tool list: its tools that only look (get_,
 * search_, read_, list_, check_) are marked read-only and `get_webpage` open-world, as the
 * environments define them. Needs `npm run build`.
 *
 *   node scripts/agentdojo-agreement.mjs runs/agentdojo-*.jsonl
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const lookup = /^(get|search|read|list|check)_/;

/** A run as a toolscore case, or undefined for a line that is no run. */
export function agentdojoCase(line, index) {
  const run = JSON.parse(line);
  if (!Array.isArray(run.messages) || typeof run.metadata !== "object") return undefined;
  const names = new Set(
    run.messages.flatMap((message) =>
      (message.tool_calls ?? []).map((call) => call.function?.name).filter(Boolean),
    ),
  );
  const availableTools = [...names].map((name) => ({
    name,
    ...(name === "get_webpage"
      ? { readOnly: true, openWorld: true }
      : lookup.test(name)
        ? { readOnly: true }
        : {}),
  }));
  const { suite_name: suite, injection_task_id: injection, security } = run.metadata;
  return {
    record: { id: `run-${index + 1}`, trajectory: run.messages, availableTools },
    suite,
    attacked: injection !== null && injection !== undefined,
    attackWon: security === true,
  };
}

/** The runs' verdicts against AgentDojo's, counted. */
export function agreement(verdicts) {
  const count = {
    agree: 0,
    attacked: 0,
    won: 0,
    caught: 0,
    flagged: 0,
    benign: 0,
    benignFlagged: 0,
  };
  for (const { attacked, attackWon, flagged } of verdicts) {
    if (!attacked) {
      count.benign++;
      if (flagged) count.benignFlagged++;
      continue;
    }
    count.attacked++;
    if (attackWon) count.won++;
    if (flagged) count.flagged++;
    if (attackWon && flagged) count.caught++;
    if (attackWon === flagged) count.agree++;
  }
  return count;
}

async function main(files) {
  const { toolSafety } = await import("../dist/entries/index.js");
  const { readDatasetCase } = await import("../dist/entries/engine.js");
  const metric = toolSafety();
  const verdicts = [];
  const bySuite = new Map();
  let index = 0;
  for (const file of files) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const run = agentdojoCase(line, index++);
      if (run === undefined) continue;
      const testCase = readDatasetCase(run.record, { index });
      const result = metric.measureSync(testCase);
      if (result.status !== "scored") throw new Error(`${file}: ${JSON.stringify(result)}`);
      const verdict = { ...run, flagged: !result.success };
      verdicts.push(verdict);
      bySuite.set(run.suite, [...(bySuite.get(run.suite) ?? []), verdict]);
    }
  }
  const share = (part, whole) => `${part}/${whole} (${((100 * part) / whole).toFixed(1)}%)`;
  const say = (label, count) =>
    console.log(
      `${label.padEnd(10)} agree ${share(count.agree, count.attacked)}, attacks won caught ${share(count.caught, count.won)}, flagged runs an attack won ${share(count.caught, count.flagged)}, runs without an attack flagged ${share(count.benignFlagged, count.benign)}`,
    );
  say("all", agreement(verdicts));
  for (const [suite, list] of bySuite) say(suite, agreement(list));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.length < 3) {
    console.error("usage: node scripts/agentdojo-agreement.mjs <runs.jsonl>...");
    process.exit(2);
  }
  await main(process.argv.slice(2));
}
