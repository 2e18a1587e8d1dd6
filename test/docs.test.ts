/**
 * The README and every page of docs/ stay true: links lead somewhere, TypeScript examples
 * type-check against the entry points they import, YAML and JSON examples parse (configs through
 * the CLI's own reader). `docs-cli.e2e.test.ts` checks them against the built command line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readConfigFile } from "../src/cli/config.js";
import { createMetric, metricDefinitions } from "../src/entries/index.js";
import { docPages } from "./support/doc-pages.js";

const { root, pages, text, relative, blocks, blocksOf, where } = docPages();

/** GitHub's anchor for a heading. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

describe("docs: links", () => {
  it("has pages for every topic the README promises", () => {
    for (const page of [
      "docs/guides/matching.md",
      "docs/guides/transcripts.md",
      "docs/guides/cli.md",
      "docs/guides/results-and-reports.md",
      "docs/guides/evaluate-and-tracing.md",
      "docs/guides/judges.md",
      "docs/guides/test-matchers.md",
      "docs/guides/benchmarks.md",
      "docs/migration/deepeval.md",
      "docs/migration/axion.md",
      "docs/migration/ragas.md",
      "docs/reference/errors.md",
      "docs/reference/limits.md",
      "docs/reference/results-file.md",
      "docs/reference/semantics.md",
      "docs/architecture.md",
      "docs/performance.md",
    ]) {
      expect(pages.map(relative), page).toContain(page);
    }
    expect((text.get(pages[0]) ?? "").split("\n").length).toBeLessThanOrEqual(210);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const page of pages) {
      const body = (text.get(page) ?? "").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const hash = target.indexOf("#");
        const file = hash < 0 ? target : target.slice(0, hash);
        const anchor = hash < 0 ? undefined : target.slice(hash + 1);
        const resolved = file === "" ? page : path.resolve(path.dirname(page), file);
        let content: string;
        try {
          content = readFileSync(resolved, "utf8");
        } catch {
          broken.push(`${relative(page)}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined || !resolved.endsWith(".md")) continue;
        const anchors = [...content.matchAll(/^#+ (.*)$/gm)].map(([, heading]) =>
          anchorOf(heading),
        );
        if (!anchors.includes(anchor)) broken.push(`${relative(page)}: ${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Where each entry point's source is, for examples that import the package by name. */
const entryPoints: Record<string, string> = {
  toolscore: "src/entries/index.ts",
  "toolscore/engine": "src/entries/engine.ts",
  "toolscore/node": "src/entries/node.ts",
  "toolscore/tracing": "src/entries/tracing.ts",
  "toolscore/deepeval": "src/compat/deepeval/index.ts",
  "toolscore/axion": "src/compat/axion/index.ts",
  "toolscore/ragas": "src/compat/ragas/index.ts",
  "toolscore/vitest": "src/testing/vitest.ts",
  "toolscore/jest": "src/testing/jest.ts",
  "toolscore/matchers": "src/testing/matchers.ts",
};

// Examples are fragments: the values they work on (`messages`, `model`) are the reader's own.
const fragmentErrors = new Set([
  2304, // Cannot find name 'x'.
  2552, // Cannot find name 'x'. Did you mean 'y'?
  18004, // No value exists in scope for the shorthand property 'x'.
]);

describe("docs: TypeScript examples", () => {
  it("type-check against the entry points they import", () => {
    const examples = blocks.filter((block) => block.language === "ts");
    expect(examples.length).toBeGreaterThan(15);
    const files = new Map(
      examples.map((block, index) => [
        path.join(root, "test", `.docs-example-${index}.ts`),
        `${block.code}\nexport {};\n`,
      ]),
    );
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      paths: Object.fromEntries(
        Object.entries(entryPoints).map(([name, file]) => [name, [path.join(root, file)]]),
      ),
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.fileExists = (file) => files.has(file) || fileExists(file);
    host.readFile = (file) => files.get(file) ?? readFile(file);
    host.getSourceFile = (file, language, ...rest) => {
      const source = files.get(file);
      return source === undefined
        ? getSourceFile(file, language, ...rest)
        : ts.createSourceFile(file, source, language);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const problems: string[] = [];
    [...files.keys()].forEach((file, index) => {
      const source = program.getSourceFile(file);
      const diagnostics = [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ];
      for (const diagnostic of diagnostics) {
        if (fragmentErrors.has(diagnostic.code)) continue;
        const block = examples[index];
        const line =
          diagnostic.start === undefined
            ? 0
            : (source?.getLineAndCharacterOfPosition(diagnostic.start).line ?? 0);
        problems.push(
          `${relative(block.page)}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
        );
      }
    });
    expect(problems).toEqual([]);
  });
});

describe("docs: JavaScript examples", () => {
  it("parse (an object shown alone, as an expression)", () => {
    const examples = blocks.filter((block) => block.language === "js");
    expect(examples.length).toBeGreaterThan(0);
    for (const block of examples) {
      const code = block.code.trimStart().startsWith("{") ? `(${block.code})` : block.code;
      const { diagnostics = [] } = ts.transpileModule(code, {
        reportDiagnostics: true,
        compilerOptions: { allowJs: true, module: ts.ModuleKind.CommonJS },
        fileName: "example.js",
      });
      expect(
        diagnostics.map((diagnostic) =>
          ts.flattenDiagnosticMessageText(diagnostic.messageText, " "),
        ),
        where(block),
      ).toEqual([]);
    }
  });
});

describe("docs: the explanation example", () => {
  it("is what deepeval's metric explains for the case it describes", async () => {
    const { ToolCorrectnessMetric, ToolCallParams } =
      await import("../src/compat/deepeval/index.js");
    const page = pages.find((file) => file.endsWith("guides/matching.md")) ?? "";
    const shown = blocksOf(page).find((block) => block.language === "js");
    // The page's object, as JavaScript: it is data, written by us.
    const expected = runInNewContext(`(${shown?.code ?? "undefined"})`) as object;
    const metric = new ToolCorrectnessMetric({
      evaluationParams: [ToolCallParams.INPUT_PARAMETERS],
    });
    const score = await metric.measure({
      input: "Email Dana that the review moved to Friday, and schedule it.",
      actualOutput: "Done.",
      toolsCalled: [
        { name: "web_search", inputParameters: { query: "Dana's email" } },
        {
          name: "send_email",
          inputParameters: { to: "dana@example.com", subject: "Review moved to Thursday", cc: [] },
        },
      ],
      expectedTools: [
        {
          name: "send_email",
          inputParameters: { to: "dana@example.com", subject: "Review moved to Friday", cc: [] },
        },
        { name: "schedule_meeting", inputParameters: { with: "dana@example.com", day: "Friday" } },
      ],
    });
    expect(score.toFixed(3)).toBe("0.333");
    expect((text.get(page) ?? "").includes(`score ${score.toFixed(3)}`)).toBe(true);
    expect(metric.details).toMatchObject(expected);
  });
});

describe("docs: YAML, JSON and configs", () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-docs-"));
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it("parses every YAML and JSON example", () => {
    for (const block of blocks) {
      if (block.language === "yaml") {
        expect((): unknown => parseYaml(block.code), where(block)).not.toThrow();
      }
      if (block.language === "json") {
        expect((): unknown => JSON.parse(block.code), where(block)).not.toThrow();
      }
    }
  });

  it("reads every config example with the CLI's reader, and makes its metrics", async () => {
    const judged = new Set(
      metricDefinitions
        .filter((definition) => definition.judge === "required")
        .map((definition) => definition.id),
    );
    const configs = blocks.filter(
      (block) => block.language === "yaml" && /^metrics:/m.test(block.code),
    );
    expect(configs.length).toBeGreaterThan(1);
    for (const [index, block] of configs.entries()) {
      const file = path.join(directory, `config-${index}.yaml`);
      writeFileSync(file, block.code);
      const config = await readConfigFile(file);
      for (const metric of config.metrics ?? []) {
        if (judged.has(metric.metric)) continue;
        expect(
          () => createMetric({ metric: metric.metric, ...metric.options }),
          where(block),
        ).not.toThrow();
      }
    }
  });
});

describe("docs: what a case may set", () => {
  it("lists, for every metric, the options the registry lets a case's metricOptions set", () => {
    const page = pages.find((file) => file.endsWith(path.join("guides", "cli.md"))) ?? "";
    const lines = (text.get(page) ?? "").split("\n");
    const start = lines.indexOf("### What a case may set");
    const rows = lines
      .slice(start)
      .filter((line) => line.startsWith("| `") || line.startsWith("| the other judged"));
    const listed = new Map<string, string[]>();
    let previous: string[] = [];
    for (const row of rows) {
      const [metrics, options] = row
        .split("|")
        .slice(1, 3)
        .map((cell) => cell.trim());
      const names = [...options.matchAll(/`(\w+)`/g)].map((match) => match[1]);
      // "the same, and x": the row above's, and x.
      const allowed = options.startsWith("the same") ? [...previous, ...names] : names;
      previous = allowed;
      // "the other judged metrics": those that need a judge and no row above names.
      const ids = metrics.startsWith("the other judged")
        ? metricDefinitions
            .filter((definition) => definition.judge === "required" && !listed.has(definition.id))
            .map((entry) => entry.id)
        : [...metrics.matchAll(/`([\w-]+)`/g)].map((match) => match[1]);
      for (const id of ids) listed.set(id, allowed);
    }
    for (const definition of metricDefinitions) {
      expect(listed.get(definition.id), definition.id).toEqual(definition.caseOptions);
    }
  });
});

describe("docs: the engine's page", () => {
  it("lists every value toolscore/engine exports, and nothing else", async () => {
    const engine = (await import("../src/entries/engine.js")) as Record<string, unknown>;
    const page = text.get(path.join(root, "docs", "reference", "engine.md")) ?? "";
    const listed = new Set(
      page
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1])),
    );
    expect([...listed].sort()).toEqual(Object.keys(engine).sort());
  });
});

describe("docs: the root's page", () => {
  it("names every value toolscore exports, and lists no export it lacks", async () => {
    const root_ = (await import("../src/entries/index.js")) as Record<string, unknown>;
    const page = text.get(path.join(root, "docs", "reference", "api.md")) ?? "";
    const named = new Set([...page.matchAll(/`(\w+)`/g)].map((m) => m[1]));
    expect(Object.keys(root_).filter((name) => !named.has(name))).toEqual([]);
    const listed = page
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1]));
    expect(listed.filter((name) => !(name in root_))).toEqual([]);
    expect(listed.length).toBeGreaterThan(40);
  });
});
