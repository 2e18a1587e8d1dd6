import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { optionalTool, optionalToolNames } from "./optional-tools.js";

/**
 * Says once, at the start of a run, which tests are skipped for a missing tool, and why; and
 * gives the run one temporary folder (TMPDIR, which the test processes and the programs they
 * start inherit), removed at its end, so that no test leaves a folder behind, even one that
 * failed or was stopped halfway.
 */
export default function setup(): () => void {
  for (const name of optionalToolNames) {
    const tool = optionalTool(name);
    if (tool.present) continue;
    console.warn(
      tool.required
        ? `toolscore: ${name} is required in this run and missing; its tests will fail: ${tool.missing}`
        : `toolscore: skipping the ${name} tests: ${tool.missing}`,
    );
  }
  const temporary = mkdtempSync(path.join(os.tmpdir(), "toolscore-tests-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = temporary;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(temporary, { recursive: true, force: true, maxRetries: 3 });
  };
}
