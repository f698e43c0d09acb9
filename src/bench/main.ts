/**
 * `npm run bench`: runs every bench module and prints their reports; `npm run bench -- <name>...`
 * runs only the modules named (`design-budget`, `design-speed`, ...). To add a bench, write a
 * module exporting `bench: Bench` (bench.ts) and add one line to `BENCHES`.
 *
 * The exit status is 1 when a correctness bench misses its target (the estimator's accuracy, the
 * case study, document consistency, extreme inputs answered, the fuzzer, the design property, no
 * silent failure in the differential bench, no crash schedule failing).
 * Timing targets (`TIMING`) depend on the machine and its load: a miss is printed as such and
 * fails the run only with `--strict`.
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
  differential: () => import("./differential.js"),
  "crash-schedule": () => import("./crash-schedule.js"),
  paging: () => import("./paging.js"),
  "import-size": () => import("./import-size.js"),
};

/** Benches whose targets are wall-clock times and memory on this machine. */
const TIMING: ReadonlySet<string> = new Set(["design-speed", "design-budget", "import-size"]);

/** The repository root: dist/bench/main.js (or src/bench/main.ts) is two folders below it. */
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<number> {
  const context = repositoryBenchContext(repositoryRoot);
  const strict = process.argv.includes("--strict");
  const named = process.argv.slice(2).filter((arg) => arg !== "--strict");
  const unknown = named.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bench ${unknown.join(", ")}; known: ${Object.keys(BENCHES).join(", ")}\n`);
    return 2;
  }
  const failed: string[] = [];
  const timingMissed: string[] = [];
  for (const [name, load] of Object.entries(BENCHES)) {
    if (named.length > 0 && !named.includes(name)) continue;
    const { bench } = await load();
    process.stdout.write(`\n=== ${bench.name} ===\n`);
    const result = await bench.run(context);
    process.stdout.write(`${result.report}\n`);
    // Inputs missing from a checkout is a failure too: the bench data ships with the repository.
    if (!result.ran) failed.push(name);
    else if (!result.passed) (TIMING.has(name) && !strict ? timingMissed : failed).push(name);
  }
  if (timingMissed.length > 0) {
    process.stdout.write(
      `\ntiming targets missed on this machine (reported; --strict fails on them): ${timingMissed.join(", ")}\n`,
    );
  }
  process.stdout.write(
    failed.length === 0
      ? "\nall correctness targets met\n"
      : `\n${failed.length} bench(es) missed their targets: ${failed.join(", ")}\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
