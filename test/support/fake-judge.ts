import type { JudgeBatchRequest, JudgeModel, JudgeRequest } from "../../src/core/judge.js";
import type { JsonValue } from "../../src/core/json.js";

/**
 * A `JudgeModel` for unit tests: answers each request with `answer(request, sample)` (its JSON
 * as the text) and keeps every request it was asked, in order. With `batch`, it has a batch API
 * too, which answers the same way, each batch ended at its first status check; `batches` keeps
 * what each batch held. With `decisions`, it is a decision model (`answers: "decisions"`), its
 * answers being the `DecisionAnswers` that `answer` returns.
 */
export function fakeJudge(
  answer: (request: JudgeRequest, sample: number) => JsonValue,
  options: { batch?: boolean; decisions?: boolean } = {},
) {
  const asked: JudgeRequest[] = [];
  const batches: JudgeBatchRequest[][] = [];
  const respond = (request: JudgeRequest) => {
    const output = answer(request, request.sample ?? 0);
    return {
      output,
      text: JSON.stringify(output),
      usage: { inputTokens: 10, outputTokens: 5 },
      modelId: "judge-1",
    };
  };
  const model: JudgeModel = {
    specificationVersion: "v1",
    provider: "fake",
    modelId: "judge-1",
    supportsImages: false,
    ...(options.decisions === true ? { answers: "decisions" as const } : {}),
    generate(request) {
      asked.push(request);
      return Promise.resolve(respond(request));
    },
    ...(options.batch === true
      ? {
          batch: {
            submit: (requests: readonly JudgeBatchRequest[]) => {
              batches.push([...requests]);
              return Promise.resolve(`batch-${batches.length}`);
            },
            status: (id: string) =>
              Promise.resolve({
                id,
                state: "ended" as const,
                counts: { total: 0, succeeded: 0, failed: 0 },
              }),
            results: (id: string) =>
              Promise.resolve(
                (batches[Number(id.slice("batch-".length)) - 1] ?? []).map((entry) => ({
                  customId: entry.customId,
                  status: "succeeded" as const,
                  response: respond(entry.request),
                })),
              ),
          },
        }
      : {}),
  };
  return { model, asked, batches };
}
