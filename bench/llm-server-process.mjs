/**
 * The loopback model server in a process of its own, for the judge benchmark: a real provider's
 * server does not share the client's CPU, so neither should this one. Prints its OpenAI base URL
 * as one JSON line, answers after `--latency` ms, and stops when its parent closes stdin.
 */
import { startLlmServer } from "../test/support/llm-server.mjs";

const at = process.argv.indexOf("--latency");
const server = await startLlmServer({
  latencyMs: at >= 0 ? Number(process.argv[at + 1]) : 0,
  // One answer for both judges: deepeval's schema reads score and reason, toolscore's also the
  // lists of over-, under- and mis-selected tools.
  answer: () => ({
    score: 1,
    reason: "The right tool.",
    overSelected: [],
    underSelected: [],
    misSelected: [],
  }),
});
console.log(JSON.stringify({ openaiBaseURL: server.openaiBaseURL }));
process.stdin.resume();
process.stdin.on("end", () => {
  void server.close().then(() => process.exit(0));
});
