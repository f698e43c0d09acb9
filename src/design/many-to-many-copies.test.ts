/**
 * Copies across a many-to-many relationship (m2m2: tag names copied into products, no `via`):
 * the product holds an array of { tagId, name } elements (planner/many-to-many.ts). A rename of
 * a tag finds the products whose array holds the tag (a fan-out query on the indexed array key)
 * and patches each; a new product is written with its tags' elements; the design offers the copy
 * (Q1 served from the product item alone). The link as an entity of its own still works too.
 */
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import { designModel } from "./design-model.js";
import { baselineModel } from "./model-edits.js";
import { denormalizationCandidates } from "./rules-access.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { readWriteFixture } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { planModel } from "../planner/plan-model.js";
import { createPlanningContext } from "../planner/context.js";
import { describeItemShape } from "../planner/item-shape.js";

function m2m(): { workload: Workload; model: Model } {
  const text = readWriteFixture("m2m2");
  const workload = loadWorkload(text.workload);
  if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
  const model = loadModel(text.model, { workload: workload.value });
  if (!model.ok) throw new Error(JSON.stringify(model.issues));
  return { workload: workload.value, model: model.value };
}

/** The propagation a write plans, as "kind xtimes" per step. */
function propagations(plans: ReturnType<typeof planModel>, id: string) {
  const plan = plans.find((p) => p.patternId === id);
  return plan?.type === "write" ? plan.async.filter((step) => step.reason === "propagate") : [];
}

describe("copies across a many-to-many relationship (m2m2)", () => {
  it("a rename of a tag finds the products holding it in their array and patches each", () => {
    const { workload, model } = m2m();
    const plans = planModel(workload, model);
    const [rename] = propagations(plans, "W1");
    // 1,000,000 products x 5 tags over 5,000 tags: 1,000 products per tag; the name changes
    // rarely (1% of W1's requests), so 0.01 queries and 10 patches per rename request.
    expect(rename?.steps.map((s) => `${s.kind} x${s.times}`)).toEqual(["query x0.01", "write x10"]);
    const find = rename?.steps[0];
    expect(find).toMatchObject({ kind: "query", scope: "fanOut", returned: 1000 });
    expect(find?.kind === "query" ? find.sql : "").toBe(
      'SELECT c.id, c.tagName, c._etag FROM c WHERE c.type = @type AND ARRAY_CONTAINS(c.tagName, {"tagId": @tagId}, true)',
    );
    // The fixture's hand-written policy leaves the array out of the index: every product is loaded.
    expect(find?.note).toMatch(/\/tagName\/\[\]\/tagId is not indexed, so every product is loaded/);
    for (const id of ["W1", "C1", "C2"]) {
      const plan = plans.find((p) => p.patternId === id);
      expect(plan?.type === "write" ? plan.findings : "not a write", id).toBeUndefined();
    }
  });

  it("a delete of a tag removes its element from the 1,000 products linked to it, on every request", () => {
    const text = readWriteFixture("m2m2");
    const workload = loadWorkload(
      `${text.workload.trimEnd()}\n  - { id: D1, name: remove tag, type: write, operation: delete, entity: Tag, rps: { avg: 1, peak: 2 } }\n`,
    );
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const model = loadModel(text.model, { workload: workload.value });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const [removal] = propagations(planModel(workload.value, model.value), "D1");
    expect(removal?.steps.map((s) => `${s.kind} x${s.times}`)).toEqual(["query x1", "write x1000"]);
    expect(removal?.note).toMatch(/a deleted Tag leaves product\.tagName of the 1,000 product items/);
    // The tag is a delete carrier: under soft delete its delete is a tombstone the feed carries.
    const d1 = planModel(workload.value, model.value).find((p) => p.patternId === "D1");
    expect(d1?.type === "write" ? d1.operations.map((s) => s.note).join(" ") : "").toMatch(/soft delete/);
  });

  it("a copy of the holder (source:) replays each product the rename patched", () => {
    const { workload, model } = m2m();
    const byCategory = loadModel(
      `version: 1
containers:
  - name: products
    partitionKey: [/id]
    items:
      - type: product
        entity: Product
        id: product-{productId}
        partitionKey: ["product-{productId}"]
        copies: [{ from: Tag.name, as: tagName }]
      - { type: tag, entity: Tag, id: "tag-{tagId}", partitionKey: ["tag-{tagId}"] }
  - name: products-by-category
    partitionKey: [/categoryId]
    items:
      - { type: product, entity: Product, id: "{productId}", partitionKey: ["{categoryId}"], source: products/product }
`,
      { workload },
    );
    if (!byCategory.ok) throw new Error(JSON.stringify(byCategory.issues));
    expect(model.containers).toHaveLength(1);
    const plan = planModel(workload, byCategory.value).find((p) => p.patternId === "W1");
    const replays = plan?.type === "write" ? plan.async.filter((step) => step.reason === "copy") : [];
    // 0.01 renames x 1,000 linked products: 10 upserts into the copy per rename request.
    expect(replays.map((step) => [step.container, step.steps.map((s) => `${s.kind} x${s.times}`)])).toEqual([
      ["products-by-category", ["write x10"]],
    ]);
  });

  it("indexing the array key makes the rename's query an index lookup, far cheaper", () => {
    const { workload, model } = m2m();
    const scanned = propagations(planModel(workload, model), "W1")[0]?.steps[0]?.ru.estimate ?? 0;
    const [container] = model.containers;
    if (container?.indexing.kind !== "custom") throw new Error("the fixture's policy is custom");
    const indexed: Model = {
      ...model,
      containers: [
        {
          ...container,
          indexing: {
            ...container.indexing,
            included: [...container.indexing.included, "/tagName/[]/tagId/?"],
          },
        },
      ],
    };
    const lookup = propagations(planModel(workload, indexed), "W1")[0]?.steps[0];
    expect(lookup?.note).not.toMatch(/not indexed/);
    expect(lookup?.ru.estimate ?? Infinity).toBeLessThan(scanned / 10);
  });

  it("the product item carries the array: 5 elements on average, 20 (the maximum) at most", () => {
    const { workload, model } = m2m();
    const context = createPlanningContext(workload, model);
    const placement = context.placement("products", "product");
    const withoutCopy = {
      ...model,
      containers: model.containers.map((c) => ({ ...c, items: c.items.map((i) => ({ ...i, copies: [] })) })),
    };
    const bare = createPlanningContext(workload, withoutCopy).placement("products", "product");
    if (placement === undefined || bare === undefined) throw new Error("product placed");
    const shape = describeItemShape(context, placement.container, placement.item);
    const plain = describeItemShape(createPlanningContext(workload, withoutCopy), bare.container, bare.item);
    // "tagName":[ ... ] plus per element {"tagId":<string>,"name":<string>}
    const added = shape.avgBytes - plain.avgBytes;
    const largest = shape.maxBytes - plain.maxBytes;
    const element = (added - ("tagName".length + 4 + 2)) / 5;
    expect(element).toBeGreaterThan(20);
    expect(element).toBeLessThan(400);
    expect(largest).toBeCloseTo("tagName".length + 4 + 2 + 20 * element, 6);
  });

  it("evaluate reports no copy it cannot maintain, and serves Q1 from the product item alone", () => {
    const { workload, model } = m2m();
    const evaluation = evaluateModel(workload, model);
    expect(evaluation.issues.filter((issue) => issue.code === "evaluate.copyNotMaintainable")).toEqual([]);
    const q1 = evaluation.patterns.find((p) => p.id === "Q1");
    expect(q1?.plan.served).toBe(true);
    expect(q1?.plan.operations.map((s) => s.kind)).toEqual(["pointRead"]);
  });

  it("the design offers the copy across the many-to-many relationship and indexes the array key", () => {
    const { workload } = m2m();
    const baseline = baselineModel(workload);
    const q1 = workload.accessPatterns.find((p) => p.id === "Q1");
    if (q1?.type !== "read") throw new Error("Q1 is a read");
    const offered = denormalizationCandidates(workload, baseline, evaluateModel(workload, baseline), q1);
    expect(offered.map((c) => c.name)).toEqual(["copy Tag.name into product items as tagNames"]);
    const { model, evaluation } = designModel(workload);
    const holders = model.containers.flatMap((c) =>
      c.items.filter((i) => i.copies.some((copy) => copy.from.entity === "Tag")).map((i) => ({ c, i })),
    );
    expect(holders.map(({ i }) => i.copies)).toEqual([
      [{ from: { entity: "Tag", attribute: "name" }, as: "tagNames" }],
    ]);
    const indexing = holders[0]?.c.indexing;
    expect(indexing?.kind === "custom" ? indexing.included : []).toContain("/tagNames/[]/tagId/?");
    expect(evaluation.patterns.find((p) => p.id === "Q1")?.plan.served).toBe(true);
    expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  }, 60_000);

  it("a read of two attributes across the relationship gets both copies at once (each alone serves nothing)", () => {
    // independent seed 6: the copies were offered one at a time, and the read, still unserved
    // with one of them, refused each: both together come after each alone.
    const text = readWriteFixture("m2m2").workload.replace(
      "tagId: string, name: { type: string, changes: rare }",
      "tagId: string, name: { type: string, changes: rare }, color: string",
    );
    const loaded = loadWorkload(text.replace("with: [Tag.name]", "with: [Tag.name, Tag.color]"));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const workload = loaded.value;
    const baseline = baselineModel(workload);
    const q1 = workload.accessPatterns.find((p) => p.id === "Q1");
    if (q1?.type !== "read") throw new Error("Q1 is a read");
    const offered = denormalizationCandidates(workload, baseline, evaluateModel(workload, baseline), q1);
    expect(offered.map((c) => c.name)).toEqual([
      "copy Tag.name into product items as tagNames",
      "copy Tag.color into product items as tagColors",
      "copy Tag.name into product items as tagNames; copy Tag.color into product items as tagColors",
    ]);
    const { evaluation } = designModel(workload);
    expect(evaluation.patterns.find((p) => p.id === "Q1")?.plan.served).toBe(true);
    expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  }, 60_000);

  it("the design does not offer an array that would not fit the item (a tag with its products)", () => {
    // Products per tag: 5 x 1,000,000 / 5,000 = 1,000 elements of a ~1 KB title: ~1 MB, over the
    // 200 KB the design allows an array.
    const text = readWriteFixture("m2m2")
      .workload.replace("title: string", "title: { type: string, avgBytes: 1000 }")
      .replace(
        "- { id: Q2, name: tag, type: read, entity: Tag, where: { tagId: eq }, rps: { avg: 10, peak: 50 } }",
        "- { id: Q2, name: tag, type: read, entity: Tag, where: { tagId: eq }, with: [Product.title], rps: { avg: 10, peak: 50 } }",
      );
    const workload = loadWorkload(text);
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const baseline = baselineModel(workload.value);
    const q2 = workload.value.accessPatterns.find((p) => p.id === "Q2");
    if (q2?.type !== "read") throw new Error("Q2 is a read");
    const offered = denormalizationCandidates(
      workload.value,
      baseline,
      evaluateModel(workload.value, baseline),
      q2,
    );
    expect(offered.map((c) => c.name)).toEqual([]);
  });

  it("the link as an entity of its own (the suggestion) keeps the copy: a rename is propagated", () => {
    const workload = loadWorkload(`version: 1
name: shop tags linked
entities:
  Product: { key: productId, count: 1000000, avgBytes: 1500, attributes: { productId: string, title: string } }
  Tag: { key: tagId, count: 5000, avgBytes: 200, attributes: { tagId: string, name: { type: string, changes: rare } } }
  ProductTag: { key: productTagId, count: 5000000, avgBytes: 150, attributes: { productTagId: string, productId: string, tagId: string } }
relationships:
  - { parent: Product, child: ProductTag, via: productId, avg: 5, max: 20 }
  - { parent: Tag, child: ProductTag, via: tagId, avg: 1000 }
accessPatterns:
  - { id: C1, name: tag a product, type: write, operation: create, entity: ProductTag, rps: { avg: 25, peak: 100 } }
  - { id: W1, name: rename tag, type: write, operation: patch, entity: Tag, changes: [name], rps: { avg: 1, peak: 5 } }
  - { id: Q1, name: tag names of a product, type: read, entity: ProductTag, where: { productId: eq }, with: [Tag.name], rps: { avg: 2000, peak: 8000 } }
`);
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const model = loadModel(
      `version: 1
containers:
  - name: products
    partitionKey: [/productId]
    items:
      - { type: product, entity: Product, id: "{productId}", partitionKey: ["{productId}"] }
      - type: productTag
        entity: ProductTag
        id: "{productTagId}"
        partitionKey: ["{productId}"]
        copies: [{ from: Tag.name, as: tagName }]
  - name: tags
    partitionKey: [/tagId]
    items:
      - { type: tag, entity: Tag, id: "{tagId}", partitionKey: ["{tagId}"] }
`,
      { workload: workload.value },
    );
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const evaluation = evaluateModel(workload.value, model.value);
    expect(evaluation.issues.filter((issue) => issue.code === "evaluate.copyNotMaintainable")).toEqual([]);
    const w1 = evaluation.patterns.find((p) => p.id === "W1")?.plan;
    const propagated = w1?.type === "write" ? w1.async.filter((step) => step.reason === "propagate") : [];
    // The name changes rarely (1% of W1's requests): then the rename finds the tag's 1,000 link
    // items (a fan-out: they live in their products' partitions) and patches each.
    expect(propagated.map((step) => step.steps.map((s) => `${s.kind} x${s.times}`))).toEqual([
      ["query x0.01", "write x10"],
    ]);
    expect(propagated[0]?.steps[0]).toMatchObject({ kind: "query", scope: "fanOut", returned: 1000 });
    const q1 = evaluation.patterns.find((p) => p.id === "Q1");
    expect(q1?.plan.served).toBe(true);
    expect(q1?.fanOut).toBe(false);
  });
});
