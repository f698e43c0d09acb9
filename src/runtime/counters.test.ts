/**
 * Counters kept from the latest-version change feed over an in-memory container (patch `set` and
 * `incr` as Cosmos DB applies them): a child re-parented by a patch of its parent key moves its
 * count (-1 to the old holder, +1 to the new one), once however often the change is delivered.
 */
import type { Container, PatchOperation } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import type { Charged, ItemChange, Runtime } from "./context.js";
import { applyCounter, countedFlag, countedFlagValue } from "./counters.js";
import type { ItemTypeShape, StoredItem } from "./items.js";
import type { MaintenanceTask } from "./tasks.js";

type CounterTask = Extract<MaintenanceTask, { kind: "counter" }>;

/** Items by id; `patch` applies `set` and `incr` (what the counters send). */
function memoryContainer(items: Map<string, StoredItem>): Container {
  const patch = (id: string) => (body: unknown) => {
    const item = items.get(id);
    if (item === undefined) return Promise.reject(Object.assign(new Error("missing"), { code: 404 }));
    const operations = (
      Array.isArray(body) ? body : (body as { operations: PatchOperation[] }).operations
    ) as {
      op: string;
      path: string;
      value: unknown;
    }[];
    for (const operation of operations) {
      const name = operation.path.slice(1);
      if (operation.op === "incr")
        item[name] = ((item[name] as number | undefined) ?? 0) + (operation.value as number);
      else item[name] = operation.value;
    }
    return Promise.resolve({ resource: { ...item }, requestCharge: 1 });
  };
  return { item: (id: string) => ({ patch: patch(id) }) } as unknown as Container;
}

const base = { truncate: [], embeds: [], copies: [], counts: [] } as const;
const accounts: ItemTypeShape = {
  ...base,
  container: "accounts",
  type: "account",
  entity: "Account",
  id: "{accountId}",
  partitionKey: ["{accountId}"],
  keyPaths: ["/accountId"],
  counts: [{ of: "Order", as: "orderCount" }] as unknown as ItemTypeShape["counts"],
};
const orders: ItemTypeShape = {
  ...base,
  container: "orders",
  type: "order",
  entity: "Order",
  id: "{orderId}",
  partitionKey: ["{orderId}"],
  keyPaths: ["/orderId"],
  countedFromFeed: true,
};
const task: CounterTask = {
  kind: "counter",
  holder: { container: "accounts", itemType: "account" },
  id: "{accountId}",
  partitionKey: ["{accountId}"],
  bind: { accountId: "accountId" },
  property: "orderCount",
  childKey: ["orderId"],
};
const flag = countedFlag(task);

function setup() {
  const stores = {
    accounts: new Map<string, StoredItem>([
      ["a1", { id: "a1", accountId: "a1", orderCount: 1 }],
      ["a2", { id: "a2", accountId: "a2", orderCount: 0 }],
    ]),
    orders: new Map<string, StoredItem>([
      ["o1", { id: "o1", orderId: "o1", accountId: "a2", [flag]: { accountId: "a1" } }],
    ]),
  };
  const runtime = {
    container: (name: string) => memoryContainer(stores[name as keyof typeof stores]),
    shape: (container: string) => (container === "accounts" ? accounts : orders),
    itemTypes: () => [],
    copySources: () => ({}),
    transactionalBatch: false,
    random: () => 0,
    changeFeedMode: "latestVersion",
    cached: () => runtime,
  } as Runtime;
  return { stores, runtime };
}

/** The stored order o1 (present in every test). */
function order(stores: ReturnType<typeof setup>["stores"]): StoredItem {
  const item = stores.orders.get("o1");
  if (item === undefined) throw new Error("no order o1");
  return { ...item };
}

const count = (stores: ReturnType<typeof setup>["stores"], id: string) =>
  stores.accounts.get(id)?.["orderCount"];

describe("counters kept from the change feed", () => {
  it("a child re-parented by a patch moves its count from the old holder to the new one, once", async () => {
    const { stores, runtime } = setup();
    const charged: Charged = { requestCharge: 0, changes: [] };
    // The patch changed accountId a1 -> a2; the flag still names a1, which counted it.
    const change = (): ItemChange => ({ kind: "upsert", item: order(stores) });
    await applyCounter(runtime, charged, task, orders, [change()]);
    expect([count(stores, "a1"), count(stores, "a2")]).toEqual([0, 1]);
    expect(stores.orders.get("o1")?.[flag]).toEqual({ accountId: "a2" });
    // Delivered again (the feed shows the item as it is now, flag set): nothing moves twice.
    await applyCounter(runtime, charged, task, orders, [change()]);
    expect([count(stores, "a1"), count(stores, "a2")]).toEqual([0, 1]);
  });

  it("a tombstone is uncounted from the holder its flag names; a new child is counted by its own", async () => {
    const { stores, runtime } = setup();
    const charged: Charged = { requestCharge: 0, changes: [] };
    const soft: ItemTypeShape = { ...orders, softDelete: { property: "deleted", ttlSeconds: 60 } };
    const tombstone = { ...order(stores), deleted: true };
    await applyCounter(runtime, charged, task, soft, [{ kind: "upsert", item: tombstone }]);
    expect([count(stores, "a1"), count(stores, "a2")]).toEqual([0, 0]);
    expect(stores.orders.get("o1")?.[flag]).toBe(false);
    await applyCounter(runtime, charged, task, soft, [
      { kind: "upsert", item: { ...order(stores), deleted: false } },
    ]);
    expect([count(stores, "a1"), count(stores, "a2")]).toEqual([0, 1]);
  });

  it("reads true (older items, loaded data) as counted by the holder the child addresses now", () => {
    expect(countedFlagValue(true)).toBe(true);
    expect(countedFlagValue(false)).toBeUndefined();
    expect(countedFlagValue({ accountId: "a1" })).toEqual({ accountId: "a1" });
  });
});
