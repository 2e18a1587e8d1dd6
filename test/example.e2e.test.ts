/**
 * The bundled example does what the README says: at least 50 runs in several transcript formats,
 * some right and some wrong, evaluated with the example config to exit code 0 and a report.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { promisify } from "node:util";
import { recordsByIndex, runCliProcess } from "./support/cli.js";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const work = mkdtempSync(path.join(os.tmpdir(), "toolscore-example-"));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("the example", () => {
  it("evaluates the travel-agent dataset with its config, passing the gate and writing a report", async () => {
    const dataset = readFileSync(path.join(root, "examples/travel-agent/dataset.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { metadata: { format: string; mistake?: string } });
    expect(dataset.length).toBeGreaterThanOrEqual(50);
    expect(new Set(dataset.map((item) => item.metadata.format)).size).toBeGreaterThanOrEqual(4);
    expect(dataset.filter((item) => item.metadata.mistake !== undefined).length).toBeGreaterThan(
      10,
    );

    const out = path.join(work, "results.jsonl");
    const report = path.join(work, "report.html");
    const run = await runCliProcess(
      [
        "eval",
        "examples/travel-agent/dataset.jsonl",
        "--config",
        "examples/travel-agent/toolscore.config.yaml",
        "--out",
        out,
        "--report",
        report,
      ],
      { cwd: root },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/64 cases: \d+ passed, \d+ failed, 0 errors/);
    // The README's quick start shows this output, the time aside.
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const start = readme.indexOf("```text", readme.indexOf("## Quick start")) + "```text\n".length;
    const shown = readme.slice(start, readme.indexOf("```", start)).trimEnd();
    const printed = run.stdout.slice(0, run.stdout.indexOf("\nresults: "));
    // Whatever the machine's speed: ms, s, or min and s.
    const timeless = (text: string) =>
      text.replace(/ in (?:\d+ ms|[\d.]+ s|\d+ min \d+ s)$/m, " in … ms");
    expect(timeless(printed).startsWith(timeless(shown))).toBe(true);
    // The gate's verdict, the console's last line, as the README shows it.
    const verdict = /`(gate: [^`]*)`/.exec(readme)?.[1];
    expect(verdict).toBeDefined();
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe(verdict);
    expect(existsSync(report)).toBe(true);
    // The receipt image is embedded in the report, not linked from disk.
    expect(readFileSync(report, "utf8")).toContain('"kind":"base64"');
  });

  it("evaluates a live agent over goldens (npm run example:observe) into a results file", async () => {
    const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsx, path.join(root, "examples", "observed-agent.ts")],
      { cwd: work },
    );
    expect(stdout).toContain("oslo: passed (tools called: searchFlights)");
    expect(stdout).toContain("lisbon: failed (tools called: searchFlights, getWeather)");
    expect(stdout).toContain("1 of 3 goldens passed");
    const records = recordsByIndex(path.join(work, "observed-results.jsonl"));
    expect([...records.values()].map((record) => Object.keys(record.metrics as object))).toEqual([
      ["Tool Call Accuracy", "booking › booked flight"],
      ["Tool Call Accuracy", "booking › booked flight"],
      ["Tool Call Accuracy", "booking › booked flight"],
    ]);
    const report = await runCliProcess(
      ["report", "observed-results.jsonl", "--report", "observed.html"],
      { cwd: work },
    );
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("booking › booked flight");
    expect(existsSync(path.join(work, "observed.html"))).toBe(true);
  });
});
