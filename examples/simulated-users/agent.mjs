/**
 * A scripted support agent for a conversation: told of an order, it looks it up and asks before
 * refunding; told yes, it refunds the order the conversation named. Swap in your model: the
 * conversation so far is context.history.
 */
export default async function agent(input, context) {
  const said = [...context.history.map((turn) => String(turn.input)), String(input)];
  const orderId = said.map((text) => /\b[A-Z]-\d+\b/.exec(text)?.[0]).findLast(Boolean);
  const messages = [{ role: "user", content: input }];
  const call = (name) =>
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: `${name}-${context.turn}`,
          type: "function",
          function: { name, arguments: JSON.stringify({ order_id: orderId }) },
        },
      ],
    });
  const reply = (content) => messages.push({ role: "assistant", content });
  if (orderId === undefined) reply("Could you give me your order number?");
  else if (/\b(yes|please do|go ahead|sure)\b/i.test(String(input))) {
    call("refund_order");
    reply(`Done: order ${orderId} is refunded.`);
  } else {
    call("get_order");
    reply(`I found order ${orderId}: a blender, delivered. Shall I refund it?`);
  }
  return messages;
}
