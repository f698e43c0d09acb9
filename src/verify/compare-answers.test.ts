import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import { generateDataset } from "../synthetic/generate-records.js";
import { findDuplicateItems, materializeDataset } from "../synthetic/materialize-dataset.js";
import { loadWorkload } from "../workload/load-workload.js";
import { unpackItem } from "./compare-answers.js";

describe("unpackItem", () => {
  it("returns the records of a bucket item, and a plain item as itself", () => {
    const folder = "/work/shared/examples/iot-telemetry";
    const workload = loadWorkload(readFileSync(`${folder}/workload.yaml`, "utf8"));
    if (!workload.ok) throw new Error("workload");
    const model = loadModel(readFileSync(`${folder}/expert-model.yaml`, "utf8"), {
      workload: workload.value,
    });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const dataset = generateDataset(workload.value, { seed: 2, maxItemsPerEntity: 200 });
    const containers = materializeDataset(workload.value, model.value, dataset);
    const bucketType = model.value.containers
      .flatMap((c) => c.items)
      .find((type) => type.bucket !== undefined);
    expect(bucketType).toBeDefined();
    if (bucketType === undefined) return;
    const bucketItems = containers
      .flatMap((c) => c.items)
      .filter((entry) => entry.itemType === bucketType.type);
    const unpacked = bucketItems.flatMap((entry) => unpackItem(bucketType, entry.item));
    // Every record of the entity comes back exactly once across the buckets.
    const ids = unpacked.map((record) => record["readingId"]).sort();
    expect(ids).toEqual((dataset.entities["Reading"] ?? []).map((record) => record["readingId"]).sort());
    const plainType = model.value.containers
      .flatMap((c) => c.items)
      .find((type) => type.bucket === undefined);
    const plain = { id: "x", type: plainType?.type };
    if (plainType !== undefined) expect(unpackItem(plainType, plain)).toEqual([plain]);
  });
});

describe("findDuplicateItems", () => {
  it("finds ids that collide within a logical partition, and none in a sound model", () => {
    const folder = "/work/shared/examples/social-reactions";
    const workload = loadWorkload(readFileSync(`${folder}/workload.yaml`, "utf8"));
    if (!workload.ok) throw new Error("workload");
    const model = loadModel(readFileSync(`${folder}/expert-model.yaml`, "utf8"), {
      workload: workload.value,
    });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const dataset = generateDataset(workload.value, { seed: 4, maxItemsPerEntity: 300 });
    expect(findDuplicateItems(materializeDataset(workload.value, model.value, dataset))).toEqual([]);
    // Reactions keyed by post only: every second reaction to a post collides.
    const broken = {
      ...model.value,
      containers: model.value.containers.map((container) => ({
        ...container,
        items: container.items.map((type) => (type.type === "reaction" ? { ...type, id: "{postId}" } : type)),
      })),
    };
    const duplicates = findDuplicateItems(materializeDataset(workload.value, broken, dataset));
    expect(duplicates.length).toBeGreaterThan(0);
    expect(duplicates.every((duplicate) => duplicate.itemTypes.every((type) => type === "reaction"))).toBe(
      true,
    );
  });
});
