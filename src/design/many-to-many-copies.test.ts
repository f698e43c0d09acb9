/**
 * Copies across a many-to-many relationship (m2m2: tag names copied into products, no `via`):
 * no relationship leads from a tag to the products holding its name, so neither a rename nor a
 * new product can keep the copy; the plans say so as typed findings, `evaluate` as errors, and
 * the design does not offer the copy (Q1 stays unserved: the workload must link tags to products);
 * with the link as an entity of its own (the suggestion), the copy on the link items is kept.
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

function m2m(): { workload: Workload; model: Model } {
  const text = readWriteFixture("m2m2");
  const workload = loadWorkload(text.workload);
  if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
  const model = loadModel(text.model, { workload: workload.value });
  if (!model.ok) throw new Error(JSON.stringify(model.issues));
  return { workload: workload.value, model: model.value };
}

const FINDING = {
  kind: "copyNotMaintainable",
  container: "products",
  itemType: "product",
  property: "tagName",
  entity: "Tag",
  attribute: "name",
};

describe("copies across a many-to-many relationship (m2m2)", () => {
  it("a rename of a tag and a new product find no path to keep product.tagName", () => {
    const { workload, model } = m2m();
    const plans = planModel(workload, model);
    const findings = (id: string) => {
      const plan = plans.find((p) => p.patternId === id);
      return plan?.type === "write" ? plan.findings : undefined;
    };
    expect(findings("W1")).toEqual([FINDING]);
    expect(findings("C1")).toEqual([FINDING]);
    // A new tag is copied nowhere: no product holds it yet.
    expect(findings("C2")).toBeUndefined();
  });

  it("evaluate reports each as an error naming the pattern, the holder and the copied attribute", () => {
    const { workload, model } = m2m();
    const issues = evaluateModel(workload, model).issues.filter(
      (issue) => issue.code === "evaluate.copyNotMaintainable",
    );
    expect(issues.map((issue) => [issue.pattern, issue.severity])).toEqual([
      ["C1", "error"],
      ["W1", "error"],
    ]);
    expect(issues[1]?.message).toMatch(/^products\/product\.tagName copies Tag\.name, but no relationship/);
    expect(issues[1]?.suggestion).toMatch(
      /^drop the copy; .* make the many-to-many link an entity of its own/,
    );
  });

  it("the design does not copy an attribute across the many-to-many relationship", () => {
    const { workload } = m2m();
    const baseline = baselineModel(workload);
    const q1 = workload.accessPatterns.find((p) => p.id === "Q1");
    if (q1?.type !== "read") throw new Error("Q1 is a read");
    const offered = denormalizationCandidates(workload, baseline, evaluateModel(workload, baseline), q1);
    expect(offered.map((c) => c.name)).toEqual([]);
    const { model, evaluation } = designModel(workload);
    const copies = model.containers.flatMap((c) => c.items.flatMap((i) => i.copies));
    expect(copies.filter((c) => c.from.entity === "Tag")).toEqual([]);
    expect(evaluation.issues.filter((issue) => issue.code === "evaluate.copyNotMaintainable")).toEqual([]);
  }, 60_000);

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
