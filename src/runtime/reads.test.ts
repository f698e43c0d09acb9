/**
 * Paging a replicated read: the continuation names the replica of the first page, so every later
 * page reads that same replica; other tokens pass unchanged.
 */
import { describe, expect, it } from "vitest";
import { pinReplica, replicaToken } from "./reads.js";

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
