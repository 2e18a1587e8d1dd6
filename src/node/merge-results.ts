/** `toolscore merge`: shard results files of one run into one, as a run of the whole dataset writes it. */
import { ResultsFileError } from "../core/errors.js";
import { lockResultsFile } from "./results-lock.js";
import {
  scanResults,
  readRecords,
  createResultsWriter,
  sumJudgeSummaries,
} from "./results-file.js";

export interface MergeResultsOutcome {
  readonly cases: number;
  readonly datasetCases: number;
}

/**
 * Joins the results of the shards of one run (`--shard i/n`) into one file, cases in dataset
 * order. The shards must come from the same dataset and configuration, all `n` of them, each
 * finished; otherwise a `ResultsFileError` says which shard or cases are missing.
 */
export async function mergeResults(input: {
  inputs: readonly string[];
  out: string;
}): Promise<MergeResultsOutcome> {
  const { inputs, out } = input;
  if (inputs.length === 0) {
    throw new ResultsFileError({ file: out, message: "give the shard results files to merge" });
  }
  // Written like a run's results file, so locked like one: no run may write it meanwhile.
  const release = lockResultsFile(out);
  try {
    return await mergeLocked(inputs, out);
  } finally {
    release();
  }
}

async function mergeLocked(inputs: readonly string[], out: string): Promise<MergeResultsOutcome> {
  const scans = await Promise.all(inputs.map((file) => scanResults(file)));
  const first = scans[0].header;
  const count = first.shard?.count;
  const seen = new Map<number, string>();
  scans.forEach((scan, at) => {
    const file = inputs[at];
    const { header } = scan;
    if (header.shard === undefined || count === undefined) {
      throw new ResultsFileError({
        file,
        message: `${file} is not the results of a shard (run eval with --shard i/n)`,
      });
    }
    if (header.fingerprint !== first.fingerprint) {
      throw new ResultsFileError({
        file,
        message: `${file} was run on another dataset (or another version of it) than ${inputs[0]}`,
      });
    }
    if (header.selection !== first.selection) {
      throw new ResultsFileError({
        file,
        message: `${file} was run on another selection of cases (--filter, --only-failed) than ${inputs[0]}`,
      });
    }
    if (header.groupBy !== first.groupBy) {
      throw new ResultsFileError({
        file,
        message: `${file} grouped its runs by ${header.groupBy ?? "nothing"}, ${inputs[0]} by ${first.groupBy ?? "nothing"} (--group-by)`,
      });
    }
    if (header.config !== first.config) {
      throw new ResultsFileError({
        file,
        message: `${file} was run with other metrics or options than ${inputs[0]}`,
      });
    }
    if (header.shard.count !== count) {
      throw new ResultsFileError({
        file,
        message: `${file} is shard ${header.shard.index + 1}/${header.shard.count}, but ${inputs[0]} splits the dataset in ${count}`,
      });
    }
    const twin = seen.get(header.shard.index);
    if (twin !== undefined) {
      throw new ResultsFileError({
        file,
        message: `${file} and ${twin} are the same shard (${header.shard.index + 1}/${count})`,
      });
    }
    seen.set(header.shard.index, file);
    if (scan.end?.complete !== true || scan.cases < scan.end.datasetCases) {
      throw new ResultsFileError({
        file,
        message: `${file} is unfinished (${scan.cases} of ${scan.end?.datasetCases ?? "?"} cases); finish it with eval --resume before merging`,
      });
    }
  });
  if (count === undefined || seen.size !== count) {
    const missing = Array.from({ length: count ?? 0 }, (_, at) => at).filter((at) => !seen.has(at));
    throw new ResultsFileError({
      file: out,
      message: `shard${missing.length === 1 ? "" : "s"} ${missing.map((at) => `${at + 1}/${count ?? 0}`).join(", ")} missing: merge needs all ${count ?? 0}`,
    });
  }
  const { shard: _shard, ...header } = first;
  const writer = createResultsWriter(out, { ...header, startedAt: first.startedAt });
  const iterators = scans.map((scan, at) => readRecords(inputs[at], scan)[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
  let cases = 0;
  for (;;) {
    let best = -1;
    for (let at = 0; at < heads.length; at++) {
      const head = heads[at];
      if (head.done === true) continue;
      if (best === -1) best = at;
      else {
        const other = heads[best];
        if (other.done !== true && head.value.index < other.value.index) best = at;
      }
    }
    if (best === -1) break;
    const head = heads[best];
    if (head.done === true) break;
    writer.write(head.value);
    cases++;
    heads[best] = await iterators[best].next();
  }
  const datasetCases = scans.reduce((sum, scan) => sum + (scan.end?.datasetCases ?? 0), 0);
  const judge = sumJudgeSummaries(scans.flatMap((scan) => (scan.judge ? [scan.judge] : [])));
  writer.close({
    complete: true,
    cases,
    datasetCases,
    ...(judge === undefined ? {} : { judge }),
    durationMs: Math.max(...scans.map((scan) => scan.end?.durationMs ?? 0)),
  });
  return { cases, datasetCases };
}
