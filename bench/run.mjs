/**
 * toolscore's own benchmarks: throughput of the compatible metrics on small deepeval-style cases,
 * and time and peak memory on long trajectories. It measures the built package (dist/), as users
 * run it; each workload runs in its own process so that its peak RSS is its own.
 * Run: `npm run bench` (or `npm run bench -- --only small-deepeval`).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { matchToolCalls, parseTrajectory } from "toolscore";
import { startLlmServer } from "../test/support/llm-server.mjs";
import { ToolCorrectness } from "toolscore/axion";
import { ToolCorrectnessMetric } from "toolscore/deepeval";
import {
  deepevalCombinations,
  longCase,
  loopbackSession,
  medianSeconds,
  random,
  smallCases,
  words,
} from "./workloads.mjs";

/** The median of several timed runs after a warm-up (see `medianSeconds`). */
async function timeCases(workload, cases, run) {
  return { workload, cases, seconds: await medianSeconds(run) };
}

const benchDir = path.dirname(fileURLToPath(import.meta.url));

const workloads = {
  "small-deepeval": () => {
    const cases = smallCases(2_000);
    const metrics = deepevalCombinations.map((options) => new ToolCorrectnessMetric(options));
    return timeCases(
      "deepeval ToolCorrectnessMetric, small cases x 24 option sets",
      cases.length * metrics.length,
      async () => {
        for (const metric of metrics) for (const testCase of cases) await metric.measure(testCase);
      },
    );
  },
  "small-axion": () => {
    const cases = smallCases(2_000);
    const metrics = ["exact", "subset", "fuzzy"].flatMap((parameterMatchingStrategy) =>
      [false, true].map(
        (strictOrder) =>
          new ToolCorrectness({ checkParameters: true, parameterMatchingStrategy, strictOrder }),
      ),
    );
    return timeCases(
      "axion ToolCorrectness, small cases x 6 option sets",
      cases.length * metrics.length,
      async () => {
        for (const metric of metrics) for (const testCase of cases) await metric.execute(testCase);
      },
    );
  },
};
const modes = [
  ["greedy", {}],
  ["optimal", { matching: "optimal" }],
  ["ordered", { shouldConsiderOrdering: true }],
  ["exact", { shouldExactMatch: true }],
];
for (const length of [100, 1_000, 10_000]) {
  for (const [label, options] of modes) {
    workloads[`long-${length}-${label}`] = () => {
      const testCase = longCase(length, 20);
      const metric = new ToolCorrectnessMetric({
        evaluationParams: ["inputParameters"],
        ...options,
      });
      const repeats = length >= 10_000 ? 1 : length >= 1_000 ? 5 : 50;
      return timeCases(`deepeval ${label}, ${length} calls per side`, repeats, async () => {
        for (let r = 0; r < repeats; r++) await metric.measure(testCase);
      });
    };
  }
}
for (const length of [1_000, 10_000]) {
  workloads[`long-${length}-axion`] = () => {
    const testCase = longCase(length, 20);
    const metric = new ToolCorrectness({
      checkParameters: true,
      parameterMatchingStrategy: "fuzzy",
    });
    return timeCases(`axion fuzzy, ${length} calls per side`, 1, () => metric.execute(testCase));
  };
}

/**
 * Typical cases for matchToolCalls: 3 to 5 expected calls of 6 tools with 2 or 3 arguments each;
 * the agent changes an argument now and then, skips a call, adds one, swaps two.
 */
function typicalCases(count) {
  const next = random(7);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const makeCall = () => {
    const args = {};
    const keys = 2 + Math.floor(next() * 2);
    for (let k = 0; k < keys; k++)
      args[`arg_${k}`] = next() < 0.6 ? pick(words) : Math.floor(next() * 9);
    return { name: `tool_${Math.floor(next() * 6)}`, inputParameters: args };
  };
  return Array.from({ length: count }, () => {
    const expected = Array.from({ length: 3 + Math.floor(next() * 3) }, makeCall);
    const actual = [];
    for (const e of expected) {
      if (next() < 0.1) continue;
      const args = { ...e.inputParameters };
      if (next() < 0.2) args.arg_0 = pick(words);
      actual.push({ name: e.name, inputParameters: args });
    }
    if (next() < 0.3) actual.push(makeCall());
    if (actual.length > 1 && next() < 0.3) actual.push(actual.shift());
    return {
      actual,
      expected: expected.map((e) => ({ name: e.name, arguments: e.inputParameters })),
    };
  });
}

for (const [label, options] of [
  ["any", {}],
  ["in-order", { order: "in-order" }],
  ["strict", { order: "strict" }],
]) {
  workloads[`match-typical-${label}`] = () => {
    const cases = typicalCases(5_000);
    return timeCases(
      `matchToolCalls ${label}, typical cases (3-5 calls)`,
      cases.length * 20,
      () => {
        for (let r = 0; r < 20; r++)
          for (const c of cases) matchToolCalls(c.actual, c.expected, options);
      },
    );
  };
}

/** A long trajectory for matchToolCalls: every tenth expected call skipped, a few arguments off. */
function longMatchCase(length, tools = 20) {
  const { toolsCalled, expectedTools } = longCase(length, tools);
  return {
    actual: toolsCalled.map((c, i) =>
      i % 7 === 0 ? { ...c, inputParameters: { ...c.inputParameters, p0: "x" } } : c,
    ),
    expected: expectedTools.map((e) => ({ name: e.name, arguments: e.inputParameters })),
  };
}

for (const length of [1_000, 10_000]) {
  for (const [label, options] of [
    ["any", {}],
    ["in-order", { order: "in-order" }],
    ["strict", { order: "strict" }],
  ]) {
    workloads[`match-${length}-${label}`] = () => {
      const { actual, expected } = longMatchCase(length);
      const repeats = length >= 10_000 ? 1 : 5;
      return timeCases(`matchToolCalls ${label}, ${length} calls per side`, repeats, () => {
        for (let r = 0; r < repeats; r++) matchToolCalls(actual, expected, options);
      });
    };
  }
  workloads[`match-${length}-in-order-turns`] = () => {
    const { actual, expected } = longMatchCase(length);
    // A transcript whose assistant turns hold four parallel calls each: in-order puts no order
    // among the calls of one turn.
    const steps = [];
    for (let i = 0; i < actual.length; i++)
      (steps[Math.floor(i / 4)] ??= { index: Math.floor(i / 4), calls: [] }).calls.push(i);
    const trajectory = { calls: actual, steps };
    const repeats = length >= 10_000 ? 1 : 5;
    return timeCases(
      `matchToolCalls in-order, turns of 4, ${length} calls per side`,
      repeats,
      () => {
        for (let r = 0; r < repeats; r++)
          matchToolCalls(trajectory, expected, { order: "in-order" });
      },
    );
  };
  workloads[`match-${length}-partial`] = () => {
    const { actual, expected } = longMatchCase(length);
    // Groups of four calls in any order, the groups in sequence.
    const groups = [];
    for (let i = 0; i < expected.length; i += 4) groups.push(expected.slice(i, i + 4));
    const repeats = length >= 10_000 ? 1 : 5;
    return timeCases(`matchToolCalls partial order, ${length} calls per side`, repeats, () => {
      for (let r = 0; r < repeats; r++) matchToolCalls(actual, groups);
    });
  };
}

// Every call of one tool, most made as expected: optimal pairing over one large group.
for (const length of [1_000, 3_000, 10_000]) {
  workloads[`match-one-tool-${length}-any`] = () => {
    const { actual, expected } = longMatchCase(length, 1);
    const repeats = length >= 3_000 ? 1 : 5;
    return timeCases(`matchToolCalls any, ${length} calls of one tool`, repeats, () => {
      for (let r = 0; r < repeats; r++) matchToolCalls(actual, expected);
    });
  };
}

/**
 * Two runs of 100,000 cases, 20 calls a side (8 tools, 2 or 3 arguments, an output each): 30% of
 * the new run's cases differ from the baseline's by an argument's drift, a call added or dropped,
 * two calls swapped or an output changed. `diff-100k` times the diff in memory; `compare-100k`
 * the whole `toolscore compare` of the two recordings files (reading included).
 */
function diffPairs(count, calls = 20) {
  const next = random(11);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const makeCall = () => {
    const args = {};
    const keys = 2 + Math.floor(next() * 2);
    for (let k = 0; k < keys; k++)
      args[`arg_${k}`] = next() < 0.6 ? pick(words) : Math.floor(next() * 99);
    return {
      name: `tool_${Math.floor(next() * 8)}`,
      arguments: args,
      output: `result ${pick(words)}`,
    };
  };
  return Array.from({ length: count }, () => {
    const baseline = Array.from({ length: calls }, makeCall);
    const candidate = baseline.map((made) => ({ ...made }));
    const roll = next();
    const at = Math.floor(next() * calls);
    if (roll < 0.06)
      candidate[at] = {
        ...candidate[at],
        arguments: { ...candidate[at].arguments, arg_0: "drift" },
      };
    else if (roll < 0.12) candidate.splice(at, 0, makeCall());
    else if (roll < 0.18) candidate.splice(at, 1);
    else if (roll < 0.24 && at + 1 < calls)
      [candidate[at], candidate[at + 1]] = [candidate[at + 1], candidate[at]];
    else if (roll < 0.3) candidate[at] = { ...candidate[at], output: "changed" };
    return { baseline, candidate };
  });
}

workloads["diff-100k"] = async () => {
  const { divergeRuns, resolveDiffOptions } = await import("toolscore/engine");
  const pairs = diffPairs(100_000);
  const side = (key) =>
    new Map(pairs.map((pair, n) => [`c${n}`, [{ turns: [{ calls: pair[key] }] }]]));
  const baseline = side("baseline");
  const candidate = side("candidate");
  const rules = resolveDiffOptions();
  let regressions = 0;
  const measurement = await timeCases(
    "trajectory diff, 100,000 cases x 20 calls a side",
    pairs.length,
    () => {
      regressions = divergeRuns({ baseline, candidate, rules, flakyRate: 0 }).regressions;
    },
  );
  return { ...measurement, note: `${regressions} regressions found; target under 10 s` };
};

workloads["compare-100k"] = () => {
  const bin = path.join(benchDir, "..", "dist", "cli", "bin.js");
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolscore-bench-compare-"));
  try {
    const pairs = diffPairs(100_000);
    for (const key of ["baseline", "candidate"]) {
      const fd = openSync(path.join(folder, `${key}.jsonl`), "w");
      pairs.forEach((pair, n) => {
        const toolsCalled = pair[key].map((made) => ({
          name: made.name,
          inputParameters: made.arguments,
          output: made.output,
        }));
        writeSync(fd, `${JSON.stringify({ id: `c${n}`, toolsCalled })}\n`);
      });
      closeSync(fd);
    }
    const started = process.hrtime.bigint();
    const ran = spawnSync(
      process.execPath,
      [bin, "compare", "baseline.jsonl", "candidate.jsonl", "--json"],
      {
        cwd: folder,
        maxBuffer: 1 << 30,
        encoding: "utf8",
      },
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (ran.status !== 1) throw new Error(`compare exited ${ran.status}: ${ran.stderr}`);
    const { trajectories } = JSON.parse(ran.stdout);
    return {
      workload: "toolscore compare, 2 x 100,000 recorded cases x 20 calls",
      cases: pairs.length,
      seconds,
      note: `${trajectories.regressions} regressions; whole command, reading included`,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};

/**
 * 1,000 judge calls through a session at concurrency 32, against the loopback server answering
 * each after 100 ms: the ideal is 1,000 / 32 x 100 ms = 3.125 s. Real HTTP through the OpenAI SDK.
 */
workloads["judge-1000-c32"] = async () => {
  const server = await startLlmServer({ latencyMs: 100, answer: () => ({ score: 1 }) });
  const schema = {
    name: "verdict",
    schema: {
      type: "object",
      properties: { score: { type: "number" } },
      required: ["score"],
      additionalProperties: false,
    },
  };
  let run = 0;
  try {
    const measurement = await timeCases(
      "judge calls via a session, concurrency 32, 100 ms latency",
      1_000,
      async () => {
        run++;
        const session = loopbackSession(server, { concurrency: 32 });
        await Promise.all(
          Array.from({ length: 1_000 }, (_, i) =>
            session.model.generate({
              messages: [{ role: "user", content: `run ${run} case ${i}` }],
              schema,
            }),
          ),
        );
        if (server.maxInFlight > 32) throw new Error(`concurrency exceeded: ${server.maxInFlight}`);
      },
    );
    return {
      ...measurement,
      note: `ideal 3.125 s; ${((measurement.seconds / 3.125 - 1) * 100).toFixed(1)}% over`,
    };
  } finally {
    await server.close();
  }
};

/** A transcript of `messages` messages: half assistant tool calls, half their results. */
function openaiTranscript(messages) {
  const list = [];
  for (let i = 0; i < messages / 2; i++) {
    list.push({
      role: "assistant",
      tool_calls: [
        {
          id: `c${i}`,
          type: "function",
          function: { name: `tool_${i % 20}`, arguments: `{"i":${i},"q":"weather in paris"}` },
        },
      ],
    });
    list.push({ role: "tool", tool_call_id: `c${i}`, content: `result ${i}` });
  }
  return list;
}

function anthropicTranscript(messages) {
  const list = [];
  for (let i = 0; i < messages / 2; i++) {
    list.push({
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: `t${i}`,
          name: `tool_${i % 20}`,
          input: { i, q: "weather in paris" },
        },
      ],
    });
    list.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `result ${i}` }],
    });
  }
  return list;
}

function otlpTrace(spans) {
  const str = (key, value) => ({ key, value: { stringValue: value } });
  const list = Array.from({ length: spans }, (_, i) => ({
    spanId: `s${i}`,
    parentSpanId: "root",
    name: `execute_tool tool_${i % 20}`,
    startTimeUnixNano: String(1_000_000_000n * BigInt(i)),
    endTimeUnixNano: String(1_000_000_000n * BigInt(i) + 500_000_000n),
    attributes: [
      str("gen_ai.operation.name", "execute_tool"),
      str("gen_ai.tool.name", `tool_${i % 20}`),
      str("gen_ai.tool.call.id", `c${i}`),
      str("gen_ai.tool.call.arguments", `{"i":${i}}`),
      str("gen_ai.tool.call.result", `result ${i}`),
    ],
  }));
  return { resourceSpans: [{ scopeSpans: [{ spans: list }] }] };
}

for (const [label, make, size] of [
  ["OpenAI chat, 100,000 messages", openaiTranscript, 100_000],
  ["Anthropic, 100,000 messages", anthropicTranscript, 100_000],
  ["OTel GenAI, 20,000 execute_tool spans", otlpTrace, 20_000],
]) {
  workloads[`parse-${label.split(",")[0].toLowerCase().replace(/\s+/g, "-")}`] = () => {
    const input = make(size);
    return timeCases(`parseTrajectory: ${label}`, 1, () => {
      const trajectory = parseTrajectory(input);
      if (trajectory.warnings.length > 0) throw new Error("unexpected warnings");
    });
  };
}

/**
 * What observing costs: 200,000 calls of a trivial tool, in traces of 1,000 calls (a span each,
 * with its input, output and times), against the same calls unobserved.
 */
for (const [label, asynchronous] of [
  ["sync", false],
  ["async", true],
]) {
  workloads[`observe-${label}`] = async () => {
    const { captureTrace, observe } = await import("toolscore/tracing");
    const plain = asynchronous ? async (args) => args.n + 1 : (args) => args.n + 1;
    const observed = observe(plain, { name: "add", type: "tool" });
    const run = async (fn) => {
      for (let trace = 0; trace < 200; trace++) {
        await captureTrace(async () => {
          for (let i = 0; i < 1_000; i++) {
            const result = fn({ n: i });
            if (asynchronous) await result;
          }
        });
      }
    };
    const bare = await timeCases("bare", 200_000, () => run(plain));
    const measured = await timeCases(
      `observe: a ${label} tool, 1,000 calls per trace`,
      200_000,
      () => run(observed),
    );
    const overhead = ((measured.seconds - bare.seconds) / 200_000) * 1e6;
    return { ...measured, note: `${overhead.toFixed(2)} µs per call over the unobserved call` };
  };
}

/**
 * A 1,000,000-case JSONL dataset of a travel agent (two or three calls a case), half of whose
 * cases fail: one case in two calls another tool first and last, and gets an argument of the call
 * between wrong (every metric fails it at its default threshold). In the temp folder; written once
 * and reused (its content is deterministic).
 */
function millionCaseDataset() {
  const file = path.join(os.tmpdir(), "toolscore-bench-1m-half-v2.jsonl");
  if (existsSync(file) && statSync(file).size > 300_000_000) return file;
  const fd = openSync(`${file}.tmp`, "w");
  let lines = [];
  for (let i = 0; i < 1_000_000; i++) {
    const city = words[i % words.length];
    const date = `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, "0")}`;
    const expected = [
      { name: "search_flights", inputParameters: { from: "PAR", to: city, date } },
      { name: "book_flight", inputParameters: { flight_id: `F${i}`, passenger: "Ada" } },
    ];
    if (i % 3 === 0)
      expected.push({ name: "send_email", inputParameters: { to: "ada@example.com" } });
    const called = expected.map((item, at) =>
      i % 2 === 0
        ? item
        : at === 0 || at === expected.length - 1
          ? { ...item, name: `${item.name}_v2` }
          : { ...item, inputParameters: { ...item.inputParameters, to: "BER" } },
    );
    lines.push(
      JSON.stringify({
        id: `run-${i}`,
        input: `Fly Ada to ${city} on ${date}`,
        toolsCalled: called,
        expectedTools: expected,
      }),
    );
    if (lines.length === 10_000) {
      writeSync(fd, `${lines.join("\n")}\n`);
      lines = [];
    }
  }
  closeSync(fd);
  renameSync(`${file}.tmp`, file);
  return file;
}

/**
 * A command run whole in a process of its own, as users run it: its wall time (start-up
 * included) and its peak memory, which bench/usage.mjs reports from inside it.
 */
function wholeProcess(args, exits = [0, 1]) {
  const usage = path.join(os.tmpdir(), `toolscore-bench-usage-${process.pid}.json`);
  rmSync(usage, { force: true });
  const start = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    ["--import", pathToFileURL(path.join(benchDir, "usage.mjs")).href, ...args],
    { env: { ...process.env, TOOLSCORE_BENCH_USAGE: usage }, encoding: "utf8", maxBuffer: 1 << 24 },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (!exits.includes(run.status)) {
    throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stderr.slice(-500)}`);
  }
  const { peakMiB, cpuSeconds } = JSON.parse(readFileSync(usage, "utf8"));
  rmSync(usage, { force: true });
  return { seconds, peakMiB, cpuSeconds, stdout: run.stdout };
}

/** The middle value, or the mean of the two middle ones. */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Start-up: the CLI's `--version` and `eval --help`, and `import("toolscore")`, each against
 * `node -e 0` in alternating processes; the ratio of CPU time is taken round by round.
 */
workloads.startup = () => {
  const bin = path.join(benchDir, "..", "dist", "cli", "bin.js");
  // A small dataset without schemas: its eval loads neither Ajv nor yaml.
  const small = path.join(os.tmpdir(), `toolscore-bench-startup-${process.pid}.jsonl`);
  const call = { name: "lookup", arguments: { id: 1 } };
  writeFileSync(
    small,
    `${JSON.stringify({ toolsCalled: [call], expectedTools: [call] })}\n`.repeat(5),
  );
  writeFileSync(`${small}.json`, JSON.stringify({ metrics: ["tool-call-accuracy"] }));
  const sides = {
    node: ["-e", "0"],
    "--version": [bin, "--version"],
    "eval --help": [bin, "eval", "--help"],
    "eval of 5 cases": [bin, "eval", small, "-o", `${small}.results`],
    // A config is checked against its schema, which loads Ajv.
    "eval with a JSON config": [
      bin,
      "eval",
      small,
      "-o",
      `${small}.results`,
      "-c",
      `${small}.json`,
    ],
    'import("toolscore")': ["--input-type=module", "-e", 'await import("toolscore")'],
  };
  const ratios = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  let peakMiB = 0;
  for (let round = 0; round < 11; round++) {
    let base;
    for (const [name, args] of Object.entries(sides)) {
      const run = wholeProcess(args);
      const { cpuSeconds } = run;
      if (name === "--version") peakMiB = Math.max(peakMiB, run.peakMiB);
      if (name === "node") base = cpuSeconds;
      cpu[name].push(cpuSeconds);
      ratios[name].push(cpuSeconds / base);
    }
  }
  for (const file of [small, `${small}.results`, `${small}.json`]) rmSync(file, { force: true });
  const shown = Object.keys(sides)
    .filter((name) => name !== "node")
    .map(
      (name) => `${name} ${median(cpu[name]).toFixed(3)} s (${median(ratios[name]).toFixed(1)}x)`,
    );
  return {
    workload: "start-up, CPU against node -e 0 (round by round)",
    cases: 1,
    seconds: median(cpu["--version"]),
    peakMiB,
    note: `node -e 0 ${median(cpu.node).toFixed(3)} s; ${shown.join("; ")}`,
  };
};

/**
 * A dataset of one conversation of `turns` user turns: each turn calls `lookup` as expected, or
 * (`misplaced`) the first half make a call of `refund` nothing expects and the second half miss
 * one, with other arguments, so every check of a call against another turn fails.
 */
function conversationDataset(turns, misplaced) {
  const file = path.join(os.tmpdir(), `toolscore-bench-conversation-${turns}-${misplaced}.jsonl`);
  if (existsSync(file)) return file;
  const messages = [];
  const expected = [];
  for (let at = 0; at < turns; at++) {
    messages.push({ role: "user", content: `turn ${at}` });
    const calls = !misplaced || at < turns / 2;
    if (calls) {
      const name = misplaced ? "refund" : "lookup";
      const args = JSON.stringify(misplaced ? { amount: -at } : { id: at });
      messages.push(
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: `c${at}`, type: "function", function: { name, arguments: args } }],
        },
        { role: "tool", tool_call_id: `c${at}`, content: "ok" },
      );
    }
    messages.push({ role: "assistant", content: "done" });
    expected.push(
      !misplaced
        ? { expected_tools: [{ name: "lookup", arguments: { id: at } }] }
        : at < turns / 2
          ? {}
          : { expected_tools: [{ name: "refund", arguments: { amount: at } }] },
    );
  }
  writeFileSync(file, `${JSON.stringify({ id: "long", trajectory: messages, turns: expected })}\n`);
  return file;
}

/** eval of one conversation, the CLI as users run it, in a process of its own. */
function evalConversation(turns, misplaced, exits) {
  return { cases: 1, ...evalFile(conversationDataset(turns, misplaced), [], exits) };
}

/**
 * `toolscore eval file` with `flags`, the CLI as users run it, in a process of its own: its wall
 * time and peak memory; its results written to the temp folder and removed.
 */
function evalFile(file, flags = [], exits = undefined) {
  const out = path.join(os.tmpdir(), `toolscore-bench-results-${process.pid}.jsonl`);
  const run = wholeProcess(
    [
      path.join(benchDir, "..", "dist", "cli", "bin.js"),
      "eval",
      file,
      "--out",
      out,
      "--overwrite",
      "--quiet",
      ...flags,
    ],
    exits,
  );
  rmSync(out, { force: true });
  return { seconds: run.seconds, peakMiB: run.peakMiB };
}

workloads["conversation-10000-turns"] = () => ({
  workload: "eval: one conversation of 10,000 turns (the most a case may have)",
  ...evalConversation(10_000, false, [0]),
});
workloads["conversation-100000-turns-refused"] = () => ({
  workload: "eval: one conversation of 100,000 turns (16 MB line), refused",
  ...evalConversation(100_000, false, [3]),
});
workloads["conversation-6000-turns-misplaced"] = () => ({
  workload: "eval: 6,000 turns, 3,000 unmatched misplaced-call candidates",
  ...evalConversation(6_000, true, [3]),
});

/**
 * A JSONL dataset of `cases` cases of one tool, written once in the temp folder: `caseOf(i)` gives
 * case i's fields besides its id.
 */
function casesDataset(name, cases, caseOf) {
  const file = path.join(os.tmpdir(), `toolscore-bench-${name}-${cases}.jsonl`);
  if (existsSync(file)) return file;
  const lines = [];
  for (let i = 0; i < cases; i++) lines.push(JSON.stringify({ id: `case-${i}`, ...caseOf(i) }));
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

// Each case carries its own copy of its tool's schema, as BFCL-style datasets do; one argument in
// five is of the wrong type.
const lookupTool = {
  name: "lookup",
  parameters: {
    type: "object",
    properties: {
      id: { type: "integer" },
      unit: { type: "string", enum: ["c", "f"] },
      filters: { type: "object", properties: { max: { type: "number" } } },
    },
    required: ["id"],
  },
};
workloads["eval-20000-schemas"] = () => ({
  workload: "eval: 20,000 cases, each with its copy of its tool's schema (--workers 0)",
  cases: 20_000,
  ...evalFile(
    casesDataset("schemas", 20_000, (i) => {
      const call = { name: "lookup", arguments: { id: i % 5 === 0 ? String(i) : i, unit: "c" } };
      return { toolsCalled: [call], expectedTools: [call], availableTools: [lookupTool] };
    }),
    ["--workers", "0"],
  ),
});

// Each case's expected arguments are two patterns from data, the same two in every case.
workloads["eval-20000-patterns"] = () => ({
  workload: "eval: 20,000 cases, each expecting two {$match: regex} arguments (--workers 0)",
  cases: 20_000,
  ...evalFile(
    casesDataset("patterns", 20_000, (i) => ({
      toolsCalled: [
        {
          name: "lookup",
          arguments: { date: `2026-05-${String(1 + (i % 28)).padStart(2, "0")}`, q: `w${i}` },
        },
      ],
      expectedTools: [
        {
          name: "lookup",
          arguments: {
            date: { $match: "regex", pattern: "^2026-05-[0-9]{2}$" },
            q: { $match: "regex", pattern: "^w[0-9]+$" },
          },
        },
      ],
    })),
    ["--workers", "0"],
  ),
});

/**
 * eval --agent: `cases` cases run `repeat` times by a module agent that takes `sleepMs` a run,
 * `concurrency` at once, the CLI as users run it; the recordings scored after.
 */
function evalAgent({ cases, repeat, sleepMs, concurrency, kind = "module" }) {
  const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-bench-agent-"));
  const call = { name: "get_weather", arguments: '{"city":"Oslo"}' };
  // The same agent as a long-lived command: a JSON line in, a JSON line out.
  writeFileSync(
    path.join(directory, "loop.mjs"),
    `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const { input } = JSON.parse(line);
  process.stdout.write(JSON.stringify({ transcript: [{ role: "user", content: input }, { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: ${JSON.stringify(call)} }] }] }) + "\\n");
});`,
  );
  const agent =
    kind === "module"
      ? [path.join(directory, "agent.mjs")]
      : [
          `${JSON.stringify(process.execPath)} ${path.join(directory, "loop.mjs")}`,
          "--agent-process",
          "long-lived",
        ];
  writeFileSync(
    path.join(directory, "agent.mjs"),
    `import { setTimeout as sleep } from "node:timers/promises";
export default async (input) => {
  ${sleepMs > 0 ? `await sleep(${sleepMs});` : ""}
  return [{ role: "user", content: input }, { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: ${JSON.stringify(call)} }] }];
};`,
  );
  const dataset = path.join(directory, "cases.jsonl");
  writeFileSync(
    dataset,
    Array.from({ length: cases }, (_, index) =>
      JSON.stringify({
        id: `c${index}`,
        input: "Weather in Oslo?",
        expectedTools: [{ name: "get_weather", inputParameters: { city: "Oslo" } }],
      }),
    ).join("\n") + "\n",
  );
  try {
    const run = wholeProcess(
      [
        path.join(benchDir, "..", "dist", "cli", "bin.js"),
        "eval",
        dataset,
        "--agent",
        ...agent,
        "--repeat",
        String(repeat),
        "--concurrency",
        String(concurrency),
        "--out",
        path.join(directory, "results.jsonl"),
        "--quiet",
      ],
      [0],
    );
    return { cases: cases * repeat, seconds: run.seconds, peakMiB: run.peakMiB };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

workloads["agent-1000x3-sleep50-c16"] = () => ({
  workload: "eval --agent: 1,000 cases x --repeat 3, a module agent of 50 ms, concurrency 16",
  ...evalAgent({ cases: 1000, repeat: 3, sleepMs: 50, concurrency: 16 }),
});
workloads["agent-2000-long-lived-c1"] = () => ({
  workload: "eval --agent: 2,000 runs of a long-lived command that answers at once, one at a time",
  ...evalAgent({ cases: 2000, repeat: 1, sleepMs: 0, concurrency: 1, kind: "long-lived" }),
});
workloads["agent-2000-instant-c1"] = () => ({
  workload: "eval --agent: 2,000 runs of a module agent that answers at once, one at a time",
  ...evalAgent({ cases: 2000, repeat: 1, sleepMs: 0, concurrency: 1 }),
});

/** CPU seconds a process has used so far, from /proc (Linux). */
function processCpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * toolscore view over a folder of 10,000 results files: from the start to the address printed,
 * the first list page served, and the CPU it uses idle for 5 s after.
 */
workloads["view-10000-runs"] = async () => {
  const folder = path.join(os.tmpdir(), "toolscore-bench-view-10000");
  if (!existsSync(path.join(folder, "r09999.jsonl"))) {
    mkdirSync(folder, { recursive: true });
    const dataset = path.join(folder, "dataset.json");
    writeFileSync(
      dataset,
      JSON.stringify([
        { id: "a", tools_called: [{ name: "x" }], expected_tools: [{ name: "x" }] },
        { id: "b", tools_called: [{ name: "x" }], expected_tools: [{ name: "y" }] },
      ]),
    );
    const bin = path.join(benchDir, "..", "dist", "cli", "bin.js");
    const first = path.join(folder, "r00000.jsonl");
    spawnSync(process.execPath, [bin, "eval", dataset, "--out", first, "--quiet"]);
    const text = readFileSync(first);
    for (let at = 1; at < 10_000; at++) {
      writeFileSync(path.join(folder, `r${String(at).padStart(5, "0")}.jsonl`), text);
    }
  }
  const started = process.hrtime.bigint();
  const viewer = spawn(
    process.execPath,
    [path.join(benchDir, "..", "dist", "cli", "bin.js"), "view", folder, "--port", "0"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const url = await new Promise((resolve) => {
    let seen = "";
    viewer.stdout.on("data", (chunk) => {
      seen += chunk;
      const found = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (found) resolve(found[1]);
    });
  });
  const listening = Number(process.hrtime.bigint() - started) / 1e9;
  const asked = process.hrtime.bigint();
  const page = await fetch(url).then((response) => response.text());
  const firstPage = Number(process.hrtime.bigint() - asked) / 1e9;
  if (!page.includes("runs 1–50")) throw new Error("the first page lists no runs");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = processCpuSeconds(viewer.pid);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idle = (processCpuSeconds(viewer.pid) - before) / 5;
  viewer.kill("SIGINT");
  return {
    workload: "view: 10,000 results files, first list page",
    cases: 1,
    seconds: listening + firstPage,
    note: `address after ${listening.toFixed(2)} s, first page ${firstPage.toFixed(2)} s, idle CPU ${(idle * 100).toFixed(1)}% of a core`,
  };
};

/** The peer of the eval rows: read the file's lines and JSON.parse each, nothing else. */
workloads["eval-1m-half-bare"] = () => {
  const run = wholeProcess([path.join(benchDir, "bare-loop.mjs"), millionCaseDataset()]);
  return {
    workload: "1M-case JSONL, half failing: bare readline + JSON.parse",
    cases: Number(run.stdout.trim()),
    seconds: run.seconds,
    peakMiB: run.peakMiB,
  };
};

/** toolscore eval on the 1M-case dataset, the CLI as users run it, with the extra flags given. */
function evalMillion(flags) {
  return evalFile(millionCaseDataset(), flags);
}

// Half the cases failing, default settings, each deterministic metric of the CLI.
for (const metric of [
  "tool-call-accuracy",
  "deepeval-tool-correctness",
  "axion-tool-correctness",
]) {
  workloads[`eval-1m-half-${metric}`] = () => ({
    workload: `1M-case JSONL, half failing: toolscore eval -m ${metric}`,
    cases: 1_000_000,
    ...evalMillion(["-m", metric]),
  });
}

// On the main thread alone: what the worker threads add.
workloads["eval-1m-half-tool-call-accuracy-main-thread"] = () => ({
  workload: "1M-case JSONL, half failing: toolscore eval --workers 0",
  cases: 1_000_000,
  ...evalMillion(["--workers", "0"]),
});

/**
 * (d): toolscore eval against the bare read + JSON.parse loop on the same 1M-case dataset, each
 * in its own process, as `comparePeers` alternates them. Half the cases fail, so failed cases'
 * records and reasons are half of what is written.
 */
const evalComparisons = Object.fromEntries(
  [
    ["tool-call-accuracy", "default settings (tool-call-accuracy)", 0.75],
    ["tool-call-accuracy-main-thread", "--workers 0 (main thread only)", undefined],
    ["deepeval-tool-correctness", "-m deepeval-tool-correctness", undefined],
    ["axion-tool-correctness", "-m axion-tool-correctness", undefined],
  ].map(([metric, label, target]) => [
    `d-eval-${metric}`,
    {
      label: `(d) 1M JSONL, half failing: eval ${label}`,
      peer: "bare readline + JSON.parse loop",
      target,
      memoryMiB: 200,
      sides: {
        toolscore: ["--only", `eval-1m-half-${metric}`],
        peer: ["--only", "eval-1m-half-bare"],
      },
    },
  ]),
);

const argv = process.argv;
const only = argv.indexOf("--only");
const peerSide = argv.indexOf("--peer");
const self = fileURLToPath(import.meta.url);
/** Runs this script again in a fresh process and returns the JSON it prints last. */
const inChild = (args) =>
  JSON.parse(
    execFileSync(process.execPath, [self, ...args], { encoding: "utf8", maxBuffer: 1 << 24 })
      .trim()
      .split("\n")
      .pop(),
  );
const peak = () => process.resourceUsage().maxRSS / 1024;
const rateOf = (perSecond) =>
  perSecond < 10 ? perSecond.toFixed(2) : Math.round(perSecond).toLocaleString("en-US");

if (only >= 0) {
  const name = argv[only + 1];
  const workload = workloads[name];
  if (!workload)
    throw new Error(`unknown workload ${name}; known: ${Object.keys(workloads).join(", ")}`);
  const measurement = await workload();
  // A workload run in a process of its own reports that process's peak.
  console.log(JSON.stringify({ peakMiB: peak(), ...measurement }));
} else if (peerSide >= 0) {
  const { runSide } = await import("./peers.mjs");
  const result = await runSide(argv[peerSide + 1], argv[peerSide + 2]);
  console.log(JSON.stringify({ ...result, peakMiB: peak() }));
} else {
  const peersOnly = argv.includes("--peers-only");
  console.log(
    `toolscore benchmarks: node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB\n`,
  );
  const own = {};
  if (!peersOnly) {
    console.log(
      `${"workload".padEnd(58)} ${"cases/s".padStart(10)} ${"per case".padStart(11)} ${"peak RSS".padStart(9)}`,
    );
    // The 1M-case half-failing runs are measured side by side with the bare loop below.
    for (const name of Object.keys(workloads).filter((key) => !key.startsWith("eval-1m-half"))) {
      const result = inChild(["--only", name]);
      own[name] = result;
      const perSecond = result.cases / result.seconds;
      const ms = 1000 / perSecond;
      const perCase = ms < 0.1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(1)} ms`;
      console.log(
        `${result.workload.padEnd(58)} ${rateOf(perSecond).padStart(10)} ${perCase.padStart(11)} ${`${result.peakMiB.toFixed(0)} MiB`.padStart(9)}${result.note ? `  ${result.note}` : ""}`,
      );
    }
  }
  const rounds = argv.includes("--rounds") ? Number(argv[argv.indexOf("--rounds") + 1]) : 5;
  const chosen = argv.includes("--comparison") ? argv[argv.indexOf("--comparison") + 1] : undefined;
  await comparePeers(rounds, chosen);
}

/**
 * toolscore and each peer on the same inputs, in alternating processes (toolscore, peer, toolscore,
 * peer, ... `rounds` of each): the ratio is the peer's time over toolscore's, round by round (above
 * 1, toolscore is faster), given as the median and the range; the rates are the sides' median
 * times. Then a process more for the agreement of the two sides' scores.
 */
async function comparePeers(rounds, chosen) {
  const { comparisons } = await import("./peers.mjs");
  const all = { ...comparisons, ...evalComparisons };
  const names = Object.keys(all).filter((name) => chosen === undefined || name === chosen);
  if (names.length === 0)
    throw new Error(`unknown comparison ${chosen}; known: ${Object.keys(all).join(", ")}`);
  console.log(
    `\ntoolscore against its peers: same inputs, ${rounds} rounds of alternating processes; ratio = peer time / toolscore time, median [range]\n`,
  );
  const header = [
    "workload".padEnd(48),
    "peer".padEnd(36),
    "toolscore/s".padStart(12),
    "peer/s".padStart(10),
    "ratio".padStart(8),
    "range".padStart(13),
    "target".padStart(7),
    "ts RSS".padStart(8),
    "peer RSS".padStart(9),
    "agree".padStart(7),
  ];
  console.log(header.join(" "));
  const rows = [];
  for (const name of names) {
    const comparison = all[name];
    const sideArgs = comparison.sides ?? {
      toolscore: ["--peer", name, "toolscore"],
      peer: ["--peer", name, "peer"],
    };
    const sides = { toolscore: [], peer: [] };
    for (let round = 0; round < rounds; round++)
      for (const side of ["toolscore", "peer"]) sides[side].push(inChild(sideArgs[side]));
    const ratios = sides.toolscore.map((ours, round) => sides.peer[round].seconds / ours.seconds);
    const summary = (runs) => ({
      seconds: median(runs.map((run) => run.seconds)),
      cases: runs[0].cases,
      ideal: runs[0].ideal,
      peakMiB: Math.max(...runs.map((run) => run.peakMiB)),
    });
    const ours = summary(sides.toolscore);
    const theirs = summary(sides.peer);
    const agree = comparison.sides === undefined ? inChild(["--peer", name, "agree"]) : undefined;
    const ratio = median(ratios);
    rows.push({ name, comparison, ours, theirs, agree, ratio, ratios });
    const target = comparison.target === undefined ? "" : `>=${comparison.target}x`;
    console.log(
      [
        comparison.label.padEnd(48),
        comparison.peer.padEnd(36),
        rateOf(ours.cases / ours.seconds).padStart(12),
        rateOf(theirs.cases / theirs.seconds).padStart(10),
        `${ratio.toFixed(2)}x`.padStart(8),
        `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`.padStart(13),
        target.padStart(7),
        `${ours.peakMiB.toFixed(0)} MiB`.padStart(8),
        `${theirs.peakMiB.toFixed(0)} MiB`.padStart(9),
        (agree === undefined ? "" : `${(agree.agreement * 100).toFixed(1)}%`).padStart(7),
      ].join(" "),
    );
    if (comparison.memoryMiB !== undefined && ours.peakMiB > comparison.memoryMiB) {
      console.log(`${"".padEnd(48)} peak RSS over the ${comparison.memoryMiB} MiB target`);
    }
    if (ours.ideal !== undefined) {
      const over = (ours.seconds / ours.ideal - 1) * 100;
      console.log(
        `${"".padEnd(48)} toolscore ${ours.seconds.toFixed(2)} s against an ideal of ${ours.ideal.toFixed(2)} s: ${over.toFixed(1)}% over (target <= 15%)`,
      );
    }
    if (agree !== undefined && agree.agreement < 1) {
      console.log(
        `${"".padEnd(48)} disagreements: ${comparison.explain || "see the first ones"}; first: ${JSON.stringify(agree.differing.slice(0, 2))}`,
      );
    }
  }
  return rows;
}
