import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateWorkload } from "../design/generate-workload.js";
import { toWorkload, workloadDocumentArbitrary } from "./workload-arbitrary.js";
import { describeFigures, featuresOf, workloadFigures } from "./workload-figures.js";

describe("workloadFigures", () => {
  it("counts the workloads using each feature and the ranges of sizes and rates", () => {
    // Chains of four: 8 entities in 2 chains, 20 patterns (2.5 per entity), 6 one-to-many.
    const figures = workloadFigures([generateWorkload(8), generateWorkload(4)]);
    expect(figures.workloads).toBe(2);
    expect(figures.entities).toEqual({ min: 4, median: 8, max: 8 });
    expect(figures.patterns).toEqual({ min: 10, median: 20, max: 20 });
    expect(figures.relationships).toEqual({ min: 3, median: 6, max: 6 });
    expect(figures.using["relationship one-to-many"]).toBe(2);
    expect(figures.using["filter eq"]).toBe(2);
    expect(figures.using["write create"]).toBe(2);
    expect(figures.using["ttl"]).toBeUndefined();
    expect(figures.avgBytes).toEqual({ min: 600, max: 600 });
    // Rates 10 + (index % 7) x 15: peaks from 5 (the create of entity 0, 10 / 2) to 400 (the point
    // read of entity 6, 100 x 4).
    expect(figures.peakRps.min).toBe(5);
    expect(figures.peakRps.max).toBe(400);
  });

  it("names what a random sample covers", () => {
    const workloads = fc
      .sample(workloadDocumentArbitrary({ maxEntities: 5 }), { numRuns: 60, seed: 3 })
      .map((document) => toWorkload(document));
    const figures = workloadFigures(workloads);
    for (const feature of ["filter range", "with latest", "ttl", "relationship many-to-many", "write delete"])
      expect(figures.using[feature], feature).toBeGreaterThan(0);
    expect(figures.using["with count"]).toBeLessThanOrEqual(60);
    expect(workloads.filter((w) => featuresOf(w).has("ttl"))).toHaveLength(figures.using["ttl"] ?? 0);
    expect(describeFigures(figures)[0]).toMatch(/^generator: 60 workloads; entities 1-5/);
  });
});
