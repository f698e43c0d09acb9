/**
 * Paging a replicated read: the continuation names the replica of the first page, so every later
 * page reads that same replica; other tokens pass unchanged. A read of many by `in` filters reads
 * every combination of their values once.
 */
import { describe, expect, it } from "vitest";
import { combinationsOf, firstInOrder, pinReplica, replicaToken } from "./reads.js";

describe("pinReplica and replicaToken", () => {
  it("round-trips the replica with the query's token", () => {
    const token = replicaToken({ attributes: {}, replica: 3 }, '{"token":"r1.x","range":{"min":""}}');
    expect(token).toBe('r3.{"token":"r1.x","range":{"min":""}}');
    expect(pinReplica({ replicas: 4 }, { continuationToken: token ?? "" })).toEqual({
      replica: 3,
      continuationToken: '{"token":"r1.x","range":{"min":""}}',
    });
  });

  it("leaves the first page, unreplicated items and foreign tokens alone", () => {
    expect(pinReplica({ replicas: 4 }, {})).toEqual({});
    expect(pinReplica({}, { continuationToken: "r2.abc" })).toEqual({ continuationToken: "r2.abc" });
    expect(pinReplica({ replicas: 2 }, { continuationToken: "r7.abc" })).toEqual({
      continuationToken: "r7.abc",
    });
    expect(replicaToken({ attributes: {} }, "abc")).toBe("abc");
    expect(replicaToken({ attributes: {}, replica: 1 }, undefined)).toBe(undefined);
  });
});

describe("firstInOrder", () => {
  it("answers items read by key as the query would: ORDER BY, then the limit (sampled design 6/15)", () => {
    const items = [{ id: "a", score: 2 }, { id: "b", score: 7 }, { id: "c" }, { id: "d", score: "x" }];
    expect(firstInOrder(items, [], 1).map((item) => item.id)).toEqual(["a"]);
    expect(
      firstInOrder(items, [{ attribute: "score", direction: "desc" }], 2).map((item) => item.id),
    ).toEqual(["d", "b"]);
    expect(
      firstInOrder(items, [{ attribute: "score", direction: "asc" }], undefined).map((item) => item.id),
    ).toEqual(["c", "a", "b", "d"]);
  });
});

describe("combinationsOf", () => {
  it("crosses the listed values of every `in` filter on an addressing attribute, each combination once", () => {
    expect(
      combinationsOf({ accountId: ["a6", "a7", "a6"], orderId: ["o7", "o6"], other: 1 }, [
        "accountId",
        "orderId",
      ]),
    ).toEqual([
      { accountId: "a6", orderId: "o7" },
      { accountId: "a6", orderId: "o6" },
      { accountId: "a7", orderId: "o7" },
      { accountId: "a7", orderId: "o6" },
    ]);
  });

  it("takes a value given alone as a list of one, and an empty list as no combination", () => {
    expect(combinationsOf({ accountId: "a1", orderId: ["o1"] }, ["accountId", "orderId"])).toEqual([
      { accountId: "a1", orderId: "o1" },
    ]);
    expect(combinationsOf({ orderId: [] }, ["orderId"])).toEqual([]);
  });
});
