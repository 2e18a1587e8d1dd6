/**
 * Converts public benchmark material into toolscore datasets, so that `toolscore eval` with the
 * config beside each dataset gives the benchmark's own verdict. Each case keeps the benchmark's
 * verdict in `metadata`, which the tests compare with toolscore's.
 *
 *   node examples/benchmarks/convert.mjs tau-bench <runs.jsonl> <out folder>
 *   node examples/benchmarks/convert.mjs bfcl <bfcl.json> <out folder>
 *   node examples/benchmarks/convert.mjs agentevals <suite.json> <out folder>
 *
 * The inputs are the samples described in examples/benchmarks/README.md (or the full sets in the
 * same shape). The converter only moves data into toolscore's fields: every rule of the
 * benchmark is in the config files, not here.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [kind, input, out] = process.argv.slice(2);
if (!kind || !input || !out) {
  console.error("usage: convert.mjs <tau-bench | bfcl | agentevals> <input> <out folder>");
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const jsonl = (cases) => cases.map((item) => JSON.stringify(item)).join("\n") + "\n";

/** tau-bench runs: the run's messages as they are, the ground-truth actions, required outputs. */
function tauBench(text) {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const run = JSON.parse(line);
      return {
        id: run.id,
        trajectory: run.trajectory,
        expectedTools: run.expectedTools,
        expectedOutputContains: run.metadata.outputs ?? [],
        metadata: run.metadata,
      };
    });
}

/** BFCL's parameter types, as JSON Schema writes them (BFCL does the same for OpenAI models). */
const bfclTypes = { dict: "object", float: "number", tuple: "array", any: undefined };

function bfclSchema(schema) {
  if (Array.isArray(schema)) return schema.map(bfclSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") {
      const type = Object.hasOwn(bfclTypes, value) ? bfclTypes[value] : value;
      if (type !== undefined) out.type = type;
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, bfclSchema(property)]),
      );
    } else {
      out[key] = bfclSchema(value);
    }
  }
  return out;
}

/**
 * One parameter's possible answer (a list of acceptable values) as an expected value: the value,
 * or a oneOf matcher. A "" in the list means the parameter may be left out, and is also a value
 * BFCL accepts as passed: the expected value is wrapped in optional and keeps "" among its values.
 * A dict's acceptable value holds possible answers for its own keys.
 */
function bfclExpected(acceptable) {
  const values = acceptable.map(bfclValue);
  const expected = values.length === 1 ? values[0] : { $match: "oneOf", values };
  return acceptable.includes("") ? { $match: "optional", value: expected } : expected;
}

function bfclValue(value) {
  if (Array.isArray(value)) return value.map(bfclValue);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        Array.isArray(inner) ? bfclExpected(inner) : bfclValue(inner),
      ]),
    );
  }
  return value;
}

/** A value as Python wrote it: whole floats keep their ".0" (`pythonTypes` says which). */
function pythonJson(value, type) {
  if (Array.isArray(value)) {
    return `[${value.map((item, index) => pythonJson(item, Array.isArray(type) ? type[index] : undefined)).join(", ")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(
      ([key, inner]) => `${JSON.stringify(key)}: ${pythonJson(inner, type?.[key])}`,
    );
    return `{${entries.join(", ")}}`;
  }
  if (type === "float" && Number.isInteger(value)) return `${value}.0`;
  return JSON.stringify(value);
}

/** BFCL entries: every generated answer is a case, with the entry's functions and answers. */
function bfcl(text) {
  const { entries } = JSON.parse(text);
  return entries.flatMap((entry) => {
    const availableTools = entry.function.map((fn) => ({
      name: fn.name,
      description: fn.description,
      parameters: bfclSchema(fn.parameters),
    }));
    const expectedTools = entry.possibleAnswer.flatMap((answer) =>
      Object.entries(answer).map(([name, parameters]) => ({
        name,
        arguments: Object.fromEntries(
          Object.entries(parameters).map(([key, acceptable]) => [key, bfclExpected(acceptable)]),
        ),
      })),
    );
    return entry.candidates.map((candidate, index) => ({
      id: `${entry.id}/${index}-${candidate.mutation}`,
      toolsCalled: candidate.calls.flatMap((call, at) =>
        Object.entries(call).map(([name, args]) => ({
          name,
          arguments: pythonJson(args, candidate.pythonTypes[at]),
        })),
      ),
      expectedTools,
      availableTools,
      metadata: {
        category: entry.category,
        mutation: candidate.mutation,
        bfclValid: candidate.bfclValid,
        bfclErrorType: candidate.bfclErrorType,
      },
    }));
  });
}

/** agentevals' modes as tool-call-accuracy options. */
const agentevalsOrder = {
  strict: "steps",
  unordered: "any",
  subset: "only-expected",
  superset: "all-expected",
};
// agentevals' "subset" args: the agent's are a subset of the reference's (toolscore's superset).
const agentevalsArguments = {
  exact: "exact",
  ignore: "ignore",
  subset: "superset",
  superset: "subset",
};

/**
 * The agentevals suite: the agent's messages and the reference as transcripts, the modes as the
 * case's options. An override that lists keys compares only those keys; an override that is a
 * function needs code (`toolRules.<tool>.compare`): its source is kept in metadata.
 */
function agentevals(text) {
  const { cases } = JSON.parse(text);
  return cases.map((item) => {
    const modes = item.agentevals;
    const options = {
      order: agentevalsOrder[modes.trajectoryMatchMode],
      arguments: agentevalsArguments[modes.toolArgsMatchMode],
    };
    const inCode = {};
    for (const [tool, override] of Object.entries(modes.toolArgsMatchOverrides ?? {})) {
      if (Array.isArray(override)) {
        options.toolRules ??= {};
        options.toolRules[tool] = {
          arguments: {
            mode: "ignore",
            paths: Object.fromEntries(override.map((key) => [key, "exact"])),
          },
        };
      } else {
        inCode[tool] = override.function;
      }
    }
    return {
      id: `agentevals-${item.index}`,
      trajectory: item.outputs,
      expectedTrajectory: item.referenceOutputs,
      metricOptions: { "tool-call-accuracy": options },
      metadata: {
        test: item.test,
        ...modes,
        ...(Object.keys(inCode).length === 0 ? {} : { compareInCode: inCode }),
      },
    };
  });
}

const converters = { "tau-bench": tauBench, bfcl, agentevals };
const convert = converters[kind];
if (!convert) {
  console.error(
    `unknown benchmark ${JSON.stringify(kind)}; known: ${Object.keys(converters).join(", ")}`,
  );
  process.exit(2);
}
const cases = convert(readFileSync(input, "utf8"));
writeFileSync(path.join(out, "dataset.jsonl"), jsonl(cases));
console.log(`${cases.length} cases written to ${path.join(out, "dataset.jsonl")}`);
