/**
 * The requirements checklist and `check` say the same thing (issue 29: the checklist listed "reads
 * of entities nothing creates: Q1, Q4" while `check` reported no warning): on random workloads
 * of both generators, the reads the checklist lists are exactly the patterns `check` warns about
 * with `workload.readWithoutCreate`, and its hot-partition line never calls skew known when no
 * filtered attribute gave one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateIndependentWorkload } from "../test-support/independent-workloads.js";
import { workloadDocumentArbitrary, workloadText } from "../test-support/workload-arbitrary.js";
import { loadWorkload } from "../workload/load-workload.js";
import { readsWithoutWrites, requirementsChecklist } from "./requirements-checklist.js";

const texts = [
  ...fc.sample(workloadDocumentArbitrary(), { numRuns: 60, seed: 29 }).map(workloadText),
  ...Array.from({ length: 60 }, (_, seed) => generateIndependentWorkload(seed + 1).text),
];

describe("the requirements checklist against check", () => {
  it("lists exactly the reads check warns about as reading what nothing creates", () => {
    let listed = 0;
    for (const text of texts) {
      const loaded = loadWorkload(text);
      if (!loaded.ok) continue;
      const warned = new Set(
        loaded.issues.flatMap((issue) =>
          issue.code === "workload.readWithoutCreate" && "pattern" in issue ? [issue.pattern] : [],
        ),
      );
      const checklist = readsWithoutWrites(loaded.value);
      expect(new Set(checklist), text.slice(0, 200)).toEqual(warned);
      listed += checklist.length;
    }
    // The sample has such reads: the comparison is not vacuous.
    expect(listed).toBeGreaterThan(0);
  });

  it("never says skew is known for an attribute that did not give one", () => {
    for (const text of texts) {
      const loaded = loadWorkload(text);
      if (!loaded.ok) continue;
      const line = requirementsChecklist(loaded.value).find((item) => item.id === "hot-partitions");
      expect(line?.why ?? "").not.toMatch(/skew known/i);
    }
  });
});
