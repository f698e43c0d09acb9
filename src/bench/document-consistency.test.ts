import { describe, expect, it } from "vitest";
import { repositoryBenchContext } from "./bench.js";
import { bench, DOCUMENT_CONSISTENCY_BENCH_RUNS } from "./document-consistency.js";

describe("the document consistency bench", () => {
  it("checks a few hundred generated workloads, ten times what npm test checks", () => {
    expect(DOCUMENT_CONSISTENCY_BENCH_RUNS).toBeGreaterThanOrEqual(300);
    expect(bench.name).toContain("300 generated workloads");
  });
  it("says it did not run outside a checkout", async () => {
    const result = await bench.run(repositoryBenchContext("/nonexistent"));
    expect(result).toMatchObject({ ran: false, passed: false });
  });
});
