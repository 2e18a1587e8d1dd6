/**
 * The recordings of the shards of one agent run (`eval --agent --shard i/n`) joined into one
 * recordings file, cases in the dataset's order, each case's runs in order: scored by one `eval`
 * as the run of the whole dataset. The dataset says what must be there: a case no shard recorded,
 * a run recorded twice, or a case the dataset does not hold is an error, never a quiet gap.
 */
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { ResultsFileError } from "../core/errors.js";
import { isJsonObject } from "../core/json.js";
import { readDatasetRecords } from "../node/dataset.js";
import { caseIdOf, refuseSharedIds } from "./record-runs.js";

export interface MergeRecordingsOptions {
  /** The dataset the shards ran. */
  readonly dataset: string;
  /** The shards' recordings files. */
  readonly inputs: readonly string[];
  /** The joined recordings file. */
  readonly out: string;
}

/** A recorded run: where its line is. */
interface Line {
  readonly file: number;
  readonly run: number;
  readonly offset: number;
  readonly bytes: number;
}

/** Joins the shards' recordings (see the file's head); says how many cases and runs it wrote. */
export async function mergeRecordings(
  options: MergeRecordingsOptions,
): Promise<{ readonly cases: number; readonly runs: number }> {
  const { dataset, inputs, out } = options;
  const order: string[] = [];
  const lines = new Map<string, Line[]>();
  await refuseSharedIds(dataset);
  for await (const { value, place } of readDatasetRecords(dataset)) {
    const id = caseIdOf(value, place.index);
    // A case's recorded repeats are one case here: its runs are sorted below.
    if (!lines.has(id)) {
      order.push(id);
      lines.set(id, []);
    }
  }
  const fail = (file: string, message: string): never => {
    throw new ResultsFileError({ file, message });
  };
  const where = new Map<string, string>();
  for (const [at, file] of inputs.entries()) {
    for await (const { value, place } of readDatasetRecords(file)) {
      const line = place.line ?? place.index + 1;
      if (!isJsonObject(value) || typeof value.id !== "string" || place.offset === undefined) {
        return fail(
          file,
          `${file}:${line} is not a run eval --agent recorded (a JSON line with an id)`,
        );
      }
      const { id } = value;
      const run = typeof value.run === "number" ? value.run : 0;
      const runs = lines.get(id);
      if (runs === undefined) {
        return fail(
          file,
          `${file}:${line} records case ${JSON.stringify(id)}, which ${dataset} does not hold`,
        );
      }
      const key = `${id}\u0000${run}`;
      const twin = where.get(key);
      if (twin !== undefined) {
        return fail(
          file,
          `${file}:${line} records run ${run} of case ${JSON.stringify(id)}, which ${twin} records too: give each shard once`,
        );
      }
      where.set(key, `${file}:${line}`);
      runs.push({ file: at, run, offset: place.offset, bytes: place.bytes ?? 0 });
    }
  }
  const missing = order.filter((id) => lines.get(id)?.length === 0);
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).map((id) => JSON.stringify(id));
    return fail(
      out,
      `${missing.length} of ${order.length} cases of ${dataset} are in none of the recordings (${shown.join(", ")}${missing.length > shown.length ? ", ..." : ""}): give every shard's recordings`,
    );
  }
  let runs = 0;
  const handles: FileHandle[] = [];
  const written = await open(out, "w");
  try {
    for (const file of inputs) handles.push(await open(file, "r"));
    for (const id of order) {
      const recorded = (lines.get(id) ?? []).sort((a, b) => a.run - b.run);
      for (const line of recorded) {
        const buffer = Buffer.alloc(line.bytes);
        await handles[line.file].read(buffer, 0, line.bytes, line.offset);
        // One line each, ended however its file ended it.
        let end = buffer.length;
        while (end > 0 && (buffer[end - 1] === 10 || buffer[end - 1] === 13)) end--;
        await written.write(Buffer.concat([buffer.subarray(0, end), Buffer.from("\n")]));
        runs++;
      }
    }
  } finally {
    await Promise.all(handles.map((handle) => handle.close()));
    await written.close();
  }
  return { cases: order.length, runs };
}
