/**
 * Copies across a many-to-many relationship (m2m2: tag names copied into products, no `via`):
 * no relationship leads from a tag to the products holding its name, so neither a rename nor a
 * new product can keep the copy; the plans say so as typed findings, `evaluate` as errors, and
 * the design does not offer the copy (Q1 stays unserved: the workload must link tags to products).
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
});
