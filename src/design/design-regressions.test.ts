/**
 * The workloads of issue 11 on which `design` crashed or left a hard limit broken, kept as
 * regression tests. Each is designed, written as model.yaml, loaded back and evaluated.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { formatIssue, formatPath } from "../common/issues.js";
import { briefIssue } from "../common/brief-issue.js";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import { readExample, readWriteFixture } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { designModel, type DesignResult } from "./design-model.js";

function workloadOf(document: Record<string, unknown> | string): Workload {
  const loaded = loadWorkload(typeof document === "string" ? document : stringify(document));
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** Designs, writes model.yaml, loads it back against the workload and evaluates it again. */
function designAndReload(workload: Workload): DesignResult {
  const result = designModel(workload);
  const loaded = loadModel(serializeModel(result.model), { file: "model.yaml", workload });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const again = evaluateModel(workload, loaded.value);
  expect(again.totals.monthlyCostUSD).toBeCloseTo(result.evaluation.totals.monthlyCostUSD, 6);
  return result;
}

const errorsOf = (result: DesignResult) =>
  result.evaluation.issues
    .filter((issue) => issue.severity === "error")
    .map((i) => `${i.code} ${formatPath(i.path)}`);

/** Customer -> Order (owned); orders read by their id and by restaurant. */
function customerOrders(avg: number, peak: number): Workload {
  return workloadOf({
    version: 1,
    name: "customer orders",
    entities: {
      Customer: { key: "customerId", count: 100_000, avgBytes: 1000, attributes: { customerId: "string" } },
      Order: {
        key: "orderId",
        count: 1_000_000,
        avgBytes: 1000,
        attributes: { orderId: "string", customerId: "string", restaurantId: "string" },
      },
    },
    relationships: [{ parent: "Customer", child: "Order", via: "customerId", avg: 10, owned: true }],
    accessPatterns: [
      {
        id: "Q1",
        name: "order by id",
        type: "read",
        entity: "Order",
        where: { orderId: "eq" },
        rps: { avg, peak },
      },
      {
        id: "Q2",
        name: "orders of a restaurant",
        type: "read",
        entity: "Order",
        where: { restaurantId: "eq" },
        rps: { avg, peak },
      },
    ],
  });
}

describe("design on the workloads of issue 11", () => {
  it.each([
    [300, 1000],
    [1000, 3000],
  ])(
    "Customer/Order at %d / %d requests/s: a model that loads and evaluates, without errors",
    (avg, peak) => {
      const result = designAndReload(customerOrders(avg, peak));
      expect(errorsOf(result)).toEqual([]);
    },
  );

  it("accounts-sessions with Q2 asking for all(Session) and latest(Session, 3)", () => {
    const text = readExample("accounts-sessions/workload.yaml").replace(
      "    where: { accountId: eq }\n    rps: { avg: 3000, peak: 10000 }",
      '    where: { accountId: eq }\n    with: [all(Session), "latest(Session, 3)"]\n    rps: { avg: 3000, peak: 10000 }',
    );
    const workload = workloadOf(text);
    const q2 = workload.accessPatterns.find((p) => p.id === "Q2");
    expect(q2?.type === "read" ? q2.with.length : 0).toBe(2);
    const result = designAndReload(workload);
    expect(errorsOf(result)).toEqual([]);
  });

  it("sample 2/3: Item counted on its Order from the change feed; the order is kept where an Item can address it", () => {
    // The design of 2026-11-25 kept orders in their account's partition (id order-{orderId}, key
    // {accountId}): the handler of an Item's change, which has only orderId, could not find it.
    const workload = workloadOf(readWriteFixture("counteraddr").workload);
    const result = designAndReload(workload);
    expect(errorsOf(result)).toEqual([]);
    const order = result.model.containers
      .flatMap((c) => c.items)
      .find((item) => item.counts.some((counter) => counter.of === "Item"));
    expect(order?.entity).toBe("Order");
    expect([order?.id, ...(order?.partitionKey ?? [])].join()).not.toContain("{accountId}");
  });
});

describe("design of bounded newest-N sets", () => {
  it("sizes one set for the largest limit of the reads in its order (a hot newest 10, a cool newest 100)", () => {
    const workload = workloadOf({
      version: 1,
      name: "orders",
      entities: {
        Order: {
          key: "orderId",
          count: 20_000_000,
          avgBytes: 500,
          attributes: { orderId: "string", score: { type: "number", changes: "frequent" } },
        },
      },
      accessPatterns: [
        {
          id: "C1",
          name: "create",
          type: "write",
          operation: "create",
          entity: "Order",
          rps: { avg: 15, peak: 22 },
        },
        {
          id: "Q1",
          name: "by id",
          type: "read",
          entity: "Order",
          where: { orderId: "eq" },
          rps: { avg: 30, peak: 30 },
        },
        {
          id: "Q8",
          name: "top 10",
          type: "read",
          entity: "Order",
          orderBy: { score: "desc" },
          limit: 10,
          rps: { avg: 1400, peak: 4100 },
        },
        {
          id: "Q9",
          name: "top 100",
          type: "read",
          entity: "Order",
          orderBy: { score: "desc" },
          limit: 100,
          rps: { avg: 30, peak: 30 },
        },
      ],
    });
    const result = designAndReload(workload);
    const sets = result.model.containers.flatMap((c) => c.items.filter((i) => i.keepLatest !== undefined));
    expect(sets.map((i) => i.keepLatest)).toEqual([{ count: 100, by: "score" }]);
    expect(result.evaluation.issues.filter((i) => i.code === "evaluate.boundedSetTooSmall")).toEqual([]);
    for (const id of ["Q8", "Q9"]) {
      const plan = planOf(result, id);
      expect(plan.kind, id).toBe("singlePartitionQuery");
    }
  });
});

const FIXTURES = fileURLToPath(new URL("./__fixtures__/issue-11/", import.meta.url));
/** A workload of the issue 11 audit (src/design/__fixtures__/issue-11), optionally edited. */
function audited(file: string, edit: (text: string) => string = (t) => t): Workload {
  const text = edit(readFileSync(`${FIXTURES}${file}`, "utf8"));
  const loaded = loadWorkload(text, { file });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** Every item type of a model with its container. */
const itemsOf = (model: Model) =>
  model.containers.flatMap((c) => c.items.map((item) => ({ container: c, item })));
const primaryOf = (model: Model, entity: string) => {
  const found = itemsOf(model).find((i) => i.item.entity === entity && i.item.source === undefined);
  if (found === undefined) throw new Error(`${entity} is not stored`);
  return found;
};
const planOf = (result: DesignResult, id: string) => {
  const found = result.evaluation.patterns.find((p) => p.id === id);
  if (found === undefined) throw new Error(`no pattern ${id}`);
  return found.plan;
};

describe("design on the reproducers of the issue 11 audit", () => {
  it("hot3: a copy keyed by a hot filter gets its replicas in the same step (no error, no dearer than the hand-made model)", () => {
    const workload = audited("hot3.yaml");
    const result = designAndReload(workload);
    expect(errorsOf(result)).toEqual([]);
    const manual = loadModel(readFileSync(`${FIXTURES}hot3-manual.yaml`, "utf8"), { workload });
    if (!manual.ok) throw new Error(manual.issues.map(formatIssue).join("\n"));
    const reference = evaluateModel(workload, manual.value);
    expect(reference.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThanOrEqual(
      reference.totals.monthlyCostUSD * 1.01,
    );
    // Q1 is a single-partition read of a copy keyed by eventId; no read fans out.
    expect(planOf(result, "Q1").kind).toBe("singlePartitionQuery");
    expect(planOf(result, "Q2").kind).toBe("pointRead");
  });

  it("hot: no key led by the hot event, and the read by the entity's own key stays a point read", () => {
    const result = designAndReload(audited("hot.yaml"));
    expect(errorsOf(result)).toEqual([]);
    for (const { container } of itemsOf(result.model)) expect(container.partitionKey[0]).not.toBe("/eventId");
    expect(planOf(result, "Q2").kind).toBe("pointRead");
  });

  // Known gap (open, issue 11): the newest 20 per status come from a bounded set (a status change
  // takes a member out of its status's set, which the change feed refills from the tickets), and
  // the set's hottest status needs 16,589 RU/s at peak (4 replicas; 8 would leave 10,133 for
  // $15,000 a month more, with the request charges refitted for issue 30): no spread the search
  // offers (write shards or replicas of the set) brings it under 10,000, so the design keeps one
  // hot-partition error and says why in figures (src/design/unmet-limits.ts).
  it("status: the design of the status reproducer names the limit it cannot meet and why no spread does", () => {
    const result = designAndReload(audited("status.yaml"));
    expect(errorsOf(result)).toEqual(["evaluate.hotPartition containers.tickets-latest-by-status"]);
    const unmet = result.decisions.find((d) => d.id === "unmet-limits");
    expect(unmet?.chosen).toBe("1 hard-limit error(s) remain");
    const why = unmet?.why ?? "";
    expect(why).toContain(
      "the hottest logical partition of tickets-latest-by-status needs 16,589 RU/s at peak, over the 10,000 RU/s",
    );
    expect(why).toContain("no replica count brings a key under 3,677 RU/s");
    expect(why).toContain("Serve Q1 from a cache");
    expect(result.decisions.some((d) => d.why.includes("respects every limit"))).toBe(false);
  });

  it("status: the tickets are never keyed by the status writes change; the newest 20 per status come from a set refilled from the tickets", () => {
    const result = designAndReload(audited("status.yaml"));
    const ticket = primaryOf(result.model, "Ticket");
    expect(ticket.item.partitionKey.join()).not.toContain("{status}");
    const q1 = planOf(result, "Q1");
    expect(q1.kind).toBe("singlePartitionQuery");
    const set = result.model.containers
      .find((c) => c.name === (q1.type === "read" ? q1.container : ""))
      ?.items.find((i) => i.type === (q1.type === "read" ? q1.itemType : ""));
    expect(set?.keepLatest).toEqual({ count: 20, by: "createdAt" });
    expect(set?.source).toBeDefined();
    expect(result.evaluation.issues.map((i) => i.code)).not.toContain("evaluate.boundedSetNotRefilled");
  });

  it("esc: complaints keyed by their id; the escalation queue is a copy (moved by the change feed when escalatedTo changes)", () => {
    const result = designAndReload(audited("esc.yaml"));
    expect(errorsOf(result)).toEqual([]);
    expect(primaryOf(result.model, "Complaint").item.partitionKey).toEqual(["{complaintId}"]);
    expect(planOf(result, "Q2").kind).toBe("singlePartitionQuery");
  });

  it("subs: receipts in their subscription's logical partition at 0% read correlation (a cost tie goes to co-location)", () => {
    const result = designAndReload(audited("subs.yaml"));
    expect(errorsOf(result)).toEqual([]);
    const subscription = primaryOf(result.model, "Subscription");
    const receipt = primaryOf(result.model, "Receipt");
    expect(receipt.container.name).toBe(subscription.container.name);
    expect(receipt.item.partitionKey).toEqual(["{subscriptionId}"]);
    expect(result.decisions.find((d) => d.id === "aggregate-Subscription-Receipt")?.chosen).toMatch(
      /^store Receipt items in the Subscription container/,
    );
  });

  it("subs with atomicWith: the receipt and its subscription's renewal are one transactional batch", () => {
    const workload = audited("subs.yaml", (t) =>
      t.replace(
        "      entity: Receipt,\n      rps: { avg: 50, peak: 200 },",
        "      entity: Receipt,\n      atomicWith: [W2],\n      rps: { avg: 50, peak: 200 },",
      ),
    );
    const w3 = workload.accessPatterns.find((p) => p.id === "W3");
    expect(w3?.type === "write" ? w3.atomicWith : []).toEqual(["W2"]);
    const result = designAndReload(workload);
    const atomic = result.decisions.find((d) => d.subject.kind === "atomicity");
    expect(atomic?.subject).toEqual({ kind: "atomicity", pattern: "W3", partner: "W2", together: true });
    expect(atomic?.chosen).toBe("one logical partition: a transactional batch");
    // The written model keeps both item types in one container and logical partition, and the
    // evaluation finds no split pair.
    const stored = itemsOf(result.model).filter(({ item }) => item.source === undefined);
    const receipt = stored.find(({ item }) => item.entity === "Receipt");
    const subscription = stored.find(({ item }) => item.entity === "Subscription");
    expect(receipt?.container.name).toBe(subscription?.container.name);
    expect(receipt?.item.partitionKey).toEqual(["{subscriptionId}"]);
    expect(receipt?.item.shards).toBeUndefined();
    expect(result.evaluation.issues.filter((i) => i.code === "evaluate.notAtomic")).toEqual([]);
  });

  it("a customer and its orders with the order count: atomicWith keeps them in one logical partition", () => {
    const document = (atomic: boolean) => ({
      version: 1,
      name: "customer orders with a count",
      entities: {
        Customer: {
          key: "customerId",
          count: 100_000,
          avgBytes: 1000,
          attributes: { customerId: "string", orderCount: "number" },
        },
        Order: {
          key: "orderId",
          count: 1_000_000,
          avgBytes: 1000,
          attributes: { orderId: "string", customerId: "string", restaurantId: "string" },
        },
      },
      relationships: [{ parent: "Customer", child: "Order", via: "customerId", avg: 10, owned: true }],
      accessPatterns: [
        {
          id: "Q1",
          name: "order by id",
          type: "read",
          entity: "Order",
          where: { orderId: "eq" },
          rps: { avg: 1000, peak: 3000 },
        },
        {
          id: "Q2",
          name: "orders of a restaurant",
          type: "read",
          entity: "Order",
          where: { restaurantId: "eq" },
          rps: { avg: 1000, peak: 3000 },
        },
        {
          id: "Q3",
          name: "customer",
          type: "read",
          entity: "Customer",
          where: { customerId: "eq" },
          rps: { avg: 100, peak: 300 },
        },
        {
          id: "W1",
          name: "place an order",
          type: "write",
          operation: "create",
          entity: "Order",
          ...(atomic ? { atomicWith: ["W2"] } : {}),
          rps: { avg: 50, peak: 200 },
        },
        {
          id: "W2",
          name: "count the order",
          type: "write",
          operation: "patch",
          entity: "Customer",
          changes: ["orderCount"],
          rps: { avg: 50, peak: 200 },
        },
      ],
    });
    const result = designAndReload(workloadOf(document(true)));
    const order = primaryOf(result.model, "Order");
    const owner = primaryOf(result.model, "Customer");
    expect(order.container.name).toBe(owner.container.name);
    expect(order.item.partitionKey).toEqual(["{customerId}"]);
    expect(result.decisions.find((d) => d.id === "atomic-W1-W2")?.subject).toEqual({
      kind: "atomicity",
      pattern: "W1",
      partner: "W2",
      together: true,
    });
    expect(result.evaluation.issues.filter((i) => i.code === "evaluate.notAtomic")).toEqual([]);
    expect(errorsOf(result)).toEqual([]);
    // Without atomicWith the search keeps orders in their own container keyed by order
    // ($465 a month against $503): the transactional batch is what moves them.
    const free = designAndReload(workloadOf(document(false)));
    expect(primaryOf(free.model, "Order").container.name).not.toBe(
      primaryOf(free.model, "Customer").container.name,
    );
    expect(result.evaluation.totals.monthlyCostUSD).toBeGreaterThanOrEqual(
      free.evaluation.totals.monthlyCostUSD,
    );
  });

  it("an atomic pair that no key can put together is said to be impossible, with the reason", () => {
    const result = designAndReload(
      workloadOf(`
version: 1
name: transfers
entities:
  Account: { key: accountId, count: 1000, avgBytes: 500, attributes: { accountId: string, balance: number } }
  Audit: { key: auditId, count: 100000, avgBytes: 300, attributes: { auditId: string, at: datetime } }
accessPatterns:
  - { id: W1, name: debit, type: write, operation: patch, entity: Account, changes: [balance], atomicWith: [W2], rps: { avg: 10, peak: 50 } }
  - { id: W2, name: audit, type: write, operation: create, entity: Audit, rps: { avg: 10, peak: 50 } }
  - { id: Q1, name: account, type: read, entity: Account, where: { accountId: eq }, rps: { avg: 10, peak: 50 } }
  - { id: Q2, name: audit, type: read, entity: Audit, where: { auditId: eq }, rps: { avg: 1, peak: 5 } }
`),
    );
    const atomic = result.decisions.find((d) => d.id === "atomic-W1-W2");
    expect(atomic?.subject).toEqual({ kind: "atomicity", pattern: "W1", partner: "W2", together: false });
    expect(atomic?.why).toMatch(/not parent and child through a key attribute/);
    // The typed finding says the same to every consumer of the evaluation (check, documents).
    const split = result.evaluation.issues.filter((i) => i.code === "evaluate.notAtomic");
    expect(split.map((i) => [i.code === "evaluate.notAtomic" ? i.reason : "", formatPath(i.path)])).toEqual([
      ["unrelated", "accessPatterns[0].atomicWith"],
    ]);
    for (const decision of result.decisions) expect(decision.why).not.toMatch(/respects every limit.*atomic/);
  });

  it("m2m2: a many-to-many attribute is copied as an array the change feed of Tag keeps; Q1 is served", () => {
    const result = designAndReload(audited("m2m2.yaml"));
    const holders = itemsOf(result.model).filter(({ item }) =>
      item.copies.some((c) => c.from.entity === "Tag"),
    );
    expect(holders.map(({ item }) => item.entity)).toEqual(["Product"]);
    expect(errorsOf(result)).toEqual([]);
    const w1 = result.evaluation.patterns.find((p) => p.id === "W1")?.plan;
    expect(w1?.type === "write" ? w1.async.map((s) => s.reason) : []).toContain("propagate");
    // The baseline cannot serve Q1: the copy is what removes the error.
    expect(result.baseline.errors).toBe(1);
  });

  it("gen-17: Order is never keyed by the accountId a write changes; the error that remains is named", () => {
    const result = designAndReload(audited("gen-17.yaml"));
    for (const { item } of itemsOf(result.model).filter(
      (i) => i.item.entity === "Order" && i.item.source === undefined,
    ))
      expect(item.partitionKey.join()).not.toContain("{accountId}");
    const unmet = result.decisions.find((d) => d.id === "unmet-limits");
    for (const error of result.evaluation.issues.filter((i) => i.severity === "error"))
      expect(unmet?.why).toContain(briefIssue(error));
  });

  it("gen-15 designs, reloads and evaluates without errors", () => {
    expect(errorsOf(designAndReload(audited("gen-15.yaml")))).toEqual([]);
  });

  it.each([
    [1, ["/promoCode"]],
    [0.15, ["/orderId"]],
  ])(
    "orders read by promo code (presence %d): a sparse attribute never keys the entity's own items",
    (presence, keyed) => {
      const result = designAndReload(
        workloadOf(`
version: 1
name: promos
entities:
  Order:
    key: orderId
    count: 1000000
    avgBytes: 1000
    attributes: { orderId: string, promoCode: { type: string, distinct: 5000, presence: ${presence} }, createdAt: datetime }
accessPatterns:
  - { id: C1, name: place, type: write, operation: create, entity: Order, rps: { avg: 100, peak: 300 } }
  - { id: Q1, name: orders of promo, type: read, entity: Order, where: { promoCode: eq }, rps: { avg: 1000, peak: 3000 } }
`),
      );
      expect(errorsOf(result)).toEqual([]);
      expect(primaryOf(result.model, "Order").container.partitionKey).toEqual(keyed);
      // Sparse: the read is served by a copy keyed by the code (it holds only the orders with one).
      expect(planOf(result, "Q1").kind).toBe("singlePartitionQuery");
    },
  );

  it("a read that must see every committed write (maxStalenessSeconds: 0) gets no change-feed copy", () => {
    const result = designAndReload(
      audited("esc.yaml", (t) => t.replace("id: Q2,", "id: Q2,\n      maxStalenessSeconds: 0,")),
    );
    const q2 = planOf(result, "Q2");
    const item = result.model.containers
      .find((c) => c.name === (q2.type === "read" ? q2.container : ""))
      ?.items.find((i) => i.type === (q2.type === "read" ? q2.itemType : ""));
    expect(item?.source).toBeUndefined();
  });

  it("a container needing more RU/s than the management API holds is written unpinned (model.yaml loads; the error is named)", () => {
    // 50,000 requests/s of 100 orders of 1.5 MB each: billions of RU/s, past 2,147,483,647.
    const result = designAndReload(audited("over-api-maximum.yaml"));
    const over = result.evaluation.issues.filter((i) => i.code === "evaluate.overContainerMaximum");
    expect(over.length).toBeGreaterThan(0);
    for (const issue of over) {
      expect(issue.severity).toBe("error");
      expect(result.decisions.find((d) => d.id === "unmet-limits")?.why).toContain(briefIssue(issue));
    }
  });

  /** gps.yaml with `binning` given and the pings' writer buffering `buffered` records per request. */
  const gps = (binning: string, buffered?: number) =>
    audited("gps.yaml", (t) =>
      t
        .replace("    ttlSeconds: 604800\n", `    ttlSeconds: 604800\n    ${binning}\n`)
        .replace(
          "entity: Ping, rps",
          buffered === undefined ? "entity: Ping, rps" : `entity: Ping, bufferedRecords: ${buffered}, rps`,
        ),
    );

  // The writer sends 60 readings at once (bufferedRecords), so a bucket is written whole or in a
  // few patches and binning pays; the bucket is the workload's.
  it.each([
    ["binning: false", "binning: false", undefined],
    ["a window", "binning: { windowSeconds: 300 }", { kind: "window", by: "at", windowSeconds: 300 }],
    ["records per item", "binning: { recordsPerItem: 50 }", { kind: "records", records: 50 }],
  ])("gps: binning follows the workload (%s)", (_label, binning, bucket) => {
    const result = designAndReload(gps(binning, 60));
    expect(primaryOf(result.model, "Ping").item.bucket).toEqual(bucket);
  });

  // A bucket holds its records append-only: records deleted one by one (a GDPR erase) are not
  // binned, even when the workload asks for binning (the model check would refuse the bucket).
  it("gps: pings deleted one by one are not binned, whatever the workload's binning", () => {
    const result = designAndReload(
      audited("gps.yaml", (t) =>
        t
          .replace(
            "    ttlSeconds: 604800\n",
            "    ttlSeconds: 604800\n    binning: { windowSeconds: 300 }\n",
          )
          .replace(
            "accessPatterns:\n",
            "accessPatterns:\n  - { id: D1, name: erase ping, type: write, operation: delete, entity: Ping, rps: { avg: 1, peak: 2 } }\n",
          ),
      ),
    );
    expect(primaryOf(result.model, "Ping").item.bucket).toBeUndefined();
    const decision = result.decisions.find((d) => d.id === "bucket-Ping");
    expect(decision?.alternatives.filter((a) => a.name.startsWith("bin Ping")) ?? []).toEqual([]);
  });

  it("gps: binning as written (a patch of the growing bucket per record) is offered in the workload's window and loses to one item per record", () => {
    const result = designAndReload(gps("binning: { windowSeconds: 3600 }"));
    expect(primaryOf(result.model, "Ping").item.bucket).toBeUndefined();
    const decision = result.decisions.find((d) => d.id === "bucket-Ping");
    expect(decision?.chosen).toBe("one item per record");
    const binned = decision?.alternatives.filter((a) => a.name.startsWith("bin Ping"));
    expect(binned?.map((a) => a.name)).toEqual([
      "bin Ping records into one item per vehicleId per 3600 s (the workload's binning; about 720 records each)",
    ]);
    const kept = decision?.alternatives.find((a) => a.name === "one item per record");
    expect(binned?.[0]?.monthlyCostUSD).toBeGreaterThan(kept?.monthlyCostUSD ?? Infinity);
  });
});
