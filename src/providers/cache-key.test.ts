import { describe, expect, it } from "vitest";
import type { JudgeModel, JudgeRequest } from "../core/judge.js";
import { judgeCacheKey } from "./cache-key.js";

const model = { provider: "openai", modelId: "gpt-4.1" } as JudgeModel;
const request: JudgeRequest = {
  messages: [{ role: "user", content: "Was the refund right?" }],
  schema: { name: "verdict", schema: { type: "object" } },
};

describe("judgeCacheKey", () => {
  it("keeps the samples of one question apart, the first under the key it always had", () => {
    const first = judgeCacheKey(model, request);
    expect(judgeCacheKey(model, { ...request, sample: 0 })).toBe(first);
    const second = judgeCacheKey(model, { ...request, sample: 1 });
    expect(second).not.toBe(first);
    expect(judgeCacheKey(model, { ...request, sample: 2 })).not.toBe(second);
    // Pinned: a change of key loses every cache users hold.
    expect(first).toBe("c6e1a447b2f5e98981440df9e8e2832cf369caa4c60725040eb68b72c9674c03");
  });
});
