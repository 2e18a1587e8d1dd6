/**
 * Preloaded (`node --import`) into a process the bench runs whole: at exit, writes the process's
 * peak memory and CPU time to the file TOOLSCORE_BENCH_USAGE names.
 */
import { writeFileSync } from "node:fs";

const file = process.env.TOOLSCORE_BENCH_USAGE;
if (file !== undefined) {
  process.on("exit", () => {
    const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ peakMiB: maxRSS / 1024, cpuSeconds: (userCPUTime + systemCPUTime) / 1e6 }),
    );
  });
}
