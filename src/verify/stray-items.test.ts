/**
 * Stray items are found from the properties that address an item (its id and the top-level
 * properties of its partition key paths) and its tombstone flag, read on the embedded endpoint:
 * not from the whole item (a vector of thousands of numbers made the read time out under load).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";
import { addressProjection, findStrayItems } from "./stray-items.js";

function modelOf(text: string): Model {
  const loaded = loadModel(text, { file: "model.yaml" });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

const model = modelOf(`version: 1
deletes: { mode: softDelete, property: removed, ttl: 1h }
containers:
  - name: chunks
    partitionKey: [/tenantId, /doc/id]
    items:
      - { type: chunk, entity: Chunk, id: "{chunkId}", partitionKey: ["{tenantId}", "{documentId}"] }
`);

describe("addressProjection", () => {
  it("selects the id, each key path's top-level property once and the tombstone, escaped", () => {
    expect(addressProjection(["/tenantId", "/doc/id", "/tenantId"], "removed")).toBe(
      "c.id, c.tenantId, c.doc, c.removed",
    );
    expect(addressProjection(["/first name", "/value"])).toBe('c.id, c["first name"], c["value"]');
  });
});

describe("findStrayItems on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint;
  let deployment: Deployment;
  const embedding = Array.from({ length: 1_536 }, (_, index) => Math.sin(index));

  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
    deployment = await deployModel(endpoint.client, model);
    const chunks = deployment.containers.get("chunks");
    const item = (id: string, tenant: string, document: string, extra: Record<string, unknown> = {}) => ({
      id,
      type: "chunk",
      tenantId: tenant,
      doc: { id: document },
      embedding,
      ...extra,
    });
    for (const entry of [
      item("c1", "t1", "d1"),
      item("c2", "t1", "d2"),
      item("c3", "t2", "d1", { removed: true }),
      item("c4", "t2", "d9"),
    ])
      await chunks?.items.create(entry);
  }, 60_000);

  afterAll(async () => {
    await endpoint.close();
  });

  it("finds the item the final data does not hold, by its id and key values, and passes tombstones", async () => {
    const expected = [
      {
        container: "chunks",
        itemType: "chunk",
        addresses: [
          JSON.stringify(["c1", ["t1", "d1"]]),
          JSON.stringify(["c2", ["t1", "d2"]]),
          // c4 is expected under another document: the item found under d9 is a stray.
          JSON.stringify(["c4", ["t2", "d4"]]),
        ],
      },
    ];
    const strays = await findStrayItems(deployment.containers, model, expected);
    expect(strays).toEqual([
      { container: "chunks", itemType: "chunk", count: 1, example: { id: "c4", partitionKey: ["t2", "d9"] } },
    ]);
  });
});
