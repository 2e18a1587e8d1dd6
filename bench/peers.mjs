/**
 * toolscore against the TypeScript peers a user would otherwise pick, on the same inputs:
 * deepeval's `ToolCorrectnessMetric` (the `deepeval` npm package) and agentevals' trajectory
 * match (`agentevals`, on `openevals`). Each comparison has a toolscore side, a peer side and an
 * agreement check; `run.mjs` runs the sides in alternating processes (so each has its own peak
 * memory) and the agreement in a third.
 */
import { matchToolCalls, parseTrajectories, scoreToolCalls } from "toolscore";
import { ToolCorrectnessMetric } from "toolscore/deepeval";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import {
  deepevalCombinations,
  longCase,
  loopbackSession,
  fresh,
  medianSeconds,
  random,
  smallCases,
  words,
} from "./workloads.mjs";

/**
 * The peers load only in the processes that run them, so toolscore's side carries neither their
 * start-up time nor their memory.
 */
const loadDeepeval = async () => (await import("deepeval")).default;
const loadAgentevals = () => import("agentevals");

/** The same case as deepeval's own classes (its LLMTestCase checks for ToolCall instances). */
function peerCase(deepeval, testCase) {
  const { LLMTestCase, ToolCall } = deepeval;
  return new LLMTestCase({
    input: testCase.input,
    actualOutput: testCase.actualOutput,
    toolsCalled: testCase.toolsCalled.map((c) => new ToolCall(c)),
    expectedTools: testCase.expectedTools.map((c) => new ToolCall(c)),
  });
}

/** Runs every metric over every case; returns the scores in order. */
async function scoreAll(metrics, cases) {
  const scores = new Float64Array(metrics.length * cases.length);
  let at = 0;
  for (const metric of metrics)
    for (const testCase of cases) scores[at++] = await metric.measure(testCase);
  return scores;
}

/**
 * Where scores differ, why: semantics.md documents the deliberate differences from deepeval
 * (we follow deepeval's Python reference where its TypeScript port departs from it).
 */
function agreement(ours, theirs, label) {
  let same = 0;
  const differing = [];
  for (let i = 0; i < ours.length; i++) {
    if (Math.abs(ours[i] - theirs[i]) < 1e-9) same++;
    else if (differing.length < 5) differing.push({ at: i, ours: ours[i], peer: theirs[i] });
  }
  return { agreement: same / ours.length, compared: ours.length, differing, label };
}

/**
 * Workload (a): small cases under deepeval's 24 option sets. `read` is what toolscore's side reads
 * after each `measure`: nothing but the score (`score`, the same case arrays measured by every
 * option set, as a user re-scoring one dataset does), or, on fresh case objects built untimed
 * for every measure as deepeval's side gets them, the reason (`reason`) or the verbose logs
 * (`logs`): deepeval builds both in every `measure`, so that is the equal work.
 */
function deepevalSmall(read = "score") {
  const cases = smallCases(2_000);
  const freshCases = read !== "score";
  const readOf = { score: () => undefined, reason: (m) => m.reason, logs: (m) => m.verboseLogs }[
    read
  ];
  /** Every option set's own copy of every case, when each measure gets a fresh one. */
  const copies = (make) => () =>
    deepevalCombinations.map(() => cases.map((testCase) => make(fresh(testCase))));
  const measureAll = async (metrics, perMetric, after) => {
    const scores = new Float64Array(metrics.length * cases.length);
    let at = 0;
    let chars = 0;
    for (let m = 0; m < metrics.length; m++) {
      const metric = metrics[m];
      for (const testCase of perMetric[m]) {
        scores[at++] = await metric.measure(testCase);
        chars += after(metric)?.length ?? 0;
      }
    }
    // What was read must not be optimized away.
    if (freshCases && chars === 0) throw new Error("nothing was read");
    return scores;
  };
  return {
    cases: cases.length * deepevalCombinations.length,
    toolscore: () => {
      const metrics = deepevalCombinations.map((options) => new ToolCorrectnessMetric(options));
      const same = metrics.map(() => cases);
      const run = (perMetric) => measureAll(metrics, perMetric ?? same, readOf);
      if (freshCases) run.prepare = copies((testCase) => testCase);
      return run;
    },
    peer: async () => {
      const deepeval = await loadDeepeval();
      const metrics = deepevalCombinations.map(
        (options) =>
          new deepeval.metrics.ToolCorrectnessMetric({ ...options, showIndicator: false }),
      );
      const peerCases = cases.map((testCase) => peerCase(deepeval, testCase));
      const same = metrics.map(() => peerCases);
      // deepeval builds its reason and logs in every measure; reading them costs nothing.
      const run = (perMetric) => measureAll(metrics, perMetric ?? same, readOf);
      if (freshCases) run.prepare = copies((testCase) => peerCase(deepeval, testCase));
      return run;
    },
  };
}

/**
 * Workload (b): one long case, measured several times: a fresh copy for every measure on both
 * sides (built untimed), and toolscore's reason read, as deepeval builds its reason in every
 * measure.
 */
function deepevalLong(length, mode) {
  const testCase = longCase(length, 20);
  const options = { evaluationParams: ["inputParameters"], ...mode };
  const repeats = length >= 1_000 ? 3 : 30;
  const measureAll = async (metric, copies) => {
    const scores = new Float64Array(copies.length);
    let chars = 0;
    for (let at = 0; at < copies.length; at++) {
      scores[at] = await metric.measure(copies[at]);
      chars += metric.reason?.length ?? 0;
    }
    if (chars === 0) throw new Error("no reason was read");
    return scores;
  };
  return {
    cases: repeats,
    toolscore: () => {
      const metric = new ToolCorrectnessMetric(options);
      return Object.assign((copies) => measureAll(metric, copies), {
        prepare: () => Array.from({ length: repeats }, () => fresh(testCase)),
      });
    },
    peer: async () => {
      const deepeval = await loadDeepeval();
      const metric = new deepeval.metrics.ToolCorrectnessMetric({
        ...options,
        showIndicator: false,
      });
      return Object.assign((copies) => measureAll(metric, copies), {
        prepare: () => Array.from({ length: repeats }, () => peerCase(deepeval, fresh(testCase))),
      });
    },
  };
}

/**
 * Workload (c): OpenAI chat transcripts of an agent (one to three calls per assistant turn, each
 * answered by a tool message) against a reference transcript; the agent sometimes changes an
 * argument, drops a call, adds one, or reorders two calls of one turn.
 */
export function trajectoryPairs(count) {
  const next = random(11);
  const pick = (list) => list[Math.floor(next() * list.length)];
  let id = 0;
  const toMessages = (turns) => {
    const messages = [{ role: "user", content: "Plan my trip" }];
    for (const turn of turns) {
      const calls = turn.map((c) => ({
        id: `call_${id++}`,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      }));
      messages.push({ role: "assistant", content: "", tool_calls: calls });
      for (const c of calls)
        messages.push({
          role: "tool",
          tool_call_id: c.id,
          content: `result of ${c.function.name}`,
        });
    }
    messages.push({ role: "assistant", content: "Done." });
    return messages;
  };
  return Array.from({ length: count }, () => {
    const turns = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        name: `tool_${Math.floor(next() * 6)}`,
        args: { city: pick(words), days: Math.floor(next() * 5) },
      })),
    );
    const changed = turns.map((turn) => {
      let calls = turn.map((c) => ({ ...c, args: { ...c.args } }));
      if (next() < 0.1) calls[0].args.city = pick(words);
      if (calls.length > 1 && next() < 0.15) calls = [...calls.slice(1), calls[0]];
      if (calls.length > 1 && next() < 0.08) calls = calls.slice(1);
      if (next() < 0.08) calls.push({ name: "tool_9", args: { city: "x", days: 0 } });
      return calls;
    });
    return { outputs: toMessages(changed), reference: toMessages(turns) };
  });
}

/** agentevals' modes, and toolscore's order mode that asks the same question. */
const trajectoryModes = {
  strict: "strict",
  unordered: "any",
  subset: "subset",
  superset: "superset",
};

/**
 * agentevals gives a verdict without an explanation, so toolscore's side is `scoreToolCalls` (the
 * same numbers as `matchToolCalls`, unexplained); `explained` measures `matchToolCalls` instead.
 * Both transcripts of a pair are read together (`parseTrajectories`), as agentevals takes them,
 * and both sides get fresh message objects for every run, built untimed.
 */
function trajectoryMatch(mode, explained = false) {
  const pairs = trajectoryPairs(2_000);
  const score = explained ? matchToolCalls : scoreToolCalls;
  /** Fresh message objects for every run, built untimed, on both sides. */
  const prepare = () => fresh(pairs);
  return {
    cases: pairs.length,
    toolscore: () =>
      Object.assign(
        (given) => {
          const verdicts = new Float64Array(pairs.length);
          (given ?? prepare()).forEach((pair, at) => {
            const { actual, reference } = parseTrajectories({
              actual: pair.outputs,
              reference: pair.reference,
            });
            const result = score(actual, reference, { order: trajectoryModes[mode] });
            // The explanation is what matchToolCalls adds: read it, as a user would.
            if (explained && result.reason.length === 0) throw new Error("no reason");
            verdicts[at] = result.score === 1 ? 1 : 0;
          });
          return verdicts;
        },
        { prepare },
      ),
    peer: async () => {
      const { createTrajectoryMatchEvaluator } = await loadAgentevals();
      const evaluator = createTrajectoryMatchEvaluator({
        trajectoryMatchMode: mode,
        toolArgsMatchMode: "exact",
      });
      return Object.assign(
        async (given) => {
          const verdicts = new Float64Array(pairs.length);
          let at = 0;
          for (const pair of given ?? prepare()) {
            const result = await evaluator({
              outputs: pair.outputs,
              referenceOutputs: pair.reference,
            });
            verdicts[at++] = result.score === true ? 1 : 0;
          }
          return verdicts;
        },
        { prepare },
      );
    },
  };
}

/** The loopback model server, started in a child process; `close` stops it. */
async function startServerProcess(latencyMs) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL("./llm-server-process.mjs", import.meta.url)),
      "--latency",
      String(latencyMs),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  child.stdout.setEncoding("utf8");
  let text = "";
  while (!text.includes("\n")) {
    const [chunk] = await once(child.stdout, "data");
    text += chunk;
  }
  const { openaiBaseURL } = JSON.parse(text.split("\n")[0]);
  return {
    openaiBaseURL,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/**
 * Workload (e): tool-selection judging through a loopback server answering after 50 ms. toolscore
 * at its default judge concurrency (8) against deepeval's metric, which awaits each case in turn.
 */
function judgeThroughput() {
  const cases = 80;
  const latencyMs = 50;
  const availableTools = [
    { name: "search_flights", description: "Find flights" },
    { name: "book_flight", description: "Book a flight" },
    { name: "get_weather", description: "Forecast for a city" },
  ];
  const testCases = Array.from({ length: cases }, (_, i) => ({
    input: `Book flight ${i} to Oslo`,
    actualOutput: "Booked.",
    toolsCalled: [{ name: "search_flights", inputParameters: { to: "OSL", n: i } }],
    expectedTools: [{ name: "search_flights", inputParameters: { to: "OSL", n: i } }],
  }));
  const serve = () => startServerProcess(latencyMs);
  return {
    cases,
    note: `ideal at concurrency 8: ${((cases / 8) * latencyMs) / 1000} s; sequential: ${(cases * latencyMs) / 1000} s`,
    ideal: ((cases / 8) * latencyMs) / 1000,
    toolscore: async () => {
      const server = await serve();
      let run = 0;
      return Object.assign(
        async () => {
          run++;
          const session = loopbackSession(server);
          const scores = await Promise.all(
            testCases.map((testCase) => {
              const metric = new ToolCorrectnessMetric({ availableTools, model: session.model });
              // A fresh input per run, so no cache could answer.
              return metric.measure({ ...testCase, input: `${testCase.input} (run ${run})` });
            }),
          );
          return Float64Array.from(scores);
        },
        { close: () => server.close() },
      );
    },
    peer: async () => {
      const deepeval = await loadDeepeval();
      const server = await serve();
      // deepeval keeps its model classes private; its OpenAI model takes the SDK's own
      // environment variables, so they point it at the loopback server.
      process.env.OPENAI_API_KEY = "bench";
      process.env.OPENAI_BASE_URL = server.openaiBaseURL;
      const model = "gpt-4.1";
      const metric = new deepeval.metrics.ToolCorrectnessMetric({
        availableTools: availableTools.map((tool) => new deepeval.ToolCall(tool)),
        model,
        showIndicator: false,
      });
      const theirs = testCases.map((testCase) => peerCase(deepeval, testCase));
      return Object.assign(() => scoreAll([metric], theirs), { close: () => server.close() });
    },
  };
}

/** The comparisons, by name: what each measures, and the target ratio where the issue sets one. */
export const comparisons = {
  "a-deepeval-small": {
    label: "(a) deepeval cases x 24 options, score only",
    peer: "deepeval ToolCorrectnessMetric",
    make: () => deepevalSmall("score"),
    explain:
      "same scores by construction (toolscore/deepeval reproduces deepeval's scoring, semantics.md)",
  },
  "a-deepeval-fresh-reason": {
    label: "(a) fresh cases, score and reason",
    peer: "deepeval ToolCorrectnessMetric",
    target: 5,
    make: () => deepevalSmall("reason"),
    explain: "",
  },
  "a-deepeval-fresh-logs": {
    label: "(a) fresh cases, verbose logs",
    peer: "deepeval ToolCorrectnessMetric",
    make: () => deepevalSmall("logs"),
    explain: "",
  },
  ...Object.fromEntries(
    [100, 1_000].flatMap((length) =>
      [
        ["unordered", {}],
        ["ordered", { shouldConsiderOrdering: true }],
        ["exact", { shouldExactMatch: true }],
      ].map(([label, mode]) => [
        `b-long-${length}-${label}`,
        {
          label: `(b) ${length} calls a side, ${label}, fresh, reason`,
          peer: "deepeval ToolCorrectnessMetric",
          make: () => deepevalLong(length, mode),
        },
      ]),
    ),
  ),
  ...Object.fromEntries(
    Object.keys(trajectoryModes).map((mode) => [
      `c-agentevals-${mode}`,
      {
        label: `(c) fresh OpenAI trajectories, ${mode}`,
        peer: "agentevals trajectory match",
        target: 5,
        make: () => trajectoryMatch(mode),
        explain:
          mode === "strict"
            ? "agentevals' strict compares turn by turn and ignores order inside a turn; toolscore's strict is the exact call sequence"
            : "",
      },
    ]),
  ),
  "c-agentevals-unordered-explained": {
    label: "(c) fresh, unordered, matchToolCalls",
    peer: "agentevals trajectory match",
    target: 5,
    make: () => trajectoryMatch("unordered", true),
    explain: "",
  },
  "e-judge": {
    label: "(e) judged tool selection, 50 ms latency",
    peer: "deepeval ToolCorrectnessMetric (sequential)",
    make: judgeThroughput,
  },
};

/** Runs one side of a comparison and reports its time (median of several after a warm-up). */
export async function runSide(name, side) {
  const comparison = comparisons[name];
  const workload = comparison.make();
  if (side === "agree") {
    const scores = [];
    for (const which of ["toolscore", "peer"]) {
      const run = await workload[which]();
      scores.push(await run(await run.prepare?.()));
      await run.close?.();
    }
    return agreement(scores[0], scores[1], comparison.label);
  }
  const run = await workload[side]();
  try {
    return { cases: workload.cases, seconds: await medianSeconds(run), ideal: workload.ideal };
  } finally {
    await run.close?.();
  }
}
