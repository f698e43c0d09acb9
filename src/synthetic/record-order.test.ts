/**
 * The one order of "newest" (`workload/recency.ts`): by the entity's first datetime attribute,
 * latest first, ties by the key, greater first — what the runtime's `latest: N` embed and the
 * `latest(X, N)` follow-up query (`ORDER BY c.t DESC, c.key DESC`) return.
 */
import { describe, expect, it } from "vitest";
import type { Entity } from "../workload/types.js";
import { newestFirst } from "./record-order.js";

const order: Entity = {
  name: "Order",
  key: ["orderId"],
  count: 4,
  growthPerMonth: 0,
  avgBytes: 100,
  maxBytes: 400,
  attributes: [
    { name: "orderId", type: "string" },
    { name: "total", type: "number" },
    { name: "placedAt", type: "datetime" },
    { name: "shippedAt", type: "datetime" },
  ] as unknown as Entity["attributes"],
};

describe("newestFirst", () => {
  it("orders by the first datetime attribute, latest first, ties by the key (greater first), not by position", () => {
    const records = [
      { orderId: "o1", placedAt: "2026-01-02T00:00:00Z", shippedAt: "2026-03-01T00:00:00Z" },
      { orderId: "o3", placedAt: "2026-01-01T00:00:00Z", shippedAt: "2026-09-01T00:00:00Z" },
      { orderId: "o2", placedAt: "2026-01-02T00:00:00Z" },
      { orderId: "o4", placedAt: "2026-01-03T00:00:00Z" },
    ];
    expect(newestFirst(order, records).map((record) => record["orderId"])).toEqual(["o4", "o2", "o1", "o3"]);
  });

  it("an entity without a datetime attribute (no latest: only all) lists later records first", () => {
    const untimed: Entity = { ...order, attributes: order.attributes.slice(0, 2) };
    const records = [{ orderId: "o2" }, { orderId: "o1" }, { orderId: "o3" }];
    expect(newestFirst(untimed, records).map((record) => record["orderId"])).toEqual(["o3", "o1", "o2"]);
  });
});
