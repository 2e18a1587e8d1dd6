#!/usr/bin/env node
// Writes the text of the files the sources read beside themselves into the built modules: a
// source reads one as `readFileSync(new URL("./name", import.meta.url), "utf8")` (so tests of
// the sources read the file itself), and the module tsc built from it gets the file's text as a
// string literal in that call's place, so the package reads no file of its own at run time and
// the CommonJS bundle, made from these modules, carries the text too. Fails on a missing file.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const dist = path.join(root, "dist");
const src = path.join(root, "src");
const call = /readFileSync\(new URL\("(\.\/[\w.-]+)", import\.meta\.url\), "utf8"\)/g;

/** Every .js file under `directory`, but the CommonJS folder (built from these afterwards). */
function modules(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "cjs" ? [] : modules(full);
    return entry.name.endsWith(".js") ? [full] : [];
  });
}

let inlined = 0;
for (const file of modules(dist)) {
  const text = readFileSync(file, "utf8");
  if (!call.test(text)) continue;
  const sourceFolder = path.join(src, path.relative(dist, path.dirname(file)));
  const written = text.replace(call, (_match, name) => {
    const asset = path.join(sourceFolder, name);
    if (!existsSync(asset))
      throw new Error(
        `${path.relative(root, file)} reads ${name}, not in ${path.relative(root, sourceFolder)}`,
      );
    inlined++;
    const content = readFileSync(asset, "utf8");
    // JSON is read by JSON.parse: its layout is for people reading the sources, not the package.
    return JSON.stringify(name.endsWith(".json") ? JSON.stringify(JSON.parse(content)) : content);
  });
  writeFileSync(file, written);
}
// The config's schema is also a file of the package, for editors (toolscore/config.schema.json):
// written from the settings table, as the CLI checks a config file against it.
const { configFileSchema } = await import(pathToFileURL(path.join(dist, "cli", "config.js")).href);
writeFileSync(
  path.join(dist, "config.schema.json"),
  `${JSON.stringify(configFileSchema(), null, 2)}\n`,
);
console.log(`inline-assets: ${inlined} file(s) written into the build`);
