/**
 * The matchers as users of each test framework get them: projects with the packed toolscore and
 * jest 30, jest 29 or vitest installed from a loopback registry (empty npm cache), running
 * `toolscore/jest`, `toolscore/matchers` with `expect.extend`, and `toolscore/vitest`, and
 * type-checking tests written against each framework's own types.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  runProgram,
  strictTsconfig as tsconfig,
  usePackedPackage,
} from "./support/packed-package.js";
import type { Consumer } from "./support/packed-package.js";

const packed = usePackedPackage();

const calls = `[
  { name: "search_flights", inputParameters: { from: "CDG", to: "OSL" } },
  { name: "book_flight", inputParameters: { flight: "AF123", seat: "12A" } },
]`;

/** Tests in plain CommonJS, as a jest project without a transform writes them. */
const jestTests = (setup: string) => `${setup}
const { match, toolCallAccuracy } = require("toolscore");
const calls = ${calls};

test("matches calls by name, arguments and order", () => {
  expect(calls).toHaveCalledTool("book_flight", { seat: match.regex(/^12/) });
  expect(calls).not.toHaveCalledTool("cancel");
  expect(calls).toHaveCalledToolsInOrder(["search_flights", "book_flight"]);
  expect(calls).toMatchToolCalls([{ name: "search_flights" }, { name: "book_flight" }], {
    arguments: "ignore",
  });
  expect({ calls }).toEqual({ calls: expect.toHaveCalledTool("search_flights") });
});

test("explains a failure", () => {
  expect(() => expect(calls).toHaveCalledTool("book_flight", { seat: "1C" })).toThrow(
    /expected a call of book_flight/,
  );
});

test("decides judged values with a judge", async () => {
  const judge = {
    specificationVersion: "v1",
    provider: "fake",
    modelId: "judge-1",
    supportsImages: false,
    async generate(request) {
      const value = JSON.stringify(request.messages).split("## The value")[1] ?? "";
      const output = value.includes("AF123")
        ? { reason: "a flight number", verdict: "meets" }
        : { reason: "no flight number", verdict: "fails" };
      return { output, text: JSON.stringify(output), usage: { inputTokens: 1, outputTokens: 1 }, modelId: "judge-1" };
    },
  };
  const expected = (criterion) => [
    { name: "search_flights" },
    { name: "book_flight", arguments: { flight: match.judged(criterion), seat: "12A" } },
  ];
  await expect(calls).toMatchToolCallsWithJudge(expected("a flight number"), { judge });
  await expect([calls[0]]).not.toMatchToolCallsWithJudge(expected("a flight number"), { judge });
});

test("scores a case with a metric", async () => {
  await expect({ toolsCalled: calls, expectedTools: calls }).toPassMetric(toolCallAccuracy());
  await expect({ toolsCalled: calls, expectedTools: [{ name: "cancel" }] }).not.toPassMetric(
    toolCallAccuracy(),
  );
});
`;

const failing = `test("a wrong seat", () => {
  expect(${calls}).toHaveCalledTool("book_flight", { seat: "1C" });
});
`;

/** Type tests: each call must type-check, and each \`@ts-expect-error\` must be an error. */
const typedCalls = (expectFrom: string) => `${expectFrom}
import { toolCallAccuracy } from "toolscore";

const calls = [{ name: "get_weather", inputParameters: { city: "Paris" } }];
export async function typed(): Promise<void> {
  expect(calls).toHaveCalledTool("get_weather", { city: "Paris" });
  expect(calls).not.toHaveCalledToolsInOrder(["a", { name: "b", arguments: { x: 1 } }]);
  expect(calls).toMatchToolCalls([{ name: "get_weather" }], { order: "strict" });
  await expect({ toolsCalled: calls, expectedTools: calls }).toPassMetric(toolCallAccuracy(), 0.8);
  await expect(calls).toMatchToolCallsWithJudge([], { judge: "openai/gpt-4o-mini", input: "Book" });
  // @ts-expect-error the judged form needs its judge
  await expect(calls).toMatchToolCallsWithJudge([], { input: "Book" });
  // @ts-expect-error the tool's name is a string
  expect(calls).toHaveCalledTool(42);
  // @ts-expect-error no such order mode
  expect(calls).toMatchToolCalls([], { order: "sideways" });
}
`;

async function project(
  name: string,
  packages: readonly string[],
): Promise<{
  consumer: Consumer;
  run: (bin: string, args: readonly string[]) => ReturnType<typeof runProgram>;
}> {
  const consumer = await packed().project(name, [packed().tarball, ...packages]);
  const run = (bin: string, args: readonly string[]) =>
    runProgram(path.join(consumer.directory, "node_modules", ".bin", bin), args, {
      cwd: consumer.directory,
      env: { ...process.env, CI: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
    });
  return { consumer, run };
}

for (const [jest, typescript] of [
  ["30", "6"],
  ["29", "5.4"],
] as const) {
  describe(`jest ${jest}`, () => {
    it("adds the matchers with toolscore/jest, or expect.extend and toolscore/matchers", async () => {
      const { consumer, run } = await project(`jest-${jest}`, [
        `jest@${jest}`,
        `typescript@${typescript}`,
        "@types/node@20",
        ...(jest === "30" ? ["@types/jest@30"] : []),
      ]);
      consumer.write(
        "jest.config.js",
        'module.exports = { testEnvironment: "node", setupFilesAfterEnv: ["toolscore/jest"], testMatch: ["**/setup/*.test.js"] };',
      );
      consumer.write("setup/tools.test.js", jestTests(""));
      const viaSetup = await run("jest", ["--ci"]);
      expect(viaSetup.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
      expect(viaSetup.code).toBe(0);

      consumer.write(
        "neutral.config.js",
        'module.exports = { testEnvironment: "node", testMatch: ["**/neutral/*.test.js"] };',
      );
      consumer.write(
        "neutral/tools.test.js",
        jestTests(
          'const { toolscoreMatchers } = require("toolscore/matchers");\nexpect.extend(toolscoreMatchers);',
        ),
      );
      const viaExtend = await run("jest", ["--ci", "--config", "neutral.config.js"]);
      expect(viaExtend.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
      expect(viaExtend.code).toBe(0);

      // A failing assertion shows toolscore's explanation in jest's report.
      consumer.write(
        "failing.config.js",
        'module.exports = { testEnvironment: "node", setupFilesAfterEnv: ["toolscore/jest"], testMatch: ["**/failing/*.test.js"] };',
      );
      consumer.write("failing/seat.test.js", failing);
      const failed = await run("jest", ["--ci", "--config", "failing.config.js"]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain("expected a call of book_flight");
      expect(failed.stderr).toContain("$.seat");

      // Types: @jest/globals (both versions) and the jest namespace of @types/jest (30).
      consumer.write(
        "types/globals-import.ts",
        typedCalls('import "toolscore/jest";\nimport { expect } from "@jest/globals";'),
      );
      if (jest === "30")
        consumer.write("types/types-jest.ts", typedCalls('import "toolscore/jest";'));
      consumer.write("tsconfig.json", tsconfig(jest === "30" ? ["node", "jest"] : ["node"]));
      const typed = await run("tsc", ["-p", "tsconfig.json"]);
      expect(typed.stdout + typed.stderr).toBe("");
      expect(typed.code).toBe(0);
    });
  });
}

// vitest 5 (on Node 22 and TypeScript 7) is in current-stack.e2e.test.ts.
// vitest 3's own types need Node's and a TypeScript that knows Disposable.
for (const [vitest, typescript, types] of [
  ["4", "6", []],
  ["3.2", "6", ["node"]],
] as const) {
  describe(`vitest ${vitest}`, () => {
    it("adds the matchers with toolscore/vitest, with their types", async () => {
      const name = `vitest-${vitest}`;
      const { consumer, run } = await project(name, [
        `vitest@${vitest}`,
        `typescript@${typescript}`,
        ...(types.length > 0 ? ["@types/node@20"] : []),
      ]);
      consumer.write("package.json", JSON.stringify({ name, private: true, type: "module" }));
      consumer.write(
        "tools.test.ts",
        `import { expect, test } from "vitest";
import "toolscore/vitest";
import { match, toolCallAccuracy } from "toolscore";
const calls = ${calls};
test("matchers", async () => {
  expect(calls).toHaveCalledTool("book_flight", { seat: match.regex(/^12/) });
  expect(calls).toHaveCalledToolsInOrder(["search_flights", "book_flight"]);
  expect({ calls }).toEqual({ calls: expect.toHaveCalledTool("search_flights") });
  await expect({ toolsCalled: calls, expectedTools: calls }).toPassMetric(toolCallAccuracy());
  expect(() => expect(calls).toHaveCalledTool("book_flight", { seat: "1C" })).toThrow(/expected a call of book_flight/);
});
`,
      );
      const ran = await run("vitest", ["run"]);
      expect(ran.stdout).toMatch(/Tests\s+1 passed/);
      expect(ran.code).toBe(0);
      consumer.write(
        "types/vitest.ts",
        typedCalls('import "toolscore/vitest";\nimport { expect } from "vitest";'),
      );
      consumer.write("tsconfig.json", tsconfig(types));
      const typed = await run("tsc", ["-p", "tsconfig.json"]);
      expect(typed.stdout + typed.stderr).toBe("");
      expect(typed.code).toBe(0);

      // Listed in vitest's setupFiles instead of imported: the matchers come from there, their
      // types from tsconfig's "types", as the guide says.
      consumer.write(
        "vitest.config.mjs",
        'export default { test: { setupFiles: ["toolscore/vitest"] } };\n',
      );
      consumer.write(
        "tools.test.ts",
        `import { expect, test } from "vitest";
const calls = ${calls};
test("matchers from setupFiles", () => {
  expect(calls).toHaveCalledToolsInOrder(["search_flights", "book_flight"]);
});
`,
      );
      const fromSetup = await run("vitest", ["run"]);
      expect(fromSetup.stdout).toMatch(/Tests\s+1 passed/);
      expect(fromSetup.code).toBe(0);
      consumer.write("types/vitest.ts", typedCalls('import { expect } from "vitest";'));
      consumer.write("tsconfig.json", tsconfig([...types, "toolscore/vitest"]));
      const typedFromConfig = await run("tsc", ["-p", "tsconfig.json"]);
      expect(typedFromConfig.stdout + typedFromConfig.stderr).toBe("");
      expect(typedFromConfig.code).toBe(0);
    });
  });
}
