/**
 * A change feed for an endpoint that has none (the embedded endpoint's feed never returns changes
 * after its first read): the latest-version feed, simulated by looking at the containers. Every
 * read first scans the container and gives each item whose content changed since the last scan
 * the next logical sequence number (`_lsn`, one counter per container); a feed range delivers its
 * items whose number is above its continuation, in that order, each once at its latest version, as
 * Cosmos DB's latest-version feed does per partition key range. Items are spread over `ranges`
 * feed ranges by a hash of their partition key. Hard deletes are not delivered (the latest-version
 * feed does not show them either; the model's deletes are soft-delete tombstones there).
 *
 * It has the contract of the runtime's `FeedSource`, so the generated module's own change-feed
 * processor runs on it unchanged (`startChangeFeedProcessors({ feed })`).
 */
import type { Database } from "@azure/cosmos";
import { rangeKey, type ChangeFeedModeName, type FeedPage, type FeedSource } from "../runtime/feed-source.js";
import { bindAll } from "./fault-database.js";

/** One item's place in the simulated feed. */
interface Entry {
  lsn: number;
  readonly range: number;
  /** The item's content when it was given its number (without system properties). */
  content: string;
  item: Readonly<Record<string, unknown>>;
}

/** The feed of one container. */
interface ContainerLog {
  lsn: number;
  readonly entries: Map<string, Entry>;
  /** All versions and deletes: every change seen, in order. */
  readonly events: { readonly lsn: number; readonly range: number; readonly entry: unknown }[];
  /** Written since the last scan. */
  dirty: boolean;
  scannedAt: number;
  /** The scan in progress. */
  scanning?: Promise<void> | undefined;
}

/** How long a scan is trusted without a write heard of (ms). */
const RESCAN_MS = 250;

export interface SimulatedFeed {
  readonly source: FeedSource;
  /**
   * The database whose writes the feed hears of: a container is scanned again only after a write
   * through it (or 250 ms after its last scan, for writes made around it).
   */
  watch(database: Database): Database;
  /** Scans every container whose feed was opened; true when each range's `continuations` reached its newest number. */
  caughtUp(continuations: ReadonlyMap<string, string | undefined>): Promise<boolean>;
  /** The range keys, in order. */
  readonly ranges: readonly string[];
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Content without the system properties the endpoint changes on every write. */
function contentOf(item: Readonly<Record<string, unknown>>): string {
  const { _etag: _e, _ts: _t, _lsn: _l, _rid: _r, _self: _s, _attachments: _a, ...rest } = item;
  return JSON.stringify(rest);
}

/**
 * The simulated latest-version feed of `database`'s containers.
 * @param partitionKeyPaths the first partition key path of each container (e.g. `/postId`)
 */
export function simulatedFeed(
  database: Database,
  partitionKeyPaths: ReadonlyMap<string, string>,
  options: {
    readonly ranges?: number;
    readonly maxItemCount?: number;
    /**
     * "allVersionsAndDeletes": `{ current, metadata }` entries, a create or a replace per change
     * seen and a delete per item gone (versions between two scans fold into one).
     */
    readonly mode?: ChangeFeedModeName;
  } = {},
): SimulatedFeed {
  const allVersions = options.mode === "allVersionsAndDeletes";
  const count = Math.max(1, Math.min(16, options.ranges ?? 2));
  const maxItemCount = options.maxItemCount ?? 100;
  const bounds = Array.from({ length: count + 1 }, (_, i) =>
    i === 0
      ? ""
      : i === count
        ? "FF"
        : Math.floor((i * 256) / count)
            .toString(16)
            .padStart(2, "0")
            .toUpperCase(),
  );
  const ranges = bounds.slice(0, -1).map((min, i) => rangeKey(min, bounds[i + 1] ?? "FF"));
  const logs = new Map<string, ContainerLog>();
  /** Containers whose feed was opened. */
  const read = new Set<string>();
  const logOf = (container: string): ContainerLog => {
    let log = logs.get(container);
    if (log === undefined) {
      log = { lsn: 0, entries: new Map(), events: [], dirty: true, scannedAt: 0 };
      logs.set(container, log);
    }
    return log;
  };
  /** The item's (first level) partition key value, as JSON. */
  const keyOf = (container: string, item: Readonly<Record<string, unknown>>): string => {
    const path = (partitionKeyPaths.get(container) ?? "/id").slice(1).split("/");
    const value = path.reduce<unknown>(
      (v, segment) =>
        typeof v === "object" && v !== null ? (v as Record<string, unknown>)[segment] : undefined,
      item,
    );
    return JSON.stringify(value ?? null);
  };
  const rangeOf = (container: string, item: Readonly<Record<string, unknown>>): number =>
    fnv1a(keyOf(container, item)) % count;
  /**
   * Gives the next numbers to the items that changed since the last scan, in a stable order. A
   * scan in progress is awaited, not overlapped (its numbers would be given twice).
   */
  const scan = async (container: string): Promise<ContainerLog> => {
    const log = logOf(container);
    while (log.scanning !== undefined) await log.scanning;
    if (!log.dirty && performance.now() - log.scannedAt < RESCAN_MS) return log;
    const scanning = rescan(container, log);
    log.scanning = scanning.then(
      () => undefined,
      () => undefined,
    );
    try {
      await scanning;
    } finally {
      log.scanning = undefined;
    }
    return log;
  };
  const rescan = async (container: string, log: ContainerLog): Promise<void> => {
    log.dirty = false;
    log.scannedAt = performance.now();
    const response = await database
      .container(container)
      .items.query<Record<string, unknown>>("SELECT * FROM c")
      .fetchAll();
    const seen = new Set<string>();
    const changed: { key: string; item: Record<string, unknown>; content: string }[] = [];
    for (const item of response.resources) {
      const range = rangeOf(container, item);
      const key = JSON.stringify([range, item["id"], keyOf(container, item)]);
      seen.add(key);
      const content = contentOf(item);
      if (log.entries.get(key)?.content !== content) changed.push({ key, item, content });
    }
    // Items the scan found changed get numbers in the order of their timestamps, then ids.
    changed.sort(
      (a, b) => Number(a.item["_ts"] ?? 0) - Number(b.item["_ts"] ?? 0) || a.key.localeCompare(b.key),
    );
    for (const { key, item, content } of changed) {
      log.lsn++;
      const range = rangeOf(container, item);
      if (allVersions)
        log.events.push({
          lsn: log.lsn,
          range,
          entry: {
            current: { ...item, _lsn: log.lsn },
            metadata: { operationType: log.entries.has(key) ? "replace" : "create", lsn: log.lsn },
          },
        });
      log.entries.set(key, { lsn: log.lsn, range, content, item });
    }
    for (const [key, gone] of [...log.entries]) {
      if (seen.has(key)) continue;
      log.entries.delete(key);
      if (!allVersions) continue;
      log.lsn++;
      const path = (partitionKeyPaths.get(container) ?? "/id").slice(1);
      log.events.push({
        lsn: log.lsn,
        range: gone.range,
        entry: {
          metadata: {
            operationType: "delete",
            lsn: log.lsn,
            id: gone.item["id"],
            partitionKey: { [path]: JSON.parse(keyOf(container, gone.item)) as unknown },
          },
        },
      });
    }
  };
  const source: FeedSource = {
    ranges: () => Promise.resolve(ranges.map((key) => ({ key }))),
    open(container, range, continuation, start) {
      read.add(container);
      const index = ranges.indexOf(range);
      let next: number | undefined = continuation === undefined ? undefined : Number(continuation);
      return {
        async read(): Promise<FeedPage> {
          const log = await scan(container);
          if (next === undefined) next = start === "now" ? log.lsn : 0;
          const after = next;
          const page = (
            allVersions
              ? log.events.map((event) => ({ lsn: event.lsn, range: event.range, change: event.entry }))
              : [...log.entries.values()].map((entry) => ({
                  lsn: entry.lsn,
                  range: entry.range,
                  change: { ...entry.item, _lsn: entry.lsn } as unknown,
                }))
          )
            .filter((entry) => entry.range === index && entry.lsn > after)
            .sort((a, b) => a.lsn - b.lsn)
            .slice(0, maxItemCount);
          const last = page.at(-1);
          if (last !== undefined) next = last.lsn;
          return {
            changes: page.map((entry) => entry.change),
            continuation: String(next),
            requestCharge: 1,
          };
        },
      };
    },
  };
  const touch = (name: string): void => {
    logOf(name).dirty = true;
  };
  return {
    source,
    ranges,
    watch: (watched) => watchWrites(watched, touch),
    async caughtUp(continuations) {
      for (const container of read) {
        const log = await scan(container);
        for (const [index, range] of ranges.entries()) {
          const newest = Math.max(
            0,
            ...(allVersions ? log.events : [...log.entries.values()])
              .filter((e) => e.range === index)
              .map((e) => e.lsn),
          );
          const at = Number(continuations.get(`${container}|${range}`) ?? 0);
          if (at < newest) return false;
        }
      }
      return true;
    },
  };
}

/** `database`, calling `touch(container)` before and after each write to a container. */
function watchWrites(database: Database, touch: (container: string) => void): Database {
  const heard =
    (name: string, target: object, method: string) =>
    async (...args: unknown[]): Promise<unknown> => {
      touch(name);
      try {
        return await (Reflect.get(target, method) as (...a: unknown[]) => Promise<unknown>).apply(
          target,
          args,
        );
      } finally {
        touch(name);
      }
    };
  return bindAll(database, {
    container: (name: string) => {
      const container = database.container(name);
      const items = container.items;
      return bindAll(container, {
        item: (id: string, partitionKey?: unknown) => {
          const item = container.item(id, partitionKey as never);
          return bindAll(item, {
            replace: heard(name, item, "replace"),
            patch: heard(name, item, "patch"),
            delete: heard(name, item, "delete"),
          });
        },
        items: bindAll(items, {
          create: heard(name, items, "create"),
          upsert: heard(name, items, "upsert"),
          batch: heard(name, items, "batch"),
        }),
      });
    },
  });
}
