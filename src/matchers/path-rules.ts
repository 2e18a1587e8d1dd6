import { globMatches } from "./glob.js";

/**
 * Glob patterns over argument paths. A path is the list of keys from the arguments' root
 * (`filters.date`, `items.0.id`). In a pattern, `*` matches within one key (`*_id`), `**` matches
 * any number of keys, and a pattern without a dot matches the last key at any depth, as a
 * .gitignore name does: `*_id` covers `user_id` and `order.item_id`; `filters.*` only the
 * children of the top-level `filters`. A leading `$.` is allowed.
 */
export interface PathPattern {
  readonly source: string;
  matches(path: readonly (string | number)[]): boolean;
}

/** One key's glob (`*` within the key; `?` is itself), as a test. */
function segmentRegex(segment: string): { test(key: string): boolean } {
  return { test: (key) => globMatches(segment, key, false) };
}

/** Compiles one pattern; throws a TypeError naming the problem for an empty one. */
export function compilePathPattern(source: string): PathPattern {
  const trimmed = source.startsWith("$.") ? source.slice(2) : source;
  if (trimmed === "" || trimmed.split(".").some((segment) => segment === "")) {
    throw new TypeError(
      `${JSON.stringify(source)} is not a path pattern: use keys separated by dots, such as "filters.*"`,
    );
  }
  const segments = trimmed.split(".");
  if (segments.length === 1 && segments[0] !== "**") {
    const last = segmentRegex(segments[0]);
    return {
      source,
      matches: (path) => path.length > 0 && last.test(String(path[path.length - 1])),
    };
  }
  const parts = segments.map((segment) => (segment === "**" ? "**" : segmentRegex(segment)));
  // With two or more `**`, the places already known not to match are remembered: without that,
  // a deep path costs its depth to the power of the number of `**`.
  const remember = parts.filter((part) => part === "**").length > 1;
  const matches = (path: readonly (string | number)[]): boolean => {
    const failed = remember ? new Set<number>() : undefined;
    const matchFrom = (p: number, s: number): boolean => {
      if (s === parts.length) return p === path.length;
      const key = p * (parts.length + 1) + s;
      if (failed?.has(key) === true) return false;
      const part = parts[s];
      let found = false;
      if (part === "**") {
        for (let next = p; next <= path.length && !found; next++) found = matchFrom(next, s + 1);
      } else {
        found = p < path.length && part.test(String(path[p])) && matchFrom(p + 1, s + 1);
      }
      if (!found) failed?.add(key);
      return found;
    };
    return matchFrom(0, 0);
  };
  return { source, matches };
}
