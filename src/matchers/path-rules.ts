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

function segmentRegex(segment: string): RegExp {
  const escaped = segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
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
  const matchFrom = (path: readonly (string | number)[], p: number, s: number): boolean => {
    if (s === parts.length) return p === path.length;
    const part = parts[s];
    if (part === "**") {
      for (let next = p; next <= path.length; next++) if (matchFrom(path, next, s + 1)) return true;
      return false;
    }
    return p < path.length && part.test(String(path[p])) && matchFrom(path, p + 1, s + 1);
  };
  return { source, matches: (path) => matchFrom(path, 0, 0) };
}
