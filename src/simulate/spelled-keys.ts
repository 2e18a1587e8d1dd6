import type { JsonObject } from "../core/json.js";
import { closestName } from "../core/suggest.js";

/**
 * An object's values by the field each key spells (`latency_ms` is `latencyMs`); a key no field
 * spells, or a field given twice, is `fail`ed naming the key (with the closest field's name).
 */
export function readSpelledKeys<Key extends string>(
  item: JsonObject,
  spellings: ReadonlyMap<string, Key>,
  fields: readonly Key[],
  fail: (message: string, key: string) => never,
): Partial<Record<Key, unknown>> {
  const given: Partial<Record<Key, unknown>> = {};
  for (const key of Object.keys(item)) {
    const field = spellings.get(key);
    if (field === undefined) {
      const guess = closestName(key, [...fields]);
      fail(
        `is not read${guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`}`,
        key,
      );
    } else if (given[field] !== undefined) fail("is given twice", key);
    else given[field] = item[key];
  }
  return given;
}
