/**
 * `npm run bench`: runs every bench module and prints their reports. To add a bench, write a
 * module exporting `bench: Bench` (bench.ts) and add one line to `BENCHES`.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryBenchContext, type Bench } from "./bench.js";

const BENCHES: readonly (() => Promise<{ bench: Bench }>)[] = [
  () => import("./estimator-accuracy.js"),
  () => import("./case-study.js"),
  () => import("./design-speed.js"),
  () => import("./document-consistency.js"),
];

/** The repository root: dist/bench/main.js (or src/bench/main.ts) is two folders below it. */
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<number> {
  const context = repositoryBenchContext(repositoryRoot);
  let failed = 0;
  for (const load of BENCHES) {
    const { bench } = await load();
    process.stdout.write(`\n=== ${bench.name} ===\n`);
    const result = await bench.run(context);
    process.stdout.write(`${result.report}\n`);
    // Inputs missing from a checkout is a failure too: the bench data ships with the repository.
    if (!result.ran || !result.passed) failed++;
  }
  process.stdout.write(
    failed === 0 ? "\nall bench targets met\n" : `\n${failed} bench(es) missed their targets\n`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
