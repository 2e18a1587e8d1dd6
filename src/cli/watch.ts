/**
 * The watch loop of `eval --watch`: runs once, then again after the files it watches change
 * (debounced; changes during a run make one more run after it), until the process is asked to
 * stop. What a run does and prints is the caller's.
 */
import { watch } from "node:fs";
import type { FSWatcher } from "node:fs";
import path from "node:path";
import { ToolscoreError } from "../core/errors.js";
import type { CliIo } from "./io.js";

export interface WatchLoopOptions {
  /** Folders watched (with what is in them), and files watched. */
  readonly folders: readonly string[];
  readonly files: readonly string[];
  /**
   * Files whose changes are the run's own (its results and reports, with the lock and temporary
   * files beside them that start with their names): never a reason to run.
   */
  readonly ignore: readonly string[];
  /** One run; resolves to its exit code. */
  readonly run: (changed: readonly string[]) => Promise<number>;
  readonly io: CliIo;
  /** Quiet time after a change before a run. Default 300 ms. */
  readonly debounceMs?: number;
}

/** Paths of folders nobody edits a dataset in: their churn is no reason to run. */
const noise = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

export async function watchLoop(options: WatchLoopOptions): Promise<number> {
  const { io } = options;
  const ignored = options.ignore.map((file) => path.resolve(file));
  const isOwn = (file: string) => ignored.some((own) => file === own || file.startsWith(`${own}.`));
  const pending = new Set<string>();
  const stopped = () => io.signal?.aborted === true;
  let code = await options.run([]);
  if (stopped()) return code;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const changed = (file: string) => {
    const full = path.resolve(file);
    if (isOwn(full) || noise.test(full)) return;
    pending.add(full);
    clearTimeout(timer);
    timer = setTimeout(() => wake?.(), options.debounceMs ?? 300);
  };
  const watchers: FSWatcher[] = [];
  for (const folder of options.folders) {
    watchers.push(
      watch(folder, { recursive: true }, (_event, name) => {
        if (name !== null) changed(path.join(folder, name));
      }),
    );
  }
  for (const file of options.files) {
    // The folder, not the file: an editor that saves by replacing the file keeps being seen.
    const folder = path.dirname(file);
    const base = path.basename(file);
    watchers.push(
      watch(folder, (_event, name) => {
        if (name === base) changed(file);
      }),
    );
  }
  const say = () => {
    io.stderr.write("toolscore: watching for changes (Ctrl-C ends it)\n");
  };
  say();
  io.signal?.addEventListener(
    "abort",
    () => {
      wake?.();
    },
    { once: true },
  );
  try {
    while (!stopped()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
      if (stopped()) break;
      const files = [...pending];
      pending.clear();
      try {
        code = await options.run(files);
      } catch (error) {
        if (stopped()) throw error;
        // A file mid-save (an editor that replaces it), or a config being edited: said, and
        // the next change runs again.
        const prefix = ToolscoreError.isInstance(error) ? `${error.code}: ` : "";
        const message = error instanceof Error ? error.message : String(error);
        io.stderr.write(`toolscore: this run could not start: ${prefix}${message}\n`);
      }
      if (stopped()) return code;
      say();
    }
  } finally {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  }
  io.stderr.write("toolscore: watch stopped\n");
  return 0;
}
