import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The workspace of the majors current on the registry (openai 7, ai 7, ...). */
const stack = createRequire(path.resolve("test/stacks/current/package.json"));

/**
 * A module of a package as the current-majors workspace installed it (`ai`, `ai/test`, `openai`),
 * for unit tests of what only those majors have: the checkout's own may be older.
 */
export function currentMajor(specifier: string): Promise<unknown> {
  return import(pathToFileURL(stack.resolve(specifier)).href);
}
