import type { Container } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { createRuntime } from "./context.js";
import { throughIntegratedCache } from "./integrated-cache.js";

/** A container that records the options of every request it is sent. */
function recordingContainer(name = "posts") {
  const sent: { call: string; options: unknown }[] = [];
  const stored: Record<string, unknown> = { p1: { id: "p1", title: "one" } };
  const container = {
    id: name,
    item: (id: string) => ({
      read: (options?: unknown) => {
        sent.push({ call: `read ${id}`, options });
        const resource = stored[id];
        return Promise.resolve({
          statusCode: resource === undefined ? 404 : 200,
          requestCharge: 1,
          resource,
        });
      },
      replace: (_body: unknown, options?: unknown) => {
        sent.push({ call: `replace ${id}`, options });
        return Promise.resolve({ statusCode: 200, requestCharge: 10 });
      },
    }),
    items: {
      query: (_spec: unknown, options?: unknown) => {
        sent.push({ call: "query", options });
        return { fetchAll: () => Promise.resolve({ resources: [], requestCharge: 2 }) };
      },
      readAll: (options?: unknown) => {
        sent.push({ call: "readAll", options });
        return { fetchAll: () => Promise.resolve({ resources: [], requestCharge: 2 }) };
      },
      bulk: (operations: unknown[]) => {
        sent.push({ call: `bulk of ${operations.length}`, options: undefined });
        return Promise.resolve([]);
      },
      upsert: (_body: unknown, options?: unknown) => {
        sent.push({ call: "upsert", options });
        return Promise.resolve({ statusCode: 200, requestCharge: 10 });
      },
    },
  };
  return { container: container as unknown as Container, sent };
}

const cache = { maxStalenessMs: 5_000, consistency: "Session" } as const;
const cachedOptions = { maxIntegratedCacheStalenessInMs: 5_000, consistencyLevel: "Session" };

describe("reads through the integrated cache", () => {
  it("sends point reads and queries with the staleness and an explicit consistency, keeping the caller's options", async () => {
    const { container, sent } = recordingContainer();
    const cached = throughIntegratedCache(container, cache);
    await cached.item("p1", "p1").read({ sessionToken: "s" });
    await cached.items.query("SELECT * FROM c", { maxItemCount: 10 }).fetchAll();
    await cached.items.readAll().fetchAll();
    expect(sent).toEqual([
      { call: "read p1", options: { sessionToken: "s", ...cachedOptions } },
      { call: "query", options: { maxItemCount: 10, ...cachedOptions } },
      { call: "readAll", options: cachedOptions },
    ]);
  });

  it("sends a read of many as cached point reads, answering as the bulk call would (404 for a missing item)", async () => {
    const { container, sent } = recordingContainer();
    const answers = await throughIntegratedCache(container, cache).items.bulk([
      { operationType: "Read", id: "p1", partitionKey: "p1" },
      { operationType: "Read", id: "gone", partitionKey: "gone" },
    ]);
    expect(sent.map((s) => s.call)).toEqual(["read p1", "read gone"]);
    expect(sent.every((s) => JSON.stringify(s.options) === JSON.stringify(cachedOptions))).toBe(true);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404]);
    expect(answers[0]?.resourceBody).toEqual({ id: "p1", title: "one" });
  });

  it("leaves writes as they are", async () => {
    const { container, sent } = recordingContainer();
    const cached = throughIntegratedCache(container, cache);
    await cached.items.upsert({ id: "p2" });
    await cached.item("p1", "p1").replace({ id: "p1" });
    await cached.items.bulk([{ operationType: "Upsert", resourceBody: { id: "p3" } }]);
    expect(sent).toEqual([
      { call: "upsert", options: undefined },
      { call: "replace p1", options: undefined },
      { call: "bulk of 1", options: undefined },
    ]);
  });

  it("the runtime's cached containers come from the dedicated gateway's database, the others from the database", async () => {
    const direct = recordingContainer("direct");
    const gateway = recordingContainer("gateway");
    const database = { container: () => direct.container } as never;
    const cacheDatabase = { container: () => gateway.container } as never;
    const runtime = createRuntime(database, { itemTypes: {}, copySources: {} }, { cacheDatabase });
    await runtime.container("posts").item("p1", "p1").read();
    await runtime.cached(cache).container("posts").item("p1", "p1").read();
    expect(direct.sent).toEqual([{ call: "read p1", options: undefined }]);
    expect(gateway.sent).toEqual([{ call: "read p1", options: cachedOptions }]);
    // One cached runtime per staleness and consistency.
    expect(runtime.cached(cache)).toBe(runtime.cached({ ...cache }));
  });
});
