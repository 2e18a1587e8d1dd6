#!/usr/bin/env node
import { setMaxListeners } from "node:events";
import { stopsCleanly } from "./commands.js";
import { runCli } from "./main.js";

// The first SIGINT/SIGTERM stops a command that stops cleanly (eval saves what finished, view
// closes its server); a second one, or the first for any other command, exits now.
const controller = new AbortController();
// Every case and judge call in flight listens to this one signal.
setMaxListeners(0, controller.signal);
let stopping = !stopsCleanly(process.argv[2]);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(signal === "SIGINT" ? 130 : 143);
    stopping = true;
    // eval saves the cases that finished; view closes its server.
    process.stderr.write(`\ntoolscore: ${signal}: stopping cleanly (again to quit now)\n`);
    controller.abort(signal);
  });
}

// A reader that went away (`toolscore eval ... | head`) is no error of the run: nothing more is
// shown, and the run goes on to write its results file and exit with its own code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
});
// The command is done: an agent under test that left work behind (a hung call, a timer) must not
// hold the process. What was written to the console is flushed first.
for (const stream of [process.stdout, process.stderr]) {
  await new Promise<void>((resolve) => {
    stream.write("", () => {
      resolve();
    });
  });
}
process.exit(code);
