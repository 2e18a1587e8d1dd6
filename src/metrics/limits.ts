import { InvalidOptionError } from "../core/errors.js";
import { defaultMaxMisplacedChecks } from "../core/turns.js";

/**
 * Bounds that turn pathological inputs into a clear `LimitExceededError` instead of minutes of
 * work. The defaults let 10,000 calls on each side through in seconds for every algorithm except
 * optimal assignment over thousands of mutually different calls of one tool.
 */
export interface MatchLimits {
  /** Pair similarities computed at most (identical calls are computed once). Default 10⁷. */
  maxPairEvaluations?: number;
  /** Cells of an ordered (weighted LCS) alignment table at most. Default 4·10⁸. */
  maxAlignmentCells?: number;
  /** Steps of optimal assignment within one tool's calls at most. Default 2·10⁹. */
  maxAssignmentWork?: number;
  /**
   * In a conversation, checks of a call one turn did not expect against an expected call another
   * turn missed, at most (finding calls made at the wrong turn). Default 10⁵.
   */
  maxMisplacedChecks?: number;
}

export type ResolvedMatchLimits = Required<MatchLimits>;

export const defaultMatchLimits: ResolvedMatchLimits = {
  maxPairEvaluations: 1e7,
  maxAlignmentCells: 4e8,
  maxAssignmentWork: 2e9,
  maxMisplacedChecks: defaultMaxMisplacedChecks,
};

/** Validates limits given by a caller and fills in the defaults. */
export function resolveMatchLimits(limits: unknown, option = "limits"): ResolvedMatchLimits {
  if (limits === undefined) return defaultMatchLimits;
  if (typeof limits !== "object" || limits === null) {
    throw new InvalidOptionError({
      option,
      value: limits,
      message: `${option} must be an object such as { maxPairEvaluations: 1e8 }`,
    });
  }
  const resolved = { ...defaultMatchLimits };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in defaultMatchLimits)) {
      throw new InvalidOptionError({
        option: `${option}.${key}`,
        value,
        message: `${option}.${key} is not a limit; use ${Object.keys(defaultMatchLimits).join(", ")}`,
      });
    }
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value > 0)) {
      throw new InvalidOptionError({
        option: `${option}.${key}`,
        value,
        message: `${option}.${key} must be a positive number, got ${String(value)}`,
      });
    }
    resolved[key as keyof MatchLimits] = value;
  }
  return resolved;
}
