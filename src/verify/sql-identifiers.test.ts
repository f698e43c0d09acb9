/**
 * Property references against the query parser of the embedded endpoint (and of a real account
 * when COSMOS_ENDPOINT and COSMOS_KEY are set): every reserved word, quoted by `propertyRef`,
 * finds its item, where `c.desc` is a syntax error.
 */
import type { Container, Database } from "@azure/cosmos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { propertyRef, SQL_RESERVED_WORDS } from "../runtime/sql.js";
import { endpointTitle, TEST_ENDPOINTS } from "../test-support/test-endpoints.js";
import type { CosmosEndpoint } from "./endpoint.js";

for (const target of TEST_ENDPOINTS) {
  describe.skipIf(target.skip !== undefined)(
    `propertyRef on the query parser of ${endpointTitle(target)}`,
    () => {
      let endpoint: CosmosEndpoint | undefined;
      let database: Database | undefined;
      let container: Container;
      beforeAll(async () => {
        endpoint = await target.open();
        ({ database } = await endpoint.client.databases.create({ id: `sql-identifiers-${Date.now()}` }));
        ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/id"] } }));
      }, 60_000);
      afterAll(async () => {
        await database?.delete();
        await endpoint?.close();
      });

      it("finds an item by each reserved word, where the dotted form does not parse", async () => {
        const words = [
          "desc",
          "asc",
          "between",
          "join",
          "null",
          "true",
          "exists",
          "array",
          "udf",
          "value",
          "order",
        ];
        for (const word of words) expect(SQL_RESERVED_WORDS.has(word), word).toBe(true);
        await container.items.create({
          id: "1",
          ...Object.fromEntries(words.map((word) => [word, 7])),
          "first name": 7,
        });
        for (const name of [...words, "first name"]) {
          const query = {
            query: `SELECT * FROM c WHERE ${propertyRef(name)} = @v`,
            parameters: [{ name: "@v", value: 7 }],
          };
          const { resources } = await container.items.query<{ id: string }>(query).fetchAll();
          expect(
            resources.map((item) => item.id),
            name,
          ).toEqual(["1"]);
        }
        await expect(
          container.items.query("SELECT * FROM c WHERE c.desc = 7").fetchAll(),
        ).rejects.toMatchObject({
          code: 400,
        });
      }, 60_000);
    },
  );
}
