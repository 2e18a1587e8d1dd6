/**
 * A team's first day with toolscore as its CI gate, through the real command line: strict
 * defaults, one meaning of an expected call, and a verdict every output states.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { jsonl, testFolders } from "./support/folders.js";
import { verdictMark } from "../src/reporters/html.js";

const folder = testFolders("toolscore-day-one-");

describe("a gate fails what is wrong, by default", () => {
  it("fails a case with one wrong argument: a wrong city in every tenth case is not 100% passed", async () => {
    const cases = Array.from({ length: 20 }, (_, index) => ({
      id: `weather-${index}`,
      toolsCalled: [
        { name: "get_weather", arguments: { city: index % 10 === 9 ? "Lyon" : "Paris" } },
        { name: "send_summary", arguments: { to: "ops" } },
      ],
      expectedTools: [
        { name: "get_weather", arguments: { city: "Paris" } },
        { name: "send_summary", arguments: { to: "ops" } },
      ],
    }));
    const cwd = folder({ "runs.jsonl": jsonl(cases) });
    const run = await runCliProcess(["eval", "runs.jsonl"], { cwd });
    expect(run.stdout).toContain("20 cases: 18 passed, 2 failed");
    expect(run.code).toBe(1);
    const records = recordsByIndex(path.join(cwd, "toolscore-results.jsonl"));
    const failed = [...records.values()].filter((record) => record.status === "failed");
    expect(failed.map((record) => record.id)).toEqual(["weather-9", "weather-19"]);
    expect(JSON.stringify(failed[0].metrics)).toContain('"threshold":1');
  });

  it("reads a name-only expected call as any arguments, and orders the turns of a transcript, not the calls of one turn", async () => {
    const turn = (calls: readonly { id: string; name: string; arguments: string }[]) => [
      {
        role: "assistant",
        content: null,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      },
      ...calls.map((call) => ({ role: "tool", tool_call_id: call.id, content: "ok" })),
    ];
    const trajectory = [
      { role: "user", content: "Weather in Paris and Lyon, then book the sunnier one" },
      ...turn([
        { id: "1", name: "get_weather", arguments: '{"city":"Lyon"}' },
        { id: "2", name: "get_weather", arguments: '{"city":"Paris"}' },
      ]),
      ...turn([{ id: "3", name: "book_train", arguments: '{"to":"Lyon"' }]),
    ];
    const cases = [
      {
        id: "parallel",
        trajectory,
        expectedTools: [
          { name: "get_weather", arguments: { city: "Paris" } },
          { name: "get_weather", arguments: { city: "Lyon" } },
          { name: "book_train" },
        ],
      },
      {
        id: "no-arguments-expected",
        toolsCalled: [{ name: "list_orders", arguments: { status: "open" } }],
        expectedTools: [{ name: "list_orders", arguments: {} }],
      },
      {
        id: "unparsed",
        trajectory,
        expectedTools: [
          { name: "get_weather", arguments: { city: "Paris" } },
          { name: "get_weather", arguments: { city: "Lyon" } },
          { name: "book_train", arguments: { to: "Lyon" } },
        ],
      },
    ];
    const cwd = folder({ "runs.jsonl": jsonl(cases) });
    const run = await runCliProcess(
      ["eval", "runs.jsonl", "--set", "tool-call-accuracy.order=in-order"],
      { cwd },
    );
    expect(run.stdout).toContain("3 cases: 1 passed, 2 failed");
    const records = [...recordsByIndex(path.join(cwd, "toolscore-results.jsonl")).values()];
    const reasonOf = (id: string) =>
      JSON.stringify((records.find((record) => record.id === id) as { metrics: unknown }).metrics);
    expect(records.find((record) => record.id === "parallel")?.status).toBe("passed");
    expect(reasonOf("no-arguments-expected")).toContain('$.status = \\"open\\" not expected');
    expect(reasonOf("unparsed")).toContain("the arguments did not parse as JSON");
    expect(reasonOf("unparsed")).not.toContain("not expected");
  });
});

describe("the verdict is in plain sight", () => {
  const cases = (passing: number, failing: number) =>
    jsonl([
      ...Array.from({ length: passing }, (_, index) => ({
        id: `ok-${index}`,
        toolsCalled: [{ name: "search", arguments: { q: "a" } }],
        expectedTools: [{ name: "search", arguments: { q: "a" } }],
      })),
      ...Array.from({ length: failing }, (_, index) => ({
        id: `bad-${index}`,
        toolsCalled: [{ name: "search", arguments: { q: "b" } }],
        expectedTools: [{ name: "search", arguments: { q: "a" } }],
      })),
    ]);

  it("states the gate and its verdict on the console, in the Markdown, HTML and JUnit reports", async () => {
    const cwd = folder({
      "runs.jsonl": cases(2, 3),
      "toolscore.config.yaml": "fail_under: 0.75\n",
    });
    const reports = ["--report", "r.html", "--junit", "j.xml", "--markdown", "s.md"];
    const failing = await runCliProcess(["eval", "runs.jsonl", ...reports], { cwd });
    const line = "gate: 40% passed < fail_under 75% (toolscore.config.yaml): exit 1";
    expect(failing.code).toBe(1);
    expect(failing.stdout.trimEnd().split("\n").at(-1)).toBe(line);
    const markdown = readFileSync(path.join(cwd, "s.md"), "utf8");
    expect(markdown.split("\n")[0]).toBe("## ❌ toolscore: runs.jsonl");
    // As Markdown shows it: the underscore and the angle bracket escaped.
    expect(markdown).toContain(`**${line.replace("<", "&lt;").replace("_", "\\_")}**`);
    expect(readFileSync(path.join(cwd, "r.html"), "utf8")).toContain(
      `<p id="gate" class="gate fail">${verdictMark(false)} ${line.replace("<", "&lt;")}</p>`,
    );
    expect(readFileSync(path.join(cwd, "j.xml"), "utf8")).toContain(
      `<property name="gate" value="${line.replace("<", "&lt;")}"/>`,
    );
    // A run that fails cases yet passes its gate says ✅, and exits 0.
    const passing = await runCliProcess(
      ["eval", "runs.jsonl", "--overwrite", "--fail-under", "0.4", ...reports],
      { cwd },
    );
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("gate: 40% passed ≥ fail_under 40% (--fail-under): exit 0");
    expect(readFileSync(path.join(cwd, "s.md"), "utf8").split("\n")[0]).toBe(
      "## ✅ toolscore: runs.jsonl",
    );
    // Against a baseline without regressions, fail_under still decides, and the line says so.
    const baseline = await runCliProcess(
      ["eval", "runs.jsonl", "--out", "again.jsonl", "--baseline", "toolscore-results.jsonl"],
      { cwd },
    );
    expect(baseline.code).toBe(1);
    expect(baseline.stdout.trimEnd().split("\n").at(-1)).toBe(
      "gate: 40% passed < fail_under 75% (toolscore.config.yaml), no regressions against toolscore-results.jsonl: exit 1",
    );
  });

  it("prints reasons whole in a log and with --verbose, first difference first; report lists the failed cases", async () => {
    const long = "x".repeat(300);
    const cwd = folder({
      "runs.jsonl": jsonl([
        {
          id: "refund",
          toolsCalled: [{ name: "refund", arguments: { amount: 300, note: long } }],
          expectedTools: [{ name: "refund", arguments: { amount: 30, note: long } }],
        },
      ]),
    });
    const run = await runCliProcess(["eval", "runs.jsonl", "--threshold", "0.9"], { cwd });
    const line = run.stdout.split("\n").find((text) => text.startsWith("✗ refund")) ?? "";
    expect(line).toMatch(
      /^✗ refund {2}Tool Call Accuracy 0\.5: called\[0\] refund: \$\.amount is 300, expected 30 /,
    );
    expect(line.endsWith("…")).toBe(false);
    const report = await runCliProcess(["report", "toolscore-results.jsonl", "--verbose"], { cwd });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain(line);
    expect(report.stdout.trimEnd().split("\n").at(-1)).toBe(
      "gate: 1 of 1 case failed; every case must pass (no fail_under): exit 1",
    );
  });

  it("merge decides like eval: --fail-under or the config's fail_under, and shards that pass merge into a pass", async () => {
    const cwd = folder({ "runs.jsonl": cases(9, 3), "toolscore.config.yaml": "fail_under: 0.7\n" });
    const shards = ["1/4", "2/4", "3/4", "4/4"].map((shard, index) => ({
      shard,
      out: `shard-${index}.jsonl`,
    }));
    for (const { shard, out } of shards) {
      const ran = await runCliProcess(["eval", "runs.jsonl", "--shard", shard, "--out", out], {
        cwd,
      });
      expect([0, 1]).toContain(ran.code);
    }
    const merged = await runCliProcess(
      ["merge", ...shards.map((item) => item.out), "--out", "all.jsonl"],
      { cwd },
    );
    expect(merged.stdout.trimEnd().split("\n").at(-1)).toBe(
      "gate: 75% passed ≥ fail_under 70% (toolscore.config.yaml): exit 0",
    );
    expect(merged.code).toBe(0);
    const strict = await runCliProcess(
      ["merge", ...shards.map((item) => item.out), "--out", "strict.jsonl", "--fail-under", "0.9"],
      { cwd },
    );
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("gate: 75% passed < fail_under 90% (--fail-under): exit 1");
    const help = await runCliProcess(["merge", "--help"], { cwd });
    expect(help.stdout).toContain("Exit codes: 0 the gate passed; 1 too few cases passed");
  });
});

describe("--bail", () => {
  const dataset = (failing: readonly number[], count = 10) =>
    jsonl(
      Array.from({ length: count }, (_, index) => ({
        id: `case-${index}`,
        toolsCalled: [{ name: failing.includes(index) ? "cancel" : "search" }],
        expectedTools: [{ name: "search" }],
      })),
    );
  const endOf = (file: string) =>
    JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1) ?? "{}") as {
      complete?: boolean;
    };

  it("starts no case after the n-th failure", async () => {
    const cwd = folder({ "runs.jsonl": dataset([2, 5, 8]) });
    const out = path.join(cwd, "toolscore-results.jsonl");
    for (const [bail, ran] of [
      ["1", 3],
      ["2", 6],
    ] as const) {
      const run = await runCliProcess(
        ["eval", "runs.jsonl", "--overwrite", "--bail", bail, "--concurrency", "1"],
        { cwd },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`stopped after ${bail} failed case`);
      const records = [...recordsByIndex(out).values()];
      expect(records).toHaveLength(ran);
      expect(records.filter((record) => record.status === "failed")).toHaveLength(Number(bail));
      expect(endOf(out).complete).toBe(false);
    }
  });

  it("marks a run that reached the dataset's end complete, the last case its n-th failure", async () => {
    const cwd = folder({ "runs.jsonl": dataset([9]) });
    const run = await runCliProcess(["eval", "runs.jsonl", "--bail", "1"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("--bail");
    expect(run.stdout).toContain("10 cases: 9 passed, 1 failed");
    expect(endOf(path.join(cwd, "toolscore-results.jsonl")).complete).toBe(true);
  });
});

describe("recordings without surprises", () => {
  const run = (city: string) => [
    { role: "user", content: `Weather in ${city}?` },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "1",
          type: "function",
          function: { name: "get_weather", arguments: JSON.stringify({ city }) },
        },
      ],
    },
    { role: "tool", tool_call_id: "1", content: "sunny" },
    { role: "assistant", content: "Sunny." },
  ];

  it("takes ids from the expected file's folder, skips toolscore's own files, and reads one transcript with --expected", async () => {
    const cwd = folder({
      "agent/runs/paris.json": JSON.stringify(run("Paris")),
      "agent/runs/lyon.json": JSON.stringify(run("Lyon")),
      "agent/expected.jsonl": jsonl([
        {
          id: "runs/paris.json",
          expectedTools: [{ name: "get_weather", arguments: { city: "Paris" } }],
        },
        {
          id: "runs/lyon.json",
          expectedTools: [{ name: "get_weather", arguments: { city: "Lyon" } }],
        },
      ]),
    });
    // From the repository's root: the expected file's ids are paths from its own folder.
    const first = await runCliProcess(
      ["eval", "agent/runs", "-e", "agent/expected.jsonl", "--out", "agent/runs/results.jsonl"],
      { cwd },
    );
    expect(first.stdout).toContain("2 cases: 2 passed");
    expect(first.code).toBe(0);
    // Its results and dataset now sit among the recordings: left out, and said so.
    const again = await runCliProcess(
      ["eval", "agent/runs", "-e", "agent/expected.jsonl", "--out", "again.jsonl"],
      { cwd },
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("2 cases: 2 passed");
    expect(again.stderr).toContain("2 files left out, toolscore's results or datasets");
    // One transcript file: a recording with --expected, and said to be one without it.
    const one = await runCliProcess(
      ["eval", "agent/runs/paris.json", "-e", "agent/expected.jsonl", "--out", "one.jsonl"],
      { cwd },
    );
    expect(one.stdout).toContain("1 case: 1 passed");
    expect(one.code).toBe(0);
    const bare = await runCliProcess(["eval", "agent/runs/paris.json"], { cwd });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("agent/runs/paris.json is a transcript, not a dataset");
  });
});

describe("configs without surprises", () => {
  const runs = jsonl([
    { id: "a", toolsCalled: [{ name: "search" }], expectedTools: [{ name: "search" }] },
  ]);

  it("says which config it read, or that it read none, and refuses a config in code", async () => {
    const none = await runCliProcess(["eval", "runs.jsonl"], {
      cwd: folder({ "runs.jsonl": runs }),
    });
    expect(none.stderr).toContain("toolscore: no config file here");
    const yaml = await runCliProcess(["eval", "runs.jsonl"], {
      cwd: folder({ "runs.jsonl": runs, "toolscore.config.yaml": "fail_under: 1\n" }),
    });
    expect(yaml.stderr).toContain("toolscore: using toolscore.config.yaml");
    for (const name of ["toolscore.config.ts", "toolscore.config.mjs"]) {
      const code = await runCliProcess(["eval", "runs.jsonl"], {
        cwd: folder({ "runs.jsonl": runs, [name]: "export default { fail_under: 0 };\n" }),
      });
      expect(code.code, name).toBe(2);
      expect(code.stderr).toContain(`${name}: toolscore reads its config from JSON or YAML`);
    }
  });

  it("points at the line and column of a config error, in the user's words; reads a percentage", async () => {
    const said = async (config: string, file = "toolscore.config.yaml") =>
      (
        await runCliProcess(["eval", "runs.jsonl"], {
          cwd: folder({ "runs.jsonl": runs, [file]: config }),
        })
      ).stderr;
    expect(await said("metrics:\n  - metric: tool-call-accuracy\n    order: [in-order\n")).toMatch(
      /toolscore\.config\.yaml:\d+:\d+: not valid YAML/,
    );
    expect(await said('{\n  "fail_under": 0.9,\n}\n', "toolscore.config.json")).toMatch(
      /toolscore\.config\.json:3:1: not valid JSON/,
    );
    expect(await said("report: r.html\nfail_undr: 0.9\n")).toContain(
      'toolscore.config.yaml:2:1: unknown setting "fail_undr" (did you mean "fail_under"?)',
    );
    expect(await said("report: r.html\nfail_under: lots\n")).toContain(
      'toolscore.config.yaml:2:1: fail_under must be a share from 0 to 1 (0.9) or a percentage ("90%")',
    );
    const percent = await runCliProcess(["eval", "runs.jsonl"], {
      cwd: folder({ "runs.jsonl": runs, "toolscore.config.yaml": "fail_under: 90%\n" }),
    });
    expect(percent.stdout).toContain("≥ fail_under 90% (toolscore.config.yaml): exit 0");
  });
});
