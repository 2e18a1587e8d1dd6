/**
 * The fields of a dataset record, read the one way for a whole case and for each of its turns:
 * every spelling of a field known, an unknown key noted, a field given twice or nested too
 * deep an error naming it as the record spelled it.
 */
import { InvalidInputError, ToolscoreError } from "../core/errors.js";
import { mapExpectedList, readCallFields } from "../core/call-fields.js";
import { DEFAULT_MAX_DEPTH, nestsDeeperThan } from "../core/json.js";
import type { JsonObject } from "../core/json.js";
import { closestName } from "../core/suggest.js";
import type { CaseTurn, Content } from "../core/test-case.js";
import { toToolCalls } from "../core/tool-call.js";
import type { ToolCall } from "../core/tool-call.js";

/** Each field's name in toolscore, and the other spellings datasets use for it. */
export type Spellings<F extends string> = Readonly<Record<F, readonly string[]>>;

/** The fields a turn has, which a whole case has too. */
export const turnSpellings = {
  input: ["input", "user_input", "query"],
  actualOutput: ["actualOutput", "actual_output", "response"],
  toolsCalled: ["toolsCalled", "tools_called"],
  expectedTools: ["expectedTools", "expected_tools"],
  expectedOutput: ["expectedOutput", "expected_output", "reference"],
  expectedOutputContains: ["expectedOutputContains", "expected_output_contains"],
  expectedOutcome: ["expectedOutcome", "expected_outcome"],
  metricOptions: ["metricOptions", "metric_options"],
  trajectory: ["trajectory", "agentTrajectory", "agent_trajectory"],
} as const;

export type TurnField = keyof typeof turnSpellings;

/** A reader of records with the fields `spellings` names (see `RecordFields`). */
export interface RecordReader<F extends string> {
  readonly spellingOf: ReadonlyMap<string, F>;
  /** Fields whose depth their own reader checks. */
  readonly deep: ReadonlySet<F>;
}

export function recordReader<F extends string>(
  spellings: Spellings<F>,
  deep: readonly NoInfer<F>[],
): RecordReader<F> {
  return {
    spellingOf: new Map(
      (Object.entries(spellings) as [F, readonly string[]][]).flatMap(([field, names]) =>
        names.map((name) => [name, field] as const),
      ),
    ),
    deep: new Set(deep),
  };
}

/** The closest of `spellings` to `key`, in the key's own style (snake_case or camelCase) first. */
export function closestSpelling(key: string, spellings: readonly string[]): string | undefined {
  const ownStyle = spellings.filter((spelling) => spelling.includes("_") === key.includes("_"));
  return closestName(key, ownStyle) ?? closestName(key, spellings);
}

/** What an error says, whatever was thrown. */
export function errorText(error: unknown): string {
  return ToolscoreError.isInstance(error) || error instanceof Error ? error.message : String(error);
}

/** How a record's fields fail: the error of the record's kind, given the field and its spelling. */
type FieldFailure<F extends string> = (
  message: string,
  field: F,
  name: string,
  cause?: unknown,
) => never;

/**
 * A record's fields by their names in toolscore, and the readers of their kinds of value. A
 * class: a dataset's every case and turn makes one, and methods cost no closures.
 */
export class RecordFields<F extends string> {
  readonly values: Partial<Record<F, unknown>> = {};
  private readonly givenAs: Partial<Record<F, string>> = {};

  /**
   * Reads a record's fields: `within` is where it sits (`turns[1]`) for names and notes, and
   * `onFail` throws the error of the record's kind.
   */
  constructor(
    record: Readonly<Record<string, unknown>>,
    reader: RecordReader<F>,
    private readonly within: string | undefined,
    notes: string[],
    private readonly onFail: FieldFailure<F>,
  ) {
    const { values, givenAs } = this;
    // Keys, not entries: no pair allocated per field of every case.
    for (const key of Object.keys(record)) {
      const value = record[key];
      const field = reader.spellingOf.get(key);
      if (field === undefined) {
        const guess = closestSpelling(key, [...reader.spellingOf.keys()]);
        notes.push(
          `unknown field ${JSON.stringify(key)}${within === undefined ? "" : ` in ${within}`} ignored${guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`}`,
        );
        continue;
      }
      if (value === undefined || value === null) continue;
      const earlier = givenAs[field];
      if (earlier !== undefined) {
        this.fail(
          `${within === undefined ? "" : `${within}: `}${JSON.stringify(earlier)} and ${JSON.stringify(key)} are the same field; give one`,
          field,
        );
      }
      givenAs[field] = key;
      // The call lists are held to the depth limit by the call reader; the rest here, before
      // anything recursive (a record's writer, a report, a hash) meets them.
      if (typeof value === "object" && !reader.deep.has(field)) {
        if (nestsDeeperThan(value, DEFAULT_MAX_DEPTH)) {
          this.fail(
            `${this.name(field)} is nested more than ${DEFAULT_MAX_DEPTH} levels deep (see docs/reference/limits.md)`,
            field,
          );
        }
      }
      values[field] = value;
    }
  }

  /** The field as the record spelled it (within its place: `turns[1].expected_tools`). */
  name(field: F): string {
    const given = this.givenAs[field] ?? field;
    return this.within === undefined ? given : `${this.within}.${given}`;
  }

  fail(message: string, field: F, cause?: unknown): never {
    return this.onFail(message, field, this.name(field), cause);
  }

  list(field: F): readonly unknown[] | undefined {
    const value = this.values[field];
    if (value === undefined) return undefined;
    return Array.isArray(value)
      ? (value as unknown[])
      : this.fail(`${this.name(field)} must be a list`, field);
  }

  content(field: F): Content | undefined {
    const value = this.values[field];
    if (value === undefined) return undefined;
    try {
      return readContent(value, this.name(field));
    } catch (error) {
      return this.fail(errorText(error), field, error);
    }
  }

  strings(field: F): readonly string[] | undefined {
    const given = this.list(field);
    if (given?.some((item) => typeof item !== "string") === true) {
      this.fail(`${this.name(field)} must be a list of strings`, field);
    }
    return given as readonly string[] | undefined;
  }

  /** A JSON object; `what` says what it holds, for the message. */
  object(field: F, what: string): JsonObject | undefined {
    const value = this.values[field];
    if (value !== undefined && (typeof value !== "object" || Array.isArray(value))) {
      this.fail(`${this.name(field)} must be ${what}`, field);
    }
    return value as JsonObject | undefined;
  }

  calls(field: F, side: "called" | "expected"): readonly ToolCall[] | undefined {
    const given = this.list(field);
    try {
      return readCalls(given, side, this.name(field)) as readonly ToolCall[] | undefined;
    } catch (error) {
      return this.fail(errorText(error), field, error);
    }
  }
}

/**
 * What a whole case and each of its turns both say: the user's input, the reply, the calls made
 * (when no transcript gives them) and every expectation.
 */
export function readTurnFields(
  fields: RecordFields<TurnField>,
  options: { readonly callsGiven: boolean; readonly expectNone: boolean },
): { -readonly [K in keyof CaseTurn]: CaseTurn[K] } {
  const turn: { -readonly [K in keyof CaseTurn]: CaseTurn[K] } = {};
  const set = <K extends keyof CaseTurn>(key: K, value: CaseTurn[K] | undefined): void => {
    if (value !== undefined) turn[key] = value;
  };
  if (!options.callsGiven) set("toolsCalled", fields.calls("toolsCalled", "called"));
  set("input", fields.content("input"));
  set("actualOutput", fields.content("actualOutput"));
  const expected = fields.calls("expectedTools", "expected");
  set("expectedTools", expected ?? (options.expectNone ? [] : undefined));
  set("expectedOutput", fields.content("expectedOutput"));
  set("expectedOutputContains", fields.strings("expectedOutputContains"));
  set("expectedOutcome", fields.content("expectedOutcome"));
  const metricOptions = fields.object("metricOptions", "an object of options by metric id");
  set("metricOptions", metricOptions as CaseTurn["metricOptions"] | undefined);
  return turn;
}

/**
 * The calls made, read by the one call reader (any spelling of the arguments, provider call
 * items), or the expected calls checked by it (their matchers are read by the metrics). An
 * unknown key, or arguments given twice, is an error naming the call.
 */
export function readCalls(
  list: readonly unknown[] | undefined,
  side: "called" | "expected",
  field: string,
): readonly unknown[] | undefined {
  if (list === undefined) return undefined;
  // Read valid: the metrics take them without reading them again.
  if (side === "called") return toToolCalls(list, { field });
  let changed = false as boolean; // set inside the visitor
  const plain = mapExpectedList(list, field, (entry, where) => {
    const { record } = readCallFields(entry, "expected", () => where);
    if (record !== entry) changed = true;
    return record;
  });
  return changed ? plain : list;
}

/** Text, or a list of text and image parts; else an `InvalidInputError` naming `name`. */
export function readContent(value: unknown, name: string): Content {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) {
    throw new InvalidInputError({
      field: name,
      message: `${name} must be text or a list of text and image parts`,
    });
  }
  const bad = value.findIndex(
    (part) =>
      typeof part !== "string" &&
      (typeof part !== "object" || part === null || Array.isArray(part)),
  );
  if (bad !== -1) {
    const part: unknown = value[bad];
    throw new InvalidInputError({
      field: name,
      message: `${name}[${bad}] must be text or a part ({ "type": "text", "text": ... } or an image), got ${part === null ? "null" : Array.isArray(part) ? "a list" : typeof part}`,
    });
  }
  return value as Content;
}
