import type { CaseStatus } from "../core/case-result.js";
import { plural } from "../core/words.js";
import { formatDuration } from "../reporters/format.js";

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface Progress {
  /** A case finished (`status` tallies), or was skipped as already done. */
  tick(status: CaseStatus | "skipped"): void;
  /** A run started (counted apart from those done while some are under way). */
  started(): void;
  /** Time the work itself took (the agent's, for runs), in milliseconds. */
  busy(ms: number): void;
  /** Bytes of the dataset read so far. */
  bytes(read: number): void;
  /** Clears the bar (TTY) and writes the last line. */
  finish(): void;
}

/**
 * Progress on stderr: on a terminal, one bar redrawn at most ten times a second with the rate and
 * an ETA from the bytes read (datasets are streamed, so the case count is unknown until the end);
 * elsewhere (CI logs), a plain line every `intervalMs`.
 */
export function createProgress(input: {
  stream: ProgressStream;
  totalBytes: number;
  label: string;
  /** What is counted: "case" (the default), "run". */
  noun?: string;
  /** Runs at once: with `busy`, the share of their time the work took is shown. */
  slots?: number;
  intervalMs?: number;
  now?: () => number;
}): Progress {
  const { stream, totalBytes, label } = input;
  const now = input.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const interval = input.intervalMs ?? (tty ? 100 : 10_000);
  const started = now();
  let last = started;
  let done = 0;
  let skipped = 0;
  let failed = 0;
  let errors = 0;
  let notEvaluable = 0;
  let read = 0;
  let begun = 0;
  let busyMs = 0;
  let drawn = false;

  const line = (): string => {
    const elapsed = (now() - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const fraction = totalBytes > 0 ? Math.min(1, read / totalBytes) : 0;
    const eta =
      fraction > 0 && fraction < 1
        ? formatDuration((elapsed / fraction) * (1 - fraction) * 1000)
        : "–";
    const going = begun > done ? `${begun - done} under way, ` : "";
    const share =
      input.slots !== undefined && elapsed > 0
        ? `, busy ${Math.round(Math.min(1, busyMs / 1000 / (elapsed * input.slots)) * 100)}%`
        : "";
    const counts = `${going}${plural(done, input.noun ?? "case")}${skipped > 0 ? ` (+${skipped} done before)` : ""}, ${failed} failed, ${plural(errors, "error")}${notEvaluable > 0 ? `, ${notEvaluable} not evaluable` : ""}${share}`;
    const speed = `${rate >= 100 ? Math.round(rate) : rate.toFixed(1)}/s`;
    if (!tty) return `${label}: ${Math.round(fraction * 100)}% ${counts}, ${speed}, ETA ${eta}\n`;
    const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 70));
    const filled = Math.round(fraction * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    return `\r\u001b[2K${bar} ${Math.round(fraction * 100)}% ${counts} · ${speed} · ETA ${eta}`;
  };
  const maybeDraw = () => {
    const current = now();
    if (current - last < interval) return;
    last = current;
    stream.write(line());
    drawn = true;
  };

  return {
    tick(status) {
      if (status === "skipped") skipped++;
      else {
        done++;
        if (status === "failed") failed++;
        else if (status === "error") errors++;
        else if (status === "not-evaluable") notEvaluable++;
      }
      maybeDraw();
    },
    started() {
      begun++;
    },
    busy(ms) {
      busyMs += ms;
    },
    bytes(value) {
      read = value;
    },
    finish() {
      if (tty && drawn) stream.write("\r\u001b[2K");
    },
  };
}
