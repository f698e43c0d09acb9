/**
 * Paging a read: the pages of a read merged from several shards' queries, joined, are the read in
 * one large page (no item twice, none skipped, ties included), in the read's order; a page holds
 * the size asked however many shards it merges; the token carries every shard's position and the
 * replica. The queries run on a fake container whose partitions answer in their own order (ties
 * by an internal rid, as the service does) and cut their pages short at random, as a service page
 * may be.
 */
import type { Container } from "@azure/cosmos";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import {
  decodeCursor,
  encodeCursor,
  openPages,
  perShard,
  readPage,
  type MergeKey,
  type QueryStream,
  type ReadCursor,
} from "./paging.js";
import { compareValues } from "./reads.js";

type Item = Record<string, unknown>;

/**
 * A container of partitions (by `shard`) answering queries whose `@shard` parameter names the
 * partitions read: items in `orderBy` order, ties by `rid`; a page holds at most `maxItemCount`
 * items and, when `cut` says so, fewer (none at times) with a token to go on.
 */
function fakeContainer(
  items: readonly Item[],
  orderBy: readonly MergeKey[],
  cut: (asked: number) => number,
): { container: Container; requests: () => number } {
  let requests = 0;
  const sorted = (shards: readonly unknown[]) =>
    items
      .filter((item) => shards.includes(item["shard"]))
      .sort((a, b) => {
        for (const key of orderBy) {
          const order = compareValues(a[key.property], b[key.property]);
          if (order !== 0) return key.direction === "asc" ? order : -order;
        }
        return Number(a["rid"]) - Number(b["rid"]);
      });
  const container = {
    items: {
      query: (
        spec: { parameters: { name: string; value: unknown }[] },
        options: { maxItemCount?: number; continuationToken?: string },
      ) => ({
        fetchNext: () => {
          requests++;
          const shards = spec.parameters.find((p) => p.name === "@shard")?.value as unknown[];
          const all = sorted(shards);
          const start =
            options.continuationToken === undefined ? 0 : Number(options.continuationToken.slice(4));
          const asked = options.maxItemCount ?? 3;
          const end = Math.min(all.length, start + Math.min(asked, cut(asked)));
          return Promise.resolve({
            resources: all.slice(start, end).map((item) => ({ ...item })),
            continuationToken: end < all.length ? `pos-${end}` : undefined,
            requestCharge: 1,
          });
        },
      }),
    },
  };
  return { container: container as unknown as Container, requests: () => requests };
}

function streamsOf(shards: number): QueryStream[] {
  return perShard({ shards }, (shard) => ({
    parameters: [{ name: "@shard", value: [shard] }],
    keys: [shard],
  }));
}

/** Every page of a read at `pageSize`, joined (a page holds the size asked, but the last). */
async function readAll(
  container: Container,
  streams: readonly QueryStream[],
  orderBy: readonly MergeKey[],
  pageSize: number | undefined,
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const cursor = openPages({}, token === undefined ? {} : { continuationToken: token });
    const options = pageSize === undefined ? { orderBy } : { orderBy, pageSize };
    const page = await readPage(container, "SELECT", streams, options, cursor);
    if (pageSize !== undefined && page.continuationToken !== undefined)
      expect(page.items).toHaveLength(pageSize);
    items.push(...page.items);
    token = page.continuationToken;
    pages++;
    if (pages > 10_000) throw new Error("the token loops");
  } while (token !== undefined);
  return { items, pages };
}

const sortValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom("a", "b", "c"),
);

/** Items of a few shards with few distinct sort values (many ties, across shards too). */
const dataset = fc
  .record({
    shards: fc.integer({ min: 1, max: 4 }),
    rows: fc.array(fc.record({ a: sortValue, b: sortValue, id: fc.constantFrom("x", "y", "z", "w") }), {
      maxLength: 30,
    }),
    orderBy: fc.constantFrom<MergeKey[][]>(
      [],
      [{ property: "a", direction: "asc" }],
      [{ property: "a", direction: "desc" }],
      [
        { property: "a", direction: "desc" },
        { property: "b", direction: "asc" },
      ],
    ),
    cuts: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }),
  })
  .map(({ shards, rows, orderBy, cuts }) => ({
    shards,
    orderBy,
    cuts,
    // Ids repeat across shards (an id is unique within a partition only).
    items: rows.map((row, rid) => {
      const item: Item = { id: `${row.id}${rid % 3}`, shard: rid % shards, rid };
      if (row.a !== undefined) item["a"] = row.a;
      if (row.b !== undefined) item["b"] = row.b;
      return item;
    }),
  }));

/**
 * A service that cuts pages short by turns (0: the page asked for; n: at most n - 1 items), never
 * twice in a row without an item (a service page makes progress).
 */
function cutter(cuts: readonly number[]): (asked: number) => number {
  let turn = 0;
  let empty = false;
  return (asked) => {
    const cut = cuts[turn++ % cuts.length] ?? 0;
    const size = cut === 0 ? asked : empty ? Math.max(1, cut - 1) : cut - 1;
    empty = size === 0;
    return size;
  };
}

describe("readPage over several shards", () => {
  it("pages of 1, 2, 5 and 7 are the read in one large page, in the read's order", async () => {
    await fc.assert(
      fc.asyncProperty(dataset, async ({ shards, orderBy, cuts, items }) => {
        const { container } = fakeContainer(items, orderBy, cutter(cuts));
        const streams = streamsOf(shards);
        const reference = await readAll(container, streams, orderBy, 1000);
        // Every item once (by identity: rid).
        const rids = reference.items.map((item) => (item as Item)["rid"]);
        expect(rids).toHaveLength(items.length);
        expect(new Set(rids).size).toBe(items.length);
        // In the read's order: the sort values of all the items, sorted.
        const values = (list: readonly unknown[]) =>
          list.map((item) =>
            JSON.stringify(orderBy.map((key) => (item as Item)[key.property] ?? "<undefined>")),
          );
        const expected = [...items].sort((a, b) => {
          for (const key of orderBy) {
            const order = compareValues(a[key.property], b[key.property]);
            if (order !== 0) return key.direction === "asc" ? order : -order;
          }
          return 0;
        });
        expect(values(reference.items)).toEqual(values(expected));
        for (const pageSize of [1, 2, 5, 7]) {
          const paged = await readAll(container, streams, orderBy, pageSize);
          expect(paged.items).toEqual(reference.items);
        }
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it("ties across shards come by id, then by shard, on every page", async () => {
    const items = [
      { id: "b", shard: 0, rid: 0, at: 1 },
      { id: "a", shard: 1, rid: 1, at: 1 },
      { id: "a", shard: 0, rid: 2, at: 1 },
      { id: "c", shard: 1, rid: 3, at: 2 },
    ];
    const orderBy: MergeKey[] = [{ property: "at", direction: "desc" }];
    const { container } = fakeContainer(items, orderBy, (asked) => asked);
    const order = (list: readonly unknown[]) =>
      list.map((item) => `${String((item as Item)["id"])}${String((item as Item)["shard"])}`);
    // Shard 0 answers b0 before a0 (its own tie order); the merge keeps each shard's order.
    expect(order((await readAll(container, streamsOf(2), orderBy, 1)).items)).toEqual([
      "c1",
      "a1",
      "b0",
      "a0",
    ]);
  });

  it("fills a page of the size asked from 4 shards, asking each for at most that many", async () => {
    const items = Array.from({ length: 10 }, (_, rid) => ({ id: `i${rid}`, shard: rid % 4, rid, at: rid }));
    const orderBy: MergeKey[] = [{ property: "at", direction: "desc" }];
    const { container, requests } = fakeContainer(items, orderBy, (asked) => asked);
    const read = (token: string | undefined) =>
      readPage(
        container,
        "SELECT",
        streamsOf(4),
        { orderBy, pageSize: 4 },
        openPages({}, token === undefined ? {} : { continuationToken: token }),
      );
    const first = await read(undefined);
    expect(first.items.map((item) => (item as Item)["at"])).toEqual([9, 8, 7, 6]);
    expect(requests()).toBe(4);
    const second = await read(first.continuationToken);
    expect(second.items.map((item) => (item as Item)["at"])).toEqual([5, 4, 3, 2]);
    const last = await read(second.continuationToken);
    expect(last.items.map((item) => (item as Item)["at"])).toEqual([1, 0]);
    expect(last.continuationToken).toBeUndefined();
  });

  it("returns the ORDER BY values a query added for the merge to no caller", async () => {
    const items = [
      { id: "a", shard: 0, rid: 0, _order0: 2 },
      { id: "b", shard: 1, rid: 1, _order0: 1 },
    ];
    const orderBy: MergeKey[] = [{ property: "_order0", direction: "asc", alias: true }];
    const { container } = fakeContainer(items, orderBy, (asked) => asked);
    const page = await readPage(container, "SELECT", streamsOf(2), { orderBy }, openPages({}, {}));
    expect(page.items).toEqual([
      { id: "b", shard: 1, rid: 1 },
      { id: "a", shard: 0, rid: 0 },
    ]);
  });
});

describe("continuation tokens", () => {
  it("round-trip the replica and every shard's position", () => {
    const cursor: ReadCursor = {
      replica: 3,
      positions: ["done", { skip: 2 }, { token: '{"token":"+RID:x#RT:1","range":{"min":""}}', skip: 0 }],
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(openPages({ replicas: 4 }, { continuationToken: encodeCursor(cursor) }).replica).toBe(3);
  });

  it("refuse a token this read did not return (another format, changed, another replica count)", () => {
    const other = encodeCursor({ replica: 7, positions: [] });
    for (const token of ["r2.abc", "cm1.{", 'cm1.{"r":-1,"p":[]}', 'cm1.{"p":[[1,2]]}'])
      expect(() => openPages({}, { continuationToken: token })).toThrow(DataAccessError);
    expect(() => openPages({ replicas: 2 }, { continuationToken: other })).toThrow(/replica 7 of 2/);
  });
});
