#!/usr/bin/env node
// The CommonJS build, for require() (jest, and Node before require(esm)): every export of
// package.json with a `require` condition, bundled by rolldown from tsc's ESM output in dist/,
// so both formats run the same JavaScript. Shared modules become chunks, so classes and symbols
// are one per format. Packages stay external, except the ESM-only ones, which CommonJS cannot
// require: they are bundled in. The declarations are tsc's, copied into the CommonJS folder,
// where a package.json says "commonjs", so that TypeScript reads them as CommonJS types.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { dts } from "rolldown-plugin-dts";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const dist = path.join(root, "dist");
const out = path.join(dist, "cjs");
const { exports } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

// ESM-only dependencies: bundled into the CommonJS build (their ESM build is used by import).
const esmOnly = ["ky", "p-limit", "p-throttle", "yocto-queue"];

/** Entry name (path under dist/cjs, without .js) -> the ESM file it is built from. */
const input = {};
for (const [subpath, target] of Object.entries(exports)) {
  const required = target?.require?.default;
  if (required === undefined) continue;
  const name = path.posix.relative("./dist/cjs", required).replace(/\.js$/, "");
  const from = path.join(dist, `${name}.js`);
  if (target.import?.default !== `./dist/${name}.js` || !existsSync(from)) {
    throw new Error(`exports["${subpath}"]: require must mirror import (./dist/${name}.js)`);
  }
  input[name] = from;
}

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input,
  platform: "node",
  external: (id) =>
    !id.startsWith(".") &&
    !path.isAbsolute(id) &&
    !esmOnly.some((name) => id === name || id.startsWith(`${name}/`)),
  onLog(level, log, handler) {
    // Worker threads import the registry lazily to stay small; in this bundle it is one chunk
    // with the rest anyway, which is what this says.
    if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
    handler(level, log);
  },
});
await bundle.write({
  dir: out,
  format: "cjs",
  // Lazy imports (model SDKs, image codecs) become require() too: jest's CommonJS has no import().
  dynamicImportInCjs: false,
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  // The comments are the ESM files' (dist/), which readers open; this copy is for require() only.
  comments: false,
});
await bundle.close();
writeFileSync(path.join(out, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

// The declarations. The ESM ones (dist/) keep only the files the entry points' types lead to, by
// their imports (the rest describe modules no user can reach, and each file costs a block of the
// install); the command line has none to publish. The CommonJS ones are those bundled by
// rolldown-plugin-dts into a file per entry point and a few shared chunks, in the CommonJS
// folder, where a package.json says "commonjs", so that TypeScript reads them as CommonJS types:
// a copy file by file cost the install a block per declaration.
const reached = new Set();
const pending = Object.values(exports).flatMap((target) =>
  [target?.import?.types, target?.require?.types, target?.types]
    .filter((types) => typeof types === "string" && !types.startsWith("./dist/cjs/"))
    .map((types) => path.join(root, types)),
);
while (pending.length > 0) {
  const file = pending.pop();
  if (reached.has(file) || !existsSync(file)) continue;
  reached.add(file);
  const text = readFileSync(file, "utf8");
  for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.[^"']+)["']/g)) {
    pending.push(path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".d.ts"));
  }
}
for (const file of readdirSync(dist, { recursive: true })) {
  const relative = String(file);
  if (!relative.endsWith(".d.ts") || /^cjs[\\/]/.test(relative)) continue;
  if (!reached.has(path.join(dist, relative))) rmSync(path.join(dist, relative));
}
const declarations = await rolldown({
  input: Object.fromEntries(
    Object.entries(input).map(([name, from]) => [name, from.replace(/\.js$/, ".d.ts")]),
  ),
  platform: "node",
  external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
  plugins: [dts({ dtsInput: true, emitDtsOnly: true, tsconfig: false })],
});
await declarations.write({
  dir: out,
  format: "es",
  entryFileNames: "[name].d.ts",
  chunkFileNames: "chunks/[name]-[hash].d.ts",
});
await declarations.close();
