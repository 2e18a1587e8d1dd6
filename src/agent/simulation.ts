/**
 * The simulated tools of a run: the tools served and the outputs they answer, read from the
 * files the run names, and each run's toolbox, made from them and from the case's own
 * `toolOutputs` and tools.
 */
import { access, readFile } from "node:fs/promises";
import { DatasetParseError, ErrorCode, InvalidInputError } from "../core/errors.js";
import { simulatedLogOf } from "../adapters/case-spend.js";
import type { JsonObject } from "../core/json.js";
import type { ToolSpec } from "../core/test-case.js";
import type { ToolCall } from "../core/tool-call.js";
import { readDataset, readDatasetRecords } from "../node/dataset.js";
import { readSimulatedTools } from "../simulate/simulated-tool-specs.js";
import type { SimulatedToolSpec } from "../simulate/simulate-tools.js";
import type { SchemaValidator } from "../matchers/schema-validation.js";
import { faultKinds, fixturesOfCalls, readToolFixtures } from "../simulate/tool-outputs.js";
import type { FaultKind, ToolFixture } from "../simulate/tool-outputs.js";
import { createToolbox } from "./toolbox.js";
import type { Toolbox } from "./toolbox.js";

/** What the run gives its simulated tools, read. */
export interface ToolSimulation {
  /** The tools served when a case names none; empty: whatever the entries answer. */
  readonly tools: readonly SimulatedToolSpec[];
  /** The run's entries, tried after a case's own. */
  readonly fixtures: readonly ToolFixture[];
  /** The seed of the draws (`share` entries). */
  readonly seed: number;
  /**
   * Entries made from an earlier run's recordings, by case and run (`caseRunKey`): each case's
   * calls answered as they were then, after the case's own entries and before the run's.
   */
  readonly recorded?: ReadonlyMap<string, readonly ToolFixture[]>;
}

/** The key of a case's run in `ToolSimulation.recorded`. */
export const caseRunKey = (caseId: string, run: number): string => `${caseId}\u0000${run}`;

/**
 * Reads the run's tool definitions (`tools`, a JSON or YAML file) and outputs (`outputs`, a
 * JSONL, JSON or YAML file of entries). Throws `InvalidInputError` naming the file, and the line
 * or entry, that cannot be read.
 */
export async function loadToolSimulation(options: {
  readonly tools?: string | undefined;
  readonly outputs?: string | undefined;
  /** Recordings of an earlier run, whose cases' calls are answered as they were then. */
  readonly recorded?: string | undefined;
  readonly seed: number;
}): Promise<ToolSimulation> {
  const tools = options.tools === undefined ? [] : await readToolsFile(options.tools);
  const fixtures = options.outputs === undefined ? [] : await readOutputsFile(options.outputs);
  if (options.recorded === undefined) return { tools, fixtures, seed: options.seed };
  const recorded = await readRecordedOutputs(options.recorded);
  return { tools, fixtures, seed: options.seed, recorded };
}

/**
 * The entries each case's recorded run makes (`fixturesOfCalls`), by case and run. A line that
 * cannot be read, or holds no run, names the file and the line: a replay that silently lacked a
 * case's outputs would answer it with errors.
 */
async function readRecordedOutputs(file: string): Promise<Map<string, ToolFixture[]>> {
  await refuseMissing(file, "recordings");
  const recorded = new Map<string, ToolFixture[]>();
  for await (const entry of readDataset(file)) {
    if (DatasetParseError.isInstance(entry)) {
      // A run that failed has no outputs to give; any other line is an error.
      if (entry.code === ErrorCode.AGENT_RUN) continue;
      throw new InvalidInputError({ field: file, message: entry.message, cause: entry });
    }
    const where = `${file}:${entry.line ?? `item ${entry.index + 1}`}`;
    const calls = withLoggedFaults(entry.toolsCalled ?? [], entry.metadata);
    recorded.set(caseRunKey(entry.id, entry.run ?? 0), fixturesOfCalls(calls, where));
  }
  return recorded;
}

/**
 * A recorded run's calls with the faults its simulated tools' log says answered them: a transcript
 * keeps a timeout's text but seldom that it was an error. The log is read call by call, in order,
 * where its tool and arguments are the call's.
 */
function withLoggedFaults(
  calls: readonly ToolCall[],
  metadata: JsonObject | undefined,
): (ToolCall & { fault?: Exclude<FaultKind, "latency"> })[] {
  const log = simulatedLogOf(calls, metadata);
  if (log === undefined) return [...calls];
  return calls.map((call, at) => {
    const logged = log[at];
    if (logged === undefined) return call;
    if (logged.answer === "fault" && faultKinds.includes(logged.fault as FaultKind)) {
      return { ...call, fault: logged.fault as Exclude<FaultKind, "latency"> };
    }
    return logged.answer === "output" ? call : { ...call, fault: "error" as const };
  });
}

async function refuseMissing(file: string, what: string): Promise<void> {
  try {
    await access(file);
  } catch {
    throw new InvalidInputError({
      field: file,
      message: `cannot read the ${what} ${file}: no such file`,
    });
  }
}

async function readToolsFile(file: string): Promise<SimulatedToolSpec[]> {
  return readSimulatedTools(await readDefinitionsFile(file), file);
}

/**
 * A file of tool definitions (JSON, or YAML by its extension) as a value; an `InvalidInputError`
 * naming the file when it cannot be read or parsed.
 */
export async function readDefinitionsFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidInputError({
      field: file,
      message: `cannot read the tools ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error)}`,
      cause: error,
    });
  }
  let value: unknown;
  try {
    // yaml loads only for a YAML file: most runs never read one.
    value = /\.ya?ml$/i.test(file) ? (await import("yaml")).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError({
      field: file,
      message: `${file} is not ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}: ${(error as Error).message}`,
      cause: error,
    });
  }
  return value;
}

async function readOutputsFile(file: string): Promise<ToolFixture[]> {
  await refuseMissing(file, "tool outputs");
  const fixtures: ToolFixture[] = [];
  for await (const { value, place } of readDatasetRecords(file)) {
    const at = `${file}:${place.line ?? `item ${place.index + 1}`}`;
    if (DatasetParseError.isInstance(value)) {
      throw new InvalidInputError({ field: at, message: value.message, cause: value });
    }
    fixtures.push(...readToolFixtures([value], () => at));
  }
  return fixtures;
}

/** What a run of a case brings to its toolbox: the case's entries and tools, as given. */
export interface CaseTools {
  readonly caseId: string;
  readonly attempt: number;
  readonly toolOutputs: readonly unknown[] | undefined;
  readonly availableTools: readonly ToolSpec[] | undefined;
}

/**
 * The tools a run serves: the case's, each with the output schema the run's same-named tool
 * declares (a case's tool list seldom gives one); the run's when the case names none.
 */
function servedTools(
  own: readonly ToolSpec[] | undefined,
  run: readonly SimulatedToolSpec[],
): readonly SimulatedToolSpec[] {
  if (own === undefined) return run;
  const schemas = new Map(run.map((tool) => [tool.name, tool.outputSchema]));
  return own.map((tool) => {
    const outputSchema = schemas.get(tool.name);
    return outputSchema === undefined ? tool : { ...tool, outputSchema };
  });
}

/**
 * The toolbox of one run of a case, or undefined when neither the run nor the case simulates
 * tools: the case's entries first, then the run's; the case's tools, else the run's. A case entry
 * that cannot be read throws `InvalidInputError` naming it.
 */
export function toolboxOfRun(
  simulation: ToolSimulation | undefined,
  run: CaseTools,
  maxLatencyMs: number,
  /** Where the tools' schemas are compiled: one for all the runs, or the run's own. */
  schemas?: SchemaValidator,
): Toolbox | undefined {
  if (simulation === undefined && run.toolOutputs === undefined) return undefined;
  const own =
    run.toolOutputs === undefined
      ? []
      : readToolFixtures(run.toolOutputs, (index) => `toolOutputs[${index}]`);
  const recorded =
    simulation?.recorded?.get(caseRunKey(run.caseId, run.attempt)) ??
    simulation?.recorded?.get(caseRunKey(run.caseId, 0)) ??
    [];
  return createToolbox({
    tools: servedTools(run.availableTools, simulation?.tools ?? []),
    fixtures: [...own, ...recorded, ...(simulation?.fixtures ?? [])],
    seed: simulation?.seed ?? 0,
    run: `${run.caseId}\u0000${run.attempt}`,
    maxLatencyMs,
    ...(schemas === undefined ? {} : { schemas }),
  });
}
