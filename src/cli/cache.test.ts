import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { refuseTrackedCache } from "./cache.js";

const root = mkdtempSync(path.join(os.tmpdir(), "toolscore-cache-check-"));
const path0 = process.env.PATH;
afterEach(() => {
  process.env.PATH = path0;
});

/** A folder with a `git` that answers as `script` says, first on PATH. */
function fakeGit(script: string): void {
  const bin = mkdtempSync(path.join(root, "bin-"));
  writeFileSync(path.join(bin, "git"), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(bin, "git"), 0o755);
  process.env.PATH = `${bin}${path.delimiter}${path0 ?? ""}`;
}

describe("refuseTrackedCache (issue 48, item 8)", () => {
  const checkout = path.join(root, "repo");
  mkdirSync(path.join(checkout, ".git"), { recursive: true });
  const cache = path.join(checkout, ".judge-cache");

  it("refuses a cache in a checkout whose git will not answer (dubious ownership)", () => {
    fakeGit(`echo "fatal: detected dubious ownership in repository at '$PWD'" >&2\nexit 128`);
    expect(() => {
      refuseTrackedCache(cache);
    }).toThrow(
      /cannot tell whether git tracks the judge cache .*\.judge-cache, inside the checkout .*repo \(git said: fatal: detected dubious ownership in repository at/,
    );
  });

  it("refuses a cache in a checkout where git is not installed", () => {
    process.env.PATH = mkdtempSync(path.join(root, "empty-"));
    expect(() => {
      refuseTrackedCache(cache);
    }).toThrow(/\(git is not installed\)/);
  });

  it("passes a cache outside any checkout without asking git, and one git says it does not track", () => {
    fakeGit("exit 128");
    expect(() => {
      refuseTrackedCache(path.join(root, "elsewhere", "cache"));
    }).not.toThrow();
    fakeGit("exit 0");
    expect(() => {
      refuseTrackedCache(cache);
    }).not.toThrow();
    fakeGit(`printf '.judge-cache/ab/x.json\\0'`);
    expect(() => {
      refuseTrackedCache(cache);
    }).toThrow(/holds files tracked by git/);
  });
});
