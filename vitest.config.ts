import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
// The renderer ships the data-access runtime as source: embed the current files before tests run.
import { embedRuntime } from "./scripts/embed-runtime.mjs";

embedRuntime();

/**
 * Tests that need a process of their own: how deep the YAML parser recurses before the stack
 * overflows depends on what ran before it in the process (a document nested 50,000 deep is then
 * refused with two issues instead of one); the import tests set the PostgreSQL environment.
 */
const OWN_PROCESS = ["src/source/parse-document.test.ts", "test/import/**/*.test.ts"];

/**
 * The long checks: properties over random workloads and the regressions they found, extreme
 * values through the built CLI, crash schedules and the differential oracle. Together they take
 * more than half of the suite's time, so `npm test` (under 8 minutes on 2 cores) leaves them to
 * `npm run test:slow`, which `.ci/run` runs after it: CI fails on either.
 */
const SLOW = [
  "test/verify/random-designs.test.ts",
  "test/verify/differential.test.ts",
  "test/verify/crash-schedule.test.ts",
  "test/verify/paging-designs.test.ts",
  "test/verify/strict-interview-verified.test.ts",
  "test/cli/calibrate.test.ts",
  // 12 reports laid out in Chromium; design --out killed between two renames and resumed
  "test/report/report-browser.test.ts",
  "test/cli/interrupted-write.test.ts",
  "test/cli/extremes.test.ts",
  "test/cli/fuzz.test.ts",
  "src/design/design-robustness.test.ts",
  "src/design/many-to-many-property.test.ts",
  "src/files/write-outputs.property.test.ts",
  "src/session/strict-interview.property.test.ts",
  "test/import/sample-databases.test.ts",
  // the support-assistant example designed, evaluated and verified (1,536-dimension vectors)
  "test/cli/support-assistant.test.ts",
];

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
          name: "shared",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...OWN_PROCESS, ...SLOW],
          // The test files share their worker's modules (each file still runs on its own, with
          // its own module-level state reset only where it asks): loading the modules once per
          // worker instead of once per file saves about a fifth of the run.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "own-process", include: OWN_PROCESS, exclude: [...configDefaults.exclude, ...SLOW] },
      },
      {
        extends: true,
        test: { name: "slow", include: SLOW, isolate: false },
      },
    ],
  },
});
