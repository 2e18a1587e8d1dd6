import { createHash } from "node:crypto";
import { canonicalJson as canonical } from "../core/json.js";
import type { JudgeModel, JudgeRequest } from "../core/judge.js";

/**
 * A fingerprint of credentials (an API key, and whatever else names the account): 16 hex digits
 * of a SHA-256, which tell accounts apart without revealing a key. Undefined without credentials.
 */
export function credentialFingerprint(
  credentials: readonly (string | undefined)[],
): string | undefined {
  const given = credentials.filter((part): part is string => part !== undefined && part !== "");
  if (given.length === 0) return undefined;
  return createHash("sha256")
    .update(`toolscore-account/1\u0000${given.join("\u0000")}`)
    .digest("hex")
    .slice(0, 16);
}

/**
 * The cache key of a judge call: a SHA-256 of everything that decides the answer (provider,
 * endpoint, account, model, messages with their images, schema, temperature, answer length, which
 * sample, a decision model's questions), in
 * canonical JSON. The endpoint and the account's fingerprint keep a cache that a stranger wrote
 * (entries committed to a repository, say) from answering for a judge it never asked. The
 * format's version is part of it, so a change of format never reads old entries wrongly.
 */
export function judgeCacheKey(model: JudgeModel, request: JudgeRequest): string {
  return createHash("sha256")
    .update(
      canonical({
        format: "toolscore-judge-cache/2",
        provider: model.provider,
        endpoint: model.endpoint ?? null,
        account: model.account ?? null,
        model: model.modelId,
        messages: request.messages,
        schema: request.schema,
        temperature: request.temperature ?? 0,
        maxOutputTokens: request.maxOutputTokens ?? 1024,
        // The first answer keeps the key it had before sampling existed.
        ...(request.sample === undefined || request.sample === 0 ? {} : { sample: request.sample }),
        ...(request.decision === undefined ? {} : { decision: request.decision }),
      }),
    )
    .digest("hex");
}
