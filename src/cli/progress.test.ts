import { describe, expect, it } from "vitest";
import { createProgress } from "./progress.js";

function recorder(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 120, write: (text: string) => writes.push(text) } };
}

describe("createProgress", () => {
  it("redraws one bar on a terminal with counts, rate and ETA from bytes read", () => {
    let now = 0;
    const { writes, stream } = recorder(true);
    const progress = createProgress({
      stream,
      totalBytes: 1000,
      label: "toolscore",
      now: () => now,
    });
    progress.bytes(250);
    now = 1000;
    for (let i = 0; i < 10; i++) progress.tick(i === 0 ? "failed" : "passed");
    expect(writes).toHaveLength(1);
    // The bar clears its line with an ANSI code first.
    expect(writes[0].startsWith("\r\u001b[2K")).toBe(true);
    expect(writes[0].slice(5)).toMatch(
      /^█+░+ 25% 1 case, 1 failed, 0 errors · 1\.0\/s · ETA 3\.0 s$/,
    );
    progress.finish();
    expect(writes.at(-1)).toBe("\r\u001b[2K");
  });

  it("counts what it is told to: an agent's runs under way and done, and the share of time they took", () => {
    let now = 0;
    const { writes, stream } = recorder(false);
    const progress = createProgress({
      stream,
      totalBytes: 100,
      label: "toolscore: agent",
      noun: "run",
      slots: 2,
      intervalMs: 1000,
      now: () => now,
    });
    progress.bytes(50);
    for (let run = 0; run < 3; run++) progress.started();
    progress.busy(900);
    progress.tick("passed");
    now = 2000;
    progress.busy(1500);
    progress.tick("failed");
    // Two slots for two seconds, the agent busy 2.4 of the 4 seconds they had.
    expect(writes).toEqual([
      "toolscore: agent: 50% 1 under way, 2 runs, 1 failed, 0 errors, busy 60%, 1.0/s, ETA 2.0 s\n",
    ]);
  });

  it("writes plain lines at an interval elsewhere", () => {
    let now = 0;
    const { writes, stream } = recorder(false);
    const progress = createProgress({
      stream,
      totalBytes: 0,
      label: "toolscore",
      intervalMs: 10_000,
      now: () => now,
    });
    progress.tick("skipped");
    now = 5_000;
    progress.tick("error");
    expect(writes).toEqual([]);
    now = 10_000;
    progress.tick("passed");
    expect(writes).toEqual([
      "toolscore: 0% 2 cases (+1 done before), 0 failed, 1 error, 0.2/s, ETA –\n",
    ]);
    progress.finish();
    expect(writes).toHaveLength(1);
  });
});
