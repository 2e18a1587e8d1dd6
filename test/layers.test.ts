import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "src");

/**
 * The one-way dependency rule (docs/architecture.md): what each layer may import, and no more
 * than it uses, so that a new arrow is a visible decision. `compat` holds the drop-in APIs of
 * other libraries (toolscore/deepeval, toolscore/axion, toolscore/ragas).
 */
const allowed: Record<string, readonly string[]> = {
  core: [],
  algorithms: [],
  adapters: ["core"],
  matchers: ["core"],
  media: ["core"],
  metrics: ["matchers", "algorithms", "core"],
  // Two runs of a case compared call by call, under a metric's comparing rules.
  diff: ["metrics", "matchers", "algorithms", "core"],
  // Simulated tools: a run's calls answered from fixtures, faults on cue, pure given a seed.
  simulate: ["matchers", "adapters", "core"],
  lint: ["adapters", "core"],
  judges: ["core"],
  providers: ["media", "core"],
  evaluate: ["core"],
  reporters: ["core"],
  node: ["adapters", "media", "core"],
  // The agent under test, run at the edge like a provider: it reads datasets, writes recordings.
  agent: ["simulate", "judges", "node", "matchers", "adapters", "core"],
  testing: ["registry", "metrics", "adapters", "core"],
  tracing: ["evaluate-to-file", "evaluate", "core"],
  compat: ["evaluate", "metrics", "adapters", "judges", "providers", "node", "core"],
  registry: ["compat", "metrics", "judges", "matchers", "providers", "node", "core"],
  "evaluate-to-file": ["registry", "evaluate", "metrics", "node", "providers", "core"],
  reports: ["evaluate-to-file", "evaluate", "reporters", "diff", "node", "matchers", "core"],
  view: ["reports", "reporters", "node", "adapters", "core"],
  cli: [
    "lint",
    "agent",
    "view",
    "reports",
    "evaluate-to-file",
    "reporters",
    "diff",
    "node",
    "judges",
    "providers",
    "matchers",
    "adapters",
    "core",
  ],
  // The package's entry points (toolscore, /node, /engine, /tracing): export lists, nothing more.
  entries: [
    "agent",
    "tracing",
    "reports",
    "evaluate-to-file",
    "registry",
    "reporters",
    "evaluate",
    "node",
    "providers",
    "media",
    "judges",
    "diff",
    "simulate",
    "lint",
    "metrics",
    "matchers",
    "algorithms",
    "adapters",
    "core",
  ],
};

/** Layers that must stay pure: no I/O, no environment, no logging, no timers. */
const pure = ["core", "algorithms", "adapters", "matchers", "metrics", "diff", "simulate", "lint"];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

function layerOf(file: string): string {
  return path.relative(src, file).split(path.sep)[0];
}

const files = sourceFiles(src);
const importPattern =
  /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  // Exactly one of the two groups matched; the other is undefined at run time.
  return [...text.matchAll(importPattern)].map(
    (match) => (match[1] as string | undefined) ?? match[2],
  );
}

describe("layer rule", () => {
  it("knows every layer in src", () => {
    const layers = new Set(files.map(layerOf));
    expect([...layers].filter((layer) => !(layer in allowed))).toEqual([]);
  });

  it("imports only along the allowed arrows", () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith(".")) continue;
        const to = layerOf(path.resolve(path.dirname(file), specifier));
        if (to === from) continue;
        const ok = from in allowed && allowed[from].includes(to);
        if (!ok)
          violations.push(
            `${path.relative(src, file)} -> ${specifier} (${from} may not import ${to})`,
          );
      }
    }
    expect(violations).toEqual([]);
  });

  it("allows each layer no arrow it does not use", () => {
    const used = new Map<string, Set<string>>();
    for (const file of files) {
      const from = layerOf(file);
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith(".")) continue;
        const to = layerOf(path.resolve(path.dirname(file), specifier));
        if (to !== from) used.set(from, (used.get(from) ?? new Set()).add(to));
      }
    }
    const unused = Object.entries(allowed).flatMap(([from, targets]) =>
      targets.filter((to) => used.get(from)?.has(to) !== true).map((to) => `${from} -> ${to}`),
    );
    expect(unused).toEqual([]);
  });

  it("is the table docs/architecture.md shows", () => {
    const whole = readFileSync(path.join(src, "..", "docs", "architecture.md"), "utf8");
    const page = whole.slice(whole.indexOf("## The layers"), whole.indexOf("## Entry points"));
    const rows = [...page.matchAll(/^\| `([\w-]+)` +\|[^|]+\| ([^|]+)\|$/gm)].map(
      ([, layer, imports]) => [
        layer,
        imports.trim() === "nothing of ours"
          ? []
          : [...imports.matchAll(/`([\w-]+)`/g)].map((m) => m[1]),
      ],
    );
    expect(Object.fromEntries(rows)).toEqual(allowed);
  });

  // Third-party code the pure layers may use: pure computation, no I/O or globals of ours.
  // Ajv validates tool arguments against the tools' JSON Schemas (matchers).
  // re2js runs patterns from data in linear time (matchers).
  // node:module's createRequire loads Ajv when a first schema is compiled (matchers).
  const pureLibraries = ["ajv", "ajv/dist/2020.js", "ajv-formats", "re2js", "node:module"];

  it("keeps the pure layers free of I/O, environment, logging and timers", () => {
    const violations: string[] = [];
    for (const file of files.filter((f) => pure.includes(layerOf(f)))) {
      const text = readFileSync(file, "utf8");
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith(".") && !pureLibraries.includes(specifier))
          violations.push(`${path.relative(src, file)} imports ${specifier}`);
      }
      for (const pattern of [
        /process\.env/,
        /console\./,
        /setTimeout|setInterval/,
        /Date\.now\(\)/,
      ]) {
        if (pattern.test(text))
          violations.push(`${path.relative(src, file)} uses ${pattern.source}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("keeps the pure layers free of module state: no top-level let, scratch arrays or open maps", () => {
    // A WeakMap memo keyed by the caller's object is allowed (its value follows from the key);
    // a Map or Set at the top level must be typed read-only, so that nothing can add to it.
    const state =
      /^(?:export )?(?:let|var) |^(?:export )?const \w+(?::(?!\s*Readonly)[^=]+)? = new (?:Map|Set|Array|\w+Array)\b/gm;
    const violations = files
      .filter((file) => pure.includes(layerOf(file)))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(state)].map(
          (found) => `${path.relative(src, file)}: ${found[0]}`,
        ),
      );
    expect(violations).toEqual([]);
    // The pattern finds what it looks for.
    expect(
      "let at = 0;\nconst used = new Uint8Array(4);\nconst seen = new Set();".match(state),
    ).toHaveLength(3);
    expect("const kinds: ReadonlySet<string> = new Set([]);".match(state)).toBeNull();
  });

  it("has no index files but the entry points' (one export list per entry point)", () => {
    const indexes = files
      .filter((file) => path.basename(file) === "index.ts")
      .map((file) => path.relative(src, file).split(path.sep).join("/"))
      .sort();
    expect(indexes).toEqual([
      "compat/axion/index.ts",
      "compat/deepeval/index.ts",
      "compat/ragas/index.ts",
      "entries/index.ts",
    ]);
  });

  it("lists exports by hand in every index", () => {
    const offenders = files.filter((file) => /export\s+\*/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("test tiers", () => {
  it("keeps the build, the command line and Chromium out of the unit tier", () => {
    const root = path.dirname(src);
    const testFiles = (directory: string): string[] =>
      readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory())
          return ["fixtures", "node_modules", "versions"].includes(entry.name)
            ? []
            : testFiles(full);
        return entry.name.endsWith(".test.ts") ? [full] : [];
      });
    // This file names the patterns it looks for.
    const self = fileURLToPath(import.meta.url);
    const tests = [...testFiles(src), ...testFiles(path.join(root, "test"))].filter(
      (file) => !file.endsWith(".e2e.test.ts") && file !== self,
    );
    expect(tests.length).toBeGreaterThan(100);
    const offenders = tests.filter((file) =>
      /support\/cli\.js|support\/chromium\.js|\bdist\/|worker\.js/.test(readFileSync(file, "utf8")),
    );
    expect(offenders.map((file) => path.relative(root, file))).toEqual([]);
  });
});
