import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { initCommand } from "./init.js";

/** A writable that keeps what is written. */
const sink = () => {
  let text = "";
  return {
    write: (chunk: string) => ((text += chunk), true),
    text: () => text,
    isTTY: false,
  };
};

describe("toolscore init writes nothing through a link (issue 48, item 8)", () => {
  it("refuses a .gitignore that is a symbolic link, and leaves its target as it was", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-"));
    const outside = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-outside-"));
    const target = path.join(outside, "authorized_keys");
    writeFileSync(target, "ssh-ed25519 AAAA mine\n");
    symlinkSync(target, path.join(cwd, ".gitignore"));
    const stdout = sink();
    const stderr = sink();
    await expect(initCommand([], { stdout, stderr, cwd, env: {} })).rejects.toThrow(
      /\.gitignore: it is a symbolic link \(to .*authorized_keys\); toolscore writes nothing through a link/,
    );
    expect(readFileSync(target, "utf8")).toBe("ssh-ed25519 AAAA mine\n");
  });

  it("refuses a .gitignore that is a FIFO, without waiting on it", async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "toolscore-init-"));
    execFileSync("mkfifo", [path.join(cwd, ".gitignore")]);
    await expect(initCommand([], { stdout: sink(), stderr: sink(), cwd, env: {} })).rejects.toThrow(
      /cannot read \.gitignore: is a FIFO \(named pipe\), not a regular file/,
    );
  });
});
