import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The worker thread's script: beside this module in the ES module build; from the CommonJS
 * bundle (which has no copy of its own) or the sources, the ES module build's, found in the
 * folders above.
 */
export function workerFile(): URL {
  const beside = new URL("./worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [
      path.join(folder, "evaluate-to-file", "worker.js"),
      path.join(folder, "dist", "evaluate-to-file", "worker.js"),
    ]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    const parent = path.dirname(folder);
    if (parent === folder) {
      throw new Error(
        "toolscore's worker thread script (dist/evaluate-to-file/worker.js) is missing: reinstall toolscore, or run with workers: 0",
      );
    }
    folder = parent;
  }
}
