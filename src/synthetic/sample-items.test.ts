import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import { loadWorkload } from "../workload/load-workload.js";
import { sampleItems } from "./sample-items.js";
import { EXAMPLES_DIR } from "../test-support/model-examples.js";

describe("sampleItems", () => {
  it("gives a few items per item type, with non-empty counters first, deterministically", () => {
    const workload = loadWorkload(readFileSync(`${EXAMPLES_DIR}ecommerce/workload.yaml`, "utf8"));
    if (!workload.ok) throw new Error("workload");
    const model = loadModel(readFileSync(`${EXAMPLES_DIR}ecommerce/expert-model.yaml`, "utf8"), {
      workload: workload.value,
    });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const samples = sampleItems(workload.value, model.value, { perItemType: 3, abbreviateStrings: 40 });
    const types = model.value.containers.flatMap((container) => container.items.map((item) => item.type));
    expect(samples.map((sample) => sample.itemType)).toEqual(types);
    for (const sample of samples) {
      expect(sample.items.length).toBe(3);
      for (const { item } of sample.items) {
        expect(item["type"]).toBe(sample.itemType);
        for (const value of Object.values(item)) {
          if (typeof value === "string") expect(value.length).toBeLessThanOrEqual(41);
        }
      }
    }
    const product = model.value.containers
      .flatMap((container) => container.items)
      .find((item) => item.counts.length > 0);
    const productSample = samples.find((sample) => sample.itemType === product?.type);
    const counter = product?.counts[0]?.as ?? "";
    expect(productSample?.items.every(({ item }) => Number(item[counter]) > 0)).toBe(true);
    expect(sampleItems(workload.value, model.value, { perItemType: 3 })).toEqual(
      sampleItems(workload.value, model.value, { perItemType: 3 }),
    );
  });
});
