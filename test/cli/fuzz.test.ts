/**
 * Issue 14: the CLI fuzzer as a test. A fixed seed, sixty mutated workloads and models
 * (src/bench/fuzz-mutations.ts) through check, design, evaluate and render, with and without
 * --json, with --out into temporary folders, some with their command line mutated (output paths,
 * flags, price files) and some of estimate-ru's operations, most in process through the CLI's own entry in a
 * worker thread and every twentieth also as a real process; every run must hold the contract of
 * src/bench/fuzz-checks.ts: an answer within the time limit and 1 GB, exit status 0, 1 or 2
 * (never 70), no stack trace, one JSON document with --json whose issues are located, no raw
 * control character, no temporary file left. `npm run bench` runs thousands of cases.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type * as FuzzEngine from "../../src/bench/cli-fuzz.js";
import { ensureBuilt, ROOT } from "../support/built-cli.js";

type FuzzModule = typeof FuzzEngine;

let fuzz: FuzzModule;

beforeAll(async () => {
  ensureBuilt();
  // The built engine: it starts dist/cli/run-worker.js, which only exists built.
  fuzz = (await import(pathToFileURL(join(ROOT, "dist", "bench", "cli-fuzz.js")).href)) as FuzzModule;
}, 300_000);

/** The seed of npm test's cases (the bench runs 200 of them, and 2,000 of another seed). */
const SEED = 14;
const CASES = 60;

describe("the CLI on mutated workloads and models", () => {
  it(`holds its contract on ${CASES} cases (seed ${SEED})`, async () => {
    const report = await fuzz.runFuzz({
      root: ROOT,
      seed: SEED,
      cases: CASES,
      processEvery: 20,
      timeoutMs: 60_000,
    });
    const text = fuzz.formatFuzzReport(report, SEED);
    expect(report.runs).toBe(CASES + Math.ceil(CASES / 20));
    // Both outcomes occur: accepted extremes (designed, evaluated) and refused inputs.
    expect([...report.outcomes.keys()].some((key) => key.endsWith(" 0"))).toBe(true);
    expect([...report.outcomes.keys()].some((key) => key.endsWith(" 1"))).toBe(true);
    expect(report.failures, text).toEqual([]);
  }, 600_000);

  it("generates the same case from the same seed and number", () => {
    expect(fuzz.fuzzCase(ROOT, SEED, 7)).toEqual(fuzz.fuzzCase(ROOT, SEED, 7));
    expect(fuzz.fuzzCase(ROOT, SEED, 7)).not.toEqual(fuzz.fuzzCase(ROOT, SEED, 8));
  });
});
