/**
 * Scores the bundled agent runs (examples/agent-runs.json) three ways: deepeval's
 * ToolCorrectnessMetric, axion's ToolCorrectness, and the explanation toolscore attaches to
 * every score; then scores a run recorded in Anthropic's format against an expected run written
 * in OpenAI's (examples/transcripts), and against expectations written for toolscore's own
 * matcher. Run it with `npm run example`.
 */
import { readFileSync } from "node:fs";
import { ToolCorrectness } from "toolscore/axion";
import {
  DeepEvalToolCorrectnessMetric,
  ToolCallParams,
  ToolCorrectnessMetric,
} from "toolscore/deepeval";
import type { LLMTestCaseInit } from "toolscore/deepeval";
import { match, matchToolCalls, parseTrajectory } from "toolscore";
import type { Mismatch } from "toolscore";

interface AgentRun extends LLMTestCaseInit {
  id: string;
}

const runs = JSON.parse(
  readFileSync(new URL("./agent-runs.json", import.meta.url), "utf8"),
) as AgentRun[];

/** One line per mismatch, in plain words. */
function describe(mismatch: Mismatch): string {
  switch (mismatch.kind) {
    case "missing-call":
      return `expected call #${mismatch.expectedIndex} ${mismatch.name}() has no matching call`;
    case "unexpected-call":
      return `call #${mismatch.calledIndex} ${mismatch.name}() was not expected`;
    case "out-of-order":
      return `${mismatch.name}() was made, but out of order`;
    case "args-mismatch":
      return `${mismatch.path}: expected ${JSON.stringify(mismatch.expected)}, got ${JSON.stringify(mismatch.actual)}`;
    case "args-missing":
      return `${mismatch.path}: expected ${JSON.stringify(mismatch.expected)}, not passed`;
    case "output-mismatch":
      return `output: expected ${JSON.stringify(mismatch.expected)}, got ${JSON.stringify(mismatch.actual)}`;
    case "args-unexpected":
      return `${mismatch.path}: ${JSON.stringify(mismatch.actual)} passed but not expected`;
    default:
      return mismatch.kind;
  }
}

const evaluationParams = [ToolCallParams.INPUT_PARAMETERS];
const metrics = {
  "deepeval, unordered": new ToolCorrectnessMetric({ evaluationParams }),
  "deepeval, optimal": new ToolCorrectnessMetric({ evaluationParams, matching: "optimal" }),
  "deepeval, in order": new ToolCorrectnessMetric({
    evaluationParams,
    shouldConsiderOrdering: true,
  }),
};
const axion = new ToolCorrectness({ checkParameters: true, parameterMatchingStrategy: "fuzzy" });

let passed = 0;
for (const run of runs) {
  console.log(`\n${run.id}: "${run.input}"`);
  for (const [label, metric] of Object.entries(metrics)) {
    const score = await metric.measure(run);
    console.log(
      `  ${label.padEnd(20)} ${score.toFixed(3)}  ${metric.isSuccessful() ? "pass" : "FAIL"}`,
    );
  }
  const fuzzy = await axion.execute(run);
  console.log(
    `  ${"axion, fuzzy args".padEnd(20)} ${fuzzy.score.toFixed(3)}  ${fuzzy.explanation}`,
  );

  const unordered = metrics["deepeval, unordered"];
  const why = (unordered.details?.mismatches ?? []).map(describe);
  if (why.length > 0) console.log(`  why: ${why.join("\n       ")}`);
  if (unordered.isSuccessful()) passed++;
}
console.log(
  `\n${passed}/${runs.length} runs pass deepeval's default ToolCorrectnessMetric (threshold 0.5).`,
);

// Transcripts: the agent's run was recorded from Anthropic's API, the expectation written in
// OpenAI's format. Both are read into the same model; tool names are normalized on both sides.
const read = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`./transcripts/${file}`, import.meta.url), "utf8"));
const run = read("run.anthropic.json");
const expectedRun = read("expected.openai.json");
const parsed = parseTrajectory(run);
console.log(
  `\ntranscripts: read the agent's run as ${parsed.format}, ${parsed.calls.length} calls`,
);
const trajectoryMetric = new DeepEvalToolCorrectnessMetric();
const result = await trajectoryMetric.measure({
  query: "What's the weather in Paris and Lyon, and find me a train to Lyon on May 3?",
  agentTrajectory: run,
  expectedAgentTrajectory: expectedRun,
});
console.log(
  `  DeepEvalToolCorrectnessMetric ${result.score.toFixed(3)}  ${result.success ? "pass" : "FAIL"}`,
);
for (const { original, normalized } of result.nameMapping)
  console.log(`  name ${original} read as ${normalized}`);
console.log(`  why: ${result.details.mismatches.map(describe).join("\n       ")}`);

// toolscore's own matcher: the two weather lookups in either order (one group), then the train
// search, whose departure station is free and whose date the tool's schema declares.
const tools = [
  {
    name: "search_trains",
    parameters: {
      type: "object",
      properties: {
        from: { type: "string" },
        to: { type: "string" },
        date: { type: "string", format: "date" },
      },
      required: ["to", "date"],
    },
  },
];
const own = matchToolCalls(
  parseTrajectory(run, { normalizeNames: true }),
  [
    [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_weather", arguments: { city: "Lyon" } },
    ],
    [
      {
        name: "search_trains",
        arguments: { from: match.anyString(), to: "Lyon", date: "2026-05-03" },
      },
    ],
  ],
  { tools },
);
console.log(`
matchToolCalls (partial order)  ${own.score.toFixed(3)}  ${own.success ? "pass" : "FAIL"}`);
console.log(`  ${own.reason}`);
