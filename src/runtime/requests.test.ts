/**
 * `readMany` over a fake container whose bulk call answers per operation: throttled reads (429)
 * are read again, calls carry at most 100 reads, answers come in the order asked. The same
 * function on the embedded endpoint: src/verify/read-many.test.ts.
 */
import type { Container, OperationInput } from "@azure/cosmos";
import { describe, expect, it } from "vitest";
import { MAX_BULK_OPERATIONS, MAX_THROTTLED_ATTEMPTS, readMany } from "./requests.js";

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
            if (throttle(id, call)) return { statusCode: 429, requestCharge: 0.5 };
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
  it("reads again what the service throttled, in calls of at most 100, answers in the order asked", async () => {
    const { container, calls } = fakeContainer(230, (id, call) => call <= 3 && Number(id.slice(1)) % 7 === 0);
    const asked = Array.from({ length: 240 }, (_, i) => `i${239 - i}`);
    const read = await readMany(container, asked.map(identity), { initialDelayMs: 1 });
    expect(read.items.map((item) => item["id"])).toEqual(asked.filter((id) => Number(id.slice(1)) < 230));
    expect(Math.max(...calls)).toBeLessThanOrEqual(MAX_BULK_OPERATIONS);
    // 240 reads in 3 calls, then the 35 throttled ones once more (none throttled from call 4 on).
    expect(calls).toEqual([100, 100, 40, 35]);
    expect(read.requestCharge).toBe(240 + 35 * 0.5);
  });

  it("gives up after the SDK's attempts with the service's 429", async () => {
    const { container, calls } = fakeContainer(10, (id) => id === "i3");
    await expect(
      readMany(container, ["i1", "i3"].map(identity), { initialDelayMs: 1 }),
    ).rejects.toMatchObject({ code: 429 });
    expect(calls).toHaveLength(MAX_THROTTLED_ATTEMPTS);
  });

  it("answers nothing for nothing, without a request", async () => {
    const { container, calls } = fakeContainer(1, () => false);
    expect(await readMany(container, [])).toEqual({ items: [], requestCharge: 0 });
    expect(calls).toEqual([]);
  });
});
