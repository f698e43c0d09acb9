/**
 * Change-feed maintenance during a verify run on a real endpoint: the generated module's
 * change-feed processors over the run's new database (from the beginning, checkpoints in memory),
 * and a way to wait until they have applied every change the writes made.
 */
import { CosmosModelerError } from "../common/errors.js";
import type { ChangeFeedProcessor } from "../runtime/change-feed.js";
import { memoryCheckpointStore } from "../runtime/checkpoints.js";
import type { ChangeFeedModeName, FeedSource } from "../runtime/feed-source.js";
import { SimulatedCrash, type CrashSchedule } from "./crash-schedule.js";
import type { MaintenanceState } from "./fault-database.js";
import type { DataAccess } from "./load-data-access.js";
import type { SimulatedFeed } from "./simulated-feed.js";

/** Change-feed maintenance on a real endpoint: processors, and a way to wait until they settle. */
export interface FeedMaintenance {
  /** Waits until no handler has run for a quiet period; the charge the handlers spent meanwhile. */
  settle(): Promise<number>;
  stop(): Promise<void>;
  /** The feed the processors read when it is not the endpoint's own (a simulated one). */
  readonly source?: FeedSource;
}

/**
 * Starts the processors and waits until each has read its starting point.
 * @param pollMs how often the processors poll the change feed
 * @param timeoutMs the longest `settle` waits before `verify.changeFeedTimeout`
 */
export async function startFeedMaintenance(
  access: DataAccess,
  state: MaintenanceState,
  pollMs: number,
  timeoutMs: number,
): Promise<FeedMaintenance> {
  let inFlight = 0;
  let lastActivity = performance.now();
  let charge = 0;
  const errors: unknown[] = [];
  const processors = access.startChangeFeedProcessors({
    checkpoints: memoryCheckpointStore(),
    // Verify's database is new: every change is one of this run's.
    startFrom: "beginning",
    pollIntervalMs: pollMs,
    leaseRenewMs: pollMs * 4,
    onError: (error) => errors.push(error),
    applyFeed: async (container, entries, range) => {
      inFlight++;
      state.depth++;
      try {
        const result = await access.applyFeed(container, entries, range);
        charge += result.requestCharge;
        return result;
      } finally {
        state.depth--;
        inFlight--;
        lastActivity = performance.now();
      }
    },
  });
  await processors.ready;
  // Let every processor read its starting point before the first write.
  await new Promise((resolve) => setTimeout(resolve, pollMs * 4));
  return {
    async settle() {
      const started = performance.now();
      const quiet = Math.max(2000, pollMs * 8);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        const now = performance.now();
        if (inFlight === 0 && now - lastActivity >= quiet && now - started >= quiet) break;
        if (now - started > timeoutMs) {
          throw new CosmosModelerError(
            "verify.changeFeedTimeout",
            `the change feed maintenance did not settle within ${timeoutMs} ms`,
          );
        }
      }
      const error = errors.shift();
      if (error !== undefined) throw error;
      const spent = charge;
      charge = 0;
      return spent;
    },
    stop: () => processors.stop(),
  };
}

/** True when `error` is, or was caused by, a simulated crash. */
function isCrash(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (cause instanceof SimulatedCrash) return true;
    if (cause instanceof Error && cause.message.includes("simulated crash")) return true;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return false;
}

/**
 * Change-feed maintenance on an endpoint without a change feed: the module's processors over a
 * simulated latest-version feed (simulated-feed.ts), killed at the schedule's crash points and
 * started again from their leases (a new generation with the same instance name), as a process
 * that dies and restarts. `settle` waits until every feed range's checkpoint reached its newest
 * change, no lease holds an unfinished batch and no handler runs.
 */
export async function startSimulatedFeedMaintenance(
  access: DataAccess,
  state: MaintenanceState,
  feed: SimulatedFeed,
  schedule: CrashSchedule,
  timeoutMs: number,
  mode: ChangeFeedModeName,
): Promise<FeedMaintenance> {
  const store = memoryCheckpointStore();
  const errors: unknown[] = [];
  let inFlight = 0;
  let charge = 0;
  let processor: ChangeFeedProcessor | undefined;
  const start = async (): Promise<void> => {
    const generation = schedule.next();
    const watched = <T extends { readonly requestCharge: number }>(work: () => Promise<T>): Promise<T> =>
      schedule.run(generation, async () => {
        inFlight++;
        state.depth++;
        try {
          const result = await work();
          charge += result.requestCharge;
          return result;
        } finally {
          state.depth--;
          inFlight--;
        }
      });
    const pinned = (): boolean =>
      [...store.leases.values()].length > 0 &&
      [...store.leases.values()].every((lease) => lease.continuation !== undefined);
    processor = access.startChangeFeedProcessors({
      checkpoints: schedule.checkpoints(store, generation),
      feed: feed.source,
      // The loaded data is in place: all versions and deletes starts at "now" (its only start),
      // the latest-version feed at the beginning (the loaded items carry their counted flags).
      startFrom: mode === "allVersionsAndDeletes" ? "now" : "beginning",
      instanceName: "verify",
      pollIntervalMs: 2,
      leaseRenewMs: 20,
      backoff: { initialDelayMs: 2, maxDelayMs: 20 },
      random: () => 0.5,
      // What a dead generation still reports (a lease it lost to its successor) died with it.
      onError: (error) => {
        if (!isCrash(error) && !schedule.isDead(generation)) errors.push(error);
      },
      applyFeed: (container, entries, range, journal) =>
        watched(() => access.applyFeed(container, entries, range, journal)),
      replay: (container, intent) => watched(() => access.replayFeed(container, intent)),
    });
    await processor.ready;
    // Every range pinned its start before the first write (a write before would be "before now").
    const started = performance.now();
    while (!pinned() && performance.now() - started < timeoutMs && schedule.alive())
      await new Promise((resolve) => setTimeout(resolve, 2));
  };
  await start();
  const restartIfDead = async (): Promise<void> => {
    if (schedule.alive()) return;
    await processor?.stop();
    await start();
  };
  return {
    async settle() {
      const started = performance.now();
      let quiet = 0;
      while (quiet < 2) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        await restartIfDead();
        const leases = [...store.leases.values()];
        const continuations = new Map(leases.map((l) => [`${l.container}|${l.range}`, l.continuation]));
        const done =
          inFlight === 0 &&
          leases.every((l) => l.intent === undefined) &&
          (await feed.caughtUp(continuations)) &&
          schedule.alive();
        quiet = done ? quiet + 1 : 0;
        if (performance.now() - started > timeoutMs) {
          throw new CosmosModelerError(
            "verify.changeFeedTimeout",
            `the change feed maintenance did not settle within ${timeoutMs} ms`,
            {
              context: {
                inFlight,
                alive: schedule.alive(),
                leases: leases.map(
                  (l) =>
                    `${l.container}|${l.range}@${l.continuation ?? "-"}${l.intent === undefined ? "" : " (unfinished batch)"}`,
                ),
                errors: errors.slice(0, 3).map((e) => (e instanceof Error ? e.message : String(e))),
              },
            },
          );
        }
      }
      const error = errors.shift();
      if (error !== undefined) throw error;
      const spent = charge;
      charge = 0;
      return spent;
    },
    stop: async () => {
      await processor?.stop();
    },
    source: feed.source,
  };
}
