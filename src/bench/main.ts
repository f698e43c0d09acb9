/**
 * `npm run bench`: runs every bench module and prints their reports; `npm run bench -- <name>...`
 * runs only the modules named (`design-budget`, `design-speed`, ...). To add a bench, write a
 * module exporting `bench: Bench` (bench.ts) and add one line to `BENCHES`.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryBenchContext, type Bench } from "./bench.js";

const BENCHES: Readonly<Record<string, () => Promise<{ bench: Bench }>>> = {
  "estimator-accuracy": () => import("./estimator-accuracy.js"),
  "case-study": () => import("./case-study.js"),
  "design-speed": () => import("./design-speed.js"),
  "design-budget": () => import("./design-budget.js"),
  "document-consistency": () => import("./document-consistency.js"),
  "extreme-inputs": () => import("./extreme-inputs.js"),
  "cli-fuzz": () => import("./cli-fuzz.js"),
  "design-property": () => import("./design-property.js"),
};

/** The repository root: dist/bench/main.js (or src/bench/main.ts) is two folders below it. */
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<number> {
  const context = repositoryBenchContext(repositoryRoot);
  const named = process.argv.slice(2);
  const unknown = named.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bench ${unknown.join(", ")}; known: ${Object.keys(BENCHES).join(", ")}\n`);
    return 2;
  }
  let failed = 0;
  for (const [name, load] of Object.entries(BENCHES)) {
    if (named.length > 0 && !named.includes(name)) continue;
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
