import { createRequire } from "node:module";
import type { Ajv, ValidateFunction } from "ajv";
import { JudgeResponseError } from "../core/errors.js";
import type { JudgeModel, JudgeRequest, JudgeResponse, JudgeUsage } from "../core/judge.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import { isDecisionModel, refuseDecisionModel } from "./decisions.js";

export interface AskJudgeOptions<T> {
  /** Answers tried at most; each retry tells the model what was wrong. Default 3. */
  attempts?: number;
  signal?: AbortSignal;
  /**
   * Turns a schema-valid answer into the judge's value, or says (as a string) what is wrong
   * with it, such as a score outside [0, 1].
   */
  read: (output: JsonObject) => T | string;
  /** An answer already in hand (from a provider batch) that counts as the first attempt. */
  first?: JudgeResponse;
}

/** A judge's value, and what getting it took. */
export interface JudgeAnswer<T> {
  readonly value: T;
  /** Tokens of every attempt (cached answers count what they cost when first made). */
  readonly usage: JudgeUsage;
  readonly attempts: number;
  /** Whether every answer came from the cache. */
  readonly cached: boolean;
  /** Estimated US dollars spent now, when the model is priced. */
  readonly costUsd?: number;
  readonly modelId: string;
}

// Ajv is loaded when a first answer is checked: commands that ask no judge never load it.
const load = createRequire(import.meta.url);
let ajv: Ajv | undefined;
const compiled = new WeakMap<JsonObject, ValidateFunction>();

function validatorOf(schema: JsonObject): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    ajv ??= new (load("ajv") as { Ajv: typeof Ajv }).Ajv({ strict: false, allErrors: true });
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** What is wrong with an answer, or undefined when it is usable. */
function problemWith<T>(
  response: JudgeResponse,
  schema: JsonObject,
  read: AskJudgeOptions<T>["read"],
): { problem: string } | { value: T } {
  const output = response.output;
  if (output === undefined) return { problem: "the answer is not JSON" };
  const validate = validatorOf(schema);
  if (!validate(output)) {
    const errors = (validate.errors ?? [])
      .map((error) => `${error.instancePath || "the answer"} ${error.message ?? "is invalid"}`)
      .join("; ");
    return { problem: `the answer does not fit the schema: ${errors}` };
  }
  const value = read(output as JsonObject);
  return typeof value === "string" ? { problem: value } : { value };
}

/**
 * Whether an answer to `request` is usable by `read`: JSON, fitting the request's schema, and
 * read without a problem. What a judge cache keeps (`JudgeCallOptions.accept`).
 */
export function usableBy<T>(
  request: JudgeRequest,
  read: AskJudgeOptions<T>["read"],
): (response: JudgeResponse) => boolean {
  return (response) => "value" in problemWith(response, request.schema.schema, read);
}

/**
 * Asks a judge one structured question and returns a validated value. An answer that is not
 * JSON, does not fit the schema, or fails `read` (a score of 7) is asked again, with the
 * problem stated, up to `attempts` times; then a `JudgeResponseError` records the last answer.
 * Provider errors (after the SDK's retries) propagate as they are.
 */
export async function askJudge<T>(
  model: JudgeModel,
  request: JudgeRequest,
  options: AskJudgeOptions<T>,
): Promise<JudgeAnswer<T>> {
  if (isDecisionModel(model) && request.decision === undefined) refuseDecisionModel(model);
  const attempts = Math.max(1, options.attempts ?? 3);
  const accept = usableBy(request, options.read);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let cost: number | undefined;
  let cached = true;
  let current = request;
  let last: JudgeResponse | undefined;
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const response =
      attempt === 1 && options.first !== undefined
        ? options.first
        : await model.generate(current, {
            accept,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          });
    last = response;
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    if (response.costUsd !== undefined) cost = (cost ?? 0) + response.costUsd;
    if (response.cached !== true) cached = false;
    const checked = problemWith(response, request.schema.schema, options.read);
    if ("value" in checked) {
      return {
        value: checked.value,
        usage,
        attempts: attempt,
        cached,
        modelId: response.modelId,
        ...(cost === undefined ? {} : { costUsd: cost }),
      };
    }
    problem = checked.problem;
    // Asking again: the same messages, the answer given, and what was wrong with it.
    current = {
      ...request,
      messages: [
        ...request.messages,
        { role: "assistant", content: response.text },
        {
          role: "user",
          content: `That answer cannot be used: ${problem}. Answer again with one JSON object that fits the schema.`,
        },
      ],
    };
  }
  throw new JudgeResponseError({
    text: last?.text ?? "",
    attempts,
    message: `the judge (${model.provider}/${model.modelId}) gave no usable answer in ${attempts} attempt${attempts === 1 ? "" : "s"}: ${problem}`,
  });
}

/** A value that must be a number in [0, 1]: the number, or what is wrong with it. */
export function unitScore(value: JsonValue | undefined, name = "score"): number | string {
  if (typeof value !== "number" || !Number.isFinite(value)) return `${name} must be a number`;
  if (value < 0 || value > 1) return `${name} ${value} is outside [0, 1]`;
  return value;
}
