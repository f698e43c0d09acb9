/**
 * Change-feed maintenance during a verify run on a real endpoint: the generated module's
 * change-feed processors over the run's new database (from the beginning, checkpoints in memory),
 * and a way to wait until they have applied every change the writes made.
 */
import { CosmosModelerError } from "../common/errors.js";
import { memoryCheckpointStore } from "../runtime/checkpoints.js";
import type { MaintenanceState } from "./fault-database.js";
import type { DataAccess } from "./load-data-access.js";

/** Change-feed maintenance on a real endpoint: processors, and a way to wait until they settle. */
export interface FeedMaintenance {
  /** Waits until no handler has run for a quiet period; the charge the handlers spent meanwhile. */
  settle(): Promise<number>;
  stop(): Promise<void>;
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
