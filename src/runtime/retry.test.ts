/**
 * `withRetries`, the loop every request of the runtime goes through: what it sends again, how long
 * it waits, and what it throws when it stops.
 */
import { ErrorResponse } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import { withRetries, type RetryOptions } from "./retry.js";

function serviceError(code: number, retryAfterInMs?: number): ErrorResponse {
  const error = new ErrorResponse(`status ${code}`);
  error.code = code;
  if (retryAfterInMs !== undefined) error.retryAfterInMs = retryAfterInMs;
  return error;
}

/** Sends that fail with `failures` in turn, then answer "done"; counts the attempts. */
function sends(failures: readonly unknown[]): { send: () => Promise<string>; readonly attempts: number } {
  let attempts = 0;
  return {
    send: () => {
      const failure = failures[attempts++];
      return failure === undefined ? Promise.resolve("done") : Promise.reject(failure);
    },
    get attempts() {
      return attempts;
    },
  };
}

function recording(options: RetryOptions = {}): RetryOptions & { readonly waits: number[] } {
  const waits: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { ...options, waits, sleep, random: () => 0.5 };
}

const read = { operation: "read posts/p1", idempotent: true };
const create = { operation: "create posts/p1", idempotent: false };

describe("withRetries", () => {
  it("waits the service's delay after a 429, a backoff when it gives none", async () => {
    const sent = sends([serviceError(429, 250), serviceError(429)]);
    const options = recording({ backoff: { initialDelayMs: 100 } });
    expect(await withRetries(sent.send, create, options)).toBe("done");
    // A 429 is sent again even when the request is not idempotent: the service applied nothing.
    // The second wait is the backoff of attempt 2: half (the jitter) of 200 ms.
    expect(options.waits).toEqual([250, 100]);
    expect(sent.attempts).toBe(3);
  });

  it("stops at the total wait and says how long to wait before trying again", async () => {
    const sent = sends(Array.from({ length: 20 }, () => serviceError(429)));
    const options = recording({ maxWaitMs: 1000, backoff: { initialDelayMs: 200, maxDelayMs: 800 } });
    const error = await withRetries(sent.send, read, options).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DataAccessError);
    // Backoffs of half the ceiling: 100, 200, 400; the next (400) would pass 1,000 ms.
    expect(options.waits).toEqual([100, 200, 400]);
    expect(error).toMatchObject({
      code: "throttled",
      statusCode: 429,
      retryAfterMs: 400,
      context: { attempts: 4, waitedMs: 700 },
    });
    expect(sent.attempts).toBe(4);
  });

  it("sends a transient failure again only when the request is idempotent", async () => {
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    const again = sends([reset, serviceError(503)]);
    expect(await withRetries(again.send, read, recording())).toBe("done");
    expect(again.attempts).toBe(3);

    const once = sends([reset]);
    const error = await withRetries(once.send, create, recording()).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: "transient",
      message: expect.stringContaining("network error ECONNRESET"),
    });
    expect((error as Error).cause).toBe(reset);
    expect(once.attempts).toBe(1);
  });

  it("throws any other failure at once, typed", async () => {
    const sent = sends([serviceError(409)]);
    await expect(withRetries(sent.send, read, recording())).rejects.toMatchObject({
      code: "conflict",
      statusCode: 409,
    });
    expect(sent.attempts).toBe(1);
  });
});
