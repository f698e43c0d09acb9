/**
 * The change-feed processor of a generated data-access module: it reads the change feed of every
 * container whose items others copy, count or propagate, one loop per feed range in parallel,
 * runs the handlers for each batch and only then saves the batch's continuation in the lease of
 * that range (at-least-once: a batch whose handlers did not finish is read again, so the handlers
 * are idempotent). A failing batch is retried with exponential backoff; a change that keeps
 * failing with a non-transient error goes to the dead-letter store (when there is one) and the
 * feed moves on; throttling and service errors are retried until they pass. Leases are owned by
 * one instance at a time and renewed; an instance that stops releases them, one that dies lets
 * them expire, and another instance takes them over from their last checkpoint.
 */
import type { Database } from "@azure/cosmos";
import { leaseId, type CheckpointStore, type Lease } from "./checkpoints.js";
import type { DeadLetter, DeadLetterStore } from "./dead-letters.js";
import { DataAccessError, isTransient } from "./errors.js";
import type { IntentEntry, Journal } from "./journal.js";
import {
  cosmosFeedSource,
  rangeCovers,
  type ChangeFeedModeName,
  type FeedPage,
  type FeedSource,
  type FeedStart,
} from "./feed-source.js";
import { backoffDelay, createSleeper, type Backoff } from "./retry.js";

/**
 * Feed batches one lease reads per second when the feed keeps up: one read per `pollIntervalMs`
 * (1 s), more only while pages come back full. The cost model's counter aggregation assumes it
 * (src/cost/evaluate.ts: a parent's counter is patched at most once per lease per second).
 */
export const DEFAULT_POLL_INTERVAL_MS = 1000;

/** Changes read per page by default. */
export const DEFAULT_MAX_ITEM_COUNT = 1000;

/**
 * Runs the handlers for a batch of changes as the feed delivered them from feed range `range`;
 * writes that must not be half-applied are recorded in `journal` first (journal.ts).
 */
export type DeliverChanges = (
  container: string,
  changes: readonly unknown[],
  range: string,
  journal: Journal,
) => Promise<unknown>;

/** Replays the writes a lease recorded for a batch that did not finish (journal.ts). */
export type ReplayIntent = (container: string, intent: readonly IntentEntry[]) => Promise<unknown>;

/** What happened to a batch (for monitoring). */
export interface BatchEvent {
  readonly container: string;
  readonly range: string;
  readonly changes: number;
  /** Attempts the handlers took (1 = first time). */
  readonly attempts: number;
  /** Changes that went to the dead-letter store. */
  readonly deadLettered: number;
  readonly requestCharge: number;
}

/** How the processor runs. `checkpoints` is required: where it keeps its place is your choice. */
export interface ChangeFeedProcessorOptions {
  /** Where the continuation of every feed range is saved (a lease container, or memory for tests). */
  readonly checkpoints: CheckpointStore;
  /** Where changes that keep failing go; without it a failing change is retried until it passes. */
  readonly deadLetters?: DeadLetterStore;
  /** Name shared by the instances that split the leases between them (default "data-access"). */
  readonly processorName?: string;
  /** This instance's name (default: random). */
  readonly instanceName?: string;
  /** The feed's mode (default: the one the model's deletes need). */
  readonly mode?: ChangeFeedModeName;
  /**
   * Where a lease without a checkpoint starts: "beginning" (default in latest-version mode: nothing
   * written before the first start is missed) or "now" (the only start all-versions-and-deletes has).
   */
  readonly startFrom?: FeedStart;
  readonly maxItemCount?: number;
  /** Pause after a page that was not full, in milliseconds (default 1000). */
  readonly pollIntervalMs?: number;
  /** Handler attempts before a non-transiently failing change is dead-lettered (default 5). */
  readonly maxAttempts?: number;
  readonly backoff?: Backoff;
  /** A lease is owned this long after its last renewal (default 60,000 ms). */
  readonly leaseExpiryMs?: number;
  /** How often leases are renewed and free ones taken (default 10,000 ms). */
  readonly leaseRenewMs?: number;
  /** The most leases this instance owns (default: all it can take). */
  readonly maxLeases?: number;
  /** Errors of reads, handlers and lease operations (default: console.error). */
  readonly onError?: (error: unknown, where: { readonly container: string; readonly range?: string }) => void;
  readonly onBatch?: (event: BatchEvent) => void;
  /**
   * The feed read instead of the source's: by default the processor reads `@azure/cosmos`'s pull
   * model over the database it is given (or the `FeedSource` given in its place); tests pass an
   * in-memory one.
   */
  readonly feed?: FeedSource;
  /**
   * Replays the writes a lease recorded before a crash (the generated module's `replayFeed`).
   * Without it, a lease holding recorded writes is not read (an error each time it is tried).
   */
  readonly replay?: ReplayIntent;
  /** The clock in milliseconds (default Date.now). */
  readonly now?: () => number;
  /** Random numbers in [0, 1) for backoff jitter and the instance name. */
  readonly random?: () => number;
}

/** A running processor. */
export interface ChangeFeedProcessor {
  /** Resolves once every container's leases exist and this instance took what it could. */
  readonly ready: Promise<void>;
  /** The leases this instance reads now. */
  owned(): readonly Lease[];
  /** Stops reading, waits for the batches in flight (not retried), releases the leases. */
  stop(): Promise<void>;
}

interface Running {
  lease: Lease;
  /** Serializes the lease's changes (renewals and checkpoints). */
  queue: Promise<unknown>;
  lost: boolean;
  done: Promise<void>;
}

/** The processor's options with their defaults filled in. */
interface Settings {
  readonly feed: FeedSource;
  readonly start: FeedStart;
  readonly processor: string;
  readonly owner: string;
  readonly maxItemCount: number;
  readonly expiry: number;
  readonly renewEvery: number;
  readonly poll: number;
  readonly maxAttempts: number;
  readonly maxLeases: number;
  readonly now: () => number;
  readonly random: () => number;
  readonly onError: NonNullable<ChangeFeedProcessorOptions["onError"]>;
  readonly store: CheckpointStore;
  readonly deadLetters: DeadLetterStore | undefined;
  readonly backoff: Backoff | undefined;
  readonly onBatch: ChangeFeedProcessorOptions["onBatch"];
  readonly replay: ReplayIntent | undefined;
}

function settingsOf(source: Database | FeedSource, options: ChangeFeedProcessorOptions): Settings {
  const mode = options.mode ?? "latestVersion";
  const maxItemCount = options.maxItemCount ?? DEFAULT_MAX_ITEM_COUNT;
  const random = options.random ?? Math.random;
  return {
    feed:
      options.feed ??
      ("open" in source && "ranges" in source ? source : cosmosFeedSource(source, { mode, maxItemCount })),
    start: options.startFrom ?? (mode === "allVersionsAndDeletes" ? "now" : "beginning"),
    processor: options.processorName ?? "data-access",
    owner: options.instanceName ?? `instance-${Math.floor(random() * 2 ** 48).toString(36)}`,
    maxItemCount,
    expiry: options.leaseExpiryMs ?? 60_000,
    renewEvery: options.leaseRenewMs ?? 10_000,
    poll: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    maxAttempts: Math.max(1, options.maxAttempts ?? 5),
    maxLeases: options.maxLeases ?? Number.POSITIVE_INFINITY,
    now: options.now ?? Date.now,
    random,
    onError: options.onError ?? ((error: unknown) => console.error(error)),
    store: options.checkpoints,
    deadLetters: options.deadLetters,
    backoff: options.backoff,
    onBatch: options.onBatch,
    replay: options.replay,
  };
}

/** Where a lease reads, for errors and events. */
const whereOf = (entry: Running): { container: string; range: string } => ({
  container: entry.lease.container,
  range: entry.lease.range,
});

/** Runs `change` on the lease after its earlier changes; the lease becomes what it returns. */
function serialize(entry: Running, change: (lease: Lease) => Promise<Lease | undefined>): Promise<boolean> {
  const next = entry.queue.then(async () => {
    if (entry.lost) return false;
    const updated = await change(entry.lease);
    if (updated === undefined) {
      entry.lost = true;
      return false;
    }
    entry.lease = updated;
    return true;
  });
  entry.queue = next.catch(() => undefined);
  return next;
}

/** Thrown by an attempt that replayed an earlier attempt's recorded writes: its page is stale. */
class StalePage extends Error {
  constructor() {
    super("the page was read before an unfinished batch's recorded writes were replayed");
    this.name = "StalePage";
  }
}

/** One instance of the processor: its leases, and the loops that read them. */
class Processor {
  private readonly running = new Map<string, Running>();
  private readonly sleeper = createSleeper();
  private stopped = false;

  private readonly settings: Settings;
  private readonly containers: readonly string[];
  private readonly deliver: DeliverChanges;

  constructor(settings: Settings, containers: readonly string[], deliver: DeliverChanges) {
    this.settings = settings;
    this.containers = containers;
    this.deliver = deliver;
  }

  /**
   * Makes the writes a lease recorded for a batch that did not finish (a crash, or a failed
   * attempt), then clears the record: the next attempt starts from what the batch left.
   */
  private async replayIntent(entry: Running): Promise<void> {
    const intent = entry.lease.intent;
    if (intent === undefined || intent.length === 0) return;
    const { replay, store, now, expiry } = this.settings;
    if (replay === undefined)
      throw new DataAccessError(
        "conflict",
        `the lease ${entry.lease.id} holds writes of a batch that did not finish, and no replay was given (options.replay)`,
      );
    await replay(entry.lease.container, intent);
    if (!(await serialize(entry, (lease) => store.record(lease, [], now() + expiry))))
      throw new DataAccessError("conflict", `the lease ${entry.lease.id} was lost`);
  }

  /** Delivers one attempt of a batch: replays what an earlier one recorded, then runs the handlers. */
  private async attempt(entry: Running, changes: readonly unknown[]): Promise<void> {
    const { store, now, expiry } = this.settings;
    // The page was read before the writes an earlier attempt recorded were made: read it again.
    if (entry.lease.intent !== undefined && entry.lease.intent.length > 0) {
      await this.replayIntent(entry);
      throw new StalePage();
    }
    const recorded: IntentEntry[] = [];
    const journal: Journal = {
      record: async (entries) => {
        recorded.push(...entries);
        if (!(await serialize(entry, (lease) => store.record(lease, recorded, now() + expiry))))
          throw new DataAccessError("conflict", `the lease ${entry.lease.id} was lost`);
      },
    };
    await this.deliver(entry.lease.container, changes, entry.lease.range, journal);
  }

  /**
   * Delivers one page: the whole batch with retries, then change by change to isolate a poison one;
   * "reread" when the page must be read again from the checkpoint (a batch's recorded writes were
   * replayed after it was read).
   */
  private async deliverPage(entry: Running, page: FeedPage): Promise<BatchEvent | "reread" | undefined> {
    const { onError, maxAttempts, deadLetters, backoff, random } = this.settings;
    const where = whereOf(entry);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.attempt(entry, page.changes);
        return {
          ...where,
          changes: page.changes.length,
          attempts: attempt,
          deadLettered: 0,
          requestCharge: page.requestCharge,
        };
      } catch (error) {
        if (error instanceof StalePage) return "reread";
        onError(error, where);
        if (this.stopped || entry.lost) return undefined;
        const giveUp = deadLetters !== undefined && attempt >= maxAttempts && !isTransient(error);
        if (giveUp) return this.deliverOneByOne(entry, page, attempt);
        await this.sleeper.sleep(backoffDelay(attempt, backoff, random));
      }
    }
  }

  /** Delivers a page's changes one at a time, dead-lettering those that keep failing. */
  private async deliverOneByOne(
    entry: Running,
    page: FeedPage,
    attempts: number,
  ): Promise<BatchEvent | "reread" | undefined> {
    let deadLettered = 0;
    for (const [index, change] of page.changes.entries()) {
      const outcome = await this.deliverChange(entry, page, index, change, attempts);
      if (outcome === undefined || outcome === "reread") return outcome;
      if (outcome === "deadLettered") deadLettered++;
    }
    return {
      ...whereOf(entry),
      changes: page.changes.length,
      attempts: attempts + 1,
      deadLettered,
      requestCharge: page.requestCharge,
    };
  }

  /** One change of a page until it passes or the dead-letter store took it; undefined when stopped. */
  private async deliverChange(
    entry: Running,
    page: FeedPage,
    index: number,
    change: unknown,
    attempts: number,
  ): Promise<"delivered" | "deadLettered" | "reread" | undefined> {
    const { onError, maxAttempts, deadLetters, backoff, random, now, processor } = this.settings;
    const where = whereOf(entry);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.attempt(entry, [change]);
        return "delivered";
      } catch (error) {
        if (error instanceof StalePage) return "reread";
        onError(error, where);
        if (this.stopped || entry.lost) return undefined;
        if (attempt >= maxAttempts && !isTransient(error) && deadLetters !== undefined) {
          const letter: DeadLetter = {
            id: `${entry.lease.id}.${encodeURIComponent(page.continuation).slice(0, 120)}.${index}.${now()}`,
            processor,
            ...where,
            ...(entry.lease.continuation === undefined ? {} : { continuation: entry.lease.continuation }),
            change,
            error: error instanceof Error ? error.message : String(error),
            attempts: attempts + attempt,
            at: new Date(now()).toISOString(),
          };
          try {
            await deadLetters.put([letter]);
            return "deadLettered";
          } catch (storeError) {
            // Never skip a change the store did not take: keep trying both.
            onError(storeError, where);
          }
        }
        await this.sleeper.sleep(backoffDelay(attempt, backoff, random));
      }
    }
  }

  /** Reads one lease until the processor stops or the lease is lost. */
  private async readLease(entry: Running): Promise<void> {
    const { feed, start, onError, backoff, random, poll, maxItemCount } = this.settings;
    const where = whereOf(entry);
    let reader = feed.open(where.container, where.range, entry.lease.continuation, start);
    let failures = 0;
    while (!this.stopped && !entry.lost) {
      let page: FeedPage;
      try {
        page = await reader.read();
        failures = 0;
      } catch (error) {
        onError(error, where);
        await this.sleeper.sleep(backoffDelay(++failures, backoff, random));
        // Open again from the last checkpoint (an iterator may not survive a failed read).
        reader = feed.open(where.container, where.range, entry.lease.continuation, start);
        continue;
      }
      if (page.changes.length === 0) {
        // Pin where "now" was, so a restart does not begin at a later "now".
        if (entry.lease.continuation === undefined && page.continuation !== "") {
          await this.saveCheckpoint(entry, page.continuation);
        }
        await this.sleeper.sleep(poll);
        continue;
      }
      const event = await this.deliverPage(entry, page);
      if (event === undefined) break;
      if (event === "reread") {
        reader = feed.open(where.container, where.range, entry.lease.continuation, start);
        continue;
      }
      if (!(await this.saveCheckpoint(entry, page.continuation))) break;
      this.settings.onBatch?.(event);
      if (page.changes.length < maxItemCount) await this.sleeper.sleep(poll);
    }
  }

  private async saveCheckpoint(entry: Running, continuation: string): Promise<boolean> {
    const { store, now, expiry } = this.settings;
    try {
      return await serialize(entry, (lease) => store.checkpoint(lease, continuation, now() + expiry));
    } catch (error) {
      this.settings.onError(error, whereOf(entry));
      entry.lost = true;
      return false;
    }
  }

  /** Creates the leases of a container's feed ranges that no lease covers yet. */
  async initialize(container: string): Promise<void> {
    const { feed, store, processor } = this.settings;
    const ranges = await feed.ranges(container);
    const leases = await store.list(processor, container);
    for (const lease of leases) {
      // A lease never read whose range split since: its children get leases of their own.
      if (lease.continuation === undefined && !ranges.some((r) => r.key === lease.range))
        await store.remove(lease);
    }
    const kept = (await store.list(processor, container)).map((lease) => lease.range);
    for (const range of ranges) {
      if (kept.some((key) => rangeCovers(key, range.key))) continue;
      await store.create({
        id: leaseId(processor, container, range.key),
        processor,
        container,
        range: range.key,
      });
    }
  }

  /** Renews owned leases and takes free or expired ones (up to `maxLeases`). */
  async balance(): Promise<void> {
    const { store, owner, now, expiry, onError, processor, maxLeases } = this.settings;
    for (const entry of this.running.values()) {
      if (entry.lost) continue;
      await serialize(entry, (lease) => store.acquire(lease, owner, now() + expiry, now())).catch(
        (error: unknown) => {
          onError(error, whereOf(entry));
          entry.lost = true;
        },
      );
    }
    for (const [id, entry] of this.running) if (entry.lost) this.running.delete(id);
    for (const container of this.containers) {
      for (const lease of await store.list(processor, container)) {
        if (this.stopped || this.running.size >= maxLeases) return;
        if (this.running.has(lease.id)) continue;
        const taken = await store.acquire(lease, owner, now() + expiry, now());
        if (taken === undefined) continue;
        const entry: Running = {
          lease: taken,
          queue: Promise.resolve(),
          lost: false,
          done: Promise.resolve(),
        };
        entry.done = this.readLease(entry).catch((error: unknown) => {
          onError(error, { container, range: lease.range });
          entry.lost = true;
        });
        this.running.set(lease.id, entry);
      }
    }
  }

  /** Creates the leases, takes what it can, then renews and balances every `renewEvery`. */
  start(): ChangeFeedProcessor {
    const { onError, renewEvery } = this.settings;
    const everywhere = { container: this.containers.join(", ") };
    const ready = (async () => {
      for (const container of this.containers) await this.initialize(container);
      await this.balance();
    })();
    const loop = (async () => {
      try {
        await ready;
      } catch (error) {
        onError(error, everywhere);
      }
      while (!this.stopped) {
        await this.sleeper.sleep(renewEvery);
        if (this.stopped) break;
        try {
          await this.balance();
        } catch (error) {
          onError(error, everywhere);
        }
      }
    })();
    return {
      ready,
      owned: () => [...this.running.values()].filter((entry) => !entry.lost).map((entry) => entry.lease),
      stop: () => this.stop(loop),
    };
  }

  /** Stops reading, waits for the loop and the batches in flight, releases the leases. */
  private async stop(loop: Promise<void>): Promise<void> {
    const { store, onError } = this.settings;
    this.stopped = true;
    this.sleeper.wakeAll();
    await loop;
    await Promise.allSettled([...this.running.values()].map((entry) => entry.done));
    for (const entry of this.running.values()) {
      if (entry.lost) continue;
      await serialize(entry, async (lease) => {
        await store.release(lease);
        return lease;
      }).catch((error: unknown) => onError(error, whereOf(entry)));
    }
    this.running.clear();
  }
}

/**
 * Starts a processor over the change feeds of `containers`.
 * @example processChangeFeeds(database, ["posts"], access.applyFeed, { checkpoints: containerCheckpointStore(database.container("leases")) })
 */
export function processChangeFeeds(
  source: Database | FeedSource,
  containers: readonly string[],
  deliver: DeliverChanges,
  options: ChangeFeedProcessorOptions,
): ChangeFeedProcessor {
  return new Processor(settingsOf(source, options), containers, deliver).start();
}
