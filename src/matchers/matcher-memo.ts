/**
 * The matchers a run made from `{"$match": ...}` objects, kept by their JSON text (see
 * `toExpectedValue`'s `memo`).
 */
import { isCleanJson } from "../core/json.js";
import type { ValueMatcher } from "./value-matchers.js";

/** Distinct matchers a memo keeps; the first made is the first let go. */
const maxMemoMatchers = 1000;

/**
 * The matchers a run made from `{"$match": ...}` objects, by their JSON text: a dataset writes one
 * matcher in every case, and a pattern's compile costs far more than reading its text. Matchers
 * are immutable, so one serves every case that writes it.
 */
export class MatcherMemo {
  private readonly made = new Map<string, ValueMatcher>();

  /** The matcher `record` describes: made by `make` the first time its text is met. */
  of(record: Record<string, unknown>, make: () => ValueMatcher): ValueMatcher {
    // Only plain JSON has one meaning per text: a code matcher inside may be a RegExp's.
    if (!isCleanJson(record)) return make();
    const text = JSON.stringify(record);
    let matcher = this.made.get(text);
    if (matcher === undefined) {
      matcher = make();
      if (this.made.size >= maxMemoMatchers) {
        const [[oldest]] = this.made;
        this.made.delete(oldest);
      }
      this.made.set(text, matcher);
    }
    return matcher;
  }
}
