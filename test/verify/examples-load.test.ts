/**
 * Every shared example's expert model deploys on the embedded endpoint and holds its synthetic
 * data without conflicts: hierarchical keys, write shards, buckets, replicas, source copies and
 * trimmed feeds all materialize into items with valid ids and partition keys.
 */
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../src/model/load-model.js";
import { generateDataset } from "../../src/synthetic/generate-records.js";
import { materializeDataset } from "../../src/synthetic/materialize-dataset.js";
import { deployModel } from "../../src/verify/deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";
import { loadItems } from "../../src/verify/load.js";
import { loadWorkload } from "../../src/workload/load-workload.js";

const root = "/work/shared/examples";
const examples = readdirSync(root).filter((name) =>
  readdirSync(`${root}/${name}`).includes("expert-model.yaml"),
);

describe("expert models on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it.each(examples)("%s: deploys and loads every item", async (name) => {
    const workload = loadWorkload(readFileSync(`${root}/${name}/workload.yaml`, "utf8"));
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const model = loadModel(readFileSync(`${root}/${name}/expert-model.yaml`, "utf8"), {
      workload: workload.value,
    });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const dataset = generateDataset(workload.value, { seed: 1, maxItemsPerEntity: 300 });
    const items = materializeDataset(workload.value, model.value, dataset);
    const total = items.reduce((sum, container) => sum + container.items.length, 0);
    const deployment = await deployModel(endpoint.client, model.value);
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
