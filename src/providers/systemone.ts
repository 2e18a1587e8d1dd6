import type * as TypeSafeModule from "@typesafe-ai/sdk";
import type { Question, SystemOneResult, TypeSafeClient } from "@typesafe-ai/sdk";
import {
  decisionQuestionsOf,
  decisionResponse,
  decisionStateText,
  distributionOf,
} from "../core/decision.js";
import type { DecisionQuestion, JudgeModel, JudgeRequest, JudgeResponse } from "../core/judge.js";
import { sdkPackage } from "./sdk-packages.js";
import { sdkJudge } from "./sdk-judge.js";

export interface SystemOneJudgeOptions {
  /** The model the server answers with (`jev-latest`, a local decision model's name). */
  model: string;
  /** The provider's name in results and cache keys. Default `"systemone"`. */
  provider?: string;
  /** The server's root, where `/v1/systemone` is (`http://127.0.0.1:8000`). */
  baseURL: string;
  /** Default: `SYSTEMONE_API_KEY`; local servers take any. */
  apiKey?: string;
  /** Each try's deadline in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /** Retries of 408/429/5xx and connection failures, by the SDK. Default 3. */
  maxRetries?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** A `TypeSafeClient` of your own; the options above that configure a client are then ignored. */
  client?: unknown;
}

type Answers = SystemOneResult<Record<string, Question>>;

function toQuestion(question: DecisionQuestion): Question {
  const { instructions } = question;
  if (question.type === "yes-no") return { type: "noul", instructions };
  if (question.type === "choice") {
    const criteria = Object.fromEntries(question.choices.map((c) => [c.value, c.description]));
    return { type: "choice", instructions, criteria };
  }
  const [first = null, second = null, ...rest] = question.levels;
  return { type: "score", instructions, criteria: [first, second, ...rest] };
}

/** An answer read back into distributions by question id; what is missing, when something is. */
function readAnswers(request: JudgeRequest, result: Answers): JudgeResponse | string {
  const given: unknown = result.answers;
  if (typeof given !== "object" || given === null) return "answers";
  const all = given as Record<string, Answers["answers"][string] | undefined>;
  const answers: Record<string, Record<string, number> | null> = {};
  for (const question of request.decision?.questions ?? []) {
    const answer = all[question.id];
    // An answer left out, or of a type not asked, is no answer: the judge cannot tell.
    answers[question.id] =
      answer?.type === "noul"
        ? distributionOf(question, { probability: answer.noul })
        : answer !== undefined && answer.type === question.type
          ? distributionOf(question, {
              probabilities: answer.probabilities,
            })
          : null;
  }
  return decisionResponse(
    answers,
    { inputTokens: result.usage.input_tokens, outputTokens: result.usage.output_tokens },
    result.model,
  );
}

/**
 * A judge on a server of the System One wire format (`POST /v1/systemone`: TypeSafe's Jev, and
 * the local servers that speak it), through TypeSafe's SDK (`@typesafe-ai/sdk`). The case is
 * sent as the state, as text: such servers take no images.
 */
export function createSystemOneJudge(options: SystemOneJudgeOptions): JudgeModel {
  const provider = options.provider ?? "systemone";
  // Local servers take any key; the SDK insists on one.
  const apiKey = options.apiKey ?? process.env.SYSTEMONE_API_KEY ?? "not-needed";
  return sdkJudge<typeof TypeSafeModule, TypeSafeClient, Answers>({
    provider,
    model: options.model,
    apiKey,
    keyVariable: "SYSTEMONE_API_KEY",
    options: { ...options, supportsImages: false },
    endpoint: options.baseURL,
    credentials: [apiKey],
    sdk: () =>
      sdkPackage(`the ${provider} judge`, "@typesafe-ai/sdk", () => import("@typesafe-ai/sdk")),
    newClient: (module, settings) =>
      new module.TypeSafeClient({
        apiKey,
        baseURL: options.baseURL,
        defaultModel: options.model,
        logLevel: "off",
        timeout: settings.timeout,
        retry: { maxRetries: settings.maxRetries },
        fetch: settings.fetch,
        ...(settings.defaultHeaders === undefined
          ? {}
          : { defaultHeaders: settings.defaultHeaders }),
      }),
    ownClient: (_module, client) => client as TypeSafeClient,
    create: (client, request, signal) => {
      const questions = decisionQuestionsOf(request, `${provider}/${options.model}`);
      return client.systemOne(
        {
          model: options.model,
          state: decisionStateText(request),
          questions: Object.fromEntries(questions.map((q) => [q.id, toQuestion(q)])),
        },
        signal === undefined ? {} : { signal },
      );
    },
    read: (result, request) => readAnswers(request, result),
    answers: "decisions",
  });
}
