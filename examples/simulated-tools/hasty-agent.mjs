/**
 * The refund agent's bug: when the refund times out it refunds again at once, and the customer
 * is paid twice. `recovery` fails it; the careful agent (agent.mjs) passes.
 */
export default async function agent(input, context) {
  const orderId = /\d+/.exec(String(input))?.[0] ?? "";
  const messages = [{ role: "user", content: input }];
  for (const id of ["c1", "c2"]) {
    const args = { order_id: orderId };
    const result = await context.tools.call("refund_order", args);
    messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id,
            type: "function",
            function: { name: "refund_order", arguments: JSON.stringify(args) },
          },
        ],
      },
      { role: "tool", tool_call_id: id, content: result.text },
    );
    if (!result.isError) break;
  }
  messages.push({ role: "assistant", content: `Done: order ${orderId} is refunded.` });
  return messages;
}
