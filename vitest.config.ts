import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// End-to-end tests (`*.e2e.test.ts`) run the built command line, npm installs, Chromium or other
// processes; every other test runs the sources in this process and needs no build.
const e2e = ["src/**/*.e2e.test.ts", "test/**/*.e2e.test.ts"];

export default defineConfig({
  test: {
    // Says which tests a missing Chromium or oldest Node skips, and how to run them.
    globalSetup: ["test/support/global-setup.ts"],
    // Two cores on CI: forks keep memory-heavy tests (10,000-call inputs) isolated.
    pool: "forks",
    // One file more than cores (vitest's default is one fewer: a single file at a time on two):
    // the end-to-end files spend much of their time waiting on npm, Chromium and the CLI.
    maxWorkers: availableParallelism() + 1,
    // Generous: a test fails on what it checks, never on a loaded machine's speed.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts", "test/**/*.test.ts"], exclude: e2e },
      },
      { extends: true, test: { name: "e2e", include: e2e } },
    ],
  },
});
