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
import { planModel } from "./plan-model.js";
import { parseModel } from "../test-support/evaluate-fixtures.js";
import type { QueryStep, ReadPlan, WritePlan } from "./types.js";

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

describe("the ORDER BY of latest(Order, 3) on a container whose indexes do not serve it", () => {
  const workload = loaded.workload;
  const unindexed = "indexing: { included: [/type/?], excluded: [/*] }";
  const ordersIn = (name: string, extra: string): string => `
  - name: ${name}
    partitionKey: [/accountId]
    ${extra}
    items:
      - { type: order, entity: Order, id: "order-{orderId}", partitionKey: ["{accountId}"]${name === "orders" ? "" : ", source: orders/order"} }`;
  const accounts = `
  - name: accounts
    partitionKey: [/accountId]
    items:
      - { type: account, entity: Account, id: "{accountId}", partitionKey: ["{accountId}"] }`;

  function q1(modelText: string): ReadPlan {
    const plan = planModel(workload, parseModel(modelText, workload)).find((p) => p.patternId === "Q1");
    if (plan?.type !== "read") throw new Error("Q1 is not a read");
    return plan;
  }

  it("is read from a copy whose indexes serve it, not from a cheaper-looking one Cosmos DB refuses (independent seed 25)", () => {
    const plan = q1(
      `version: 1\ncontainers:${accounts}${ordersIn("orders-copy", unindexed)}${ordersIn("orders", "")}`,
    );
    const [, followUp] = plan.operations;
    expect(followUp).toMatchObject({ kind: "query", container: "orders", orderServedByIndex: true });
    expect(plan.served).toBe(true);
  });

  it("is a reason the read is not served when no container's indexes serve it", () => {
    const plan = q1(`version: 1\ncontainers:${accounts}${ordersIn("orders", unindexed)}`);
    expect(plan.operations[1]).toMatchObject({
      kind: "query",
      container: "orders",
      orderServedByIndex: false,
    });
    expect(plan.served).toBe(false);
    expect(plan.notes[0]).toContain(
      "latest(Order, 3): its ORDER BY on order in orders is served by no index",
    );
  });

  it("a refill Cosmos DB would refuse is not planned: the note says the embed keeps fewer", () => {
    const model = parseModel(
      `version: 1
containers:
  - name: accounts
    partitionKey: [/accountId]
    ${unindexed}
    items:
      - type: account
        entity: Account
        id: "{accountId}"
        partitionKey: ["{accountId}"]
        embeds: [{ entity: Order, as: recentOrders, latest: 3 }]
      - { type: order, entity: Order, id: "order-{orderId}", partitionKey: ["{accountId}"] }`,
      workload,
    );
    const plan = planModel(workload, model).find((p) => p.patternId === "D1");
    if (plan?.type !== "write") throw new Error("D1 is not a write");
    expect(queries(plan)).toEqual([]);
    expect(plan.refills).toBeUndefined();
    expect(plan.notes.join("\n")).toContain("is served by no index): the parent keeps fewer");
  });
});
