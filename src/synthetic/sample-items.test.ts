import { describe, expect, it } from "vitest";
import { sampleItems } from "./sample-items.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";

describe("sampleItems", () => {
  it("gives a few items per item type, with non-empty counters first, deterministically", () => {
    const { workload, model } = loadExample("ecommerce");
    const samples = sampleItems(workload, model, { perItemType: 3, abbreviateStrings: 40 });
    const types = model.containers.flatMap((container) => container.items.map((item) => item.type));
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
    const product = model.containers
      .flatMap((container) => container.items)
      .find((item) => item.counts.length > 0);
    const productSample = samples.find((sample) => sample.itemType === product?.type);
    const counter = product?.counts[0]?.as ?? "";
    expect(productSample?.items.every(({ item }) => Number(item[counter]) > 0)).toBe(true);
    expect(sampleItems(workload, model, { perItemType: 3 })).toEqual(
      sampleItems(workload, model, { perItemType: 3 }),
    );
  });
});
