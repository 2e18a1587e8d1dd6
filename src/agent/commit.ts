/**
 * The agent's version as a run can know it without asking the agent: the git commit of the folder
 * it runs from, marked `+dirty` when tracked files differ from it. Each run's recording keeps it,
 * so that a recording says which code made it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The commit `cwd` is checked out at (`<sha>` or `<sha>+dirty`); undefined outside git. */
export async function agentCommit(cwd: string): Promise<string | undefined> {
  try {
    const options = { cwd, timeout: 10_000 };
    const head = (await run("git", ["rev-parse", "HEAD"], options)).stdout.trim();
    if (!/^[0-9a-f]{40,64}$/.test(head)) return undefined;
    const changed = await run("git", ["status", "--porcelain", "--untracked-files=no"], options);
    return changed.stdout.trim() === "" ? head : `${head}+dirty`;
  } catch {
    // No git, or not a repository: the recording says nothing of a commit.
    return undefined;
  }
}
