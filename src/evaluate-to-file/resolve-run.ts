/** The run's first step: every option checked before any work, in the order errors are named. */
import { readTurnAggregate } from "../core/turns.js";
import { readRecordedGate } from "../core/gate.js";
import { readGroupBy } from "../core/repeats.js";
import path from "node:path";
import { InvalidOptionError } from "../core/errors.js";
import { integerOption } from "../core/options.js";
import { datasetFormatOf } from "../node/dataset.js";
import { isDetailsChoice } from "./run-options.js";
import type { EvaluateToFileOptions } from "./run-options.js";

/** What `evaluateToFile` checks of its options before anything runs, in the order it reports. */
export function resolveRunOptions<TCase extends object>(options: EvaluateToFileOptions<TCase>) {
  if (typeof options !== "object" || (options as unknown) === null) {
    throw new InvalidOptionError({
      option: "options",
      value: options,
      message: "evaluateToFile takes { dataset | testCases, metrics, out, ... }",
    });
  }
  const { dataset, testCases, shard } = options;
  if ((dataset === undefined) === (testCases === undefined)) {
    throw new InvalidOptionError({
      option: "dataset",
      value: dataset,
      message: "evaluateToFile needs a dataset file or testCases (one of them)",
    });
  }
  if (options.out !== undefined && (typeof options.out !== "string" || options.out === "")) {
    throw new InvalidOptionError({
      option: "out",
      value: options.out,
      message: "out must name the results file",
    });
  }
  if (
    shard !== undefined &&
    !(
      Number.isInteger(shard.count) &&
      shard.count >= 1 &&
      Number.isInteger(shard.index) &&
      shard.index >= 0 &&
      shard.index < shard.count
    )
  ) {
    throw new InvalidOptionError({
      option: "shard",
      value: shard,
      message: "shard must be { index, count } with 0 <= index < count",
    });
  }
  if (options.out === undefined && (options.resume === true || options.retryErrors === true)) {
    throw new InvalidOptionError({
      option: "resume",
      value: true,
      message: "resume and retryErrors need a results file to resume: give out",
    });
  }
  if (options.select !== undefined && dataset === undefined) {
    throw new InvalidOptionError({
      option: "select",
      value: undefined,
      message: "select chooses cases of a dataset file; filter cases given in code yourself",
    });
  }
  const { limit, bail } = options;
  for (const [option, value] of [
    ["limit", limit],
    ["bail", bail],
  ] as const) {
    integerOption(option, value, 1, { min: 1, unit: "cases" });
  }
  const details: unknown = options.details ?? "none";
  if (!isDetailsChoice(details)) {
    throw new InvalidOptionError({
      option: "details",
      value: details,
      message: 'details must be "none", "failed" or "all"',
    });
  }
  const out = options.out === undefined ? undefined : path.resolve(options.out);
  const normalizeNames = options.normalizeNames === true;
  const groupBy = options.groupBy === undefined ? undefined : readGroupBy(options.groupBy);
  const turnAggregate =
    options.turnAggregate === undefined
      ? undefined
      : readTurnAggregate(options.turnAggregate, "turnAggregate");
  const gate = options.gate === undefined ? undefined : readRecordedGate(options.gate);
  if (gate !== undefined && "problem" in gate) {
    throw new InvalidOptionError({
      option: "gate",
      value: options.gate,
      message: gate.problem,
    });
  }
  const file = dataset === undefined ? undefined : path.resolve(dataset);
  // The format is known before anything is written: an unreadable one leaves the file alone.
  const format = file === undefined ? undefined : datasetFormatOf(file);
  return {
    dataset,
    testCases,
    shard,
    limit,
    bail,
    details,
    out,
    normalizeNames,
    groupBy,
    turnAggregate,
    gate,
    file,
    format,
  };
}

/** A run's options as `resolveRunOptions` checked them. */
export type ResolvedRunOptions = ReturnType<typeof resolveRunOptions>;
