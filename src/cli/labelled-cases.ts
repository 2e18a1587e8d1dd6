import { readDatasetCase } from "../adapters/dataset-case.js";
import { DatasetParseError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import type { CallLabel, LabelledCase } from "../judges/calibration/judged-metric-cases.js";
import { readDatasetRecords, withNamedFiles } from "../node/dataset.js";

/** A team's own labelled cases, read; lines that could not be, each with why; notes on the rest. */
export interface LabelledCasesRead {
  readonly cases: readonly LabelledCase[];
  readonly unreadable: readonly DatasetParseError[];
  readonly notes: readonly string[];
}

const callLabels: ReadonlySet<string> = new Set(["right", "wrong", "cannot_tell"]);

/**
 * Reads labelled cases for `calibrate --cases`: each item a dataset case (any field a dataset
 * takes: input, a trajectory in any format, availableTools, ...) with `label` (a score from 0 to
 * 1 on the metric's scale, or "not-evaluable"), an optional `why`, and for argument-correctness
 * optional `call_labels` (one of right, wrong, cannot_tell per call). An item that cannot be read
 * is kept with why, and the others are read on.
 */
export async function readLabelledCases(file: string): Promise<LabelledCasesRead> {
  const cases: LabelledCase[] = [];
  const unreadable: DatasetParseError[] = [];
  const notes: string[] = [];
  for await (const { value, place } of readDatasetRecords(file)) {
    const where = place.line === undefined ? `item ${place.index + 1}` : `line ${place.line}`;
    const fail = (message: string, field: string) =>
      new DatasetParseError({
        message: `${file}: ${where}: ${message}`,
        source: file,
        item: place.index,
        ...(place.line === undefined ? {} : { line: place.line }),
        field,
      });
    if (DatasetParseError.isInstance(value)) {
      unreadable.push(value);
      continue;
    }
    if (!isJsonObject(value)) {
      unreadable.push(fail("a labelled case must be a JSON object", "$"));
      continue;
    }
    // Any key may be missing: read as unknown.
    const record: Record<string, unknown> = value;
    const { label, why, callLabels: camel, call_labels: snake, ...rest } = record;
    const given = camel ?? snake;
    if (!(label === "not-evaluable" || (typeof label === "number" && label >= 0 && label <= 1))) {
      unreadable.push(
        fail(
          `label must be a score from 0 to 1 or "not-evaluable", got ${label === undefined ? "nothing" : JSON.stringify(label)}`,
          "label",
        ),
      );
      continue;
    }
    if (
      given !== undefined &&
      !(Array.isArray(given) && given.every((item) => callLabels.has(item as string)))
    ) {
      unreadable.push(
        fail(
          "call_labels must be a list of right, wrong or cannot_tell, one per call",
          "call_labels",
        ),
      );
      continue;
    }
    try {
      const read = readDatasetCase(await withNamedFiles(rest, file), {
        index: place.index,
        source: file,
        ...(place.line === undefined ? {} : { line: place.line }),
      });
      for (const note of read.notes ?? []) notes.push(`${file}: ${where}: ${note}`);
      const calls = given as CallLabel[] | undefined;
      if (calls !== undefined && calls.length !== (read.toolsCalled?.length ?? 0)) {
        unreadable.push(
          fail(
            `call_labels gives ${calls.length} labels for ${read.toolsCalled?.length ?? 0} calls`,
            "call_labels",
          ),
        );
        continue;
      }
      cases.push({
        id: read.id,
        testCase: read,
        label,
        ...(calls === undefined ? {} : { callLabels: calls }),
        why: typeof why === "string" ? why : "",
      });
    } catch (error) {
      unreadable.push(
        DatasetParseError.isInstance(error)
          ? error
          : fail(error instanceof Error ? error.message : String(error), "$"),
      );
    }
  }
  return { cases, unreadable, notes };
}
