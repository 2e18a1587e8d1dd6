#!/usr/bin/env node
// npm's `prepare`: builds dist/ where toolscore is installed from a git URL (npm installs the
// development dependencies there first) and after `npm ci` in a checkout. A checkout installed by
// path without them cannot build: say what to do instead of `tsc: not found`.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
if (!existsSync(path.join(root, "node_modules", "typescript", "bin", "tsc"))) {
  console.error(
    "toolscore: cannot build: this checkout's development dependencies are not installed.\n" +
      "Install the packed tarball instead (README, Install), or run `npm ci` in the checkout first.",
  );
  process.exit(1);
}
execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
