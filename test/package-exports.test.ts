import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};
const entryPoints = Object.keys(packageJson.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => (key === "." ? "toolscore" : `toolscore/${key.slice(2)}`));

const smoke = `
import { toToolCall, optimalAssignment, denseScoreMatrix, match, matchToolCalls } from "toolscore";
import { ToolCorrectnessMetric, ToolCallParams } from "toolscore/deepeval";
import { ToolCorrectness } from "toolscore/axion";

const metric = new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.INPUT_PARAMETERS] });
const score: number = await metric.measure({
  input: "q",
  toolsCalled: [{ name: "search", inputParameters: { q: "a" } }],
  expectedTools: [{ name: "search", inputParameters: { q: "a" } }],
});
const axion = await new ToolCorrectness({ checkParameters: true }).execute({
  toolsCalled: [{ name: "f", args: { a: 1 } }],
  expectedTools: [{ name: "f", args: { a: 1 } }],
});
const pairs = optimalAssignment(denseScoreMatrix([[0.5, 1], [1, 0]]));
// Ajv and ajv-formats load from the installed package: a wrong type and a bad date-time.
const matched = matchToolCalls(
  [{ name: "count", inputParameters: { n: "3", when: "yesterday" } }],
  [{ name: "count", arguments: { n: 3, when: match.anyString() } }],
  {
    tools: [{
      name: "count",
      parameters: {
        type: "object",
        properties: { n: { type: "number" }, when: { type: "string", format: "date-time" } },
      },
    }],
  },
);
console.log(JSON.stringify({
  score,
  axion: axion.score,
  pairs: pairs.length,
  call: toToolCall({ name: "x" }).type,
  matched: matched.score,
  schema: matched.schemaViolations.map((v) => v.kind),
}));
`;
const expectedOutput = JSON.stringify({
  score: 1,
  axion: 1,
  pairs: 2,
  call: "FUNCTION",
  matched: 1,
  schema: ["wrong-type", "invalid-value"],
});

function requireBuild(): void {
  if (!existsSync(path.join(root, "dist", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  }
}

describe("the built package", () => {
  it("loads every entry point in plain Node, by package name", () => {
    requireBuild();
    for (const entry of entryPoints) {
      const out = execFileSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).length);`,
        ],
        { cwd: root, encoding: "utf8" },
      );
      expect(Number(out.trim()), entry).toBeGreaterThan(1);
    }
  });

  describe("packed and installed in a fresh project", () => {
    const work = mkdtempSync(path.join(tmpdir(), "toolscore-pack-"));
    afterAll(() => {
      rmSync(work, { recursive: true, force: true });
    });

    it("installs without network, type-checks against its .d.ts and runs", () => {
      requireBuild();
      // --ignore-scripts: packing must not rebuild dist/ under the other tests' feet.
      execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], {
        cwd: root,
        stdio: "pipe",
      });
      const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
      expect(tarball).toBeDefined();
      const project = path.join(work, "consumer");
      execFileSync("mkdir", ["-p", project]);
      writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify({ name: "consumer", type: "module", private: true }),
      );
      execFileSync(
        "npm",
        ["install", "--offline", "--no-audit", "--no-fund", path.join(work, tarball as string)],
        {
          cwd: project,
          stdio: "pipe",
        },
      );
      const installed = path.join(project, "node_modules", "toolscore");
      const files = readdirSync(path.join(installed, "dist"), { recursive: true }).map(String);
      expect(files.some((f) => f.endsWith(".test.js"))).toBe(false);
      expect(files).toContain("index.d.ts");
      // Declaration maps point into src/, so it ships too, without tests or fixtures.
      const sources = readdirSync(path.join(installed, "src"), { recursive: true }).map(String);
      expect(sources).toContain("index.ts");
      expect(sources.some((f) => f.endsWith(".test.ts") || f.includes("fixtures"))).toBe(false);

      writeFileSync(path.join(project, "smoke.mts"), smoke);
      const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
      execFileSync(
        process.execPath,
        [
          tsc,
          "--noEmit",
          "--strict",
          "--module",
          "nodenext",
          "--moduleResolution",
          "nodenext",
          "--target",
          "es2022",
          "smoke.mts",
        ],
        { cwd: project, stdio: "pipe" },
      );
      writeFileSync(
        path.join(project, "smoke.mjs"),
        smoke.replace(/const score: number/, "const score"),
      );
      const out = execFileSync(process.execPath, ["smoke.mjs"], { cwd: project, encoding: "utf8" });
      expect(out.trim()).toBe(expectedOutput);

      // The command line is installed as a bin, executable, and runs from the package.
      const bin = path.join(project, "node_modules", ".bin", "toolscore");
      const help = execFileSync(bin, ["eval", "--help"], { cwd: project, encoding: "utf8" });
      expect(help).toMatch(/^Usage: toolscore eval <dataset>/);
    });
  });
});
