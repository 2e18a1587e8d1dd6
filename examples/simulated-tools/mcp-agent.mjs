/**
 * The careful refund agent as a command, in its own process, taking its tools over MCP: toolscore
 * writes the run's request on stdin, with `mcp`, the URL of the run's simulated tools (streamable
 * HTTP), and reads the transcript on stdout. Needs @modelcontextprotocol/sdk installed.
 *
 *   toolscore eval dataset.jsonl --agent "node mcp-agent.mjs" --tools tools.json --tool-outputs outputs.jsonl
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
const client = new Client({ name: "refund-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(request.mcp)));
const { tools } = await client.listTools();
const orderId = /\d+/.exec(String(request.input))?.[0] ?? "";
const messages = [{ role: "user", content: request.input }];
const use = async (name, id) => {
  if (!tools.some((tool) => tool.name === name)) throw new Error(`no tool ${name}`);
  const args = { order_id: orderId };
  const result = await client.callTool({ name, arguments: args });
  const said = result.content.map((part) => part.text ?? "").join("");
  messages.push(
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: "tool", tool_call_id: id, content: said },
  );
  return { text: said, isError: result.isError === true };
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
await client.close();
process.stdout.write(`${JSON.stringify(messages)}\n`);
