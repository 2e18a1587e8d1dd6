/**
 * A loopback decision-model server for tests: OpenAI's Decisions API (`POST /v1/decisions`) and
 * the System One wire format (`POST /v1/systemone`), their bodies typed by the SDKs' own types
 * (`openai` 7's `decisions`, `@typesafe-ai/sdk`). Each yes-no question is answered with the
 * probability `answer` gives it; choices and scales with the distribution it gives.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type {
  Decision,
  DecisionCreateParams,
} from "../stacks/current/node_modules/openai/resources/decisions.js";
import type { SystemOneRequestPayload, SystemOneResult } from "@typesafe-ai/sdk";

/** One question as the server read it, whichever format asked it. */
export interface AskedQuestion {
  readonly id: string;
  readonly type: "yes-no" | "choice" | "score";
  readonly instructions: string;
  /** Choices' values, or levels' indices as strings. */
  readonly options: readonly string[];
}

/**
 * A probability for a yes-no question; a distribution over `options` for the others; undefined
 * to leave a System One question unanswered.
 */
export type Answer = (
  question: AskedQuestion,
  state: string,
) => number | Record<string, number> | undefined;

export interface DecisionServer {
  readonly url: string;
  /** Bodies received, by path. */
  readonly requests: { path: string; body: unknown; headers: http.IncomingHttpHeaders }[];
  answer: Answer;
  /** Statuses to answer the next requests with, one each, before answering normally. */
  failures: number[];
  close(): Promise<void>;
}

const text = (value: unknown): string =>
  typeof value === "string" ? value : JSON.stringify(value);

function openAIDecision(body: DecisionCreateParams, answer: Answer): Decision {
  const state = text(body.input);
  return {
    model: body.model,
    usage: {
      input_tokens: state.length,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: state.length,
    },
    answers: body.questions.map((question, index): Decision["answers"][number] => {
      const name = question.name ?? null;
      const asked = {
        id: question.name ?? String(index),
        instructions: text(question.instructions),
      };
      if (question.type === "predicate") {
        const p = answer({ ...asked, type: "yes-no", options: ["yes", "no"] }, state);
        return { type: "predicate", name, probability: p as number };
      }
      if (question.type === "choice") {
        const options = question.choices.map((choice) => String(choice.value));
        const p = answer({ ...asked, type: "choice", options }, state) as Record<string, number>;
        const top = options.reduce((a, b) => ((p[b] ?? 0) > (p[a] ?? 0) ? b : a));
        return {
          type: "choice",
          name,
          choice: top,
          confidence: p[top] ?? 0,
          probabilities: options.map((value) => ({ value, probability: p[value] ?? 0 })),
        };
      }
      const options = question.levels.map((_, level) => String(level));
      const p = answer({ ...asked, type: "score", options }, state) as Record<string, number>;
      return {
        type: "score",
        name,
        score: options.reduce((sum, level) => sum + Number(level) * (p[level] ?? 0), 0),
        confidence: 0,
        probabilities: question.levels.map((level, value) => ({
          label: level.label,
          value,
          probability: p[String(value)] ?? 0,
        })),
      };
    }),
  };
}

type SystemOneAnswers = SystemOneResult<Record<string, never>>["answers"];

function systemOneResult(body: SystemOneRequestPayload, answer: Answer) {
  const state = text(body.state);
  const answers: Record<string, unknown> = {};
  for (const [id, question] of Object.entries(body.questions)) {
    const instructions = text(question.instructions);
    // An answer of undefined leaves the question out of the reply.
    const probe = question.type === "noul" ? ["yes", "no"] : [];
    if (
      question.type === "noul" &&
      answer({ id, type: "yes-no", instructions, options: probe }, state) === undefined
    )
      continue;
    if (question.type === "noul") {
      answers[id] = {
        type: "noul",
        noul: answer({ id, type: "yes-no", instructions, options: ["yes", "no"] }, state),
      };
    } else if (question.type === "choice") {
      const options = Object.keys(question.criteria);
      const p = answer({ id, type: "choice", instructions, options }, state) as Record<
        string,
        number
      >;
      const top = options.reduce((a, b) => ((p[b] ?? 0) > (p[a] ?? 0) ? b : a));
      answers[id] = { type: "choice", choice: top, confidence: 0, probabilities: p };
    } else {
      const options = question.criteria.map((_, level) => String(level));
      const p = answer({ id, type: "score", instructions, options }, state) as Record<
        string,
        number
      >;
      answers[id] = {
        type: "score",
        score: options.reduce((sum, level) => sum + Number(level) * (p[level] ?? 0), 0),
        confidence: 0,
        legend: Object.fromEntries(question.criteria.map((c, level) => [String(level), c])),
        probabilities: p,
      };
    }
  }
  return {
    model: body.model,
    answers: answers as SystemOneAnswers,
    usage: { input_tokens: state.length, output_tokens: 0 },
  };
}

export async function startDecisionServer(answer: Answer): Promise<DecisionServer> {
  const requests: DecisionServer["requests"] = [];
  const server: DecisionServer = {
    url: "",
    requests,
    answer,
    failures: [],
    close: () =>
      new Promise((resolve) =>
        http_.close(() => {
          resolve();
        }),
      ),
  };
  const http_ = http.createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    request.on("end", () => {
      const path = request.url ?? "";
      const body: unknown = raw === "" ? undefined : JSON.parse(raw);
      requests.push({ path, body, headers: request.headers });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(payload));
      };
      const failure = server.failures.shift();
      if (failure !== undefined) {
        send(failure, { error: { message: `injected ${failure}` } });
        return;
      }
      if (path === "/v1/decisions") {
        send(200, openAIDecision(body as DecisionCreateParams, server.answer));
        return;
      }
      if (path === "/v1/systemone") {
        send(200, systemOneResult(body as SystemOneRequestPayload, server.answer));
        return;
      }
      send(404, { error: { message: `no route ${path}` } });
    });
  });
  await new Promise<void>((resolve) => http_.listen(0, "127.0.0.1", resolve));
  const { port } = http_.address() as AddressInfo;
  return Object.assign(server, { url: `http://127.0.0.1:${port}` });
}
