import { sourceSpellings, spellingsUnder } from "../core/number-spellings.js";
import type { NumberSpellings } from "../core/number-spellings.js";
import { asArray, asId, asRecord, asString, at, blocksOutput, messageList } from "./read.js";
import type { Record_ } from "./read.js";
import { readToolSpecs } from "./tool-spec.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** A `tools/call` result: its structured content when it has one, else its content blocks. */
function callOutput(result: Record_): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  return blocksOutput(result.content ?? null);
}

/**
 * How the numbers of a request's arguments were written, when the transcript was read from text:
 * the message's own line (JSON Lines), else the whole document.
 */
function argumentSpellings(
  value: unknown,
  document: NumberSpellings | undefined,
  messagePath: string,
  wrapped: boolean,
): NumberSpellings | undefined {
  const inMessage = wrapped ? "$.message.params.arguments" : "$.params.arguments";
  const own = spellingsUnder(sourceSpellings(value), inMessage);
  if (own !== undefined || document === undefined) return own;
  return spellingsUnder(document, `${messagePath}${inMessage.slice(1)}`);
}

/**
 * MCP JSON-RPC exchanges (a list of messages, each possibly wrapped as `{message}` by a logger,
 * batches included): `tools/call` requests joined to their responses by JSON-RPC id, `isError`
 * results and JSON-RPC errors marked as errors, tools from `tools/list` responses. Every call is
 * its own step, except calls sent in one batch.
 */
export function readMcp(input: unknown, builder: TrajectoryBuilder): void {
  const { items, path } = messageList(input, ["messages"], "MCP");
  const document = sourceSpellings(input);
  const methods = new Map<string, string>();

  const readMessage = (value: unknown, messagePath: string): void => {
    const wrapper = asRecord(value);
    const message = asRecord(wrapper?.message) ?? wrapper;
    if (!message) {
      builder.warn("not-an-object", "a message that is not an object was skipped", messagePath);
      return;
    }
    const id = asId(message.id);
    const method = asString(message.method);
    if (method !== undefined) {
      if (id === undefined) return; // a notification
      methods.set(id, method);
      if (method !== "tools/call") return;
      const params = asRecord(message.params) ?? {};
      const name = asString(params.name);
      if (name === undefined) {
        builder.warn(
          "missing-name",
          "a tools/call request without a tool name was skipped",
          messagePath,
        );
        return;
      }
      builder.addCall({
        name,
        arguments: params.arguments ?? {},
        id,
        type: "MCP",
        path: messagePath,
        spellings: argumentSpellings(value, document, messagePath, message !== wrapper),
      });
      return;
    }
    if (id === undefined) {
      builder.warn(
        "unknown-block",
        "a message that is neither a request nor a response was skipped",
        messagePath,
      );
      return;
    }
    const requested = methods.get(id);
    const result = asRecord(message.result);
    if (requested === "tools/list") {
      asArray(result?.tools)?.forEach((tool, index) => {
        for (const spec of readToolSpecs(tool, at(at(at(messagePath, "result"), "tools"), index)))
          builder.addTool(spec);
      });
      return;
    }
    if (requested !== undefined && requested !== "tools/call") return;
    if (requested === undefined) {
      builder.warn(
        "result-without-call",
        `a response to request id ${JSON.stringify(id)}, which is not in the transcript`,
        messagePath,
      );
      return;
    }
    const error = asRecord(message.error);
    builder.addResult({
      id,
      output: error ? (asString(error.message) ?? error) : result ? callOutput(result) : null,
      isError: error !== undefined || result?.isError === true,
      path: messagePath,
    });
  };

  items.forEach((value, index) => {
    const messagePath = at(path, index);
    const batch = asArray(value);
    if (batch) {
      builder.startStep();
      batch.forEach((item, i) => {
        readMessage(item, at(messagePath, i));
      });
      builder.endStep();
    } else {
      readMessage(value, messagePath);
    }
  });
}
