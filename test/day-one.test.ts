/**
 * A team's first day with toolscore as its CI gate, through the real command line: strict
 * defaults, one meaning of an expected call, and a verdict every output states.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordsByIndex, runCliProcess } from "./support/cli.js";
import { testFolders } from "./support/folders.js";

const folder = testFolders("toolscore-day-one-");
const jsonl = (items: readonly unknown[]) =>
  `${items.map((item) => JSON.stringify(item)).join("\n")}\n`;

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
});
