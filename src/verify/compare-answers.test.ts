import { describe, expect, it } from "vitest";
import { generateDataset } from "../synthetic/generate-records.js";
import { findDuplicateItems, materializeDataset } from "../synthetic/materialize-dataset.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { unpackItem } from "./compare-answers.js";

describe("unpackItem", () => {
  it("returns the records of a bucket item, and a plain item as itself", () => {
    const { workload, model } = loadExample("iot-telemetry");
    const dataset = generateDataset(workload, { seed: 2, maxItemsPerEntity: 200 });
    const containers = materializeDataset(workload, model, dataset);
    const bucketType = model.containers.flatMap((c) => c.items).find((type) => type.bucket !== undefined);
    expect(bucketType).toBeDefined();
    if (bucketType === undefined) return;
    const bucketItems = containers
      .flatMap((c) => c.items)
      .filter((entry) => entry.itemType === bucketType.type);
    const unpacked = bucketItems.flatMap((entry) => unpackItem(bucketType, entry.item));
    // Every record of the entity comes back exactly once across the buckets.
    const ids = unpacked.map((record) => record["readingId"]).sort();
    expect(ids).toEqual((dataset.entities["Reading"] ?? []).map((record) => record["readingId"]).sort());
    const plainType = model.containers.flatMap((c) => c.items).find((type) => type.bucket === undefined);
    const plain = { id: "x", type: plainType?.type };
    if (plainType !== undefined) expect(unpackItem(plainType, plain)).toEqual([plain]);
  });
});

describe("findDuplicateItems", () => {
  it("finds ids that collide within a logical partition, and none in a sound model", () => {
    const { workload, model } = loadExample("social-reactions");
    const dataset = generateDataset(workload, { seed: 4, maxItemsPerEntity: 300 });
    expect(findDuplicateItems(materializeDataset(workload, model, dataset))).toEqual([]);
    // Reactions keyed by post only: every second reaction to a post collides.
    const broken = {
      ...model,
      containers: model.containers.map((container) => ({
        ...container,
        items: container.items.map((type) => (type.type === "reaction" ? { ...type, id: "{postId}" } : type)),
      })),
    };
    const duplicates = findDuplicateItems(materializeDataset(workload, broken, dataset));
    expect(duplicates.length).toBeGreaterThan(0);
    expect(duplicates.every((duplicate) => duplicate.itemTypes.every((type) => type === "reaction"))).toBe(
      true,
    );
  });
});
