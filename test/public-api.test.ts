import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The package's entry points, as the exports map names them. */
const entries = {
  toolscore: "src/entries/index.ts",
  "toolscore/deepeval": "src/compat/deepeval/index.ts",
  "toolscore/axion": "src/compat/axion/index.ts",
  "toolscore/node": "src/entries/node.ts",
  "toolscore/ragas": "src/compat/ragas/index.ts",
  "toolscore/vitest": "src/testing/vitest.ts",
  "toolscore/matchers": "src/testing/matchers.ts",
  "toolscore/jest": "src/testing/jest.ts",
  "toolscore/tracing": "src/entries/tracing.ts",
  "toolscore/engine": "src/entries/engine.ts",
};

/**
 * Every exported name of every entry point, values and types alike, so that any change to the
 * public API shows up as a visible diff of this snapshot.
 */
function exportedNames(): Record<string, string[]> {
  const files = Object.values(entries).map((file) => path.join(root, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(entries).map(([name, file]) => {
      const source = program.getSourceFile(path.join(root, file));
      if (!source) throw new Error(`cannot read ${file}`);
      const symbol = checker.getSymbolAtLocation(source);
      if (!symbol) throw new Error(`${file} is not a module`);
      const names = checker.getExportsOfModule(symbol).map((s) => s.getName());
      return [name, names.sort()];
    }),
  );
}

describe("public API", () => {
  it("covers every entry point of the exports map", async () => {
    const { readFile } = await import("node:fs/promises");
    const manifest = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const named = Object.keys(manifest.exports)
      .filter((key) => !key.endsWith(".json"))
      .map((key) => (key === "." ? "toolscore" : `toolscore/${key.slice(2)}`));
    expect(Object.keys(entries).sort()).toEqual(named.sort());
  });

  it("exports exactly the names in the snapshot", () => {
    expect(exportedNames()).toMatchSnapshot();
  });
});
