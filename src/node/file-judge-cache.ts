import type { Dirent } from "node:fs";
import { readdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { InvalidInputError } from "../core/errors.js";
import type { JudgeCache, JudgeResponse } from "../core/judge.js";
import { writeFileAtomic } from "./atomic-write.js";
import { FileTooLargeError, NotARegularFileError, readRegularFile } from "./regular-file.js";

const format = "toolscore-judge-cache/1";

/** The largest entry read: an answer is a few KB (a symlink to /dev/zero would be endless). */
export const maxCacheEntryBytes = 1024 * 1024;

/** A judge cache on disk, with where it lives. */
export interface FileJudgeCache extends JudgeCache {
  readonly directory: string;
  /**
   * Deletes every answer in the cache (and a crash's stray temporary files), and the folders that
   * leaves empty; nothing else in `directory` is touched. Resolves to the answers deleted.
   */
  clear(): Promise<number>;
}

const entryName = /^[0-9a-f]{16,128}\.json$/;
const temporaryName = /^[0-9a-f]{16,128}\.json\.\d+\.[0-9a-f-]{36}\.tmp$/;
const folderName = /^[0-9a-f]{2}$/;

/** Deletes a cache's entries, leaving anything else in its folder as it was. */
async function clearEntries(root: string): Promise<number> {
  let folders: Dirent[];
  try {
    folders = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let deleted = 0;
  for (const folder of folders) {
    if (!folder.isDirectory() || !folderName.test(folder.name)) continue;
    const inside = path.join(root, folder.name);
    for (const file of await readdir(inside, { withFileTypes: true })) {
      const entry = entryName.test(file.name) && file.name.startsWith(folder.name);
      if (!file.isFile() || !(entry || temporaryName.test(file.name))) continue;
      await rm(path.join(inside, file.name), { force: true });
      if (entry) deleted++;
    }
    await rmdir(inside).catch(() => undefined); // kept when something else is in it
  }
  await rmdir(root).catch(() => undefined);
  return deleted;
}

function isResponse(value: unknown): value is JudgeResponse {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Partial<JudgeResponse>;
  return (
    typeof record.text === "string" &&
    typeof record.modelId === "string" &&
    typeof record.usage?.inputTokens === "number" &&
    typeof record.usage.outputTokens === "number"
  );
}

/**
 * Judge answers kept on disk, one small JSON file per answer under `directory` (content-addressed
 * by the call's key, in 256 subfolders). Writes are atomic, so a crash mid-write or two processes
 * sharing the folder never leave a torn entry; an unreadable entry (not JSON, not a regular file
 * of its own, over `maxCacheEntryBytes`) counts as a miss and is written again. A cache is
 * trusted input: its answers stand for the judge's, so keep it where only your runs write.
 *
 * @example
 * const session = createJudgeSession(model, { cache: createFileJudgeCache(".toolscore/cache") });
 */
export function createFileJudgeCache(directory: string): FileJudgeCache {
  if (typeof directory !== "string" || directory === "") {
    throw new InvalidInputError({
      field: "directory",
      message: "the cache directory must be a path",
    });
  }
  const root = path.resolve(directory);
  const fileOf = (key: string): string => {
    if (!/^[0-9a-f]{16,128}$/.test(key)) {
      throw new InvalidInputError({
        field: "key",
        message: `a cache key is a hex digest, got ${JSON.stringify(key)}`,
      });
    }
    return path.join(root, key.slice(0, 2), `${key}.json`);
  };
  return {
    directory: root,
    async get(key) {
      let text: string;
      try {
        // A regular file of its own only: a symlink, a device or an oversized entry is no
        // answer (a miss, written again), whatever it points to.
        const bytes = await readRegularFile(fileOf(key), {
          noFollow: true,
          maxBytes: maxCacheEntryBytes,
        });
        text = bytes.toString("utf8");
      } catch (error) {
        if (error instanceof NotARegularFileError || error instanceof FileTooLargeError) {
          return undefined;
        }
        // Absent, or a symlink (refused by O_NOFOLLOW).
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ELOOP" || code === "EMLINK") return undefined;
        throw error;
      }
      try {
        const entry = JSON.parse(text) as { format?: unknown; key?: unknown; response?: unknown };
        if (entry.format !== format || entry.key !== key || !isResponse(entry.response))
          return undefined;
        return entry.response;
      } catch {
        return undefined;
      }
    },
    async set(key, response) {
      await writeFileAtomic(fileOf(key), `${JSON.stringify({ format, key, response })}\n`);
    },
    clear: () => clearEntries(root),
  };
}
