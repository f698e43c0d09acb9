import { defineConfig } from "vitest/config";
// The renderer ships the data-access runtime as source: embed the current files before tests run.
import { embedRuntime } from "./scripts/embed-runtime.mjs";

embedRuntime();

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
