import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import { generateDataset } from "../synthetic/generate-records.js";
import { materializeDataset } from "../synthetic/materialize-dataset.js";
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
