import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Says which tests a missing Chromium or oldest Node skips, and how to run them.
    globalSetup: ["test/support/global-setup.ts"],
    // Two cores on CI: forks keep memory-heavy tests (10,000-call inputs) isolated.
    pool: "forks",
    // Generous: a test fails on what it checks, never on a loaded machine's speed.
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
