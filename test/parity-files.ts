import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

/**
 * Where the parity cases are: `TOOLSCORE_PARITY_DIR` when set (the full, hidden set is checked
 * that way), else the team's shared folder next to the checkout, else the copy in this repository
 * (a clean clone on a CI machine has no shared folder).
 */
export function parityDirectory(): string {
  const fromEnvironment = process.env.TOOLSCORE_PARITY_DIR;
  if (fromEnvironment) return path.resolve(fromEnvironment);
  const shared = path.resolve(root, "..", "shared", "parity");
  if (existsSync(path.join(shared, "deepeval.jsonl"))) return shared;
  return path.join(root, "test", "fixtures", "parity");
}

/** The lines of one parity file, parsed. */
export function readParityCases<T>(file: string): T[] {
  const text = readFileSync(path.join(parityDirectory(), file), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${file}:${index + 1} is not JSON`, { cause: error });
      }
    });
}
