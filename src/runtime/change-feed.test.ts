/**
 * The change-feed processor over an in-memory feed with the contract of `FeedSource` (ranges, a
 * reader per range resuming from a continuation), so that what the embedded endpoint cannot show
 * (new changes after the first read, several feed ranges, a restart) is tested here; the same
 * processor runs on `@azure/cosmos` in src/verify/data-access-probes.test.ts (a handler failing
 * once, a processor stopped and restarted).
 */
import type { Database } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import {
  processChangeFeeds,
  type ChangeFeedProcessor,
  type ChangeFeedProcessorOptions,
} from "./change-feed.js";
import { memoryCheckpointStore } from "./checkpoints.js";
import { memoryDeadLetterStore, replayDeadLetters } from "./dead-letters.js";
import { DataAccessError } from "./errors.js";
import { rangeKey, type FeedSource } from "./feed-source.js";

/** A feed: per container, per range, the changes in order; a continuation is the next index. */
function memoryFeed(ranges: readonly string[], maxItemCount = 100) {
  const logs = new Map<string, unknown[]>();
  const log = (container: string, range: string): unknown[] => {
    const key = `${container}|${range}`;
    let entries = logs.get(key);
    if (entries === undefined) {
      entries = [];
      logs.set(key, entries);
    }
    return entries;
  };
  let currentRanges = [...ranges];
  const source: FeedSource = {
    ranges: () => Promise.resolve(currentRanges.map((key) => ({ key }))),
    open(container, range, continuation, start) {
      let next =
        continuation === undefined
          ? start === "now"
            ? log(container, range).length
            : 0
          : Number(continuation);
      return {
        read() {
          const entries = log(container, range);
          const changes = entries.slice(next, next + maxItemCount);
          next += changes.length;
          return Promise.resolve({ changes, continuation: String(next), requestCharge: 1 });
        },
      };
    },
  };
  return {
    source,
    write: (container: string, range: string, ...changes: unknown[]) =>
      log(container, range).push(...changes),
    split: (next: readonly string[]) => {
      currentRanges = [...next];
    },
  };
}

const RANGE_A = rangeKey("", "80");
const RANGE_B = rangeKey("80", "FF");

/** Options that make a test fast and deterministic. */
function fast(overrides: Partial<ChangeFeedProcessorOptions> = {}): ChangeFeedProcessorOptions {
  return {
    checkpoints: memoryCheckpointStore(),
    pollIntervalMs: 2,
    leaseRenewMs: 5,
    random: () => 0,
    onError: () => undefined,
    ...overrides,
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe("processChangeFeeds", () => {
  it("reads every feed range in parallel and saves a continuation only after the handlers finished", async () => {
    const feed = memoryFeed([RANGE_A, RANGE_B]);
    feed.write("posts", RANGE_A, { id: "a1" }, { id: "a2" });
    feed.write("posts", RANGE_B, { id: "b1" });
    const checkpoints = memoryCheckpointStore();
    const seen: string[] = [];
    let inFlight = 0;
    let parallel = 0;
    const processor = processChangeFeeds(
      feed.source,
      ["posts"],
      async (_container, changes) => {
        inFlight++;
        parallel = Math.max(parallel, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        // While a batch runs, its lease still holds the previous continuation.
        expect(
          [...checkpoints.leases.values()].every(
            (l) => l.continuation === undefined || l.continuation !== "0",
          ),
        ).toBe(true);
        for (const change of changes) seen.push((change as { id: string }).id);
        inFlight--;
      },
      fast({ checkpoints }),
    );
    await processor.ready;
    await until(() => seen.length === 3, "three changes");
    await processor.stop();
    expect(seen.sort()).toEqual(["a1", "a2", "b1"]);
    expect(parallel).toBe(2);
    const leases = [...checkpoints.leases.values()].sort((a, b) => a.range.localeCompare(b.range));
    expect(leases.map((l) => [l.range, l.continuation, l.owner])).toEqual([
      [RANGE_A, "2", undefined],
      [RANGE_B, "1", undefined],
    ]);
  });

  it("reads options.feed instead of the database's change feed when it is given", async () => {
    const feed = memoryFeed([RANGE_A]);
    feed.write("posts", RANGE_A, { id: "p1" });
    // A database whose feed must not be read: any use of it fails the test.
    const database = new Proxy({} as Database, {
      get: (_target, property) => {
        throw new Error(`the database was used (${String(property)}) although options.feed was given`);
      },
    });
    const errors: unknown[] = [];
    const seen: unknown[] = [];
    const processor = processChangeFeeds(
      database,
      ["posts"],
      (_container, changes) => Promise.resolve(seen.push(...changes)),
      fast({ feed: feed.source, onError: (error) => errors.push(error) }),
    );
    await processor.ready;
    await until(() => seen.length === 1, "the change of the given feed");
    await processor.stop();
    expect(seen).toEqual([{ id: "p1" }]);
    expect(errors).toEqual([]);
  });

  it("retries a handler that fails once and loses nothing", async () => {
    const feed = memoryFeed([RANGE_A]);
    feed.write("posts", RANGE_A, { id: "p1" }, { id: "p2" });
    const applied: string[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const processor = processChangeFeeds(
      feed.source,
      ["posts"],
      (_container, changes) => {
        calls++;
        if (calls === 1) return Promise.reject(new Error("the handler failed once"));
        applied.push(...changes.map((c) => (c as { id: string }).id));
        return Promise.resolve();
      },
      fast({ onError: (error) => errors.push(error) }),
    );
    await until(() => applied.length === 2, "the retried batch");
    await processor.stop();
    expect(applied).toEqual(["p1", "p2"]);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it("resumes after a stop from the last checkpoint: changes written meanwhile arrive, none twice", async () => {
    const feed = memoryFeed([RANGE_A, RANGE_B]);
    const checkpoints = memoryCheckpointStore();
    const applied: string[] = [];
    const deliver = (_container: string, changes: readonly unknown[]) => {
      applied.push(...changes.map((c) => (c as { id: string }).id));
      return Promise.resolve();
    };
    feed.write("posts", RANGE_A, { id: "1" });
    let processor: ChangeFeedProcessor = processChangeFeeds(
      feed.source,
      ["posts"],
      deliver,
      fast({ checkpoints }),
    );
    await until(() => applied.length === 1, "the first change");
    await processor.stop();
    feed.write("posts", RANGE_A, { id: "2" });
    feed.write("posts", RANGE_B, { id: "3" });
    processor = processChangeFeeds(
      feed.source,
      ["posts"],
      deliver,
      fast({ checkpoints, instanceName: "another" }),
    );
    await until(() => applied.length === 3, "the changes written while stopped");
    await processor.stop();
    expect(applied.sort()).toEqual(["1", "2", "3"]);
  });

  it("delivers again a batch whose checkpoint was never saved (at least once)", async () => {
    const feed = memoryFeed([RANGE_A]);
    feed.write("posts", RANGE_A, { id: "1" });
    const store = memoryCheckpointStore();
    let failCheckpoint = true;
    const checkpoints = {
      ...store,
      checkpoint: (...args: Parameters<typeof store.checkpoint>) => {
        if (failCheckpoint) {
          failCheckpoint = false;
          return Promise.reject(new Error("the process died before the checkpoint"));
        }
        return store.checkpoint(...args);
      },
    };
    const applied: string[] = [];
    const deliver = (_container: string, changes: readonly unknown[]) => {
      applied.push(...changes.map((c) => (c as { id: string }).id));
      return Promise.resolve();
    };
    // The lease is taken again from its last checkpoint (none yet), and the batch read again.
    const processor = processChangeFeeds(feed.source, ["posts"], deliver, fast({ checkpoints }));
    await until(() => applied.length === 2, "the redelivery");
    await until(() => [...store.leases.values()][0]?.continuation === "1", "the checkpoint");
    await processor.stop();
    expect(applied).toEqual(["1", "1"]);
    expect([...store.leases.values()][0]?.continuation).toBe("1");
  });

  it("puts a change that keeps failing in the dead-letter store and moves on; a replay applies it", async () => {
    const feed = memoryFeed([RANGE_A]);
    feed.write("posts", RANGE_A, { id: "good" }, { id: "poison" }, { id: "after" });
    const deadLetters = memoryDeadLetterStore();
    const applied: string[] = [];
    let fixed = false;
    const deliver = (_container: string, changes: readonly unknown[]) => {
      if (!fixed && changes.some((c) => (c as { id: string }).id === "poison")) {
        return Promise.reject(new DataAccessError("missingRelatedData", "the poison change"));
      }
      applied.push(...changes.map((c) => (c as { id: string }).id));
      return Promise.resolve();
    };
    const batches: number[] = [];
    const processor = processChangeFeeds(
      feed.source,
      ["posts"],
      deliver,
      fast({ deadLetters, maxAttempts: 2, onBatch: (event) => batches.push(event.deadLettered) }),
    );
    await until(() => applied.includes("after"), "the changes after the poison one");
    await processor.stop();
    expect(applied).toEqual(["good", "after"]);
    expect(batches).toEqual([1]);
    const letters = [...deadLetters.letters.values()];
    expect(letters).toMatchObject([
      { container: "posts", change: { id: "poison" }, error: "the poison change" },
    ]);
    fixed = true;
    expect(await replayDeadLetters(deadLetters, "data-access", deliver)).toEqual({ applied: 1, failed: 0 });
    expect(applied).toEqual(["good", "after", "poison"]);
    expect(deadLetters.letters.size).toBe(0);
  });

  it("never skips a change without a dead-letter store, nor dead-letters throttling", async () => {
    const feed = memoryFeed([RANGE_A]);
    feed.write("posts", RANGE_A, { id: "1" });
    const checkpoints = memoryCheckpointStore();
    const deadLetters = memoryDeadLetterStore();
    let calls = 0;
    const throttled = Object.assign(new Error("429"), { code: 429 });
    const processor = processChangeFeeds(
      feed.source,
      ["posts"],
      () => {
        calls++;
        return Promise.reject(calls % 2 === 0 ? throttled : new Error("bug"));
      },
      fast({ checkpoints, maxAttempts: 2 }),
    );
    await until(() => calls >= 6, "six attempts");
    await processor.stop();
    expect([...checkpoints.leases.values()][0]?.continuation).toBe(undefined);
    // With a store, throttling is retried, never dead-lettered.
    calls = 0;
    const second = processChangeFeeds(
      feed.source,
      ["posts"],
      () => (++calls, Promise.reject(throttled)),
      fast({ deadLetters, maxAttempts: 1 }),
    );
    await until(() => calls >= 4, "four throttled attempts");
    await second.stop();
    expect(deadLetters.letters.size).toBe(0);
  });

  it("splits the leases between instances, and one takes over those another released", async () => {
    const feed = memoryFeed([RANGE_A, RANGE_B]);
    const checkpoints = memoryCheckpointStore();
    const deliver = () => Promise.resolve();
    const one = processChangeFeeds(
      feed.source,
      ["posts"],
      deliver,
      fast({ checkpoints, instanceName: "one", maxLeases: 1 }),
    );
    await one.ready;
    const two = processChangeFeeds(
      feed.source,
      ["posts"],
      deliver,
      fast({ checkpoints, instanceName: "two" }),
    );
    await two.ready;
    expect(one.owned().map((l) => l.range)).toHaveLength(1);
    expect(two.owned().map((l) => l.range)).toHaveLength(1);
    expect(new Set([...one.owned(), ...two.owned()].map((l) => l.range))).toEqual(
      new Set([RANGE_A, RANGE_B]),
    );
    await one.stop();
    await until(() => two.owned().length === 2, "the released lease taken over");
    await two.stop();
  });

  it("keeps one lease for a range that split after its first read, and gives unread ranges their own", async () => {
    const feed = memoryFeed([rangeKey("", "FF")]);
    const checkpoints = memoryCheckpointStore();
    const deliver = () => Promise.resolve();
    feed.write("posts", rangeKey("", "FF"), { id: "1" });
    const first = processChangeFeeds(feed.source, ["posts"], deliver, fast({ checkpoints }));
    await until(() => [...checkpoints.leases.values()][0]?.continuation === "1", "the first checkpoint");
    await first.stop();
    feed.split([RANGE_A, RANGE_B]);
    const second = processChangeFeeds(feed.source, ["posts"], deliver, fast({ checkpoints }));
    await second.ready;
    await second.stop();
    expect([...checkpoints.leases.values()].map((l) => l.range)).toEqual([rangeKey("", "FF")]);
  });
});
