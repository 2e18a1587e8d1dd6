import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
export const binPath = path.join(root, "dist", "cli", "bin.js");

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The user cache folder the CLI gets in tests ($XDG_CACHE_HOME): the judge cache lives there by
 * default, and a test must neither read nor leave answers in the real one.
 */
let cacheHome: string | undefined;
function testCacheHome(): string {
  if (cacheHome === undefined) {
    const made = mkdtempSync(path.join(os.tmpdir(), "toolscore-cache-home-"));
    cacheHome = made;
    process.once("exit", () => {
      rmSync(made, { recursive: true, force: true });
    });
  }
  return cacheHome;
}

/** Starts the built CLI (`npm test` builds before the tests run). */
export function startCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): { child: ChildProcess; done: Promise<CliRun> } {
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing: run npm run build first`);
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // The test run's temporary folder (test/support/global-setup.ts), removed at its end.
      TMPDIR: process.env.TMPDIR,
      XDG_CACHE_HOME: testCacheHome(),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

export function runCliProcess(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  return startCli(args, options).done;
}

/** The case records of a results file by index, last line winning, `durationMs` left out. */
export function recordsByIndex(file: string): Map<number, Record<string, unknown>> {
  const records = new Map<number, Record<string, unknown>>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a torn last line
    }
    if (typeof value.index !== "number") continue;
    const { durationMs: _durationMs, ...rest } = value;
    records.set(value.index, rest);
  }
  return records;
}

/** The address `toolscore view` (started by `startCli`) says it serves, once it says it. */
export function viewerUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer | string) => {
      seen += String(chunk);
      const found = /toolscore view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (found !== null) resolve(found[1]);
    });
  });
}
