/**
 * The README's matchToolCalls example runs as written and prints what the README says it prints.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { match, matchToolCalls } from "../src/entries/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The comment lines that follow `marker` in the README, joined into one line. */
function commentAfter(marker: string): string {
  const start = readme.indexOf(marker);
  expect(start).toBeGreaterThan(0);
  const lines: string[] = [];
  for (const line of readme
    .slice(start + marker.length)
    .split("\n")
    .slice(1)) {
    if (!line.startsWith("//")) break;
    lines.push(line.slice(2).trim());
  }
  return lines.join(" ");
}

describe("README", () => {
  it("shows matchToolCalls' real output", () => {
    const made = [
      { name: "get_weather", inputParameters: { city: "Lyon" } },
      { name: "get_weather", inputParameters: { city: "Paris" } },
      {
        name: "book_train",
        inputParameters: { to: "Lyon", date: "2026-06-01", request_id: "r-81" },
      },
    ];
    const result = matchToolCalls(made, [
      [
        { name: "get_weather", arguments: { city: "Paris" } },
        { name: "get_weather", arguments: { city: "Lyon" } },
      ],
      [
        {
          name: "book_train",
          arguments: { to: "Lyon", date: match.regex(/^2026-05-/), request_id: match.anyString() },
        },
      ],
    ]);
    expect(readme).toContain(`result.score; // ${result.score.toFixed(3)}: recall here`);
    expect(commentAfter("result.reason;")).toBe(result.reason);
    const verdict = commentAfter("result.pairs[2].arguments[1];");
    expect(verdict).toBe(
      '{ path: "$.date", verdict: "mismatch", expected: { $match: "regex", pattern: "^2026-05-" }, actual: "2026-06-01", note: "expected a string matching /^2026-05-/" }',
    );
    expect(result.pairs[2]?.arguments[1]).toEqual({
      path: "$.date",
      verdict: "mismatch",
      expected: { $match: "regex", pattern: "^2026-05-" },
      actual: "2026-06-01",
      note: "expected a string matching /^2026-05-/",
    });
  });
});

describe("README: toolscore/vitest", () => {
  it("shows a real failure message of toHaveCalledTool", async () => {
    const { toHaveCalledTool } = await import("../src/testing/matchers.js");
    const calls = [
      { name: "search_flights", inputParameters: { from: "CDG", to: "OSL" } },
      { name: "get_weather", inputParameters: { city: "Oslo" } },
      { name: "book_flight", inputParameters: { flight: "AF123", seat: "12A" } },
    ];
    const message = toHaveCalledTool
      .call({ isNot: false }, calls, "book_flight", { seat: "1C" })
      .message();
    const start = readme.indexOf("expected a call of book_flight");
    expect(start).toBeGreaterThan(0);
    const shown = readme.slice(start, readme.indexOf("```", start)).trimEnd();
    expect(message.startsWith(shown)).toBe(true);
  });
});

describe("README: install and prerequisites", () => {
  const root = new URL("..", import.meta.url);
  const json = (file: string) =>
    JSON.parse(readFileSync(new URL(file, root), "utf8")) as {
      version: string;
      engines: { node: string };
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      repository: { url: string };
    };
  const manifest = json("package.json");
  const versions = json("test/versions/package.json");
  /** `^29.7.0`, `~5.4.5`, `>=3` -> the major (and minor) the range starts at. */
  const start = (range: string, parts: number) =>
    /(\d+(?:\.\d+)*)/.exec(range)?.[1].split(".").slice(0, parts).join(".");

  it("names the Node, TypeScript, jest and vitest versions the tests run on", () => {
    // engines.node is the oldest Node the package tests run on.
    expect(readme).toContain(`**Node ${start(manifest.engines.node, 2)} or newer**`);
    // test/versions holds the oldest TypeScript and jest the package tests use.
    expect(readme).toContain(
      `**TypeScript ${start(versions.devDependencies.typescript, 2)} or newer**`,
    );
    const jest = `jest ${start(versions.devDependencies.jest, 1)} or ${start(manifest.devDependencies.jest, 1)}`;
    expect(readme).toContain(`| ${jest} `);
    const matchersGuide = readFileSync(new URL("docs/guides/test-matchers.md", root), "utf8");
    expect(matchersGuide).toContain(`With ${jest},`);
    // Each peer's row names the majors its range allows, as the package tests install them.
    const majors = (range: string) => {
      const listed = range.split("||").map((part) => {
        const [major, minor = "0"] = (start(part, 2) ?? "").split(".");
        return minor === "0" ? major : `${major}.${minor}`;
      });
      return `${listed.slice(0, -1).join(", ")} or ${listed.at(-1) ?? ""}`;
    };
    for (const peer of ["openai", "ai", "vitest"]) {
      expect(readme).toContain(`${peer} ${majors(manifest.peerDependencies[peer])}`);
    }
    expect(readme).toContain(
      `@anthropic-ai/sdk\`: ${start(manifest.peerDependencies["@anthropic-ai/sdk"], 2)} or a later 1.x`,
    );
  });

  it("installs with the commands the package tests run", () => {
    expect(manifest.scripts.pack).toBe("npm run build && node scripts/pack.mjs");
    expect(readme).toContain(
      `npm ci && npm run pack       # writes toolscore-${manifest.version}.tgz`,
    );
    // The tarball kept in the project's repository, as the package tests install it for npm ci.
    expect(readme).toContain(`npm install --save-dev ./vendor/toolscore-${manifest.version}.tgz`);
    expect(readme).toContain(`npm install --save-dev ${manifest.repository.url}`);
    expect(readme).not.toMatch(/^npm install \.\.\/toolscore$/m);
    // The quick start's two commands.
    expect(readme).toContain("npm ci && npm run example   #");
    expect(manifest.scripts.example).toContain("examples/travel-agent/dataset.jsonl");
    expect(readme).toContain("npm test                    #");
  });

  it("lists every optional package, with the command its missing-package error gives", async () => {
    const { imageCodecs } = await import("../src/node/image-codec.js");
    const table = readme.slice(readme.indexOf("| feature "), readme.indexOf("## Quick start"));
    const commands = [...table.matchAll(/`npm install ([^`]+)`/g)].map((found) => found[1]);
    expect(commands).toEqual([
      "openai",
      "@anthropic-ai/sdk",
      "ai",
      "@typesafe-ai/sdk",
      imageCodecs.packages.join(" "),
      "tsx",
      "@modelcontextprotocol/sdk",
    ]);
    const peers = Object.keys(manifest.peerDependencies).filter((name) => name !== "vitest");
    expect(commands.flatMap((command) => command.split(" ")).sort()).toEqual(peers.sort());
  });
});
