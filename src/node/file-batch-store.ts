import { rm } from "node:fs/promises";
import path from "node:path";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeBatchStore } from "../core/judge.js";
import { writeFileAtomic } from "./atomic-write.js";
import { FileTooLargeError, NotARegularFileError, readRegularFile } from "./regular-file.js";

/** A batch store entry is a few bytes; more is not one of ours. */
const maxEntryBytes = 64 * 1024;

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
      const file = fileOf(key);
      try {
        const bytes = await readRegularFile(file, { maxBytes: maxEntryBytes });
        const entry = JSON.parse(bytes.toString("utf8")) as { batchId?: unknown };
        return typeof entry.batchId === "string" ? entry.batchId : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof SyntaxError)
          return undefined;
        if (error instanceof NotARegularFileError || error instanceof FileTooLargeError) {
          throw new InvalidInputError({
            field: "batch store",
            message: `the judge batch store's ${file} ${error.message}: remove it`,
          });
        }
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
