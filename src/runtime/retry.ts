/**
 * Waiting between attempts: exponential backoff with full jitter (a random delay between zero and
 * the capped exponential), so that processors and writers that failed together do not retry
 * together. Used by the change-feed processor and by read-modify-write retries.
 */

/** How long to wait between attempts. */
export interface Backoff {
  /** The delay before the second attempt, in milliseconds (default 100). */
  readonly initialDelayMs?: number;
  /** The longest delay (default 30,000). */
  readonly maxDelayMs?: number;
}

/**
 * The delay before attempt `attempt + 1` (attempt counts from 1): a random share of
 * min(maxDelayMs, initialDelayMs x 2^(attempt - 1)).
 * @example backoffDelay(3, { initialDelayMs: 100 }, () => 0.5) // 200
 */
export function backoffDelay(
  attempt: number,
  backoff: Backoff = {},
  random: () => number = Math.random,
): number {
  const initial = backoff.initialDelayMs ?? 100;
  const cap = backoff.maxDelayMs ?? 30_000;
  const ceiling = Math.min(cap, initial * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.floor(random() * ceiling);
}

/** A sleep that `wakeAll` ends early (to stop a processor without waiting out its pauses). */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
  wakeAll(): void;
}

/** Sleeps that can all be woken at once. */
export function createSleeper(): Sleeper {
  const waking = new Set<() => void>();
  return {
    sleep(ms) {
      return new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          waking.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(0, ms));
        waking.add(wake);
      });
    },
    wakeAll() {
      for (const wake of [...waking]) wake();
    },
  };
}
