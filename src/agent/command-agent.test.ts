import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testFolders } from "../../test/support/folders.js";
import { optionalTool } from "../../test/support/optional-tools.js";
import { runAgentOnce } from "./agent.js";
import { commandAgent, requestLine } from "./command-agent.js";

const folder = testFolders("toolscore-command-agent-");
const node = JSON.stringify(process.execPath);
const request = {
  caseId: "case-1",
  input: "Weather in Oslo on 2026-07-14",
  attempt: 2,
  turn: 0,
  history: [],
  session: "s-1",
};
const examples = path.resolve(
  fileURLToPath(new URL(".", import.meta.url)),
  "../../examples/agent-under-test",
);

/** A command agent made of a Node script, run as any command is (through the shell). */
function scriptAgent(script: string) {
  const directory = folder({ "agent.mjs": script });
  return commandAgent(`${node} agent.mjs`, { cwd: directory });
}

describe("commandAgent", () => {
  it("gives the case on stdin as one JSON line and reads the transcript from stdout", async () => {
    const agent = scriptAgent(`
      let text = "";
      process.stdin.on("data", (chunk) => (text += chunk));
      process.stdin.on("end", () => {
        const lines = text.split("\\n");
        console.log(JSON.stringify([{ role: "user", content: JSON.parse(lines[0]) }, lines.length]));
      });
    `);
    const outcome = await runAgentOnce(agent, request, { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({
      status: "answered",
      transcript: [
        {
          role: "user",
          content: {
            id: "case-1",
            input: request.input,
            attempt: 2,
            turn: 0,
            session: "s-1",
            history: [],
          },
        },
        2,
      ],
    });
    expect(requestLine(request).endsWith("}\n")).toBe(true);
  });

  it("fails a run that exits non-zero, with the end of its stderr", async () => {
    const agent = scriptAgent(`
      process.stderr.write("x".repeat(5000) + "Traceback: KeyError 'city'\\n");
      process.exit(3);
    `);
    const outcome = await runAgentOnce(agent, request, { timeoutMs: 60_000 });
    expect(outcome.status).toBe("failed");
    const message = outcome.status === "failed" ? outcome.message : "";
    expect(message).toMatch(/exited with 3; its stderr ends: x+Traceback: KeyError 'city'$/);
    expect(message.length).toBeLessThan(2200);
  });

  it("fails a run whose stdout is not JSON, or is empty, saying what to write", async () => {
    const text = await runAgentOnce(scriptAgent(`console.log("calling get_weather...")`), request, {
      timeoutMs: 60_000,
    });
    expect(text.status === "failed" && text.message).toMatch(/stdout is not JSON/);
    const empty = await runAgentOnce(scriptAgent(``), request, { timeoutMs: 60_000 });
    expect(empty.status === "failed" && empty.message).toMatch(/returned nothing/);
  });

  it("kills a run past its deadline, with what it started", async () => {
    const directory = folder({
      "agent.mjs": `
        import { spawn } from "node:child_process";
        import { writeFileSync } from "node:fs";
        const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
        writeFileSync("pids", process.pid + " " + child.pid);
        setInterval(() => {}, 1000);
      `,
    });
    const agent = commandAgent(`${node} agent.mjs`, { cwd: directory });
    const outcome = await runAgentOnce(agent, request, { timeoutMs: 1500 });
    expect(outcome.status === "failed" && outcome.message).toMatch(/within 1500 ms/);
    const pids = readFileSync(path.join(directory, "pids"), "utf8").split(" ").map(Number);
    // Killed as a group: the agent and the process it started are gone.
    await expect.poll(() => pids.filter(alive), { timeout: 10_000 }).toEqual([]);
  });

  const python = optionalTool("python");
  (python.runs ? it : it.skip)(
    `runs the Python agent of the protocol's guide${python.runs ? "" : ` [skipped: ${python.missing}]`}`,
    async () => {
      expect(python.present, python.missing).toBe(true);
      const agent = commandAgent(`${python.path} agent.py`, { cwd: examples });
      const outcome = await runAgentOnce(agent, request, { timeoutMs: 60_000 });
      expect(outcome).toMatchObject({ status: "answered" });
      const transcript = (outcome.status === "answered" ? outcome.transcript : []) as {
        tool_calls?: { function: { name: string; arguments: string } }[];
      }[];
      const call = transcript[1].tool_calls?.[0].function;
      expect(call?.name).toBe("get_weather");
      expect(JSON.parse(call?.arguments ?? "")).toEqual({ city: "Oslo", date: "2026-07-14" });
      // The script runs on its own too, as the guide says.
      const out = execFileSync(python.path, ["agent.py"], {
        cwd: examples,
        input: requestLine({ ...request, input: "Refund order 1042" }),
      });
      const refund = JSON.parse(out.toString()) as typeof transcript;
      expect(refund[1].tool_calls?.[0].function.name).toBe("refund_order");
      // The guide's own agent, as its page prints it.
      const guide = readFileSync(
        path.join(examples, "../../docs/guides/agent-protocol.md"),
        "utf8",
      );
      const script = /```python\n(import json[\s\S]*?)```/.exec(guide)?.[1] ?? "";
      expect(script.split("\n").length).toBeLessThanOrEqual(20);
      const directory = folder({ "agent.py": script });
      const guided = await runAgentOnce(
        commandAgent(`${python.path} agent.py`, { cwd: directory }),
        request,
        { timeoutMs: 60_000 },
      );
      expect(guided).toMatchObject({ status: "answered" });
      const said = (guided.status === "answered" ? guided.transcript : []) as typeof transcript;
      expect(JSON.parse(said[1].tool_calls?.[0].function.arguments ?? "")).toEqual({
        city: "Oslo",
        date: "2026-07-14",
      });
    },
  );
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("commandAgent, long-lived", () => {
  /** A loop over request lines that answers each by the input's first word. */
  const loop = `
    import { createInterface } from "node:readline";
    const lines = createInterface({ input: process.stdin });
    lines.on("line", (line) => {
      const asked = JSON.parse(line);
      const word = asked.input.split(" ")[0];
      if (word === "crash") process.exit(3);
      if (word === "hang") return;
      if (word === "refuse") {
        console.log(JSON.stringify({ error: "no tool fits " + asked.id }));
        return;
      }
      console.log("loading the model...");
      console.log(JSON.stringify({ transcript: [{ role: "user", content: asked.input, pid: process.pid }] }));
    });
    lines.on("close", () => process.exit(0));
  `;
  const ask = (input: string, caseId = input): typeof request => ({ ...request, caseId, input });
  const pidOf = (outcome: Awaited<ReturnType<typeof runAgentOnce>>) =>
    outcome.status === "answered" ? (outcome.transcript as { pid: number }[])[0].pid : undefined;

  it("answers run after run from one process, and keeps what else it printed in the run's log", async () => {
    const directory = folder({ "agent.mjs": loop });
    const agent = commandAgent(`${node} agent.mjs`, { cwd: directory, process: "long-lived" });
    try {
      const first = await runAgentOnce(agent, ask("hello there"), { timeoutMs: 60_000 });
      expect(first).toMatchObject({
        status: "answered",
        transcript: [{ role: "user", content: "hello there" }],
        log: ["stdout: loading the model..."],
      });
      const second = await runAgentOnce(agent, ask("again"), { timeoutMs: 60_000 });
      expect(pidOf(second)).toBe(pidOf(first));
      // Runs at once get processes of their own.
      const together = await Promise.all(
        ["a", "b", "c"].map((word) => runAgentOnce(agent, ask(word), { timeoutMs: 60_000 })),
      );
      expect(together.map((outcome) => outcome.status)).toEqual([
        "answered",
        "answered",
        "answered",
      ]);
      expect(new Set(together.map(pidOf)).size).toBe(3);
      const refused = await runAgentOnce(agent, ask("refuse it"), { timeoutMs: 60_000 });
      expect(refused).toMatchObject({ status: "failed", message: "no tool fits refuse it" });
    } finally {
      await agent.close?.();
    }
  });

  it("fails the run a process dies or hangs on, and starts another for the next run", async () => {
    const directory = folder({ "agent.mjs": loop });
    const agent = commandAgent(`${node} agent.mjs`, { cwd: directory, process: "long-lived" });
    try {
      const first = await runAgentOnce(agent, ask("hello"), { timeoutMs: 60_000 });
      const crashed = await runAgentOnce(agent, ask("crash now"), { timeoutMs: 60_000 });
      expect(crashed).toMatchObject({
        status: "failed",
        message: "the agent process exited with 3 before it answered",
      });
      const hung = await runAgentOnce(agent, ask("hang on"), { timeoutMs: 500 });
      expect(hung.status === "failed" && hung.message).toMatch(/within 500 ms/);
      const after = await runAgentOnce(agent, ask("hello"), { timeoutMs: 60_000 });
      expect(after.status).toBe("answered");
      expect(pidOf(after)).not.toBe(pidOf(first));
      await agent.close?.();
      await expect.poll(() => alive(pidOf(after) ?? 0), { timeout: 10_000 }).toBe(false);
    } finally {
      await agent.close?.();
    }
  });
});
