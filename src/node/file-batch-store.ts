import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeBatchStore } from "../core/judge.js";
import { writeFileAtomic } from "./atomic-write.js";

/**
 * Remembers submitted judge batches on disk (one file per run key under `directory`), so that a
 * run restarted after a crash or a timeout polls the batch it already submitted.
 */
export function createFileBatchStore(
  directory: string,
): JudgeBatchStore & { readonly directory: string } {
  if (typeof directory !== "string" || directory === "") {
    throw new InvalidInputError({
      field: "directory",
      message: "the batch store directory must be a path",
    });
  }
  const root = path.resolve(directory);
  const fileOf = (key: string): string => {
    if (!/^[0-9a-f]{16,128}$/.test(key)) {
      throw new InvalidInputError({
        field: "key",
        message: `a batch key is a hex digest, got ${JSON.stringify(key)}`,
      });
    }
    return path.join(root, `${key}.json`);
  };
  return {
    directory: root,
    async load(key) {
      try {
        const entry = JSON.parse(await readFile(fileOf(key), "utf8")) as { batchId?: unknown };
        return typeof entry.batchId === "string" ? entry.batchId : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof SyntaxError)
          return undefined;
        throw error;
      }
    },
    async save(key, batchId) {
      await writeFileAtomic(
        fileOf(key),
        `${JSON.stringify({ batchId, savedAt: new Date().toISOString() })}\n`,
      );
    },
    async clear(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
