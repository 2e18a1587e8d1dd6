/**
 * A scripted refund agent that takes its tools from toolscore (context.tools): it refunds, and
 * when the refund times out it looks the order up before doing anything else, then says what
 * happened. Swap in your model: the tools' definitions are context.tools.tools.
 */
export default async function agent(input, context) {
  const orderId = /\d+/.exec(String(input))?.[0] ?? "";
  const messages = [{ role: "user", content: input }];
  const use = async (name, id) => {
    const args = { order_id: orderId };
    const result = await context.tools.call(name, args);
    messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
      },
      { role: "tool", tool_call_id: id, content: result.text },
    );
    return result;
  };
  const refund = await use("refund_order", "c1");
  let answer = `Order ${orderId} is refunded.`;
  if (refund.isError) {
    const order = await use("get_order", "c2");
    answer = /refunded/.test(order.text)
      ? `The refund timed out, but order ${orderId} shows as refunded: it went through.`
      : `The refund of order ${orderId} did not go through; please try again later.`;
  }
  messages.push({ role: "assistant", content: answer });
  return messages;
}
