import type { JudgeModel, JudgeRequest } from "../../src/core/judge.js";
import type { JsonValue } from "../../src/core/json.js";

/**
 * A `JudgeModel` for unit tests: answers each request with `answer(request, sample)` (its JSON
 * as the text) and keeps every request it was asked, in order.
 */
export function fakeJudge(answer: (request: JudgeRequest, sample: number) => JsonValue) {
  const asked: JudgeRequest[] = [];
  const model: JudgeModel = {
    specificationVersion: "v1",
    provider: "fake",
    modelId: "judge-1",
    supportsImages: false,
    generate(request) {
      asked.push(request);
      const output = answer(request, request.sample ?? 0);
      return Promise.resolve({
        output,
        text: JSON.stringify(output),
        usage: { inputTokens: 10, outputTokens: 5 },
        modelId: "judge-1",
      });
    },
  };
  return { model, asked };
}
