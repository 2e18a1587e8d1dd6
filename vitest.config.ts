import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Two cores on CI: forks keep memory-heavy tests (10,000-call inputs) isolated.
    pool: "forks",
    testTimeout: 60_000,
  },
});
