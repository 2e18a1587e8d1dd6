import { createHash } from "node:crypto";
import type { JudgeModel, JudgeRequest } from "../core/judge.js";

/** JSON with object keys sorted, so that equal values always give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The cache key of a judge call: a SHA-256 of everything that decides the answer (provider,
 * model, messages with their images, schema, temperature, answer length), in canonical JSON.
 * The format's version is part of it, so a change of format never reads old entries wrongly.
 */
export function judgeCacheKey(model: JudgeModel, request: JudgeRequest): string {
  return createHash("sha256")
    .update(
      canonical({
        format: "toolscore-judge-cache/1",
        provider: model.provider,
        model: model.modelId,
        messages: request.messages,
        schema: request.schema,
        temperature: request.temperature ?? 0,
        maxOutputTokens: request.maxOutputTokens ?? 1024,
      }),
    )
    .digest("hex");
}
