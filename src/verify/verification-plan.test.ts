/**
 * The verification plan: deterministic from the seed, data within the per-container cap, writes
 * that the oracle's dataset reflects, read requests aimed at changed data first, and the
 * endpoint's missing capabilities reported with their reasons.
 */
import { describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { readExample, readExampleWorkload } from "../test-support/model-examples.js";
import { EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, REAL_CAPABILITIES } from "./endpoint.js";
import { answerReadPattern } from "./oracle.js";
import { buildVerificationPlan, missingCapability, writtenWithParent } from "./verification-plan.js";
import type { QueryStep } from "../planner/types.js";
import type { ReadPattern } from "../workload/types.js";

const workload = readExampleWorkload("blogging");
const loaded = loadModel(readExample("blogging/expert-model.yaml"), { workload });
if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
const model: Model = loaded.value;
const SMALL = { maxItemsPerEntity: 200, maxItemsPerContainer: 1000 };

describe("buildVerificationPlan", () => {
  const plan = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
    ...SMALL,
    seed: 7,
  });

  it("is the same for the same seed and differs for another", () => {
    const again = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
      ...SMALL,
      seed: 7,
    });
    const other = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
      ...SMALL,
      seed: 8,
    });
    expect(JSON.stringify(again.writes)).toBe(JSON.stringify(plan.writes));
    expect(JSON.stringify(again.patterns)).toBe(JSON.stringify(plan.patterns));
    expect(JSON.stringify(other.dataset)).not.toBe(JSON.stringify(plan.dataset));
  });

  it("keeps every container within the cap by scaling the data down", () => {
    const capped = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
      maxItemsPerEntity: 2000,
      maxItemsPerContainer: 500,
    });
    const sizes = capped.items.map((container) => container.items.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500);
    expect(capped.maxItemsPerEntity).toBeLessThan(2000);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
  });

  it("lists one check per access pattern, in workload order, with the evaluation's estimate", () => {
    expect(plan.patterns.map((check) => check.patternId)).toEqual(workload.accessPatterns.map((p) => p.id));
    for (const check of plan.patterns) {
      expect(check.estimate.low).toBeLessThanOrEqual(check.estimate.estimate);
      expect(check.estimate.high).toBeGreaterThanOrEqual(check.estimate.estimate);
    }
  });

  it("plans writes whose effect the final dataset holds (a renamed user, new posts and comments)", () => {
    expect(plan.writes.length).toBeGreaterThan(0);
    expect(new Set(plan.writes.map((write) => write.patternId))).toEqual(new Set(["C1", "C2", "C3", "C4"]));
    const comments = (dataset: typeof plan.dataset) => dataset.entities["Comment"]?.length ?? 0;
    const c3 = plan.writes.filter((write) => write.patternId === "C3").length;
    expect(comments(plan.finalDataset)).toBe(comments(plan.dataset) + c3);
    // A comment's parent record comes with it (for parent items the comment's key does not address).
    const comment = plan.writes.find((write) => write.patternId === "C3");
    expect(comment?.parents["Post"]?.["postId"]).toBe(comment?.record["postId"]);
  });

  it("aims the first request of a read pattern at data the writes changed", () => {
    const q2 = plan.patterns.find((check) => check.patternId === "Q2");
    if (q2?.kind !== "read") throw new Error("Q2 is a read");
    const first = q2.requests[0];
    expect(first?.focus).toBe("changed");
    const pattern = workload.accessPatterns.find((p) => p.id === "Q2") as ReadPattern;
    const before = answerReadPattern(workload, plan.dataset, pattern, first?.parameters ?? {});
    const after = answerReadPattern(workload, plan.finalDataset, pattern, first?.parameters ?? {});
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    expect(q2.requests.length).toBeGreaterThan(1);
  });

  it("aims one request at each kind of change (a new child's counter, a renamed author's copy)", () => {
    const q3 = plan.patterns.find((check) => check.patternId === "Q3");
    if (q3?.kind !== "read") throw new Error("Q3 is a read");
    const changed = q3.requests.filter((request) => request.focus === "changed");
    expect(changed.length).toBeGreaterThan(1);
    expect(new Set(changed.map((request) => JSON.stringify(request.parameters))).size).toBe(changed.length);
    expect(q3.requests[0]?.focus).toBe("changed");
  });

  it("renames records whose children hold copies of them (a category with products)", () => {
    const ecommerce = readExampleWorkload("ecommerce");
    const expert = loadModel(readExample("ecommerce/expert-model.yaml"), { workload: ecommerce });
    if (!expert.ok) throw new Error("ecommerce model");
    const planned = buildVerificationPlan(
      ecommerce,
      expert.value,
      EMBEDDED_CAPABILITIES,
      EMBEDDED_LIMITATIONS,
      {
        maxItemsPerEntity: 300,
      },
    );
    const renamed = planned.writes.filter((write) => write.patternId === "C9");
    // Only 2 of the 300 categories have products in this data: a random pick would miss them.
    const withProducts = new Set(
      planned.dataset.entities["Product"]?.map((product) => product["categoryId"]),
    );
    expect(withProducts.size).toBeLessThan(10);
    const first = renamed[0];
    expect(withProducts.has(first?.record["categoryId"])).toBe(true);
    const before = planned.dataset.entities["Category"]?.find(
      (category) => category["categoryId"] === first?.record["categoryId"],
    );
    expect(first?.record["name"]).not.toBe(before?.["name"]);
  });

  it("names the checks the embedded endpoint cannot run, and none on a real endpoint", () => {
    expect(plan.limitations.map((l) => l.capability).sort()).toEqual(
      ["atomicBatch", "changeFeed", "measuresRequestCharge", "patchInBatch"].sort(),
    );
    for (const limitation of plan.limitations) {
      expect(limitation.reason).toBe(EMBEDDED_LIMITATIONS[limitation.capability]);
    }
    const real = buildVerificationPlan(workload, model, REAL_CAPABILITIES, EMBEDDED_LIMITATIONS, SMALL);
    expect(real.limitations).toEqual([]);
  });

  it("writes children the model embeds in their parent's item with the parent's create", () => {
    const ecommerce = readExampleWorkload("ecommerce");
    const expert = loadModel(readExample("ecommerce/expert-model.yaml"), { workload: ecommerce });
    if (!expert.ok) throw new Error("ecommerce model");
    const planned = buildVerificationPlan(
      ecommerce,
      expert.value,
      EMBEDDED_CAPABILITIES,
      EMBEDDED_LIMITATIONS,
      {
        maxItemsPerEntity: 100,
      },
    );
    const c4 = planned.patterns.find((check) => check.patternId === "C4");
    if (c4?.kind !== "write") throw new Error("C4 is a write");
    // C4 (order lines) writes nothing of its own: the lines are embedded in the order (C3).
    expect(writtenWithParent(c4.plan)).toBeDefined();
    expect(c4.writes).toEqual([]);
    expect(c4.notCheckable).toBeUndefined();
    expect(c4.writtenWith).toBe("C3");
    const orders = planned.writes.filter((write) => write.patternId === "C3");
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      const lines = order.embeds?.["OrderLine"] ?? [];
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((line) => line["orderId"] === order.record["orderId"])).toBe(true);
      // The oracle's dataset holds the lines too.
      const stored = planned.finalDataset.entities["OrderLine"]?.filter(
        (line) => line["orderId"] === order.record["orderId"],
      );
      expect(stored).toEqual(lines);
    }
    expect(c4.companionWrites).toBe(
      orders.reduce((sum, o) => sum + (o.embeds?.["OrderLine"]?.length ?? 0), 0),
    );
  });
});

describe("missingCapability", () => {
  const query = (sql: string): QueryStep => ({
    kind: "query",
    container: "c",
    itemType: "t",
    sql,
    parameters: [],
    scope: "single",
    partitions: 1,
    returned: 1,
    orderServedByIndex: true,
    ru: { estimate: 1, low: 1, high: 1 },
    times: 1,
    note: "test",
  });

  it("names the SQL the embedded endpoint cannot parse, with its reason", () => {
    const offset = [query("SELECT * FROM c WHERE c.type = @type ORDER BY c.at DESC OFFSET 10 LIMIT 10")];
    expect(missingCapability(offset, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS)).toBe(
      EMBEDDED_LIMITATIONS.offsetLimit,
    );
    const grouped = [query("SELECT c.kind, COUNT(1) AS n FROM c GROUP BY c.kind")];
    expect(missingCapability(grouped, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS)).toBe(
      EMBEDDED_LIMITATIONS.groupBy,
    );
    const distinct = [query("SELECT DISTINCT VALUE c.userId FROM c")];
    expect(missingCapability(distinct, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS)).toBe(
      EMBEDDED_LIMITATIONS.distinct,
    );
  });

  it("has nothing to say about plain queries, or on a real endpoint", () => {
    const plain = [query("SELECT TOP @limit * FROM c WHERE c.type = @type ORDER BY c.at DESC")];
    expect(missingCapability(plain, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS)).toBeUndefined();
    const offset = [query("SELECT * FROM c OFFSET 0 LIMIT 5")];
    expect(missingCapability(offset, REAL_CAPABILITIES, EMBEDDED_LIMITATIONS)).toBeUndefined();
  });
});
