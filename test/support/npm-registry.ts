import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A loopback npm registry that serves the packages of this checkout's node_modules (every
 * version package-lock.json installed), so that tests can `npm install` the packed toolscore
 * (and jest, say) into a fresh project with an empty npm cache, as a new user's machine would,
 * without the internet and without relying on what earlier installs left in a cache.
 * Packuments carry each version's own package.json; tarballs are packed from the installed
 * folders on first request, once per test run.
 */
export interface NpmRegistry {
  readonly url: string;
  /** npm, run in `cwd` against this registry only, with an empty cache and no user config. */
  npm(args: readonly string[], cwd: string): Promise<{ stdout: string; stderr: string }>;
  /** Package names asked for that this checkout does not have (npm then fails or skips them). */
  readonly unknown: ReadonlySet<string>;
  close(): Promise<void>;
}

interface Installed {
  readonly version: string;
  readonly directory: string;
}

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

/** Every installed package by name and version, from package-lock.json. */
function installedPackages(): Map<string, Installed[]> {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { name?: string; version?: string; link?: boolean }>;
  };
  const byName = new Map<string, Installed[]>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.includes("node_modules/") || entry.link === true || entry.version === undefined) {
      continue;
    }
    const directory = path.join(root, key);
    // Optional packages for other platforms are in the lock but not installed.
    if (!existsSync(path.join(directory, "package.json"))) continue;
    const name = entry.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    const versions = byName.get(name) ?? [];
    if (!versions.some((known) => known.version === entry.version)) {
      versions.push({ version: entry.version, directory });
    }
    byName.set(name, versions);
  }
  return byName;
}

function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.+-]/).map((part) => Number(part) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** This process's environment without the variables `drop` matches, plus `settings`. */
export function environmentWithout(
  drop: RegExp,
  settings: Record<string, string>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!drop.test(key)) env[key] = value;
  }
  return { ...env, ...settings };
}

export async function startNpmRegistry(): Promise<NpmRegistry> {
  const packages = installedPackages();
  const unknown = new Set<string>();
  const work = mkdtempSync(path.join(tmpdir(), "toolscore-registry-"));
  const tarballs = new Map<string, Promise<Buffer>>();

  // Packed once per test run, whichever file's registry asks first (the run's TMPDIR is removed
  // at its end); fast gzip: these tarballs cross loopback once and are unpacked at once.
  const packedFolder = path.join(tmpdir(), "toolscore-registry-tarballs");
  mkdirSync(packedFolder, { recursive: true });
  const tarball = (installed: Installed): Promise<Buffer> => {
    let packed = tarballs.get(installed.directory);
    if (packed === undefined) {
      const file = path.join(
        packedFolder,
        `${path.relative(root, installed.directory).replace(/[^\w.@-]+/g, "_")}-${installed.version}.tgz`,
      );
      packed = readFile(file).catch(async () => {
        const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        // GNU tar: the folder's files under package/, without the dependencies installed inside.
        await run("tar", [
          "-I",
          "gzip -1",
          "-cf",
          partial,
          "--exclude=./node_modules",
          "--transform=s,^\\.,package,",
          "-C",
          installed.directory,
          ".",
        ]);
        // Whole or not at all: another file's registry may be reading it.
        renameSync(partial, file);
        return readFile(file);
      });
      tarballs.set(installed.directory, packed);
    }
    return packed;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://registry");
      const tarballPath = /^\/-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(url.pathname);
      const name = decodeURIComponent(tarballPath?.[1] ?? url.pathname.slice(1));
      const versions = packages.get(name);
      if (versions === undefined) {
        unknown.add(name);
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "Not found" }));
        return;
      }
      if (tarballPath !== null) {
        const installed = versions.find((known) => known.version === tarballPath[2]);
        if (installed === undefined) {
          response.writeHead(404).end();
          return;
        }
        const body = await tarball(installed);
        response.writeHead(200, {
          "content-type": "application/octet-stream",
          "content-length": body.length,
        });
        response.end(body);
        return;
      }
      const base = `http://${request.headers.host ?? "127.0.0.1"}`;
      const manifests: Record<string, unknown> = {};
      for (const installed of versions) {
        // npm's own bookkeeping (`_resolved`, `_integrity`, ...) is not part of a package.
        const manifest = Object.fromEntries(
          Object.entries(
            JSON.parse(
              readFileSync(path.join(installed.directory, "package.json"), "utf8"),
            ) as Record<string, unknown>,
          ).filter(([key]) => !key.startsWith("_")),
        );
        manifests[installed.version] = {
          ...manifest,
          name,
          version: installed.version,
          dist: {
            tarball: `${base}/-/tarball/${encodeURIComponent(name)}/${installed.version}.tgz`,
          },
        };
      }
      const latest = versions
        .map((known) => known.version)
        .sort(compareVersions)
        .at(-1);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ name, "dist-tags": { latest }, versions: manifests }));
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const userConfig = path.join(work, "npmrc");
  writeFileSync(
    userConfig,
    [`registry=${url}`, "audit=false", "fund=false", "update-notifier=false", ""].join("\n"),
  );
  const globalConfig = path.join(work, "global-npmrc");
  writeFileSync(globalConfig, "");

  return {
    url,
    unknown,
    async npm(args, cwd) {
      // A fresh cache for every command: nothing comes from an earlier install.
      const cache = path.join(work, `cache-${Math.random().toString(36).slice(2)}`);
      mkdirSync(cache);
      return run("npm", [...args], {
        cwd,
        encoding: "utf8",
        maxBuffer: 1 << 26,
        // Without the calling npm's settings: `npm test` exports dozens.
        env: environmentWithout(/^npm_/i, {
          npm_config_userconfig: userConfig,
          npm_config_globalconfig: globalConfig,
          npm_config_cache: cache,
        }),
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      rmSync(work, { recursive: true, force: true });
    },
  };
}
