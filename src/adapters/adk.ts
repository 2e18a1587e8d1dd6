/**
 * Google's Agent Development Kit (ADK): a session's events, and the invocations of its eval sets
 * and eval results, as ADK's Python models write them (`google/adk/sessions`, and
 * `google/adk/evaluation/eval_case.py`, `eval_set.py`, `eval_result.py`), in snake_case or, as
 * its pydantic aliases write them, camelCase.
 */
import { asArray, asId, asRecord, asString, at, replyTextOf, textOf } from "./read.js";
import type { Record_ } from "./read.js";
import { readGeminiContent } from "./gemini.js";
import type { TrajectoryBuilder } from "./trajectory-builder.js";

/** A field in either spelling: `eval_id` or `evalId`. */
export function field(record: Record_, snake: string): unknown {
  const camel = snake.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  return record[snake] ?? record[camel];
}

/** Whether a value is an ADK event: an author, and content or actions. */
export function isAdkEvent(value: unknown): boolean {
  const record = asRecord(value);
  return (
    record !== undefined &&
    typeof record.author === "string" &&
    (record.content !== undefined || record.actions !== undefined) &&
    record.role === undefined
  );
}

/** Whether a value is an ADK invocation of an eval case: the user's content, and what followed. */
export function isAdkInvocation(value: unknown): boolean {
  const record = asRecord(value);
  return record !== undefined && asRecord(field(record, "user_content")) !== undefined;
}

/** The invocations of an eval case (`conversation`), or a list of them. */
function invocationsOf(input: unknown): { items: unknown[]; path: string } | undefined {
  const list = asArray(input);
  if (list?.some(isAdkInvocation)) return { items: list, path: "$" };
  const record = asRecord(input);
  const conversation = record === undefined ? undefined : asArray(record.conversation);
  if (conversation) return { items: conversation, path: "$.conversation" };
  return undefined;
}

/**
 * An ADK run as a transcript: a session's events (a list, or a session's `events`), each event's
 * content read as Gemini content (function calls and responses by id, the user's text opening a
 * turn); or the invocations of an eval case (`conversation`), each a turn: the user's content,
 * the tool uses and responses of `intermediate_data` (or its `invocation_events`), the final
 * response.
 */
export function readAdk(input: unknown, builder: TrajectoryBuilder): void {
  const invocations = invocationsOf(input);
  if (invocations !== undefined) {
    invocations.items.forEach((item, index) => {
      readInvocation(item, at(invocations.path, index), builder);
    });
    return;
  }
  const record = asRecord(input);
  const events = asArray(input) ?? (record === undefined ? undefined : asArray(record.events));
  const path = asArray(input) ? "$" : "$.events";
  (events ?? [input]).forEach((value, index) => {
    const eventPath = at(path, index);
    const event = builder.objectAt(value, eventPath, "an event");
    if (!event) return;
    // Streamed pieces repeat what the whole event that follows them holds.
    if (event.partial === true) return;
    const usage = "usageMetadata" in event ? "usageMetadata" : "usage_metadata";
    if (event.content !== undefined && event.content !== null)
      readGeminiContent(event.content, at(eventPath, "content"), builder);
    builder.addUsage(event[usage], event.modelVersion ?? event.model_version, at(eventPath, usage));
  });
}

/** One invocation of an eval case: a turn of the conversation. */
function readInvocation(value: unknown, path: string, builder: TrajectoryBuilder): void {
  const invocation = builder.objectAt(value, path, "an invocation");
  if (!invocation) return;
  builder.startTurn(textOf(asRecord(field(invocation, "user_content"))?.parts));
  const data = asRecord(field(invocation, "intermediate_data"));
  const dataPath = at(path, "intermediate_data");
  const events = data === undefined ? undefined : asArray(field(data, "invocation_events"));
  if (events !== undefined) {
    events.forEach((event, index) => {
      const content = asRecord(event)?.content;
      if (content !== undefined && content !== null)
        readGeminiContent(
          content,
          at(at(at(dataPath, "invocation_events"), index), "content"),
          builder,
        );
    });
  } else if (data !== undefined) {
    builder.startStep();
    (asArray(field(data, "tool_uses")) ?? []).forEach((use, index) => {
      const usePath = at(at(dataPath, "tool_uses"), index);
      const call = builder.objectAt(use, usePath, "a tool use");
      if (!call) return;
      const name = asString(call.name);
      if (name === undefined) {
        builder.warn("missing-name", "a tool use without a name was skipped", usePath);
        return;
      }
      builder.addCall({ name, arguments: call.args ?? {}, id: asId(call.id), path: usePath });
    });
    builder.endStep();
    (asArray(field(data, "tool_responses")) ?? []).forEach((response, index) => {
      const responsePath = at(at(dataPath, "tool_responses"), index);
      const result = builder.objectAt(response, responsePath, "a tool response");
      if (!result) return;
      const output = asRecord(result.response);
      const error = output?.error;
      builder.addResult({
        id: asId(result.id),
        name: asString(result.name),
        output: error !== undefined && error !== null ? error : (result.response ?? null),
        isError: error !== undefined && error !== null,
        path: responsePath,
      });
    });
  }
  const final = asRecord(field(invocation, "final_response"));
  if (final !== undefined) builder.addReply(replyTextOf(final.parts));
}

/** An expected or actual call of an invocation: the FunctionCalls of its intermediate data. */
function toolUsesOf(invocation: unknown): { name: string; arguments: unknown }[] {
  const record = asRecord(invocation);
  const data = record === undefined ? undefined : asRecord(field(record, "intermediate_data"));
  if (data === undefined) return [];
  const uses = asArray(field(data, "tool_uses"));
  const calls: unknown[] =
    uses ??
    (asArray(field(data, "invocation_events")) ?? []).flatMap((event) =>
      (asArray(asRecord(asRecord(event)?.content)?.parts) ?? []).flatMap((part) => {
        const call = asRecord(field(asRecord(part) ?? {}, "function_call"));
        return call === undefined ? [] : [call];
      }),
    );
  return calls.flatMap((call) => {
    const record = asRecord(call);
    const name = record === undefined ? undefined : asString(record.name);
    return name === undefined || record === undefined
      ? []
      : [{ name, arguments: record.args ?? {} }];
  });
}

/** What the user said to open an invocation. */
function requestOf(invocation: unknown): string | undefined {
  const record = asRecord(invocation);
  return record === undefined ? undefined : textOf(asRecord(field(record, "user_content"))?.parts);
}

/** The expected invocations of a conversation as a case's turns: a turn each, its tool uses. */
function expectedTurns(invocations: readonly unknown[]): Record<string, unknown>[] {
  return invocations.map((invocation) => {
    const input = requestOf(invocation);
    return {
      ...(input === undefined ? {} : { input }),
      expected_tools: toolUsesOf(invocation),
    };
  });
}

/**
 * The cases of an ADK eval set (`eval_cases`) or eval set result (`eval_case_results`), as
 * toolscore's dataset cases with turns (an invocation each); undefined for anything else. An eval
 * set's case holds what should happen: each invocation's tool uses are its turn's expected calls,
 * to be scored against recordings. An eval result's case holds both: the actual invocations of
 * each metric's per-invocation results are the run (a turn each), the expected ones each turn's
 * expected calls.
 */
export function adkDatasetCases(value: unknown): unknown[] | undefined {
  const record = asRecord(value);
  if (record === undefined) return undefined;
  const evalSet = asString(field(record, "eval_set_id"));
  const cases = asArray(field(record, "eval_cases"));
  if (cases !== undefined) {
    return cases.map((item) => {
      const evalCase = asRecord(item) ?? {};
      const conversation = asArray(evalCase.conversation) ?? [];
      return {
        id: asString(field(evalCase, "eval_id")),
        turns: expectedTurns(conversation),
        metadata: { adkEvalSet: evalSet ?? null },
      };
    });
  }
  const results = asArray(field(record, "eval_case_results"));
  if (results === undefined) return undefined;
  return results.map((item) => {
    const result = asRecord(item) ?? {};
    const perInvocation = asArray(field(result, "eval_metric_result_per_invocation")) ?? [];
    const actual = perInvocation.map((entry) => field(asRecord(entry) ?? {}, "actual_invocation"));
    const expected = perInvocation.map((entry) =>
      field(asRecord(entry) ?? {}, "expected_invocation"),
    );
    return {
      id: asString(field(result, "eval_id")),
      trajectory: { conversation: actual },
      trajectoryFormat: "adk",
      turns: expectedTurns(expected),
      metadata: {
        adkEvalSet: asString(field(result, "eval_set_id")) ?? evalSet ?? null,
        adkStatus: field(result, "final_eval_status") ?? null,
      },
    };
  });
}
