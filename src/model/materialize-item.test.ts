import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadModel } from "./load-model.js";
import {
  bucketOf,
  computeShard,
  effectiveItemType,
  fnv1a32,
  itemPartitionKeyValue,
  materializeItem,
  truncateUtf8,
} from "./materialize-item.js";
import { readExample } from "../test-support/model-examples.js";
import type { Container, ItemType, Model } from "./types.js";

function model(path: string): Model {
  const result = loadModel(readExample(path));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function itemOf(m: Model, containerName: string, type: string): { container: Container; item: ItemType } {
  const container = m.containers.find((candidate) => candidate.name === containerName);
  const item = container?.items.find((candidate) => candidate.type === type);
  if (container === undefined || item === undefined) throw new Error(`${containerName}/${type} not found`);
  return { container, item };
}

// 199 ASCII bytes, then "é" (2 bytes in UTF-8) across the 200-byte limit, then more text.
const longContent = `${"a".repeat(199)}é${"b".repeat(50)}`;
const post = {
  postId: "p1",
  userId: "u1",
  title: "Hello",
  content: longContent,
  creationDate: "2026-11-20T08:00:00Z",
};
const author = { userId: "u1", username: "ann" };

describe("materializeItem on the blogging models", () => {
  it("v3: the post copy in the users container is truncated to 200 bytes and keeps the derived data", () => {
    const v3 = model("blogging/model-v3.yaml");
    const { container, item } = itemOf(v3, "users", "post");
    const stored = materializeItem(item, container, post, {
      model: v3,
      copies: { User: author },
      counts: { Comment: 4, Like: 9 },
    });
    expect(stored).toEqual({
      id: "p1",
      userId: "u1",
      type: "post",
      postId: "p1",
      title: "Hello",
      content: "a".repeat(199),
      creationDate: "2026-11-20T08:00:00Z",
      userUsername: "ann",
      commentCount: 4,
      likeCount: 9,
    });
    expect(Object.keys(stored).slice(0, 3)).toEqual(["id", "userId", "type"]);
    expect(Buffer.byteLength(stored["content"] as string, "utf8")).toBeLessThanOrEqual(200);
  });

  it("v3: the feed copy is in the single 'post' partition of /type", () => {
    const v3 = model("blogging/model-v3.yaml");
    const { container, item } = itemOf(v3, "feed", "post");
    const stored = materializeItem(item, container, post, { model: v3, copies: { User: author } });
    expect(stored).toMatchObject({ id: "p1", type: "post", content: "a".repeat(199), commentCount: 0 });
    expect(itemPartitionKeyValue(item, post)).toEqual(["post"]);
  });

  it("expert: the feed replica key goes in /feedPartition", () => {
    const expert = model("blogging/expert-model.yaml");
    const { container, item } = itemOf(expert, "feed", "post");
    const stored = materializeItem(item, container, post, {
      model: expert,
      copies: { User: author },
      counts: { Comment: 1, Like: 2 },
      replica: 3,
    });
    expect(stored).toEqual({
      id: "p1",
      feedPartition: "post-3",
      type: "post",
      postId: "p1",
      userId: "u1",
      title: "Hello",
      content: "a".repeat(199),
      creationDate: "2026-11-20T08:00:00Z",
      userUsername: "ann",
      commentCount: 1,
      likeCount: 2,
    });
    expect(itemPartitionKeyValue(item, post, { replica: 7 })).toEqual(["post-7"]);
    expect(() => materializeItem(item, container, post, { model: expert, copies: { User: author } })).toThrow(
      /related.replica/,
    );
  });

  it("v2: a comment carries its author's username", () => {
    const v2 = model("blogging/model-v2.yaml");
    const { container, item } = itemOf(v2, "posts", "comment");
    const comment = {
      commentId: "c1",
      postId: "p1",
      userId: "u2",
      content: "Nice post",
      creationDate: "2026-11-21T09:30:00Z",
    };
    expect(
      materializeItem(item, container, comment, { copies: { User: { userId: "u2", username: "bob" } } }),
    ).toEqual({
      id: "c1",
      postId: "p1",
      type: "comment",
      commentId: "c1",
      userId: "u2",
      content: "Nice post",
      creationDate: "2026-11-21T09:30:00Z",
      userUsername: "bob",
    });
    expect(() => materializeItem(item, container, comment)).toThrow(/related.copies.User/);
  });

  it("v1: the user item in a container partitioned by /id", () => {
    const v1 = model("blogging/model-v1.yaml");
    const { container, item } = itemOf(v1, "users", "user");
    expect(materializeItem(item, container, author)).toEqual({
      id: "u1",
      type: "user",
      userId: "u1",
      username: "ann",
    });
  });
});

describe("materializeItem on the other expert models", () => {
  it("iot: one reading bucket per device and minute", () => {
    const iot = model("iot-telemetry/expert-model.yaml");
    const { container, item } = itemOf(iot, "telemetry", "readingBucket");
    const readings = [
      {
        readingId: "r1",
        deviceId: "dev-7",
        timestamp: "2026-11-22T10:15:02Z",
        temperature: 21.5,
        status: "ok",
      },
      {
        readingId: "r2",
        deviceId: "dev-7",
        timestamp: "2026-11-22T10:15:04Z",
        temperature: 21.6,
        status: "ok",
      },
    ];
    const [first] = readings;
    if (first === undefined) throw new Error("no reading");
    expect(materializeItem(item, container, first, { bucketRecords: readings })).toEqual({
      id: "dev-7-2026-11-22T10:15:00Z",
      deviceId: "dev-7",
      type: "readingBucket",
      timestamp: "2026-11-22T10:15:00Z",
      records: readings,
    });
    expect(itemPartitionKeyValue(item, first)).toEqual(["dev-7"]);
  });

  it("iot: the alert carries its own ttl", () => {
    const iot = model("iot-telemetry/expert-model.yaml");
    const { container, item } = itemOf(iot, "sites", "alert");
    const alert = { alertId: "a1", deviceId: "dev-7", siteId: "s1", status: "open" };
    expect(materializeItem(item, container, alert)).toEqual({
      id: "a1",
      siteId: "s1",
      type: "alert",
      alertId: "a1",
      deviceId: "dev-7",
      status: "open",
      ttl: 7776000,
    });
  });

  it("social: the reaction's shard is FNV-1a of userId modulo 20", () => {
    const social = model("social-reactions/expert-model.yaml");
    const { container, item } = itemOf(social, "reactions", "reaction");
    const reaction = { postId: "p9", userId: "a", kind: "like" };
    // FNV-1a 32 of "a" is 0xe40c292c = 3826002220 (FNV test vectors); 3826002220 mod 20 = 0.
    expect(materializeItem(item, container, reaction)).toMatchObject({
      id: "p9-a",
      postShard: "p9-0",
      type: "reaction",
    });
    expect(itemPartitionKeyValue(item, reaction, { shard: 13 })).toEqual(["p9-13"]);
  });

  it("accounts: the email lookup item stores only the selected attributes", () => {
    const accounts = model("accounts-sessions/expert-model.yaml");
    const { container, item } = itemOf(accounts, "accounts", "emailLookup");
    const account = { accountId: "acc1", email: "ann@example.com", passwordHash: "x", displayName: "Ann" };
    expect(materializeItem(item, container, account)).toEqual({
      id: "ann@example.com",
      type: "emailLookup",
      email: "ann@example.com",
      accountId: "acc1",
    });
  });

  it("ecommerce: the order embeds its lines and the product keeps a copy and a count", () => {
    const shop = model("ecommerce/expert-model.yaml");
    const order = itemOf(shop, "orders", "order");
    const lines = [{ orderLineId: "l1", productId: "x", quantity: 2 }];
    expect(
      materializeItem(
        order.item,
        order.container,
        { orderId: "o1", customerId: "c1" },
        { embeds: { OrderLine: lines } },
      ),
    ).toEqual({ id: "o1", customerId: "c1", type: "order", orderId: "o1", lines });
    const product = itemOf(shop, "products", "product");
    expect(
      materializeItem(
        product.item,
        product.container,
        { productId: "x", categoryId: "k" },
        {
          copies: { Category: { categoryId: "k", name: "Tools" } },
          counts: { Review: 12 },
        },
      ),
    ).toEqual({
      id: "x",
      productId: "x",
      type: "product",
      categoryId: "k",
      categoryName: "Tools",
      reviewCount: 12,
    });
  });

  it("multitenant: a hierarchical key keeps each level's value type", () => {
    const saas = model("multitenant-saas/expert-model.yaml");
    const { item } = itemOf(saas, "activity", "event");
    expect(
      itemPartitionKeyValue(item, { eventId: "e1", tenantId: 42, userId: "u1", sessionId: "s1" }),
    ).toEqual([42, "u1", "s1"]);
  });
});

describe("materializeItem details", () => {
  const container: Container = {
    name: "c",
    partitionKey: ["/address/zip"],
    uniqueKeys: [],
    indexing: { kind: "automatic" },
    items: [],
  };
  const base: ItemType = {
    type: "t",
    entity: "E",
    id: "{k}",
    partitionKey: ["{zip}"],
    truncate: [],
    embeds: [
      { entity: "C", as: "latestC", latest: 2 },
      { entity: "P", as: "profile" },
    ],
    copies: [],
    counts: [],
    ancestors: { as: "path" },
  };

  it("sets nested partition key paths, latest embeds, one-to-one embeds and ancestors", () => {
    const stored = materializeItem(
      base,
      container,
      { k: "k1", zip: "75001", address: { city: "Paris" } },
      {
        embeds: { C: [{ n: 3 }, { n: 2 }, { n: 1 }], P: { bio: "hi" } },
        ancestors: ["root", "k0"],
      },
    );
    expect(stored).toEqual({
      id: "k1",
      address: { city: "Paris", zip: "75001" },
      type: "t",
      k: "k1",
      zip: "75001",
      latestC: [{ n: 3 }, { n: 2 }],
      profile: { bio: "hi" },
      path: ["root", "k0"],
    });
    expect(materializeItem(base, container, { k: "k1", zip: "1" })).toMatchObject({
      latestC: [],
      profile: [],
      path: [],
    });
  });

  it("requires the model for an item type with a source", () => {
    const v3 = model("blogging/model-v3.yaml");
    const { item } = itemOf(v3, "users", "post");
    expect(() => effectiveItemType(item)).toThrow(/related.model/);
    expect(effectiveItemType(item, v3).copies.map((copy) => copy.as)).toEqual(["userUsername"]);
  });

  it("throws a clear error for a missing template value", () => {
    expect(() => materializeItem(base, container, { zip: "1" })).toThrow(/\{k\}/);
  });
});

describe("computeShard, bucketOf, truncateUtf8", () => {
  it("matches the FNV-1a 32-bit test vectors", () => {
    // From the FNV reference test suite (http://www.isthe.com/chongo/tech/comp/fnv/).
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
    expect(computeShard("foobar", 20)).toBe(0xbf9cf968 % 20);
  });

  it("always gives a shard in range", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1000 }), (value, shards) => {
        const shard = computeShard(value, shards);
        return (
          Number.isInteger(shard) && shard >= 0 && shard < shards && shard === computeShard(value, shards)
        );
      }),
    );
  });

  it("computes window starts and record chunks", () => {
    const minute = { kind: "window", by: "t", windowSeconds: 60 } as const;
    expect(bucketOf(minute, { t: "2026-11-22T10:15:59.999Z" })).toBe("2026-11-22T10:15:00Z");
    expect(bucketOf({ kind: "window", by: "t", windowSeconds: 3600 }, { t: 7201 })).toBe(7200);
    expect(bucketOf({ kind: "records", records: 100 }, {}, 250)).toBe(2);
    expect(() => bucketOf({ kind: "records", records: 100 }, {})).toThrow(/ordinal/);
    expect(() => bucketOf(minute, { t: "yesterday" })).toThrow(/date-time/);
  });

  it("cuts UTF-8 text without splitting a character", () => {
    expect(truncateUtf8("héllo", 2)).toBe("h");
    expect(truncateUtf8("héllo", 3)).toBe("hé");
    expect(truncateUtf8("😀x", 3)).toBe("");
    expect(truncateUtf8("😀x", 4)).toBe("😀");
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.integer({ min: 0, max: 40 }), (text, bytes) => {
        const cut = truncateUtf8(text, bytes);
        const encoded = Buffer.byteLength(cut, "utf8");
        const nextChar = [...text.slice(cut.length)][0] ?? "";
        const next = Buffer.byteLength(cut + nextChar, "utf8");
        return text.startsWith(cut) && encoded <= bytes && (cut.length === text.length || next > bytes);
      }),
    );
  });
});
