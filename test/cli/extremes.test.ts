/**
 * Issue 14: every extreme but valid input of the issue through the built CLI, as a process with a
 * command's 1 GB budget (src/bench/extreme-inputs.ts): it answers (no hang: the run is killed
 * after two minutes; no crash: running out of memory ends the process), with the exit status of
 * the contract, the issues that explain it, and one JSON document whose issues are located. How
 * fast is measured by `npm run bench` (the same cases against 30 s and 1 GB), not here. The other
 * extremes of the issue have their own tests: /dev/zero, render's exit status, --json on errors,
 * numbers no account holds and control characters in contract.test.ts; an interrupted
 * design --out in interrupted-write.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { extremeCases, runExtreme } from "../../src/bench/extreme-inputs.js";
import { ensureBuilt, ROOT } from "../support/built-cli.js";

beforeAll(() => {
  ensureBuilt();
}, 300_000);

const CASES = extremeCases(ROOT);

describe("extreme but valid inputs get an answer", () => {
  it("covers the extremes of issue 14", () => {
    const names = CASES.map((extreme) => extreme.name).join("\n");
    for (const extreme of [
      /count: 1e15/,
      /horizonMonths: 1e9/,
      /physicalPartitions: 1e9/,
      /with: \[count\(Reading\)\] on Q5/,
      /partitionKey: \["\{shard\}"\]/,
      /peak: 1e7/,
      /relationship avg: 1e8/,
      /replicas: 100000/,
      /growthPerMonth: 2\^53/,
      /peak: 1\.8e308/,
    ])
      expect(names).toMatch(extreme);
  });

  it.each(CASES.map((extreme) => [extreme.name, extreme] as const))(
    "%s",
    (_, extreme) => {
      const run = runExtreme(ROOT, extreme, 120_000);
      expect(run.failure).toBeUndefined();
      expect({ exit: run.code, contract: run.contract }).toEqual({ exit: extreme.exit, contract: [] });
      expect(run.codes).toEqual(expect.arrayContaining([...extreme.codes]));
      // An exit status of 1 is explained by at least one error in the document.
      if (extreme.exit === 1) expect(run.codes.length).toBeGreaterThan(0);
    },
    180_000,
  );
});
