import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { startNpmRegistry } from "./npm-registry.js";
import type { NpmRegistry } from "./npm-registry.js";

const run = promisify(execFile);
export const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

/** A fresh project with the packed toolscore installed from its tarball, as a user would. */
export interface Consumer {
  readonly directory: string;
  /** What `npm install` printed. */
  readonly install: { stdout: string; stderr: string };
  /** `npm` in the project, against the loopback registry with an empty cache. */
  npm(args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
  /** A file written into the project. */
  write(name: string, text: string): string;
}

export interface PackedPackage {
  readonly tarball: string;
  readonly registry: NpmRegistry;
  /** A git repository of the checkout as it would be pushed: tracked and unignored files. */
  snapshotRepository(): Promise<string>;
  /** A new project with `packages` installed (`tarball`, say), by one `npm install`. */
  project(name: string, packages: readonly string[]): Promise<Consumer>;
}

/**
 * Packs toolscore with `scripts/pack.mjs` (as `npm run pack` does, from the dist/ that `npm test`
 * built) and serves this checkout's packages from a loopback registry, once per test file.
 */
export function usePackedPackage(): () => PackedPackage {
  const work = mkdtempSync(path.join(tmpdir(), "toolscore-packed-"));
  let packed: PackedPackage | undefined;
  beforeAll(async () => {
    if (!existsSync(path.join(root, "dist", "cjs", "entries", "index.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
    }
    const registry = await startNpmRegistry();
    const { stdout } = await run(
      process.execPath,
      [path.join(root, "scripts", "pack.mjs"), "--pack-destination", work],
      { cwd: root, encoding: "utf8" },
    );
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    let snapshot: Promise<string> | undefined;
    packed = {
      tarball,
      registry,
      // Made once per test file, whichever test asks first.
      snapshotRepository: () => (snapshot ??= makeSnapshot()),
      project: makeProject,
    };
    async function makeSnapshot(): Promise<string> {
      const repository = path.join(work, "repository");
      const { stdout: listed } = await run(
        "git",
        ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 },
      );
      for (const file of listed.split("\0")) {
        // A tracked file deleted in the working tree is not part of it. The lock's integrity
        // hashes are the public registry's tarballs, which the loopback registry repacks.
        if (file !== "" && file !== "package-lock.json" && existsSync(path.join(root, file))) {
          cpSync(path.join(root, file), path.join(repository, file));
        }
      }
      const git = (args: readonly string[]) => run("git", [...args], { cwd: repository });
      await git(["init", "-q"]);
      await git(["add", "-A"]);
      await git([
        "-c",
        "user.name=toolscore",
        "-c",
        "user.email=test@localhost",
        "commit",
        "-q",
        "-m",
        "snapshot",
      ]);
      return repository;
    }
    async function makeProject(name: string, packages: readonly string[]): Promise<Consumer> {
      const directory = path.join(work, name);
      mkdirSync(directory, { recursive: true });
      writeFileSync(
        path.join(directory, "package.json"),
        JSON.stringify({ name, private: true }, null, 2),
      );
      const npm = (args: readonly string[]) => registry.npm(args, directory);
      const install = await npm(["install", ...packages]);
      return {
        directory,
        install,
        npm,
        write(file, text) {
          const target = path.join(directory, file);
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, text);
          return target;
        },
      };
    }
  }, 600_000);
  afterAll(async () => {
    await packed?.registry.close();
    rmSync(work, { recursive: true, force: true });
  });
  return () => {
    if (packed === undefined) throw new Error("the package is not packed yet");
    return packed;
  };
}

/** What a folder takes: the files' sizes, and the disk it uses (blocks, as `du` counts). */
export function folderSize(directory: string): { bytes: number; disk: number; files: number } {
  let bytes = 0;
  let disk = 0;
  let files = 0;
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      const stat = lstatSync(full);
      disk += stat.blocks * 512;
      if (stat.isDirectory()) walk(full);
      else {
        bytes += stat.size;
        files++;
      }
    }
  };
  walk(directory);
  return { bytes, disk, files };
}

/** Runs a program, resolving with its output and exit code whatever the code. */
export async function runProgram(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, [...args], {
      cwd: options.cwd,
      encoding: "utf8",
      maxBuffer: 1 << 26,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** A consumer's tsconfig.json that type-checks `types/` strictly, libraries' types included. */
export const strictTsconfig = (types: readonly string[]): string =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      skipLibCheck: false,
      types,
    },
    include: ["types"],
  });
