import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Says which tests a missing Chromium or oldest Node skips, and how to run them.
    globalSetup: ["test/support/global-setup.ts"],
    // Two cores on CI: forks keep memory-heavy tests (10,000-call inputs) isolated.
    pool: "forks",
    testTimeout: 60_000,
  },
});
