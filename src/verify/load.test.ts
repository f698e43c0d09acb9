import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { generateDataset, type Dataset } from "../synthetic/generate-records.js";
import { mulberry32 } from "../synthetic/random.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { deployModel, type Deployment } from "./deploy.js";
import { connectRealEndpoint, startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";
import { loadItems, type LoadResult } from "./load.js";
import { materializeDataset, type ContainerItems } from "../synthetic/materialize-dataset.js";
import { answerReadPattern } from "./oracle.js";
import { pickParameters } from "./pick-parameters.js";

const blogging = (modelFile: string): { workload: Workload; model: Model } =>
  loadExample("blogging", modelFile);

describe("materializeDataset", () => {
  const { workload, model } = blogging("model-v3.yaml");
  const dataset = generateDataset(workload, { seed: 21, maxItemsPerEntity: 300 });
  const containers = materializeDataset(workload, model, dataset);
  const byName = (name: string): ContainerItems["items"] =>
    containers.find((container) => container.container === name)?.items ?? [];

  it("stores every record once per item type, keepLatest trimmed to its count", () => {
    expect(containers.map((container) => container.container)).toEqual(["users", "posts", "feed"]);
    expect(byName("users").length).toBe(300 + 300); // users and their post copies
    expect(byName("posts").length).toBe(300 * 3); // posts, comments, likes
    expect(byName("feed").length).toBe(100);
  });

  it("fills copies and counters from the dataset and keys items by their templates", () => {
    const post = byName("posts").find(
      (entry) => entry.itemType === "post" && entry.item["commentCount"] !== 0,
    );
    expect(post).toBeDefined();
    const record = dataset.entities["Post"]?.find((candidate) => candidate["postId"] === post?.item["id"]);
    const author = dataset.entities["User"]?.find((user) => user["userId"] === record?.["userId"]);
    const comments = dataset.entities["Comment"]?.filter(
      (comment) => comment["postId"] === record?.["postId"],
    );
    expect(post?.item["userUsername"]).toBe(author?.["username"]);
    expect(post?.item["commentCount"]).toBe(comments?.length);
    expect(post?.partitionKey).toEqual([record?.["postId"]]);
    const feed = byName("feed");
    const newest = [...(dataset.entities["Post"] ?? [])]
      .map((candidate) => candidate["creationDate"] as string)
      .sort()
      .reverse()
      .slice(0, 100);
    expect(
      feed
        .map((entry) => entry.item["creationDate"])
        .sort()
        .reverse(),
    ).toEqual(newest);
    expect(feed.every((entry) => JSON.stringify(entry.partitionKey) === '["post"]')).toBe(true);
  });
});

const realEndpoint = process.env["COSMOS_ENDPOINT"];
const realKey = process.env["COSMOS_KEY"];
const targets = [
  {
    name: "embedded",
    skip: undefined as string | undefined,
    open: (): Promise<CosmosEndpoint> => startEmbeddedEndpoint(),
  },
  {
    name: "real account",
    skip:
      realEndpoint === undefined || realKey === undefined
        ? "COSMOS_ENDPOINT and COSMOS_KEY are not set"
        : undefined,
    open: (): Promise<CosmosEndpoint> =>
      connectRealEndpoint({ endpoint: realEndpoint ?? "", key: realKey ?? "" }),
  },
];

for (const target of targets) {
  const title = target.skip === undefined ? target.name : `${target.name} (skipped: ${target.skip})`;
  describe.skipIf(target.skip !== undefined)(`loadItems on ${title}`, () => {
    const { workload, model } = blogging("model-v3.yaml");
    const dataset: Dataset = generateDataset(workload, { seed: 5, maxItemsPerEntity: 500 });
    let endpoint: CosmosEndpoint;
    let deployment: Deployment;
    let result: LoadResult;
    const progress: [number, number][] = [];

    beforeAll(async () => {
      endpoint = await target.open();
      deployment = await deployModel(endpoint.client, model);
      const items = materializeDataset(workload, model, dataset);
      result = await loadItems(deployment.containers, items, {
        onProgress: (done, total) => progress.push([done, total]),
      });
      console.log(
        `loaded ${result.loaded} items in ${result.elapsedMs.toFixed(0)} ms (${result.itemsPerSecond.toFixed(0)} items/s) on ${target.name}`,
      );
    });

    afterAll(async () => {
      await deployment?.remove();
      await endpoint?.close();
    });

    it("loads every item without conflict and reports progress up to the total", () => {
      const total = 500 * 2 + 500 * 3 + 100;
      expect(result.loaded).toBe(total);
      expect(result.conflicts).toEqual([]);
      expect(progress[0]).toEqual([0, total]);
      expect(progress.at(-1)).toEqual([total, total]);
    });

    it("point-reads a post and answers Q4 with the oracle's comments", async () => {
      const posts = deployment.containers.get("posts");
      if (posts === undefined) throw new Error("container posts was not deployed");
      const post = dataset.entities["Post"]?.[0];
      const { resource } = await posts.item(String(post?.["postId"]), String(post?.["postId"])).read();
      expect(resource?.["title"]).toBe(post?.["title"]);

      const q4 = workload.accessPatterns.find((pattern) => pattern.id === "Q4") as ReadPattern;
      const parameters = pickParameters(workload, dataset, q4, mulberry32(3)) ?? {};
      const expected = answerReadPattern(workload, dataset, q4, parameters);
      const started = performance.now();
      const { resources } = await posts.items
        .query<{ id: string; userUsername: string }>({
          query: "SELECT c.id, c.userUsername FROM c WHERE c.postId = @postId AND c.type = @type",
          parameters: [
            { name: "@postId", value: parameters["postId"] as string },
            { name: "@type", value: "comment" },
          ],
        })
        .fetchAll();
      console.log(
        `Q4 query over ${500 * 3} items took ${(performance.now() - started).toFixed(1)} ms on ${target.name}`,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(resources.map((item) => [item.id, item.userUsername]).sort()).toEqual(
        expected.map((comment) => [comment["commentId"], comment["User.username"]]).sort(),
      );
    });
  });
}
