import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetParseError, MediaLoadError } from "../core/errors.js";
import { readDataset } from "./dataset.js";
import type { DatasetEntry } from "./dataset.js";
import { loadImage } from "./load-image.js";

/** Issue 22, items 7 and 9: files named in data that would block or blow up a run. */

const folder = mkdtempSync(path.join(tmpdir(), "toolscore-files-"));
execFileSync("mkfifo", [path.join(folder, "pipe.json")]);

async function entries(file: string): Promise<DatasetEntry[]> {
  const read: DatasetEntry[] = [];
  for await (const entry of readDataset(path.join(folder, file))) read.push(entry);
  return read;
}

describe("files named in data", () => {
  it("refuses a FIFO named as trajectoryFile, as that line's error, without blocking", async () => {
    writeFileSync(
      path.join(folder, "cases.jsonl"),
      [
        JSON.stringify({ id: "fifo", trajectoryFile: "pipe.json", expectedTools: [] }),
        JSON.stringify({ id: "fine", toolsCalled: [], expectedTools: [] }),
      ].join("\n"),
    );
    const [fifo, fine] = await entries("cases.jsonl");
    expect(DatasetParseError.isInstance(fifo) && fifo.message).toMatch(
      /trajectoryFile "pipe\.json" is a FIFO \(named pipe\), not a regular file/,
    );
    expect(DatasetParseError.isInstance(fine)).toBe(false);
  });

  it("refuses a FIFO named as an image", async () => {
    const error = await loadImage({ kind: "path", path: "pipe.json" }, { baseDirectory: folder })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(MediaLoadError.isInstance(error) && error.message).toMatch(/is a FIFO/);
  });

  it("refuses a YAML alias bomb with a typed error", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 10; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    writeFileSync(path.join(folder, "bomb.yaml"), `${levels.join("\n")}\ncases: []\n`);
    await expect(entries("bomb.yaml")).rejects.toSatisfy(
      (error: unknown) => DatasetParseError.isInstance(error) && /alias/i.test(error.message),
    );
  });

  it("reads a YAML dataset that starts with a byte-order mark", async () => {
    writeFileSync(
      path.join(folder, "bom.yaml"),
      "\ufeff- id: a\n  toolsCalled: []\n  expectedTools: []\n",
    );
    const [entry] = await entries("bom.yaml");
    expect(DatasetParseError.isInstance(entry)).toBe(false);
    expect(entry).toMatchObject({ id: "a" });
  });
});
