import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { optionalTool, optionalToolNames } from "./optional-tools.js";

/** What the projects of one run share: the folder, the TMPDIR before it, and who still uses it. */
interface SharedTemporary {
  readonly folder: string;
  readonly before: string | undefined;
  users: number;
}
const sharedKey = Symbol.for("toolscore.tests.temporary");
const registry = globalThis as { [sharedKey]?: SharedTemporary };

/**
 * Says once, at the start of a run, which tests are skipped for a missing tool, and why; and
 * gives the run one temporary folder (TMPDIR, which the test processes and the programs they
 * start inherit), removed at its end, so that no test leaves a folder behind, even one that
 * failed or was stopped halfway. Each vitest project (unit, e2e) calls this: the first makes the
 * folder, the last to finish removes it, so one project ending never pulls it from the other.
 */
export default function setup(): () => void {
  let shared = registry[sharedKey];
  if (shared === undefined) {
    for (const name of optionalToolNames) {
      const tool = optionalTool(name);
      if (tool.present) continue;
      console.warn(
        tool.required
          ? `toolscore: ${name} is required in this run and missing; its tests will fail: ${tool.missing}`
          : `toolscore: skipping the ${name} tests: ${tool.missing}`,
      );
    }
    shared = {
      folder: mkdtempSync(path.join(os.tmpdir(), "toolscore-tests-")),
      before: process.env.TMPDIR,
      users: 0,
    };
    registry[sharedKey] = shared;
    process.env.TMPDIR = shared.folder;
  }
  shared.users++;
  const mine = shared;
  return () => {
    mine.users--;
    if (mine.users > 0) return;
    registry[sharedKey] = undefined;
    if (mine.before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = mine.before;
    rmSync(mine.folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
