import { asArray, asId, asRecord, asString, at, messageList, replyTextOf, textOf } from "./read.js";
import type { Record_ } from "./read.js";
import { readToolList } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/**
 * A function response's output, as Gemini documents it: the `error` key holds an error, the
 * `output` key the output, and without either the whole response is the output.
 */
function functionOutput(response: unknown): { output: unknown; isError: boolean } {
  const record = asRecord(response);
  if (record && record.error !== undefined && record.error !== null)
    return { output: record.error, isError: true };
  if (record && Object.hasOwn(record, "output")) return { output: record.output, isError: false };
  return { output: response ?? null, isError: false };
}

function part(record: Record_, camel: string, snake: string): Record_ | undefined {
  return asRecord(record[camel]) ?? asRecord(record[snake]);
}

/**
 * Gemini `contents`: `functionCall` and `functionResponse` parts (joined by id when they have
 * one, else by name in order), built-in code execution (`executableCode`, `codeExecutionResult`),
 * camelCase or snake_case; the `candidates` of a response; tools from `functionDeclarations` with
 * `parameters` (OpenAPI types lowered to JSON Schema) or `parametersJsonSchema`.
 */
export function readGemini(input: unknown, builder: TrajectoryBuilder): void {
  const record = asRecord(input);
  if (record) for (const tool of readToolList(record.tools)) builder.addTool(tool);
  const candidates = record && asArray(record.candidates);
  const { items, path } = candidates
    ? { items: candidates.map((candidate) => asRecord(candidate)?.content), path: "$.candidates" }
    : messageList(input, ["contents"], "Gemini");
  items.forEach((item, index) => {
    const contentPath = candidates ? at(at(path, index), "content") : at(path, index);
    readGeminiContent(item, contentPath, builder);
  });
  if (record) {
    const usage = "usageMetadata" in record ? "usageMetadata" : "usage_metadata";
    builder.addUsage(record[usage], record.modelVersion ?? record.model_version, at("$", usage));
  }
}

/**
 * One Gemini `Content` (a role and its parts): a user's text opens a turn, a model's parts are
 * one step of calls and its reply, function responses are results. Google ADK's events carry
 * their content in this shape too.
 */
export function readGeminiContent(
  item: unknown,
  contentPath: string,
  builder: TrajectoryBuilder,
): void {
  const content = builder.objectAt(item, contentPath, "a content");
  if (!content) return;
  const role = content.role ?? "user";
  const parts = asArray(content.parts) ?? [];
  if (role === "model") {
    builder.addReply(replyTextOf(parts));
    builder.startStep();
  } else if (role === "user") {
    const userParts = parts.filter((p) => {
      const r = asRecord(p);
      return r !== undefined && part(r, "functionResponse", "function_response") === undefined;
    });
    if (userParts.length > 0) builder.startTurn(textOf(userParts));
  } else if (role !== "function" && role !== "tool") {
    builder.unknownRole(role, contentPath, "a content");
    return;
  }
  parts.forEach((value, partIndex) => {
    const partPath = at(at(contentPath, "parts"), partIndex);
    const p = builder.objectAt(value, partPath, "a part");
    if (!p) return;
    const call = part(p, "functionCall", "function_call");
    if (call) {
      const name = asString(call.name);
      if (name === undefined)
        builder.warn("missing-name", "a functionCall without a name was skipped", partPath);
      else builder.addCall({ name, arguments: call.args ?? {}, id: asId(call.id), path: partPath });
      return;
    }
    const response = part(p, "functionResponse", "function_response");
    if (response) {
      builder.addResult({
        id: asId(response.id),
        name: asString(response.name),
        ...functionOutput(response.response),
        path: partPath,
      });
      return;
    }
    const code = part(p, "executableCode", "executable_code");
    if (code) {
      builder.addCall({
        name: "code_execution",
        arguments: { language: code.language ?? null, code: code.code ?? "" },
        path: partPath,
      });
      return;
    }
    const codeResult = part(p, "codeExecutionResult", "code_execution_result");
    if (codeResult) {
      builder.addResult({
        name: "code_execution",
        output: codeResult.output ?? null,
        isError: codeResult.outcome !== undefined && codeResult.outcome !== "OUTCOME_OK",
        path: partPath,
      });
      return;
    }
    const known = [
      "text",
      "thought",
      "thoughtSignature",
      "thought_signature",
      "inlineData",
      "inline_data",
      "fileData",
      "file_data",
      "videoMetadata",
      "video_metadata",
    ];
    if (!Object.keys(p).some((key) => known.includes(key))) {
      builder.warn(
        "unknown-block",
        `a part with keys ${JSON.stringify(Object.keys(p))} was skipped`,
        partPath,
      );
    }
  });
  if (role === "model") builder.endStep();
}
