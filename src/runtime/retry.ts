/**
 * Waiting between attempts: exponential backoff with full jitter (a random delay between zero and
 * the capped exponential), so that processors and writers that failed together do not retry
 * together. Used by the change-feed processor and by read-modify-write retries. And the retries
 * of every request the runtime sends (`withRetries`): a throttled request (429) waits the delay
 * the service asked for; a transient failure of an idempotent request waits a backoff; both within
 * a bound of attempts and of total wait.
 */
import { DataAccessError, toDataAccessError } from "./errors.js";

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

/**
 * How the runtime retries a request the service throttles (429) or that fails transiently. The
 * SDK retries some of them itself first (its `connectionPolicy.retryOptions`: 429s of point
 * operations, queries and transactional batches, network errors of reads); these bounds apply to
 * what reaches the runtime, and to what the SDK does not retry (bulk reads, a 429 inside a batch
 * response).
 */
export interface RetryOptions {
  /** Attempts of one request, the first included (default 10: the SDK's 9 retries and the first). */
  readonly maxAttempts?: number;
  /** The longest total wait over the retries of one request, in ms (default 30,000, as the SDK). */
  readonly maxWaitMs?: number;
  /** The backoff of transient failures, and of a 429 that says no delay (default 100 ms doubling). */
  readonly backoff?: Backoff;
  /** Random numbers in [0, 1) for the backoff's jitter (default Math.random). */
  readonly random?: () => number;
  /** How to wait (default setTimeout); tests pass one that records the delays. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The default number of attempts of a request (RetryOptions.maxAttempts). */
export const DEFAULT_MAX_ATTEMPTS = 10;

/** The default longest total wait of a request's retries (RetryOptions.maxWaitMs). */
export const DEFAULT_MAX_WAIT_MS = 30_000;

/** A request to send with retries: what it is (for messages) and whether sending it twice is safe. */
export interface RetriedRequest {
  /** What the request does, for messages: "read posts/p1", "query posts". */
  readonly operation: string;
  /**
   * True when applying the request twice changes nothing more than once (a read, an upsert, an
   * unconditional replace or delete, a patch without increments): only those are sent again
   * after a transient failure, which may come after the service applied the request. A 429 is
   * always sent again: the service applied nothing.
   */
  readonly idempotent: boolean;
  /** Kept on the error (container, id...). */
  readonly context?: Readonly<Record<string, unknown>>;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Sends a request (`send(attempt)`, attempt counting from 1) until it succeeds, retrying a 429
 * after the service's delay (`retryAfterMs`, else the backoff) and a transient failure of an
 * idempotent request after the backoff, within `maxAttempts` and `maxWaitMs`. Every failure is
 * thrown as a DataAccessError: after the bound, `throttled` (with the service's last
 * `retryAfterMs`) or `transient`.
 * @example await withRetries(() => container.item(id, key).read(), { operation: `read ${id}`, idempotent: true })
 */
export async function withRetries<T>(
  send: (attempt: number) => Promise<T>,
  request: RetriedRequest,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const maxWaitMs = Math.max(0, options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(attempt);
    } catch (thrown) {
      const error = toDataAccessError(thrown, request.operation, request.context);
      const retried = error.code === "throttled" || (error.code === "transient" && request.idempotent);
      if (!retried) throw error;
      const delay =
        error.code === "throttled" && error.retryAfterMs !== undefined
          ? error.retryAfterMs
          : backoffDelay(attempt, options.backoff, random);
      if (attempt >= maxAttempts || waited + delay > maxWaitMs) throw gaveUp(error, attempt, waited, delay);
      waited += delay;
      await sleep(delay);
    }
  }
}

/**
 * The error after the last attempt: what the service said, with the attempts and the wait; a
 * throttled one says how long to wait (the service's delay, else the next backoff).
 */
function gaveUp(error: DataAccessError, attempts: number, waitedMs: number, next: number): DataAccessError {
  if (attempts === 1 && error.code !== "throttled") return error;
  const after = `after ${attempts} attempt${attempts === 1 ? "" : "s"} and ${waitedMs} ms of waiting`;
  return new DataAccessError(error.code, `${error.message} (${after})`, {
    cause: error.cause ?? error,
    context: { ...error.context, attempts, waitedMs },
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    ...(error.substatus === undefined ? {} : { substatus: error.substatus }),
    ...(error.activityId === undefined ? {} : { activityId: error.activityId }),
    ...(error.requestCharge === undefined ? {} : { requestCharge: error.requestCharge }),
    ...(error.code === "throttled" ? { retryAfterMs: error.retryAfterMs ?? next } : {}),
  });
}
