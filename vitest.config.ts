import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
// The renderer ships the data-access runtime as source: embed the current files before tests run.
import { embedRuntime } from "./scripts/embed-runtime.mjs";

embedRuntime();

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Builds dist/ once, before the end-to-end tests that run the built CLI start in parallel.
    globalSetup: ["test/support/global-setup.ts"],
    // One test file per core: vitest's default leaves one core free (a single worker on the
    // 2-core machine `npm test` must fit), though the CPU-bound tests keep every core busy.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
