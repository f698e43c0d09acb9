import { describe, expect, it } from "vitest";
import type { Container, ItemType, Model } from "../model/types.js";
import { distinctItemIds } from "./model-edits.js";

const item = (type: string, entity: string, id: string, partitionKey: string[]): ItemType => ({
  type,
  entity,
  id,
  partitionKey,
  truncate: [],
  embeds: [],
  copies: [],
  counts: [],
});
const container = (name: string, partitionKey: string[], items: ItemType[]): Container => ({
  name,
  partitionKey,
  uniqueKeys: [],
  indexing: { kind: "derived" },
  items,
});

describe("distinctItemIds", () => {
  it("prefixes the ids of item types that could collide in one container keyed by /id, and their keys", () => {
    const model: Model = {
      version: 1,
      containers: [
        container(
          "shared",
          ["/id"],
          [
            item("customer", "Customer", "{customerId}", ["{customerId}"]),
            item("address", "Address", "{addressId}", ["{addressId}"]),
          ],
        ),
      ],
    };
    const items = distinctItemIds(model).containers[0]?.items;
    expect(items?.map((i) => [i.id, i.partitionKey])).toEqual([
      ["customer-{customerId}", ["customer-{customerId}"]],
      ["address-{addressId}", ["address-{addressId}"]],
    ]);
  });

  it("keeps a partition key that is an attribute, and containers whose ids cannot collide", () => {
    const model: Model = {
      version: 1,
      containers: [
        container(
          "users",
          ["/userId"],
          [item("user", "User", "{userId}", ["{userId}"]), item("post", "Post", "{postId}", ["{userId}"])],
        ),
        container("alone", ["/orderId"], [item("order", "Order", "{orderId}", ["{orderId}"])]),
        container(
          "distinct",
          ["/siteId"],
          [item("site", "Site", "site", ["{siteId}"]), item("device", "Device", "{deviceId}", ["{siteId}"])],
        ),
      ],
    };
    const [users, alone, distinct] = distinctItemIds(model).containers;
    expect(users?.items.map((i) => [i.id, i.partitionKey])).toEqual([
      ["user-{userId}", ["{userId}"]],
      ["post-{postId}", ["{userId}"]],
    ]);
    expect(alone).toBe(model.containers[1]);
    expect(distinct).toBe(model.containers[2]);
  });
});
