/**
 * What a watched run remembers of its last run: each case's result by the hash of the case's
 * content, so that the next run takes the results of the cases that did not change and scores
 * the others (see `evaluateToFile`'s `reuse`), and can say what changed.
 */
import { createHash } from "node:crypto";
import type { CaseResult, CaseStatus } from "../core/case-result.js";
import { canonicalJson } from "../core/json.js";
import type { CasePosition } from "../evaluate/score-case.js";

/** Where a case sits in its file, which moving a line changes but the case's content does not. */
const positionKeys = new Set(["index", "line", "offset", "bytes", "notes"]);

/** A SHA-256 of a case's content (its id included), whatever its place in the dataset. */
export function caseContentHash(item: object): string {
  const content = Object.fromEntries(
    Object.entries(item).filter(([key]) => !positionKeys.has(key)),
  );
  return createHash("sha256").update(canonicalJson(content)).digest("hex");
}

/** What changed between two runs of a watched dataset. */
export interface WatchChanges {
  /** Cases taken from the last run, unchanged. */
  readonly reused: number;
  /** Cases scored now: changed, or new. */
  readonly scored: number;
  /** Ids of the last run no longer in the dataset. */
  readonly removed: readonly string[];
  /** Ids whose status changed, with both statuses. */
  readonly moved: readonly {
    readonly id: string;
    readonly before: CaseStatus;
    readonly after: CaseStatus;
  }[];
  /** Lines that could not be read, with the case the line held in the last run, if one did. */
  readonly unreadable: readonly {
    readonly line: number | undefined;
    readonly was: string | undefined;
    readonly message: string;
  }[];
}

export function createCaseMemory() {
  let last = new Map<string, CaseResult>();
  let lastConfig: string | undefined;
  let reusable = last;
  let current = new Map<string, CaseResult>();
  // Lines that could not be read have no content to hash: kept apart, by line.
  let unread: CaseResult[] = [];
  let lastLines = new Map<number, string>();
  const hashes = new Map<number, string>();
  let reused = 0;
  let scored = 0;
  return {
    /**
     * Starts a run under a configuration (its hash): results of the last run are reused only
     * under the same one.
     */
    begin(config: string): void {
      reusable = config === lastConfig ? last : new Map<string, CaseResult>();
      lastConfig = config;
    },
    /** For `evaluateToFile`'s `reuse`: the last run's result of an unchanged case. */
    reuse(item: object, where: CasePosition): CaseResult | undefined {
      const hash = caseContentHash(item);
      hashes.set(where.index, hash);
      const known = reusable.get(hash);
      if (known === undefined) {
        scored++;
        return undefined;
      }
      reused++;
      return where.line === undefined
        ? { ...known, index: where.index }
        : { ...known, index: where.index, line: where.line };
    },
    /** For `evaluateToFile`'s `onResult`: remembers the case's result for the next run. */
    remember(result: CaseResult): void {
      const hash = hashes.get(result.index);
      if (hash !== undefined) current.set(hash, result);
      else if (result.error !== undefined && result.results.length === 0) unread.push(result);
    },
    /** Ends a run: what changed against the last one, whose results this one's replace. */
    finish(): WatchChanges {
      const before = new Map([...last.values()].map((result) => [result.id, result.status]));
      const after = new Map([...current.values()].map((result) => [result.id, result.status]));
      const unreadable = unread.map((result) => ({
        line: result.line,
        was: result.line === undefined ? undefined : lastLines.get(result.line),
        message: result.error?.message ?? "could not be read",
      }));
      const becameUnreadable = new Set(unreadable.flatMap((item) => item.was ?? []));
      const changes: WatchChanges = {
        reused,
        scored,
        removed: [...before.keys()].filter((id) => !after.has(id) && !becameUnreadable.has(id)),
        moved: [...after].flatMap(([id, status]) => {
          const was = before.get(id);
          return was === undefined || was === status ? [] : [{ id, before: was, after: status }];
        }),
        unreadable,
      };
      lastLines = new Map(
        [...current.values()].flatMap((result) =>
          result.line === undefined ? [] : [[result.line, result.id] as const],
        ),
      );
      last = current;
      current = new Map();
      unread = [];
      hashes.clear();
      reused = 0;
      scored = 0;
      return changes;
    },
  };
}

export type CaseMemory = ReturnType<typeof createCaseMemory>;
