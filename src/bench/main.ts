/**
 * `npm run bench`: runs every bench module and prints their reports. To add a bench, write a
 * module exporting `bench: Bench` (bench.ts) and add one line to `BENCHES`.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bench } from "./bench.js";

const BENCHES: readonly (() => Promise<{ bench: Bench }>)[] = [
  () => import("./estimator-accuracy.js"),
  () => import("./case-study.js"),
  () => import("./design-speed.js"),
];

/** The package root: dist/bench/main.js (or src/bench/main.ts) is two folders below it. */
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const benchmarksDir = resolve(packageRoot, "..", "shared", "benchmarks");

async function main(): Promise<number> {
  if (!existsSync(benchmarksDir)) {
    process.stdout.write(`benchmark files not found at ${benchmarksDir}; skipping the benches\n`);
    return 0;
  }
  let failed = 0;
  for (const load of BENCHES) {
    const { bench } = await load();
    process.stdout.write(`\n=== ${bench.name} ===\n`);
    const result = await bench.run({ benchmarksDir });
    process.stdout.write(`${result.report}\n`);
    if (result.ran && !result.passed) failed++;
  }
  process.stdout.write(
    failed === 0 ? "\nall bench targets met\n" : `\n${failed} bench(es) missed their targets\n`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
