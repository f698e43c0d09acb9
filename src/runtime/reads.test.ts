/**
 * A read of many by key answers as the query would (ORDER BY, then the limit); a read of many by
 * `in` filters reads every combination of their values once. (Paging: paging.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { combinationsOf, firstInOrder } from "./reads.js";

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
