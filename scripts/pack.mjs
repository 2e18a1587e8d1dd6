#!/usr/bin/env node
// `npm run pack`: the package as a tarball to install anywhere (`npm install ./toolscore-x.tgz`),
// with the files `npm pack` selects and a package.json cut to what an installed package uses.
// The checkout's `prepare` script (which builds dist/ for git installs and `npm ci`) would make
// npm warn about an unreviewed install script on every tarball install; devDependencies and the
// checkout's own allowScripts policy mean nothing there either.
//
//   node scripts/pack.mjs [--pack-destination <dir>]   (dist/ must be built: npm run pack does)
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const { values } = parseArgs({
  options: { "pack-destination": { type: "string", default: root } },
});
const destination = path.resolve(values["pack-destination"]);

if (!existsSync(path.join(root, "dist", "cjs", "entries", "index.js"))) {
  console.error("pack: dist/ is not built; run `npm run pack`, which builds it first");
  process.exit(2);
}

function npm(args, cwd) {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

// The files npm itself would pack from the checkout (`files`, .npmignore, always-included ones).
const [{ files }] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
const staging = mkdtempSync(path.join(tmpdir(), "toolscore-pack-"));
try {
  for (const { path: file } of files) {
    mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(staging, file));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  linkWhereTheyLive(
    staging,
    files.map(({ path: file }) => file),
    manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""),
  );
  const { scripts, devDependencies, allowScripts, ...published } = manifest;
  writeFileSync(path.join(staging, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const [{ filename }] = JSON.parse(
    npm(["pack", staging, "--json", "--ignore-scripts", "--pack-destination", destination], root),
  );
  console.log(path.join(destination, filename));
} finally {
  rmSync(staging, { recursive: true, force: true });
}

/**
 * The docs ship with the package, but not what they link to outside it (examples, sources): such
 * links point to the file in the repository instead, so that no link in the package goes nowhere.
 */
function linkWhereTheyLive(staging, packed, repository) {
  const shipped = new Set(packed.map((file) => path.normalize(file)));
  for (const file of packed.filter((name) => name.endsWith(".md"))) {
    const target = path.join(staging, file);
    const text = readFileSync(target, "utf8");
    const linked = text.replace(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g, (whole, link, anchor = "") => {
      if (/^[a-z]+:/i.test(link)) return whole;
      const inRepository = path.normalize(path.join(path.dirname(file), link));
      if (shipped.has(inRepository) || inRepository.startsWith("..")) return whole;
      if (!existsSync(path.join(root, inRepository))) return whole;
      return `](${repository}/blob/main/${inRepository.split(path.sep).join("/")}${anchor})`;
    });
    if (linked !== text) writeFileSync(target, linked);
  }
}
