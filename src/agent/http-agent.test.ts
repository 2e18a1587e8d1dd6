import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentOnce } from "./agent.js";
import type { AgentRequest } from "./agent.js";
import { httpAgent } from "./http-agent.js";

const request = (caseId: string): AgentRequest => ({
  caseId,
  input: `case ${caseId}`,
  attempt: 0,
  turn: 0,
  history: [],
  session: `session-${caseId}`,
});

/** Requests the server got, by case id, with the headers that came. */
const seen = new Map<string, { count: number; authorization: string | undefined }>();
let url = "";

/** An agent endpoint on loopback whose behaviour each case id chooses. */
const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
  let text = "";
  incoming.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  incoming.on("end", () => {
    const body = JSON.parse(text) as { id: string; input: string; session: string };
    const before = seen.get(body.id)?.count ?? 0;
    seen.set(body.id, { count: before + 1, authorization: incoming.headers.authorization });
    const answer = [
      { role: "user", content: body.input },
      { role: "assistant", content: "ok" },
    ];
    switch (body.id) {
      case "busy-then-ok":
        if (before < 2) {
          response.writeHead(503, { "retry-after": "0" }).end("busy");
          return;
        }
        response.end(JSON.stringify(answer));
        return;
      case "always-down":
        response.writeHead(500).end("database is down");
        return;
      case "refused":
        response.writeHead(422).end('{"error":"input too long"}');
        return;
      case "not-json":
        response.end("<html>oops</html>");
        return;
      case "empty":
        response.end();
        return;
      case "hangs":
        return;
      default:
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(answer));
    }
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("httpAgent", () => {
  const agent = () =>
    httpAgent(url, { headers: { Authorization: "Bearer k-1" }, retries: 2, retryDelayMs: 1 });

  it("posts the case with the run's headers and reads the transcript from the answer", async () => {
    const outcome = await runAgentOnce(agent(), request("plain"), { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({
      status: "answered",
      transcript: [
        { role: "user", content: "case plain" },
        { role: "assistant", content: "ok" },
      ],
    });
    expect(seen.get("plain")).toEqual({ count: 1, authorization: "Bearer k-1" });
  });

  it("retries a busy or failing endpoint, and says what it answered when retries run out", async () => {
    const busy = await runAgentOnce(agent(), request("busy-then-ok"), { timeoutMs: 60_000 });
    expect(busy.status).toBe("answered");
    expect(busy.status === "answered" && busy.log).toEqual([
      "retry 1: 503 Service Unavailable",
      "retry 2: 503 Service Unavailable",
    ]);
    expect(seen.get("busy-then-ok")?.count).toBe(3);
    const down = await runAgentOnce(agent(), request("always-down"), { timeoutMs: 60_000 });
    expect(down).toMatchObject({
      status: "failed",
      message:
        "the agent's endpoint answered 500 Internal Server Error (after 2 retries): database is down",
    });
    expect(seen.get("always-down")?.count).toBe(3);
  });

  it("never retries an answer: a 4xx, a body that is not JSON, or none, is the run's failure", async () => {
    const refused = await runAgentOnce(agent(), request("refused"), { timeoutMs: 60_000 });
    expect(refused).toMatchObject({
      status: "failed",
      message: `the agent's endpoint answered 422 Unprocessable Entity: {"error":"input too long"}`,
    });
    expect(seen.get("refused")?.count).toBe(1);
    const garbled = await runAgentOnce(agent(), request("not-json"), { timeoutMs: 60_000 });
    expect(garbled.status === "failed" && garbled.message).toMatch(
      /did not answer JSON .*it begins "<html>oops<\/html>"/,
    );
    const empty = await runAgentOnce(agent(), request("empty"), { timeoutMs: 60_000 });
    expect(empty.status === "failed" && empty.message).toMatch(/the agent returned nothing/);
  });

  it("gives up on an endpoint that does not answer by the deadline, or cannot be reached", async () => {
    const hung = await runAgentOnce(agent(), request("hangs"), { timeoutMs: 300 });
    expect(hung).toMatchObject({
      status: "failed",
      message: "the agent did not answer within 300 ms (--agent-timeout)",
    });
    // A port nothing listens on: refused at once, retried, then the run's failure.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = httpAgent(`http://127.0.0.1:${port}/`, { retries: 1, retryDelayMs: 1 });
    const unreachable = await runAgentOnce(gone, request("x"), { timeoutMs: 60_000 });
    expect(unreachable.status === "failed" && unreachable.message).toMatch(
      /^the agent's endpoint could not be reached: .*ECONNREFUSED/,
    );
  });
});
