import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetParseError, MediaLoadError, ResultsFileError } from "../core/errors.js";
import { datasetFingerprint, readDataset, readDatasetLine } from "./dataset.js";
import { fileHead } from "./recordings.js";
import { FileTooLargeError, readRegularFileSync } from "./regular-file.js";
import { holdsFinishedRun, scanResults } from "./results-file.js";
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

describe("files a results file, a config or a checkout names (issue 48, items 4, 5 and 8)", () => {
  const fifo = path.join(folder, "pipe.jsonl");
  execFileSync("mkfifo", [fifo]);
  const zero = path.join(folder, "zero.jsonl");
  symlinkSync("/dev/zero", zero);

  it("refuses a dataset that is a FIFO or a link to a device, at once, by what it is", async () => {
    for (const [file, kind] of [
      [fifo, "a FIFO \\(named pipe\\)"],
      [zero, "a device"],
    ] as const) {
      const message = new RegExp(`cannot read the dataset .*: it is ${kind}, not a regular file`);
      await expect(datasetFingerprint(file)).rejects.toSatisfy(
        (error: unknown) => DatasetParseError.isInstance(error) && message.test(error.message),
      );
      await expect(entries(path.basename(file))).rejects.toSatisfy(
        (error: unknown) => DatasetParseError.isInstance(error) && message.test(error.message),
      );
      const line = await readDatasetLine(file, { index: 0, line: 1, offset: 0, bytes: 10 });
      expect(DatasetParseError.isInstance(line) && line.message).toMatch(message);
    }
  });

  it("refuses a results file that is a FIFO or a device", async () => {
    for (const file of [fifo, zero]) {
      await expect(scanResults(file)).rejects.toSatisfy(
        (error: unknown) =>
          ResultsFileError.isInstance(error) && /not a regular file/.test(error.message),
      );
      expect(await holdsFinishedRun(file)).toBe(false);
      expect(await fileHead(file)).toBeUndefined();
    }
  });

  it("reads a small regular file whole, synchronously, and refuses the rest", () => {
    const small = path.join(folder, "small.txt");
    writeFileSync(small, "twelve bytes");
    expect(readRegularFileSync(small, { maxBytes: 12 }).toString()).toBe("twelve bytes");
    expect(() => readRegularFileSync(small, { maxBytes: 11 })).toThrow(FileTooLargeError);
    expect(() => readRegularFileSync(fifo, { maxBytes: 100 })).toThrow(/is a FIFO/);
    expect(() => readRegularFileSync(zero, { maxBytes: 100 })).toThrow(/is a device/);
  });
});
