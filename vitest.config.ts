import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
// The renderer ships the data-access runtime as source: embed the current files before tests run.
import { embedRuntime } from "./scripts/embed-runtime.mjs";

embedRuntime();

/**
 * Unit tests that need a process of their own: how deep the YAML parser recurses before the
 * stack overflows depends on what ran before it in the process (a document nested 50,000 deep
 * is then refused with two issues instead of one).
 */
const OWN_PROCESS = ["src/source/parse-document.test.ts"];

export default defineConfig({
  test: {
    // Builds dist/ once, before the end-to-end tests that run the built CLI start in parallel.
    globalSetup: ["test/support/global-setup.ts"],
    // One test file per core: vitest's default leaves one core free (a single worker on the
    // 2-core machine `npm test` must fit), though the CPU-bound tests keep every core busy.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...OWN_PROCESS],
          // The unit tests share their worker's modules (each file still runs on its own): loading
          // the modules once per worker instead of once per file halves their time.
          isolate: false,
        },
      },
      {
        extends: true,
        // The end-to-end tests (servers, processes, browsers, terminals) each in a fresh process.
        test: { name: "end-to-end", include: ["test/**/*.test.ts", ...OWN_PROCESS] },
      },
    ],
  },
});
