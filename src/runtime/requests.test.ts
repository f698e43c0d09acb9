/**
 * `readMany` over a fake container whose bulk call answers per operation: throttled reads (429)
 * are read again after the service's delay, calls carry at most 100 reads, answers come in the
 * order asked, and a read throttled past the bound fails with `throttled`. The same function on
 * the embedded endpoint: src/verify/read-many.test.ts. Also the typed errors of point reads,
 * patches and transactional batches.
 */
import { ErrorResponse, type Container, type OperationInput } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import { batchError, MAX_BULK_OPERATIONS, patchItem, readItem, readMany } from "./requests.js";
import type { RetryOptions } from "./retry.js";

/** Retry options that record the waits instead of waiting. */
function recording(options: RetryOptions = {}): RetryOptions & { readonly waits: number[] } {
  const waits: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { ...options, waits, sleep };
}

/** A container of items `i0..i(n-1)`; `throttle(id, call)` says whether that read answers 429. */
function fakeContainer(count: number, throttle: (id: string, call: number) => boolean) {
  const calls: number[] = [];
  const container = {
    items: {
      bulk(operations: OperationInput[]) {
        calls.push(operations.length);
        const call = calls.length;
        return Promise.resolve(
          operations.map((operation) => {
            const id = "id" in operation ? String(operation.id) : "";
            if (throttle(id, call))
              return { statusCode: 429, requestCharge: 0.5, retryAfterMilliseconds: 30 };
            const exists = Number(id.slice(1)) < count;
            return exists
              ? { statusCode: 200, requestCharge: 1, resourceBody: { id } }
              : { statusCode: 404, requestCharge: 1 };
          }),
        );
      },
    },
  } as unknown as Container;
  return { container, calls };
}

const identity = (id: string) => ({ id, keys: ["p"] });

describe("readMany", () => {
  it("reads again what the service throttled after its delay, in calls of at most 100, answers in the order asked", async () => {
    const { container, calls } = fakeContainer(230, (id, call) => call <= 3 && Number(id.slice(1)) % 7 === 0);
    const asked = Array.from({ length: 240 }, (_, i) => `i${239 - i}`);
    const retry = recording();
    const read = await readMany(container, asked.map(identity), retry);
    expect(read.items.map((item) => item["id"])).toEqual(asked.filter((id) => Number(id.slice(1)) < 230));
    expect(Math.max(...calls)).toBeLessThanOrEqual(MAX_BULK_OPERATIONS);
    // 240 reads in 3 calls, then the throttled ones of each call once more (none from call 4 on):
    // i239..i140 holds 15 multiples of 7, i139..i40 14, i39..i0 6.
    expect(calls.slice(0, 3)).toEqual([100, 100, 40]);
    expect([...calls.slice(3)].sort((a, b) => a - b)).toEqual([6, 14, 15]);
    expect(read.requestCharge).toBe(240 + 35 * 0.5);
    // Each call waited the service's 30 ms once.
    expect(retry.waits).toEqual([30, 30, 30]);
  });

  it("fails with throttled and the service's delay after the attempts of the retry options", async () => {
    const { container, calls } = fakeContainer(10, (id) => id === "i3");
    const error = await readMany(container, ["i1", "i3"].map(identity), recording({ maxAttempts: 5 })).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DataAccessError);
    expect(error).toMatchObject({ code: "throttled", statusCode: 429, retryAfterMs: 30 });
    // The first call reads both, the next 4 only the throttled one.
    expect(calls).toEqual([2, 1, 1, 1, 1]);
  });

  it("answers nothing for nothing, without a request", async () => {
    const { container, calls } = fakeContainer(1, () => false);
    expect(await readMany(container, [])).toEqual({ items: [], requestCharge: 0 });
    expect(calls).toEqual([]);
  });
});

/** The SDK's error for a status. */
function serviceError(code: number, charge = 1): ErrorResponse {
  const error = new ErrorResponse(`status ${code}`);
  error.code = code;
  error.headers = { "x-ms-request-charge": String(charge) };
  return error;
}

describe("requests", () => {
  it("read a missing item as undefined with its charge, and throw other failures typed", async () => {
    let answer: ErrorResponse = serviceError(404, 1.25);
    const container = {
      id: "posts",
      item: () => ({ read: () => Promise.reject(answer) }),
    } as unknown as Container;
    expect(await readItem(container, "p1", ["u1"])).toEqual({ item: undefined, requestCharge: 1.25 });
    answer = serviceError(403);
    await expect(readItem(container, "p1", ["u1"])).rejects.toMatchObject({
      code: "requestFailed",
      statusCode: 403,
    });
  });

  it("refuse an id Cosmos DB cannot address before any request", async () => {
    let requests = 0;
    const container = {
      id: "posts",
      item: () => ({
        read: () => {
          requests++;
          return Promise.resolve({ resource: undefined, requestCharge: 1 });
        },
        patch: () => {
          requests++;
          return Promise.resolve({ resource: undefined, requestCharge: 1 });
        },
      }),
    } as unknown as Container;
    await expect(readItem(container, "a/b", ["u1"])).rejects.toMatchObject({ code: "badKey" });
    await expect(
      patchItem(container, "a#b", ["u1"], [{ op: "set", path: "/x", value: 1 }]),
    ).rejects.toMatchObject({
      code: "badKey",
    });
    expect(requests).toBe(0);
  });

  it("type the failed operation of a transactional batch, not the ones that failed with it", () => {
    const error = batchError("create comment c1", [
      { statusCode: 424, requestCharge: 0 },
      { statusCode: 409, requestCharge: 1.5 },
    ]);
    expect(error).toMatchObject({
      code: "conflict",
      statusCode: 409,
      requestCharge: 1.5,
      context: { index: 1 },
    });
    expect(batchError("x", [{ statusCode: 400, requestCharge: 0 }])?.code).toBe("batchFailed");
    expect(batchError("x", [{ statusCode: 413, requestCharge: 0 }])?.code).toBe("tooLarge");
    expect(batchError("x", [{ statusCode: 201, requestCharge: 1 }])).toBeUndefined();
  });
});
