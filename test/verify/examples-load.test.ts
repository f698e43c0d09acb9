/**
 * Every example's expert model deploys on the embedded endpoint and holds its synthetic
 * data without conflicts: hierarchical keys, write shards, buckets, replicas, source copies and
 * trimmed feeds all materialize into items with valid ids and partition keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExample } from "../../src/test-support/evaluate-fixtures.js";
import { EXAMPLE_NAMES } from "../../src/test-support/model-examples.js";
import { generateDataset } from "../../src/synthetic/generate-records.js";
import { materializeDataset } from "../../src/synthetic/materialize-dataset.js";
import { deployModel } from "../../src/verify/deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { loadItems } from "../../src/verify/load.js";

describe("expert models on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it.each(EXAMPLE_NAMES)("%s: deploys and loads every item", async (name) => {
    const { workload, model } = loadExample(name);
    const dataset = generateDataset(workload, { seed: 1, maxItemsPerEntity: 300 });
    const items = materializeDataset(workload, model, dataset);
    const total = items.reduce((sum, container) => sum + container.items.length, 0);
    const deployment = await deployModel(endpoint.client, model);
    try {
      const result = await loadItems(deployment.containers, items);
      expect(result.conflicts).toEqual([]);
      expect(result.loaded).toBe(total);
      for (const { container, items: expected } of items) {
        const { resources } = (await deployment.containers
          .get(container)
          ?.items.query<number>("SELECT VALUE COUNT(1) FROM c")
          .fetchAll()) ?? { resources: [] };
        expect(resources[0], container).toBe(expected.length);
      }
    } finally {
      await deployment.remove();
    }
  });
});
