/**
 * The designs of issue 24's soundness workloads (test/fixtures/soundness/) pass their own check:
 * ids that identify a record, TTL on where items expire, buckets sized at the workload's maxima
 * (the checks themselves: cost/soundness.test.ts).
 */
import { describe, expect, it } from "vitest";
import { evaluationErrorCodes, soundnessFixture } from "../test-support/soundness-fixtures.js";
import { designModel } from "./design-model.js";

describe("designs of the soundness workloads", () => {
  it("designs an enrollment id that identifies the enrollment", () => {
    const { workload } = soundnessFixture("enrollments");
    const designed = designModel(workload).model;
    expect(evaluationErrorCodes(workload, designed)).toEqual([]);
    for (const item of designed.containers.flatMap((c) => c.items).filter((i) => i.entity === "Enrollment"))
      expect([item.id, ...item.partitionKey].join(" ")).toContain("{enrollmentId}");
  });

  it("designs the soft-deleted likes with TTL on wherever items expire (no evaluate.ttlOff)", () => {
    const { workload } = soundnessFixture("social-likes");
    const designed = designModel(workload).model;
    expect(evaluationErrorCodes(workload, designed)).toEqual([]);
  });

  it("never keys items by values longer than Cosmos DB stores (a 3,000-byte permalink is filtered on, not a key)", () => {
    const { workload } = soundnessFixture("long-keys");
    const designed = designModel(workload).model;
    expect(evaluationErrorCodes(workload, designed)).toEqual([]);
    const keys = designed.containers.flatMap((c) => c.items.flatMap((i) => [i.id, ...i.partitionKey]));
    expect(keys.join(" ")).not.toContain("{permalink}");
  });

  it("designs timeline buckets without an item over 2 MB at the workload's maxima", () => {
    const { workload } = soundnessFixture("timeline-buckets");
    expect(evaluationErrorCodes(workload, designModel(workload).model)).toEqual([]);
  });
});
