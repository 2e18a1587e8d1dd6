/**
 * The simulated tools of a run: the tools served and the outputs they answer, read from the
 * files the run names, and each run's toolbox, made from them and from the case's own
 * `toolOutputs` and tools.
 */
import { access, readFile } from "node:fs/promises";
import { DatasetParseError, InvalidInputError } from "../core/errors.js";
import type { ToolSpec } from "../core/test-case.js";
import { readDatasetRecords } from "../node/dataset.js";
import { readSimulatedTools } from "../simulate/simulated-tool-specs.js";
import type { SimulatedToolSpec } from "../simulate/simulate-tools.js";
import { readToolFixtures } from "../simulate/tool-outputs.js";
import type { ToolFixture } from "../simulate/tool-outputs.js";
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
}

/**
 * Reads the run's tool definitions (`tools`, a JSON or YAML file) and outputs (`outputs`, a
 * JSONL, JSON or YAML file of entries). Throws `InvalidInputError` naming the file, and the line
 * or entry, that cannot be read.
 */
export async function loadToolSimulation(options: {
  readonly tools?: string | undefined;
  readonly outputs?: string | undefined;
  readonly seed: number;
}): Promise<ToolSimulation> {
  const tools = options.tools === undefined ? [] : await readToolsFile(options.tools);
  const fixtures = options.outputs === undefined ? [] : await readOutputsFile(options.outputs);
  return { tools, fixtures, seed: options.seed };
}

async function readToolsFile(file: string): Promise<SimulatedToolSpec[]> {
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
  return readSimulatedTools(value, file);
}

async function readOutputsFile(file: string): Promise<ToolFixture[]> {
  try {
    await access(file);
  } catch {
    throw new InvalidInputError({
      field: file,
      message: `cannot read the tool outputs ${file}: no such file`,
    });
  }
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
 * The toolbox of one run of a case, or undefined when neither the run nor the case simulates
 * tools: the case's entries first, then the run's; the case's tools, else the run's. A case entry
 * that cannot be read throws `InvalidInputError` naming it.
 */
export function toolboxOfRun(
  simulation: ToolSimulation | undefined,
  run: CaseTools,
  maxLatencyMs: number,
): Toolbox | undefined {
  if (simulation === undefined && run.toolOutputs === undefined) return undefined;
  const own =
    run.toolOutputs === undefined
      ? []
      : readToolFixtures(run.toolOutputs, (index) => `toolOutputs[${index}]`);
  return createToolbox({
    tools: run.availableTools ?? simulation?.tools ?? [],
    fixtures: [...own, ...(simulation?.fixtures ?? [])],
    seed: simulation?.seed ?? 0,
    run: `${run.caseId}\u0000${run.attempt}`,
    maxLatencyMs,
  });
}
