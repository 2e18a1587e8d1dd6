import { execFile } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { JudgeResponse } from "../core/judge.js";
import { createFileBatchStore } from "./file-batch-store.js";
import { createFileJudgeCache, maxCacheEntryBytes } from "./file-judge-cache.js";

const run = promisify(execFile);
const directories: string[] = [];
function scratch(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "toolscore-cache-"));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

const answer: JudgeResponse = {
  output: { score: 0.5, reason: "half" },
  text: '{"score":0.5,"reason":"half"}',
  usage: { inputTokens: 10, outputTokens: 5 },
  modelId: "gpt-4.1",
};
const key = "ab".repeat(32);

describe("createFileJudgeCache", () => {
  it("keeps answers across instances, one file per key", async () => {
    const directory = scratch();
    await createFileJudgeCache(directory).set(key, answer);
    expect(await createFileJudgeCache(directory).get(key)).toEqual(answer);
    expect(await createFileJudgeCache(directory).get("cd".repeat(32))).toBeUndefined();
    expect(readdirSync(path.join(directory, "ab"))).toEqual([`${key}.json`]);
  });

  it("clears its answers and stray temporary files, and nothing else in the folder", async () => {
    const directory = scratch();
    const cache = createFileJudgeCache(path.join(directory, "cache"));
    await cache.set(key, answer);
    await cache.set("cd".repeat(32), answer);
    const stray = path.join(
      directory,
      "cache",
      "ab",
      `${key}.json.123.${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}.tmp`,
    );
    writeFileSync(stray, "{");
    writeFileSync(path.join(directory, "cache", "notes.txt"), "mine");
    mkdirSync(path.join(directory, "cache", "ef"));
    writeFileSync(path.join(directory, "cache", "ef", "keep.json"), "{}");
    expect(await cache.clear()).toBe(2);
    expect(await cache.get(key)).toBeUndefined();
    expect(readdirSync(path.join(directory, "cache")).sort()).toEqual(["ef", "notes.txt"]);
    expect(readdirSync(path.join(directory, "cache", "ef"))).toEqual(["keep.json"]);
    // A cache whose folder holds nothing else goes whole; a missing one clears nothing.
    const alone = createFileJudgeCache(path.join(directory, "alone"));
    await alone.set(key, answer);
    expect(await alone.clear()).toBe(1);
    expect(readdirSync(directory).sort()).toEqual(["cache"]);
    expect(await alone.clear()).toBe(0);
  });

  it("treats a torn or foreign entry as a miss, and writes it again", async () => {
    const directory = scratch();
    const cache = createFileJudgeCache(directory);
    await cache.set(key, answer);
    const file = path.join(directory, "ab", `${key}.json`);
    writeFileSync(file, readFileSync(file, "utf8").slice(0, 20));
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, answer);
    expect(await cache.get(key)).toEqual(answer);
    // An entry copied under another key is not trusted.
    const other = "ef".repeat(32);
    await cache.set(other, answer);
    writeFileSync(
      path.join(directory, "ab", `${key}.json`),
      readFileSync(path.join(directory, "ef", `${other}.json`)),
    );
    expect(await cache.get(key)).toBeUndefined();
  });

  it("reads an entry only as a regular file of its own, of at most 1 MiB (issue 34, item 2)", async () => {
    const directory = scratch();
    const cache = createFileJudgeCache(directory);
    await cache.set(key, answer);
    const entry = path.join(directory, "ab", `${key}.json`);
    // A symlink to a good answer elsewhere, to a device, or an endless file: all misses.
    const elsewhere = path.join(directory, "elsewhere.json");
    writeFileSync(elsewhere, readFileSync(entry));
    for (const target of [elsewhere, "/dev/zero"]) {
      rmSync(entry);
      symlinkSync(target, entry);
      expect(await cache.get(key), target).toBeUndefined();
    }
    rmSync(entry);
    const padded = JSON.stringify({
      format: "toolscore-judge-cache/1",
      key,
      response: { ...answer, text: "x".repeat(maxCacheEntryBytes) },
    });
    writeFileSync(entry, padded);
    expect(await cache.get(key)).toBeUndefined();
    // Written again, the entry is the cache's own file, and read.
    await cache.set(key, answer);
    expect(lstatSync(entry).isSymbolicLink()).toBe(false);
    expect(await cache.get(key)).toEqual(answer);
  });

  it("refuses keys that are not digests (no path tricks)", async () => {
    const cache = createFileJudgeCache(scratch());
    await expect(cache.get("../../etc/passwd")).rejects.toThrow(/hex digest/);
  });

  it("stays consistent when two processes write the same keys at once", async () => {
    const directory = scratch();
    const writer = path.join(directory, "writer.mjs");
    const module = new URL("./file-judge-cache.ts", import.meta.url).pathname;
    writeFileSync(
      writer,
      `import { createFileJudgeCache } from ${JSON.stringify(module)};
const cache = createFileJudgeCache(process.argv[2]);
const who = process.argv[3];
await Promise.all(Array.from({ length: 200 }, (_, i) => cache.set(i.toString(16).padStart(64, "0"), {
  output: { who, i }, text: "x".repeat(2000 + i), usage: { inputTokens: i, outputTokens: 1 }, modelId: who,
})));
`,
    );
    const tsx = path.resolve("node_modules/.bin/tsx");
    await Promise.all(
      ["one", "two"].map((who) => run(tsx, [writer, path.join(directory, "cache"), who])),
    );
    const cache = createFileJudgeCache(path.join(directory, "cache"));
    for (let i = 0; i < 200; i++) {
      const entry = await cache.get(i.toString(16).padStart(64, "0"));
      // Whole entries from one writer or the other, never a mix or a torn file.
      expect(entry?.modelId === "one" || entry?.modelId === "two").toBe(true);
      expect(entry?.output).toEqual({ who: entry?.modelId, i });
      expect(entry?.text).toHaveLength(2000 + i);
    }
    const leftovers = readdirSync(path.join(directory, "cache"), { recursive: true }).map(String);
    expect(leftovers.filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});

describe("createFileBatchStore", () => {
  it("saves, loads and clears batch ids", async () => {
    const store = createFileBatchStore(scratch());
    expect(await store.load(key)).toBeUndefined();
    await store.save(key, "batch_123");
    expect(await createFileBatchStore(store.directory).load(key)).toBe("batch_123");
    await store.clear(key);
    expect(await store.load(key)).toBeUndefined();
  });
});
