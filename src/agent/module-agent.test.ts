import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../core/errors.js";
import { testFolders } from "../../test/support/folders.js";
import { runAgentOnce } from "./agent.js";
import { moduleAgent, namesModule } from "./module-agent.js";
import { resolveAgent } from "./resolve-agent.js";

const folder = testFolders("toolscore-module-agent-");
const request = { caseId: "c", input: "hello", attempt: 1, turn: 0, history: [], session: "s" };

describe("moduleAgent", () => {
  it("calls a module's default export with the input and a context", async () => {
    const directory = folder({
      "agent.mjs": `export default async (input, context) => {
        context.log("seen " + context.caseId);
        return [{ role: "user", content: input }, { turn: context.turn, attempt: context.attempt, aborted: context.signal.aborted }];
      };`,
    });
    const agent = await moduleAgent("agent.mjs", { cwd: directory });
    expect(agent.name).toBe("agent.mjs");
    const outcome = await runAgentOnce(agent, request, { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({
      status: "answered",
      transcript: [
        { role: "user", content: "hello" },
        { turn: 0, attempt: 1, aborted: false },
      ],
      log: ["seen c"],
    });
  });

  it("loads TypeScript without a build step, and takes an export named agent", async () => {
    const directory = folder({
      "agent.ts": `interface Message { role: string; content: string }
        export function agent(input: string): Message[] { return [{ role: "user", content: input.toUpperCase() }]; }`,
    });
    const outcome = await runAgentOnce(await moduleAgent("agent.ts", { cwd: directory }), request, {
      timeoutMs: 60_000,
    });
    expect(outcome).toMatchObject({ transcript: [{ role: "user", content: "HELLO" }] });
  });

  it("refuses a module without an agent, or one that does not load, naming it", async () => {
    const directory = folder({
      "none.mjs": "export const x = 1;",
      "broken.mjs": "export default (",
    });
    await expect(moduleAgent("none.mjs", { cwd: directory })).rejects.toThrow(
      /--agent none\.mjs exports no agent: export default/,
    );
    const broken = await moduleAgent("broken.mjs", { cwd: directory }).catch(
      (error: unknown) => error,
    );
    expect(InvalidOptionError.isInstance(broken)).toBe(true);
    expect((broken as Error).message).toMatch(/--agent broken\.mjs could not be loaded/);
    await expect(moduleAgent("missing.mjs", { cwd: directory })).rejects.toThrow(
      /could not be loaded/,
    );
  });
});

describe("moduleAgent, fresh", () => {
  it("loads an edited module anew, JavaScript or TypeScript", async () => {
    for (const file of ["agent.mjs", "agent.ts"]) {
      const directory = folder({
        [file]: "export default () => [{ role: 'assistant', content: 'one' }];",
      });
      const said = async (fresh: boolean) => {
        const outcome = await runAgentOnce(
          await moduleAgent(file, { cwd: directory, fresh }),
          request,
          {
            timeoutMs: 60_000,
          },
        );
        return outcome.status === "answered" ? JSON.stringify(outcome.transcript) : outcome.message;
      };
      expect(await said(false)).toContain("one");
      writeFileSync(
        path.join(directory, file),
        "export default () => [{ role: 'assistant', content: 'two' }];",
      );
      expect(await said(true), file).toContain("two");
    }
  });
});

describe("resolveAgent", () => {
  it("tells a module, a command and an endpoint apart, and refuses settings of another kind", async () => {
    expect(namesModule("agents/agent.ts")).toBe(true);
    expect(namesModule("python agent.py")).toBe(false);
    expect(namesModule("node agent.js")).toBe(false);
    const cwd = folder();
    const command = await resolveAgent("python3 agent.py", { cwd });
    expect(command.name).toBe("python3 agent.py");
    expect(command.close).toBeUndefined();
    const kept = await resolveAgent("python3 agent.py", { cwd, process: "long-lived" });
    expect(kept.close).toBeTypeOf("function");
    const endpoint = await resolveAgent("HTTPS://agent.test/run", { cwd });
    expect(endpoint.name).toBe("https://agent.test/run");
    await expect(resolveAgent("  ", { cwd })).rejects.toThrow(/needs a module/);
    await expect(
      resolveAgent("https://agent.test/run", { cwd, process: "long-lived" }),
    ).rejects.toThrow(/--agent-process long-lived keeps a command's processes/);
    await expect(
      resolveAgent("python3 agent.py", { cwd, headers: { authorization: "x" } }),
    ).rejects.toThrow(/--agent-header goes with an HTTP endpoint/);
    await expect(resolveAgent("http://[nope/run", { cwd })).rejects.toThrow(/is not a URL/);
  });
});
