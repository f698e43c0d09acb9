import { describe, expect, it } from "vitest";
import {
  LIMITS,
  limitStatus,
  NEAR_LOGICAL_PARTITION_GB_SHARE,
  NEAR_PARTITION_RUS_SHARE,
  MAX_ITEM_BYTES,
  minimumAutoscaleMaxRus,
  minimumManualRus,
  physicalPartitionsFor,
} from "./limits.js";
import { consistencyReadMultiplier, CONSISTENCY_LEVELS } from "./consistency.js";
import { MAX_PATCH_OPERATIONS } from "./limits.js";
import { MAX_PATCH_OPERATIONS as RUNTIME_MAX_PATCH_OPERATIONS } from "../runtime/requests.js";
import * as runtime from "../runtime/key-limits.js";
import { FORBIDDEN_ID_CHARACTERS, MAX_ID_BYTES, MAX_PARTITION_KEY_VALUE_BYTES } from "./limits.js";

describe("limits", () => {
  it("states the documented sizes", () => {
    expect(MAX_ITEM_BYTES).toBe(2_097_152);
    expect(LIMITS.maxLogicalPartitionGB).toBe(20);
    expect(LIMITS.maxPhysicalPartitionGB).toBe(50);
    expect(LIMITS.maxPhysicalPartitionRus).toBe(10_000);
    expect(LIMITS.maxHierarchicalKeyLevels).toBe(3);
    expect(LIMITS.maxTransactionalBatchOperations).toBe(100);
    expect(MAX_PATCH_OPERATIONS).toBe(10);
    // The runtime ships on its own: its copy of the figure is the same fact.
    expect(RUNTIME_MAX_PATCH_OPERATIONS).toBe(MAX_PATCH_OPERATIONS);
  });
  it("computes the manual minimum as max(400, GB x 1, highest / 100)", () => {
    expect(minimumManualRus(10)).toBe(400);
    expect(minimumManualRus(1_000)).toBe(1_000);
    expect(minimumManualRus(10, 100_000)).toBe(1_000);
  });
  it("raises the autoscale maximum to storage GB x 10", () => {
    expect(minimumAutoscaleMaxRus(50)).toBe(1_000);
    expect(minimumAutoscaleMaxRus(250)).toBe(2_500);
  });
  it("creates RU/6000 partitions for manual and RU/10000 for autoscale, and 50 GB each", () => {
    expect(physicalPartitionsFor({ rus: 30_000, mode: "manual", storageGB: 1 })).toBe(5);
    expect(physicalPartitionsFor({ rus: 30_000, mode: "autoscale", storageGB: 1 })).toBe(3);
    expect(physicalPartitionsFor({ rus: 400, mode: "manual", storageGB: 120 })).toBe(3);
    expect(physicalPartitionsFor({ rus: 400, mode: "manual", storageGB: 0 })).toBe(1);
  });
});

describe("consistencyReadMultiplier", () => {
  it("doubles reads under strong and bounded staleness only", () => {
    expect(CONSISTENCY_LEVELS.map(consistencyReadMultiplier)).toEqual([2, 2, 1, 1, 1]);
  });
});

describe("limitStatus", () => {
  it("has three levels: over the limit, near it from the share given, ok under that", () => {
    expect(limitStatus(10_001, 10_000, NEAR_PARTITION_RUS_SHARE)).toBe("over");
    expect(limitStatus(10_000, 10_000, NEAR_PARTITION_RUS_SHARE)).toBe("near");
    // The audit's busiest partitions: 9,988, 9,887 and 9,720 of 10,000 RU/s were marked ok.
    for (const rus of [9_988, 9_887, 9_720, 7_500])
      expect(limitStatus(rus, 10_000, NEAR_PARTITION_RUS_SHARE)).toBe("near");
    expect(limitStatus(7_499, 10_000, NEAR_PARTITION_RUS_SHARE)).toBe("ok");
    expect(limitStatus(14, 20, NEAR_LOGICAL_PARTITION_GB_SHARE)).toBe("near");
    expect(limitStatus(13.9, 20, NEAR_LOGICAL_PARTITION_GB_SHARE)).toBe("ok");
  });
});

describe("the generated runtime's key limits (src/runtime/key-limits.ts)", () => {
  it("are these limits", () => {
    expect(runtime.MAX_ID_BYTES).toBe(MAX_ID_BYTES);
    expect(runtime.MAX_PARTITION_KEY_VALUE_BYTES).toBe(MAX_PARTITION_KEY_VALUE_BYTES);
    expect([...runtime.FORBIDDEN_ID_CHARACTERS].sort()).toEqual([...FORBIDDEN_ID_CHARACTERS].sort());
  });
});
