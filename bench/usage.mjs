/**
 * Preloaded (`node --import`) into a process the bench runs whole: at exit, writes the process's
 * peak memory to the file TOOLSCORE_BENCH_USAGE names.
 */
import { writeFileSync } from "node:fs";

const file = process.env.TOOLSCORE_BENCH_USAGE;
if (file !== undefined) {
  process.on("exit", () => {
    writeFileSync(file, JSON.stringify({ peakMiB: process.resourceUsage().maxRSS / 1024 }));
  });
}
