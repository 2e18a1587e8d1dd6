import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import type { Stats } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { ResultsFileError } from "../core/errors.js";
import { readRegularFileSync } from "./regular-file.js";

/** Tries at taking a lock that other runs keep taking over when it goes stale. */
const maxLockAttempts = 5;

/** A lock file's text; undefined when it is gone or is not a small regular file. */
function lockText(lockFile: string): string | undefined {
  try {
    return readRegularFileSync(lockFile, { noFollow: true, maxBytes: 64 * 1024 }).toString("utf8");
  } catch {
    return undefined;
  }
}

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
 * Takes `lockFile` for this process (created exclusively), or refuses with a `ResultsFileError`
 * naming the run that holds it; a lock left by a process that is gone is taken over. Returns
 * the release, which is also run when the process exits.
 */
function takeLock(lockFile: string, file: string, shown: string): () => void {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const body = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    file,
  });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, body, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    }
    const seen = lockText(lockFile);
    // Released between the two: taken again.
    if (seen === undefined && lstatSync(lockFile, { throwIfNoEntry: false }) === undefined) {
      if (attempt < maxLockAttempts) continue;
    }
    let holder: { pid?: unknown; host?: unknown; since?: unknown; file?: unknown } = {};
    try {
      holder = JSON.parse(seen ?? "") as typeof holder;
    } catch {
      // Unreadable: written by something else, or cut short; treated as held.
      holder = { host: "?" };
    }
    if (holderAlive(holder)) {
      const other =
        typeof holder.file === "string" && holder.file !== file
          ? ` (as ${holder.file}, the same file by another name)`
          : "";
      throw new ResultsFileError({
        file,
        message: `another toolscore run (process ${String(holder.pid)} on ${String(holder.host)}, since ${String(holder.since)}) is writing ${shown}${other}; wait for it to end, or choose another results file (delete ${lockFile} if no run holds it)`,
      });
    }
    if (attempt >= maxLockAttempts) {
      throw new ResultsFileError({
        file,
        message: `could not take ${lockFile} after ${maxLockAttempts} tries: other toolscore runs keep taking it; wait for them to end, or choose another results file`,
      });
    }
    // Gone stale: removed only while it still holds what was judged stale (another run that
    // took it over meanwhile keeps its own), then taken again.
    if (lockText(lockFile) === seen) rmSync(lockFile, { force: true });
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

/**
 * Takes the results file `file` for this process, or refuses with a `ResultsFileError` naming
 * the run that holds it. Two locks: `<file>.lock` beside it (held across machines sharing the
 * folder), and one for the file itself, by its device and inode, in the machine's temporary
 * folder, so that a hard link to the file is the same file (a file not there yet is created
 * empty to be locked, and removed on release if still empty). A symbolic link at the file's name
 * is refused: the run would write its target. Returns the release, which is also run when the
 * process exits.
 */
export function lockResultsFile(file: string, shown = file): () => void {
  const releaseName = takeLock(`${file}.lock`, file, shown);
  try {
    const { info, created } = theFileItself(file, shown);
    const releaseFile = takeLock(
      path.join(tmpdir(), `toolscore-results-${info.dev}-${info.ino}.lock`),
      file,
      shown,
    );
    return () => {
      releaseFile();
      if (created && statSync(file, { throwIfNoEntry: false })?.size === 0) {
        rmSync(file, { force: true });
      }
      releaseName();
    };
  } catch (error) {
    releaseName();
    throw error;
  }
}

/** The results file's device and inode, created empty when it is not there; never a link. */
function theFileItself(file: string, shown: string): { info: Stats; created: boolean } {
  let created = false;
  try {
    closeSync(openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL));
    created = true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") throw error;
  }
  const info = lstatSync(file);
  if (info.isSymbolicLink()) {
    throw new ResultsFileError({
      file,
      message: `${shown} is a symbolic link; a run writes its results file itself, never through a link (which a checkout may hold from a pull request): remove the link, or name the file it points to`,
    });
  }
  return { info, created };
}
