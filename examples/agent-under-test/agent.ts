/**
 * A scripted agent as a TypeScript module: toolscore imports it (through tsx) and calls its
 * default export with each case's input. It returns the run's transcript, here OpenAI chat
 * messages. It refunds twice, the bug a first CI gate should catch.
 */
import type { AgentContext } from "toolscore/node";

export default function agent(input: unknown, context: AgentContext): unknown[] {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  context.log(`case ${context.caseId}, run ${context.attempt}`);
  // What a real agent reads from its model's answer; kept with the run's recording.
  context.report({ model: "rules-v1", usage: { inputTokens: text.length, outputTokens: 12 } });
  const date = /\d{4}-\d{2}-\d{2}/.exec(text)?.[0] ?? "";
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  if (/weather/i.test(text)) {
    calls.push({ name: "get_weather", args: { city: /in ([A-Z][a-z]+)/.exec(text)?.[1], date } });
  } else if (/flight/i.test(text)) {
    const [, from, to] = /from (\w+) to (\w+)/.exec(text) ?? [];
    calls.push({ name: "search_flights", args: { from, to, date } });
  } else {
    const order = /\d+/.exec(text)?.[0];
    calls.push({ name: "refund_order", args: { order_id: order } });
    calls.push({ name: "refund_order", args: { order_id: order } });
  }
  return [
    { role: "user", content: text },
    {
      role: "assistant",
      content: null,
      tool_calls: calls.map((call, index) => ({
        id: `c${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    },
    ...calls.map((_, index) => ({ role: "tool", tool_call_id: `c${index}`, content: "ok" })),
    { role: "assistant", content: "Done." },
  ];
}
