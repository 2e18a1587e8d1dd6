#!/usr/bin/env node
// Fetches a Node the package tests run on into .cache/node-v<version>/, from the npm registry
// (the node-<platform>-<arch> packages hold Node's own binaries), and prints the path of its
// `node`: `oldest` (the default) is the oldest that package.json's `engines` allows; `22` or `24`
// the version scripts/tested-nodes.json pins for that major. .ci/run calls this, and a developer
// may too.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const which = process.argv[2] ?? "oldest";
const tested = JSON.parse(readFileSync(path.join(root, "scripts", "tested-nodes.json"), "utf8"));
let version;
if (which === "oldest") {
  const { engines } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const bound = /^>=\s*(\d+\.\d+\.\d+)$/.exec(engines.node.trim());
  if (bound === null) {
    console.error(
      `node.mjs: engines.node must be a lower bound such as ">=20.3.0", not ${engines.node}`,
    );
    process.exit(2);
  }
  version = bound[1];
} else if (typeof tested[which] === "string") {
  version = tested[which];
} else {
  console.error(`node.mjs: give oldest or one of ${Object.keys(tested).join(", ")}, not ${which}`);
  process.exit(2);
}
const target = path.join(root, ".cache", `node-v${version}`);
const binary = path.join(target, "bin", process.platform === "win32" ? "node.exe" : "node");

if (!existsSync(binary)) {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const spec = `node-${platform}-${process.arch}@${version}`;
  mkdirSync(path.dirname(target), { recursive: true });
  const work = mkdtempSync(path.join(path.dirname(target), "download-"));
  try {
    execFileSync("npm", ["pack", spec, "--pack-destination", work, "--silent"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (tarball === undefined) throw new Error(`npm pack ${spec} wrote no tarball`);
    execFileSync("tar", ["-xzf", tarball], { cwd: work });
    rmSync(target, { recursive: true, force: true });
    renameSync(path.join(work, "package"), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const reported = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
if (reported !== `v${version}`) {
  console.error(`node.mjs: ${binary} says ${reported}, not v${version}`);
  process.exit(1);
}
console.log(binary);
