import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { ResultsFileError } from "../core/errors.js";

/** Whether the process that wrote a lock file is still running on this machine. */
function holderAlive(lock: { pid?: unknown; host?: unknown }): boolean {
  // Another machine's process cannot be checked from here: held.
  if (lock.host !== hostname()) return true;
  if (typeof lock.pid !== "number") return false;
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === "EPERM";
  }
}

/**
 * Takes `<file>.lock` for this process (created exclusively), or refuses with a
 * `ResultsFileError` naming the run that holds it. A lock left by a process that is gone is
 * taken over. Returns the release, which is also run when the process exits.
 */
export function lockResultsFile(file: string, shown = file): () => void {
  const lockFile = `${file}.lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const body = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
  });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, body, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST" || attempt > 0) throw error;
      let holder: { pid?: unknown; host?: unknown; since?: unknown } = {};
      try {
        holder = JSON.parse(readFileSync(lockFile, "utf8")) as typeof holder;
      } catch {
        // Unreadable: written by something else, or cut short; treated as held.
        holder = { host: "?" };
      }
      if (holderAlive(holder)) {
        throw new ResultsFileError({
          file,
          message: `another toolscore run (process ${String(holder.pid)} on ${String(holder.host)}, since ${String(holder.since)}) is writing ${shown}; wait for it to end, or choose another results file (delete ${lockFile} if no run holds it)`,
        });
      }
      rmSync(lockFile, { force: true });
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    rmSync(lockFile, { force: true });
  };
  process.once("exit", release);
  return release;
}
