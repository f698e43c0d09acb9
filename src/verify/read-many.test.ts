/**
 * The runtime's ReadMany (`readMany`, src/runtime/requests.ts) on the embedded endpoint (and on a
 * real account when COSMOS_ENDPOINT and COSMOS_KEY are set): more ids than one bulk request may
 * carry per partition range (100), in the order asked, missing items left out.
 */
import type { Container, Database } from "@azure/cosmos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TRANSACTIONAL_BATCH_OPERATIONS } from "../cosmos/limits.js";
import { MAX_BULK_OPERATIONS, readMany } from "../runtime/requests.js";
import { endpointTitle, TEST_ENDPOINTS } from "../test-support/test-endpoints.js";
import type { CosmosEndpoint } from "./endpoint.js";

describe("the runtime's bulk chunk", () => {
  it("is the batch request limit of src/cosmos (the runtime ships without src/cosmos)", () => {
    expect(MAX_BULK_OPERATIONS).toBe(MAX_TRANSACTIONAL_BATCH_OPERATIONS);
  });
});

for (const target of TEST_ENDPOINTS) {
  describe.skipIf(target.skip !== undefined)(`readMany on ${endpointTitle(target)}`, () => {
    let endpoint: CosmosEndpoint | undefined;
    let database: Database | undefined;
    let container: Container;
    beforeAll(async () => {
      endpoint = await target.open();
      ({ database } = await endpoint.client.databases.create({ id: `read-many-${Date.now()}` }));
      ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } }));
    }, 60_000);
    afterAll(async () => {
      await database?.delete();
      await endpoint?.close();
    });

    it("reads 250 items of 3 logical partitions in one call, in the order asked, missing ones left out", async () => {
      const ids = Array.from({ length: 250 }, (_, i) => `i${i}`);
      const pkOf = (id: string): string => `p${Number(id.slice(1)) % 3}`;
      for (let start = 0; start < ids.length; start += 25) {
        await Promise.all(
          ids.slice(start, start + 25).map((id) => container.items.create({ id, pk: pkOf(id), n: id })),
        );
      }
      // Reversed, with two ids that were never written among them.
      const asked = [...ids].reverse();
      asked.splice(10, 0, "missing-1");
      asked.splice(200, 0, "missing-2");
      const read = await readMany(
        container,
        asked.map((id) => ({ id, keys: [id.startsWith("missing") ? "p0" : pkOf(id)] })),
      );
      expect(read.items.map((item) => item["id"])).toEqual([...ids].reverse());
      expect(read.items.map((item) => item["n"])).toEqual([...ids].reverse());
      expect(read.requestCharge).toBeGreaterThanOrEqual(0);
    }, 120_000);
  });
}
