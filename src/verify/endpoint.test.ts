import type { Container as CosmosContainer } from "@azure/cosmos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosmosModelerError } from "../common/errors.js";
import type { Container } from "../model/types.js";
import { deployModel, type Deployment } from "./deploy.js";
import {
  EMBEDDED_CAPABILITIES,
  connectRealEndpoint,
  cosmosFailureOf,
  parseConnectionString,
  realEndpointOptionsFrom,
  redactSecrets,
  startEmbeddedEndpoint,
  wrapCosmosError,
  type CosmosEndpoint,
} from "./endpoint.js";

const realEndpoint = process.env["COSMOS_ENDPOINT"];
const realKey = process.env["COSMOS_KEY"];
const endpoints: readonly { name: string; skip: string | undefined; open: () => Promise<CosmosEndpoint> }[] =
  [
    { name: "embedded", skip: undefined, open: () => startEmbeddedEndpoint() },
    {
      name: "real account",
      skip:
        realEndpoint === undefined || realKey === undefined
          ? "COSMOS_ENDPOINT and COSMOS_KEY are not set"
          : undefined,
      open: () => connectRealEndpoint({ endpoint: realEndpoint ?? "", key: realKey ?? "" }),
    },
  ];

const hierarchical: Container = {
  name: "sessions",
  partitionKey: ["/tenantId", "/userId"],
  uniqueKeys: [],
  indexing: {
    kind: "custom",
    included: ["/tenantId/?", "/userId/?", "/startedAt/?"],
    excluded: ["/*"],
    composite: [
      [
        { path: "/userId", order: "ascending" },
        { path: "/startedAt", order: "descending" },
      ],
    ],
  },
  defaultTtl: 3600,
  items: [],
};

for (const target of endpoints) {
  const title = target.skip === undefined ? target.name : `${target.name} (skipped: ${target.skip})`;
  describe.skipIf(target.skip !== undefined)(`endpoint: ${title}`, () => {
    let endpoint: CosmosEndpoint;
    let deployment: Deployment;
    let sessions: CosmosContainer;

    beforeAll(async () => {
      endpoint = await target.open();
      deployment = await deployModel(endpoint.client, { version: 1, containers: [hierarchical] });
      const container = deployment.containers.get("sessions");
      if (container === undefined) throw new Error("container sessions was not created");
      sessions = container;
    });

    afterAll(async () => {
      await deployment?.remove();
      await endpoint?.close();
    });

    it("creates a container with a 2-path MultiHash key and reads its definition back", async () => {
      const { resource } = await sessions.read();
      expect(resource?.partitionKey?.paths).toEqual(["/tenantId", "/userId"]);
      expect(resource?.partitionKey?.kind).toBe("MultiHash");
      expect(resource?.partitionKey?.version).toBe(2);
      expect(resource?.defaultTtl).toBe(3600);
      expect(resource?.indexingPolicy?.compositeIndexes?.[0]?.map((path) => path.order)).toEqual([
        "ascending",
        "descending",
      ]);
    });

    it("bulk-loads items, reads one by id and hierarchical key, and answers a parameterized query", async () => {
      const items = Array.from({ length: 300 }, (_, index) => ({
        id: `session-${index}`,
        tenantId: `tenant-${index % 3}`,
        userId: `user-${index % 30}`,
        startedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
      }));
      const statusCodes: number[] = [];
      for (let start = 0; start < items.length; start += 100) {
        const responses = await sessions.items.bulk(
          items.slice(start, start + 100).map((item) => ({
            operationType: "Create" as const,
            partitionKey: [item.tenantId, item.userId],
            resourceBody: item,
          })),
        );
        statusCodes.push(...responses.map((response) => response.statusCode));
      }
      expect(statusCodes).toEqual(items.map(() => 201));

      const { resource, statusCode } = await sessions.item("session-42", ["tenant-0", "user-12"]).read();
      expect(statusCode).toBe(200);
      expect(resource).toMatchObject({ id: "session-42", userId: "user-12" });

      const { resources } = await sessions.items
        .query<{ id: string }>({
          query:
            "SELECT c.id FROM c WHERE c.tenantId = @tenantId AND c.userId = @userId ORDER BY c.startedAt DESC",
          parameters: [
            { name: "@tenantId", value: "tenant-1" },
            { name: "@userId", value: "user-1" },
          ],
        })
        .fetchAll();
      // user-1 holds the items whose index is 1 mod 30: 1, 31, ..., 271 (10 items), all in tenant-1.
      expect(resources.map((item) => item.id)).toEqual(
        Array.from({ length: 10 }, (_, rank) => `session-${271 - rank * 30}`),
      );
    });

    it("pages a query ordered by 20 KB strings (continuation tokens carrying the order values)", async () => {
      // The embedded server's token holds the page's last ORDER BY values: 20 KB of them would
      // overflow the 16 KB of headers Node's HTTP client reads (independent seed 3).
      const long = (index: number) => `${String(index).padStart(3, "0")}${"x".repeat(20_000)}`;
      for (let index = 0; index < 5; index++) {
        await sessions.items.create({
          id: `long-${index}`,
          tenantId: "tenant-long",
          userId: "u",
          code: long(index),
        });
      }
      const ids: string[] = [];
      let continuationToken: string | undefined;
      let pages = 0;
      do {
        const page = await sessions.items
          .query<{ id: string }>(
            {
              query: "SELECT c.id FROM c WHERE c.tenantId = @tenantId ORDER BY c.code DESC",
              parameters: [{ name: "@tenantId", value: "tenant-long" }],
            },
            { maxItemCount: 2, ...(continuationToken === undefined ? {} : { continuationToken }) },
          )
          .fetchNext();
        ids.push(...page.resources.map((item) => item.id));
        continuationToken = page.continuationToken;
        pages++;
      } while (continuationToken !== undefined && pages < 10);
      expect(ids).toEqual(["long-4", "long-3", "long-2", "long-1", "long-0"]);
    });

    it("wraps a failed request with its status code", async () => {
      const error = await sessions
        .item("missing", ["tenant-0", "user-0"])
        .replace({ id: "missing", tenantId: "tenant-0", userId: "user-0" })
        .catch((caught: unknown) =>
          wrapCosmosError(caught, { code: "verify.requestFailed", action: "replace" }),
        );
      expect(error).toBeInstanceOf(CosmosModelerError);
      expect((error as CosmosModelerError).context["statusCode"]).toBe(404);
    });
  });
}

describe("startEmbeddedEndpoint", () => {
  it("starts on a loopback port, reports its capabilities, and stops", async () => {
    const endpoint = await startEmbeddedEndpoint();
    expect(endpoint.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoint.capabilities).toBe(EMBEDDED_CAPABILITIES);
    const { resources } = await endpoint.client.databases.readAll().fetchAll();
    expect(resources).toEqual([]);
    await endpoint.close();
    await endpoint.close(); // idempotent
    await expect(fetch(endpoint.endpoint)).rejects.toThrow();
  });
});

describe("redactSecrets", () => {
  const key = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

  it("removes the key of a connection string", () => {
    const text = `AccountEndpoint=https://acct.documents.azure.com:443/;AccountKey=${key};`;
    expect(redactSecrets(text)).toBe(
      "AccountEndpoint=https://acct.documents.azure.com:443/;AccountKey=[redacted];",
    );
  });

  it("removes a known secret wherever it appears, and request signatures", () => {
    const text = `bad key ${key} in header type%3Dmaster%26ver%3D1.0%26sig%3DabcDEF123%2B`;
    const redacted = redactSecrets(text, [key]);
    expect(redacted).not.toContain(key);
    expect(redacted).not.toContain("abcDEF123");
    expect(redacted).toContain("[redacted]");
  });

  it("keeps a text without secrets unchanged", () => {
    expect(redactSecrets("container posts not found", ["short"])).toBe("container posts not found");
  });

  it("keeps secrets out of wrapped errors: message, context and cause", () => {
    const sdkError = Object.assign(new Error(`Unauthorized: AccountKey=${key}; was rejected`), {
      code: 401,
      substatus: 0,
      activityId: "4c1a-activity",
      headers: { "x-ms-request-charge": "1.5", authorization: `sig=${key}` },
    });
    const wrapped = wrapCosmosError(sdkError, {
      code: "verify.requestFailed",
      action: "read item",
      secrets: [key],
    });
    const everything = `${wrapped.message} ${JSON.stringify(wrapped.context)} ${String(wrapped.cause)}`;
    expect(everything).not.toContain(key);
    expect(wrapped.code).toBe("verify.requestFailed");
    expect(wrapped.context).toMatchObject({
      statusCode: 401,
      substatus: 0,
      activityId: "4c1a-activity",
      requestCharge: 1.5,
    });
    expect(wrapped.message).toContain("status 401/0");
  });
});

describe("realEndpointOptionsFrom", () => {
  it("prefers the flag, then COSMOS_CONNECTION_STRING, then COSMOS_ENDPOINT with COSMOS_KEY", () => {
    const env = {
      COSMOS_CONNECTION_STRING: "AccountEndpoint=https://env/;AccountKey=k1;",
      COSMOS_ENDPOINT: "https://a/",
      COSMOS_KEY: "k2",
    };
    expect(realEndpointOptionsFrom("AccountEndpoint=https://flag/;AccountKey=k0;", env)).toEqual({
      connectionString: "AccountEndpoint=https://flag/;AccountKey=k0;",
    });
    expect(realEndpointOptionsFrom(undefined, env)).toEqual({
      connectionString: env.COSMOS_CONNECTION_STRING,
    });
    expect(realEndpointOptionsFrom("", { COSMOS_ENDPOINT: "https://a/", COSMOS_KEY: "k2" })).toEqual({
      endpoint: "https://a/",
      key: "k2",
    });
    expect(realEndpointOptionsFrom(undefined, {})).toBeUndefined();
    expect(() => realEndpointOptionsFrom(undefined, { COSMOS_ENDPOINT: "https://a/" })).toThrow(
      expect.objectContaining({ code: "verify.badConnectionString" }),
    );
  });
});

describe("parseConnectionString", () => {
  it("splits endpoint and key", () => {
    expect(
      parseConnectionString("AccountEndpoint=https://a.documents.azure.com:443/;AccountKey=abc==;"),
    ).toEqual({
      endpoint: "https://a.documents.azure.com:443/",
      key: "abc==",
    });
  });

  it("names the missing part without echoing the string", () => {
    const secret = "AccountEndpoint=https://a/;AcountKey=topsecretvalue;";
    let caught: unknown;
    try {
      parseConnectionString(secret);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CosmosModelerError);
    expect((caught as CosmosModelerError).code).toBe("verify.badConnectionString");
    expect((caught as CosmosModelerError).message).toContain("no AccountKey");
    expect((caught as CosmosModelerError).message).not.toContain("topsecretvalue");
  });
});

describe("connectRealEndpoint", () => {
  it("reports an unreachable endpoint without the key", async () => {
    const key = "dW5yZWFjaGFibGUtZW5kcG9pbnQta2V5LWZvci10ZXN0cw==";
    const error = await connectRealEndpoint({
      connectionString: `AccountEndpoint=http://127.0.0.1:9/;AccountKey=${key};`,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CosmosModelerError);
    expect((error as CosmosModelerError).code).toBe("verify.endpointUnreachable");
    expect(
      JSON.stringify({ m: (error as Error).message, c: (error as CosmosModelerError).context }),
    ).not.toContain(key);
  });

  it("reads failure details from SDK-shaped errors", () => {
    expect(
      cosmosFailureOf({ code: 429, headers: { "x-ms-substatus": "3200", "x-ms-activity-id": "a1" } }),
    ).toEqual({
      statusCode: 429,
      substatus: 3200,
      activityId: "a1",
    });
    expect(cosmosFailureOf({ code: "ECONNREFUSED" })).toEqual({ errorCode: "ECONNREFUSED" });
  });
});
