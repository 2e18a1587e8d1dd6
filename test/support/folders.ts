import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * Fresh folders for a test file, under one temporary root removed after its tests: each call
 * makes a folder with the files given (text and bytes as they are, anything else as JSON), in
 * subfolders as named.
 */
export function testFolders(prefix: string): (files?: Record<string, unknown>) => string {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });
  let made = 0;
  return (files = {}) => {
    const directory = path.join(root, `w${++made}`);
    mkdirSync(directory, { recursive: true });
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
      writeFileSync(
        path.join(directory, name),
        typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content),
      );
    }
    return directory;
  };
}

/** Items as JSONL text, one JSON value a line, ending with a line break. */
export const jsonl = (items: readonly unknown[]): string =>
  `${items.map((item) => JSON.stringify(item)).join("\n")}\n`;

/** The JSON values of a JSONL file, one a line, blank lines left out. */
export const readJsonl = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
