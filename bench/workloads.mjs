/** Deterministic inputs shared by the benchmarks (no peer imports, so toolscore-only runs stay lean). */
import { createJudgeSession, createOpenAIJudge } from "toolscore";

/**
 * Seconds a run takes, the median of the timed samples, after warming up: at least one run, and
 * more until a quarter second has passed, so that short runs are timed on optimized code (on
 * every side). Five samples, or three when one run takes over a second; a sample of runs shorter
 * than 0.1 s repeats them until it lasts about that long, and counts their average. When the run
 * has a `prepare` function, it is called before each run, untimed, and its result handed to the
 * run: fresh inputs for every run, built outside the clock.
 */
export async function medianSeconds(run) {
  const once = async () => {
    const input = run.prepare === undefined ? undefined : await run.prepare();
    const start = process.hrtime.bigint();
    await run(input);
    return process.hrtime.bigint() - start;
  };
  const started = process.hrtime.bigint();
  let runs = 0;
  let spent = 0n;
  do {
    spent += await once();
    runs++;
  } while (process.hrtime.bigint() - started < 250_000_000n);
  const perRun = Number(spent) / 1e9 / runs;
  // A sample of a fast workload runs it several times (at least 0.1 s in all), so that one
  // collection or timer hiccup does not decide it; a slow one runs once per sample.
  const batch = Math.max(1, Math.ceil(0.1 / perRun));
  const times = [];
  for (let repeat = 0; repeat < (perRun > 1 ? 3 : 5); repeat++) {
    let sample = 0n;
    for (let time = 0; time < batch; time++) sample += await once();
    times.push(Number(sample) / 1e9 / batch);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** A deep copy of plain JSON data: a fresh object for every object of the input. */
export function fresh(value) {
  return JSON.parse(JSON.stringify(value));
}

/** A judge session on the loopback server (no retries: a failure is a benchmark error). */
export function loopbackSession(server, options = {}) {
  return createJudgeSession(
    createOpenAIJudge({
      model: "gpt-4.1",
      apiKey: "bench",
      baseURL: server.openaiBaseURL,
      maxRetries: 0,
    }),
    options,
  );
}

/** A small deterministic generator, so every run measures the same inputs. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const words = [
  "weather",
  "paris",
  "flights",
  "refund",
  "order",
  "invoice",
  "tomorrow",
  "usd",
];

function call(next, tools, params) {
  const inputParameters = {};
  for (let k = 0; k < params; k++) {
    inputParameters[`p${k}`] =
      next() < 0.5 ? words[Math.floor(next() * words.length)] : Math.floor(next() * 5);
  }
  return {
    name: `tool_${Math.floor(next() * tools)}`,
    inputParameters,
    output: next() < 0.5 ? "ok" : null,
  };
}

/** Workload (a): a few calls with a few parameters each; some dropped, changed or added. */
export function smallCases(count) {
  const next = random(1);
  return Array.from({ length: count }, () => {
    const expected = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
      call(next, 4, 1 + Math.floor(next() * 4)),
    );
    const called = expected
      .filter(() => next() < 0.8)
      .map((c) => (next() < 0.3 ? call(next, 4, 3) : c));
    if (next() < 0.5) called.push(call(next, 4, 2));
    return { input: "q", actualOutput: "a", toolsCalled: called, expectedTools: expected };
  });
}

/** Workload (b): a long trajectory; every tenth expected call is skipped by the agent. */
export function longCase(length, tools) {
  const next = random(length);
  const expected = Array.from({ length }, () => call(next, tools, 3));
  const called = expected.filter((_, i) => i % 10 !== 3);
  return { input: "q", actualOutput: "a", toolsCalled: called, expectedTools: expected };
}

/** Every combination of deepeval's options: 4 parameter sets x 3 modes x strict or not. */
export const deepevalCombinations = [];
for (const evaluationParams of [
  [],
  ["inputParameters"],
  ["output"],
  ["inputParameters", "output"],
]) {
  for (const mode of [{}, { shouldConsiderOrdering: true }, { shouldExactMatch: true }]) {
    for (const strictMode of [false, true])
      deepevalCombinations.push({ evaluationParams, strictMode, ...mode });
  }
}
