/**
 * The newest children embedded in their parent (`embeds: [{ latest: N }]`, test/fixtures/writes/
 * latest): a write of a child patches the parent; a delete, or a re-date of the child's time,
 * plans the query that refills the N newest from the children's own items for the share of writes
 * that hit a kept child; the follow-up query of `latest(X, N)` and that refill order by the
 * child's first datetime attribute, then its key, both descending, served by a composite index.
 */
import { describe, expect, it } from "vitest";
import { loadWriteFixture } from "../test-support/generated-module.js";
import { createPlanningContext } from "./context.js";
import { deriveIndexingPolicy } from "./indexing.js";
import type { QueryStep, WritePlan } from "./types.js";

const loaded = loadWriteFixture("latest");

function writePlan(id: string): WritePlan {
  const plan = loaded.plans.find((p) => p.patternId === id);
  if (plan?.type !== "write") throw new Error(`${id} is not a write`);
  return plan;
}

const queries = (plan: WritePlan): QueryStep[] =>
  plan.operations.filter((step): step is QueryStep => step.kind === "query");

describe("a latest: 3 embed of orders (6 per account)", () => {
  it("a delete refills the newest 3 half the time (3 kept of 6), ordered by placedAt then orderId", () => {
    const plan = writePlan("D1");
    const [refill] = queries(plan);
    expect(refill).toMatchObject({ container: "accounts", itemType: "order", times: 0.5, returned: 3 });
    expect(refill?.sql).toContain("ORDER BY c.placedAt DESC, c.orderId DESC");
    expect(refill?.sql).toMatch(/^SELECT TOP @limit \* FROM c WHERE/);
    expect(plan.refills).toEqual([
      {
        container: "accounts",
        itemType: "account",
        query: expect.objectContaining({ container: "accounts", itemType: "order", sql: refill?.sql }),
      },
    ]);
  });

  it("a re-date refills for the share that changes placedAt (rare: 1%) of the kept half", () => {
    const [refill] = queries(writePlan("W1"));
    expect(refill?.times).toBeCloseTo(0.005, 10);
  });

  it("a create needs no refill: a new order enters the kept 3 or is older than all of them", () => {
    const plan = writePlan("C2");
    expect(queries(plan)).toEqual([]);
    expect(plan.refills).toBeUndefined();
  });

  it("the derived policy indexes placedAt and orderId with the composite index the ORDER BY needs", () => {
    const context = createPlanningContext(loaded.workload, loaded.model);
    const container = loaded.model.containers[0];
    if (container === undefined) throw new Error("no container");
    const policy = deriveIndexingPolicy(context, container);
    expect(policy.included).toEqual(expect.arrayContaining(["/placedAt/?", "/orderId/?", "/accountId/?"]));
    expect(policy.composite).toContainEqual([
      { path: "/placedAt", order: "descending" },
      { path: "/orderId", order: "descending" },
    ]);
  });
});
