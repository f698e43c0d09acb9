/**
 * The guard over `@azure/cosmos` on a fake container whose every call answers what the test
 * scripts (the SDK's own ErrorResponse for the service's errors): 429s are sent again after the
 * service's delay and end in `throttled` after the bound, transient failures are retried only when
 * a repeat is safe, and every failure is a DataAccessError with what the service said. The same
 * guard on the embedded endpoint: the runtime's tests in src/verify.
 */
import {
  ErrorResponse,
  type Container,
  type OperationInput,
  type OperationResponse,
  type PatchRequestBody,
} from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { DataAccessError } from "./errors.js";
import { guardContainer } from "./guarded-container.js";
import type { RetryOptions } from "./retry.js";

const ACTIVITY = "0f6a2b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b";

/** The SDK's error for a status the service answered. */
function serviceError(
  code: number,
  options: { retryAfterInMs?: number; substatus?: number; charge?: number; message?: string } = {},
): ErrorResponse {
  const error = new ErrorResponse(options.message ?? `Message: {"Errors":["status ${code}"]}`);
  error.code = code;
  error.activityId = ACTIVITY;
  error.headers = {
    "x-ms-request-charge": String(options.charge ?? 1.5),
    "x-ms-activity-id": ACTIVITY,
    ...(options.retryAfterInMs === undefined
      ? {}
      : { "x-ms-retry-after-ms": String(options.retryAfterInMs) }),
  };
  if (options.substatus !== undefined) error.substatus = options.substatus;
  if (options.retryAfterInMs !== undefined) error.retryAfterInMs = options.retryAfterInMs;
  return error;
}

/** A network failure as Node reports it. */
function connectionReset(): Error {
  return Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
}

/** Answers in turn: an Error is thrown, anything else returned; the last answer repeats. */
function scripted<T>(answers: readonly (T | Error)[]): { call: () => Promise<T>; readonly calls: number } {
  let calls = 0;
  return {
    call: () => {
      const answer = answers[Math.min(calls++, answers.length - 1)];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as T);
    },
    get calls() {
      return calls;
    },
  };
}

/** Retry options that record the waits instead of waiting. */
function recording(options: RetryOptions = {}): RetryOptions & { readonly waits: number[] } {
  const waits: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { ...options, waits, sleep, random: () => 0.5 };
}

const ok = (resource: unknown) => ({ resource, requestCharge: 1, statusCode: 200, headers: {} });

/** A container whose item operations and items operations answer from scripts. */
function fakeContainer(parts: {
  read?: () => Promise<unknown>;
  patch?: (body: PatchRequestBody) => Promise<unknown>;
  create?: () => Promise<unknown>;
  upsert?: () => Promise<unknown>;
  batch?: (operations: OperationInput[]) => Promise<unknown>;
  bulk?: (operations: OperationInput[]) => Promise<unknown>;
  query?: (options: { continuationToken?: string }) => unknown;
  changeFeed?: (options: { changeFeedStartFrom?: unknown }) => unknown;
}): Container {
  const missing = () => Promise.reject(new Error("not scripted"));
  return {
    id: "posts",
    item: () => ({
      read: parts.read ?? missing,
      patch: parts.patch ?? missing,
      replace: missing,
      delete: missing,
    }),
    items: {
      create: parts.create ?? missing,
      upsert: parts.upsert ?? missing,
      batch: parts.batch ?? missing,
      bulk: parts.bulk ?? missing,
      query: (_spec: unknown, options: { continuationToken?: string } = {}) => parts.query?.(options),
      getChangeFeedIterator: (options: { changeFeedStartFrom?: unknown }) => parts.changeFeed?.(options),
    },
  } as unknown as Container;
}

describe("a guarded container", () => {
  it("sends a throttled point read again after the service's delay, then answers", async () => {
    const read = scripted([
      serviceError(429, { retryAfterInMs: 120 }),
      serviceError(429, { retryAfterInMs: 80 }),
      ok({ id: "p1" }),
    ]);
    const retry = recording();
    const container = guardContainer(fakeContainer({ read: read.call }), retry);
    const response = await container.item("p1", "u1").read();
    expect(response.resource).toEqual({ id: "p1" });
    expect(read.calls).toBe(3);
    expect(retry.waits).toEqual([120, 80]);
  });

  it("throws throttled with the service's delay once the attempts or the total wait run out", async () => {
    const read = scripted([serviceError(429, { retryAfterInMs: 500, substatus: 3200 })]);
    const retry = recording({ maxAttempts: 4 });
    const container = guardContainer(fakeContainer({ read: read.call }), retry);
    const error = await container
      .item("p1", "u1")
      .read()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DataAccessError);
    expect(error).toMatchObject({
      code: "throttled",
      statusCode: 429,
      substatus: 3200,
      retryAfterMs: 500,
      activityId: ACTIVITY,
      context: { attempts: 4, waitedMs: 1500 },
    });
    expect(read.calls).toBe(4);
    expect(retry.waits).toEqual([500, 500, 500]);

    const bounded = scripted([serviceError(429, { retryAfterInMs: 400 })]);
    const byWait = recording({ maxWaitMs: 1000 });
    const waited = guardContainer(fakeContainer({ read: bounded.call }), byWait);
    await expect(waited.item("p1", "u1").read()).rejects.toMatchObject({
      code: "throttled",
      retryAfterMs: 400,
    });
    expect(byWait.waits).toEqual([400, 400]);
  });

  it("turns a 409 on a create into conflict, keeping status, activity id and charge, without a retry", async () => {
    const create = scripted([
      serviceError(409, {
        charge: 2.25,
        message: "Entity with the specified id already exists in the system.",
      }),
    ]);
    const container = guardContainer(fakeContainer({ create: create.call }), recording());
    const error = await container.items.create({ id: "p1" }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: "conflict",
      statusCode: 409,
      activityId: ACTIVITY,
      requestCharge: 2.25,
    });
    expect((error as Error).message).toContain("create posts/p1: 409 conflict");
    expect((error as Error).cause).toBeInstanceOf(ErrorResponse);
    expect(create.calls).toBe(1);
  });

  it("turns a 413 into tooLarge and a 412 into precondition", async () => {
    const upsert = scripted([serviceError(413, { message: "Request size is too large" })]);
    const patch = scripted([serviceError(412)]);
    const container = guardContainer(fakeContainer({ upsert: upsert.call, patch: patch.call }), recording());
    await expect(container.items.upsert({ id: "p1" })).rejects.toMatchObject({
      code: "tooLarge",
      statusCode: 413,
    });
    await expect(
      container
        .item("p1", "u1")
        .patch({ operations: [{ op: "set", path: "/a", value: 1 }], condition: "from c where c.a = 0" }),
    ).rejects.toMatchObject({ code: "precondition", statusCode: 412 });
    expect(upsert.calls).toBe(1);
    expect(patch.calls).toBe(1);
  });

  it("retries a network error of an idempotent request, never of a create or an increment", async () => {
    const read = scripted([connectionReset(), connectionReset(), ok({ id: "p1" })]);
    const retry = recording({ backoff: { initialDelayMs: 100 } });
    const reads = guardContainer(fakeContainer({ read: read.call }), retry);
    expect((await reads.item("p1", "u1").read()).resource).toEqual({ id: "p1" });
    expect(read.calls).toBe(3);
    // Backoff with jitter 0.5: half of 100, then half of 200.
    expect(retry.waits).toEqual([50, 100]);

    const create = scripted([connectionReset(), ok({ id: "p1" })]);
    const patch = scripted([connectionReset(), ok({ id: "p1" })]);
    const writes = guardContainer(fakeContainer({ create: create.call, patch: patch.call }), recording());
    await expect(writes.items.create({ id: "p1" })).rejects.toMatchObject({ code: "transient" });
    await expect(
      writes.item("p1", "u1").patch([{ op: "incr", path: "/likes", value: 1 }]),
    ).rejects.toMatchObject({
      code: "transient",
    });
    expect(create.calls).toBe(1);
    expect(patch.calls).toBe(1);
  });

  it("refuses ids and partition key values Cosmos DB cannot address, before any request", async () => {
    const read = scripted([ok({ id: "x" })]);
    const create = scripted([ok({ id: "x" })]);
    const container = guardContainer(fakeContainer({ read: read.call, create: create.call }), recording());
    for (const id of ["a/b", "a\\b", "a#b", "a?b", "trailing ", "", "x".repeat(1024)]) {
      await expect(container.item(id, "u1").read()).rejects.toMatchObject({
        code: "badKey",
        context: { id },
      });
      await expect(container.items.create({ id })).rejects.toMatchObject({ code: "badKey" });
    }
    await expect(container.item("p1", "é".repeat(1025)).read()).rejects.toMatchObject({ code: "badKey" });
    expect(read.calls).toBe(0);
    expect(create.calls).toBe(0);
    // The longest id (1,023 bytes) and key value (2,048 bytes) are fine.
    await container.item("x".repeat(1023), "é".repeat(1024)).read();
    expect(read.calls).toBe(1);
  });

  it("sends a query page again from the last continuation after a 429", async () => {
    const asked: (string | undefined)[] = [];
    const pages = new Map<string | undefined, { resources: unknown[]; continuationToken?: string }>([
      [undefined, { resources: [1, 2], continuationToken: "c1" }],
      ["c1", { resources: [3, 4] }],
    ]);
    let failOnce = true;
    const queryRetry = recording();
    const container = guardContainer(
      fakeContainer({
        // An iterator that moves on page after page from where it was opened.
        query: (options) => {
          let token = options.continuationToken;
          return {
            fetchNext: () => {
              asked.push(token);
              if (token === "c1" && failOnce) {
                failOnce = false;
                return Promise.reject(serviceError(429, { retryAfterInMs: 30 }));
              }
              const page = pages.get(token) ?? { resources: [] };
              token = page.continuationToken;
              return Promise.resolve({ ...page, requestCharge: 1, hasMoreResults: token !== undefined });
            },
            hasMoreResults: () => true,
          };
        },
      }),
      queryRetry,
    );
    const iterator = container.items.query("SELECT * FROM c");
    expect((await iterator.fetchNext()).resources).toEqual([1, 2]);
    expect((await iterator.fetchNext()).resources).toEqual([3, 4]);
    // The throttled page was asked of a new iterator from "c1", not from the start, after 30 ms.
    expect(asked).toEqual([undefined, "c1", "c1"]);
    expect(queryRetry.waits).toEqual([30]);
  });

  it("retries a fetchAll query after a 429 and types what persists", async () => {
    const fetchAll = scripted([
      serviceError(429, { retryAfterInMs: 10 }),
      { resources: [1], requestCharge: 2 },
    ]);
    const container = guardContainer(
      fakeContainer({ query: () => ({ fetchAll: fetchAll.call }) }),
      recording(),
    );
    expect((await container.items.query("SELECT * FROM c").fetchAll()).resources).toEqual([1]);
    const failing = scripted([serviceError(400, { message: "Syntax error" })]);
    const bad = guardContainer(fakeContainer({ query: () => ({ fetchAll: failing.call }) }), recording());
    await expect(bad.items.query("SELEC").fetchAll()).rejects.toMatchObject({
      code: "requestFailed",
      statusCode: 400,
    });
    expect(failing.calls).toBe(1);
  });

  it("sends a transactional batch again whole when an operation answers 429, with fresh operations", async () => {
    const seen: OperationInput[][] = [];
    const batchRetry = recording();
    const answers: OperationResponse[][] = [
      [
        { statusCode: 424, requestCharge: 0 },
        { statusCode: 429, requestCharge: 0.3, retryAfterMilliseconds: 70 } as OperationResponse,
      ],
      [
        { statusCode: 201, requestCharge: 5, resourceBody: { id: "c1" } },
        { statusCode: 200, requestCharge: 3 },
      ],
    ];
    const container = guardContainer(
      fakeContainer({
        batch: (operations) => {
          seen.push(operations);
          // What the SDK does: it rewrites each operation's partition key in place.
          for (const operation of operations)
            operation.partitionKey = JSON.stringify([operation.partitionKey]);
          return Promise.resolve({ result: answers[seen.length - 1], headers: {}, code: 207 });
        },
      }),
      batchRetry,
    );
    const operations: OperationInput[] = [
      { operationType: "Create", partitionKey: "p1", resourceBody: { id: "c1" } },
      {
        operationType: "Patch",
        id: "p1",
        partitionKey: "p1",
        resourceBody: { operations: [{ op: "incr", path: "/n", value: 1 }] },
      },
    ];
    const response = await container.items.batch(operations, "p1");
    expect(response.result?.map((result) => result.statusCode)).toEqual([201, 200]);
    expect(seen).toHaveLength(2);
    expect(batchRetry.waits).toEqual([70]);
    // The second attempt got the caller's operations, not the ones the first attempt rewrote.
    expect(seen[1]?.[0]?.partitionKey).toBe('["p1"]');
    expect(operations[0]?.partitionKey).toBe("p1");
  });

  it("retries a batch the SDK reports as a plain error of a 429, then throws throttled", async () => {
    const batch = scripted<unknown>([
      new Error(
        `Batch request error: Message: {"Errors":["Request rate is large. More Request Units may be needed"]}\r\nActivityId: ${ACTIVITY}`,
      ),
    ]);
    const retry = recording({ maxAttempts: 3, backoff: { initialDelayMs: 40 } });
    const container = guardContainer(fakeContainer({ batch: batch.call }), retry);
    const error = await container.items
      .batch([{ operationType: "Upsert", partitionKey: "p1", resourceBody: { id: "a" } }], "p1")
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "throttled", statusCode: 429, activityId: ACTIVITY });
    expect((error as DataAccessError).retryAfterMs).toBeGreaterThan(0);
    expect(batch.calls).toBe(3);
    expect(retry.waits).toEqual([20, 40]);
  });

  it("sends again only the bulk reads the service throttled, and a whole call throttled at the request", async () => {
    const sent: string[][] = [];
    let call = 0;
    const container = guardContainer(
      fakeContainer({
        bulk: (operations) => {
          call++;
          sent.push(operations.map((operation) => ("id" in operation ? String(operation.id) : "")));
          if (call === 2)
            return Promise.reject(new Error("Bulk request errored with: Request rate is large"));
          return Promise.resolve(
            operations.map((operation) =>
              call === 1 && "id" in operation && operation.id === "b"
                ? { statusCode: 429, requestCharge: 0.5, retryAfterMilliseconds: 25 }
                : {
                    statusCode: 200,
                    requestCharge: 1,
                    resourceBody: { id: "id" in operation ? operation.id : "" },
                  },
            ),
          );
        },
      }),
      recording(),
    );
    const read = (id: string): OperationInput => ({ operationType: "Read", id, partitionKey: "p" });
    const responses = await container.items.bulk([read("a"), read("b"), read("c")]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(sent).toEqual([["a", "b", "c"], ["b"], ["b"]]);
    // The answer read again carries the charge of its 429 too.
    expect(responses[1]?.requestCharge).toBe(1.5);
  });

  it("reads the change feed again from the last continuation after a failure", async () => {
    const starts: unknown[] = [];
    let reads = 0;
    const container = guardContainer(
      fakeContainer({
        changeFeed: (options) => {
          starts.push(options.changeFeedStartFrom);
          return {
            readNext: () => {
              reads++;
              if (reads === 2) return Promise.reject(serviceError(503));
              return Promise.resolve({
                result: [reads],
                continuationToken: `t${reads}`,
                requestCharge: 1,
                statusCode: 200,
              });
            },
            hasMoreResults: true,
          };
        },
      }),
      recording(),
    );
    const iterator = container.items.getChangeFeedIterator({ maxItemCount: 10 });
    expect((await iterator.readNext()).result).toEqual([1]);
    expect((await iterator.readNext()).result).toEqual([3]);
    expect(starts).toHaveLength(2);
    expect(JSON.stringify(starts[1])).toContain("t1");
  });

  it("keeps account keys and signatures out of messages", async () => {
    const read = scripted([
      serviceError(401, {
        message:
          "The input authorization token can't serve the request. authorization=type%3Dmaster%26ver%3D1.0%26sig%3DExdjZ%2FlrVjm7E, AccountEndpoint=https://a.documents.azure.com:443/;AccountKey=c2VjcmV0a2V5PT0=;",
      }),
    ]);
    const container = guardContainer(fakeContainer({ read: read.call }), recording());
    const error = (await container
      .item("p1", "u1")
      .read()
      .catch((thrown: unknown) => thrown)) as DataAccessError;
    expect(error.code).toBe("requestFailed");
    expect(error.statusCode).toBe(401);
    expect(error.message).not.toContain("c2VjcmV0a2V5PT0");
    expect(error.message).not.toContain("ExdjZ");
  });
});
