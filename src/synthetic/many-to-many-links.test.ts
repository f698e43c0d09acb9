import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import { generateDataset } from "./generate-records.js";
import { linkedRecords } from "./many-to-many-links.js";

function shop(avg: number, max?: number) {
  const loaded = loadWorkload(`version: 1
name: links
entities:
  Product: { key: productId, count: 300, avgBytes: 300, attributes: { productId: string, title: string } }
  Tag: { key: tagId, count: 40, avgBytes: 100, attributes: { tagId: string, label: string } }
relationships:
  - { parent: Product, child: Tag, kind: many-to-many, avg: ${avg}${max === undefined ? "" : `, max: ${max}`} }
accessPatterns:
  - { id: Q1, name: product, type: read, entity: Product, where: { productId: eq }, with: [Tag.label], rps: { avg: 1, peak: 2 } }
`);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.value;
}

describe("synthetic many-to-many links", () => {
  it("link each parent to avg distinct children on average, at most max, and each child back", () => {
    const workload = shop(2.5, 3);
    const dataset = generateDataset(workload, { seed: 7 });
    const products = dataset.entities["Product"] ?? [];
    const tags = dataset.entities["Tag"] ?? [];
    const perProduct = products.map((p) => linkedRecords(workload, dataset, "Product", p, "Tag") ?? []);
    const total = perProduct.reduce((sum, list) => sum + list.length, 0);
    expect(total / products.length).toBeCloseTo(2.5, 1);
    for (const list of perProduct) {
      expect(list.length).toBeLessThanOrEqual(3);
      expect(new Set(list.map((t) => t["tagId"])).size).toBe(list.length);
    }
    // The same rows seen from the tags: as many links, each tag's products linking back to it.
    const perTag = tags.map((t) => linkedRecords(workload, dataset, "Tag", t, "Product") ?? []);
    expect(perTag.reduce((sum, list) => sum + list.length, 0)).toBe(total);
    const tag = tags[3];
    for (const product of perTag[3] ?? [])
      expect(
        (linkedRecords(workload, dataset, "Product", product, "Tag") ?? []).map((t) => t["tagId"]),
      ).toContain(tag?.["tagId"]);
    // Ordered by the other side's key.
    for (const list of perProduct) {
      const keys = list.map((t) => String(t["tagId"]));
      expect(keys).toEqual([...keys].sort());
    }
  });

  it("are kept when records are added or removed (writes never move links)", () => {
    const workload = shop(4);
    const dataset = generateDataset(workload, { seed: 7 });
    const product = dataset.entities["Product"]?.[10] ?? {};
    const before = (linkedRecords(workload, dataset, "Product", product, "Tag") ?? []).map((t) => t["tagId"]);
    const tags = dataset.entities["Tag"] ?? [];
    const removed = before[0];
    const changed = {
      ...dataset,
      entities: {
        ...dataset.entities,
        Tag: [...tags.filter((t) => t["tagId"] !== removed), { tagId: "tag-new", label: "new" }],
        Product: [{ productId: "product-new", title: "x" }, ...(dataset.entities["Product"] ?? [])],
      },
    };
    const after = (linkedRecords(workload, changed, "Product", product, "Tag") ?? []).map((t) => t["tagId"]);
    expect(after).toEqual(before.slice(1));
    expect(linkedRecords(workload, changed, "Product", { productId: "product-new" }, "Tag")).toEqual([]);
    expect(linkedRecords(workload, dataset, "Product", product, "Product")).toBeUndefined();
  });
});
