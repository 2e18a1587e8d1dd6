import { readFileSync } from "node:fs";
/**
 * A machine without Chromium runs `npm test` to the end: the browser tests are skipped, and the
 * run says so at its start, with how to run them; in CI they are required, and fail.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { environmentWithout } from "./support/npm-registry.js";
import { root, runProgram } from "./support/packed-package.js";

/** vitest on the HTML report's tests, with Chromium nowhere, in a clean environment. */
async function htmlTests(settings: Record<string, string>) {
  return runProgram(
    process.execPath,
    [
      path.join(root, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "src/reporters/html.e2e.test.ts",
    ],
    {
      cwd: root,
      env: environmentWithout(/^(VITEST|CI$|TOOLSCORE_REQUIRE_|npm_)/, {
        NO_COLOR: "1",
        TOOLSCORE_CHROMIUM: "/nonexistent/chromium",
        ...settings,
      }),
    },
  );
}

describe("tests that need Chromium", () => {
  it("are skipped where it is missing, saying why and how to run them", async () => {
    const run = await htmlTests({});
    const output = run.stdout + run.stderr;
    expect(output).toContain(
      "toolscore: skipping the chromium tests: no Chromium at /nonexistent/chromium: install it (apt-get install chromium)",
    );
    // Every browser test of the HTML report skipped, the static ones run.
    const source = readFileSync(
      new URL("../src/reporters/html.e2e.test.ts", import.meta.url),
      "utf8",
    );
    const browserTests = [
      ...source.slice(source.indexOf("describeInChromium(")).matchAll(/^ {2}it\(/gm),
    ].length;
    expect(output).toMatch(new RegExp(`Tests\\s+3 passed \\| ${browserTests} skipped`));
    expect(run.code).toBe(0);
  });

  it("run, and fail, where it is missing but required: in CI or by TOOLSCORE_REQUIRE_CHROMIUM", async () => {
    for (const settings of [{ CI: "1" }, { TOOLSCORE_REQUIRE_CHROMIUM: "1" }] as Record<
      string,
      string
    >[]) {
      const run = await htmlTests(settings);
      const output = run.stdout + run.stderr;
      expect(output).toContain("toolscore: chromium is required in this run and missing");
      expect(output).toContain("Error: no Chromium at /nonexistent/chromium");
      expect(output).not.toContain("TypeError");
      expect(run.code).toBe(1);
    }
  });
});
