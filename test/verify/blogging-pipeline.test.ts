/**
 * The verify pipeline without the planner, on the embedded endpoint (and a real account when
 * COSMOS_ENDPOINT and COSMOS_KEY are set): deploy the blogging case study's model v3, load
 * synthetic data, answer Q3 and Q6 with hand-written queries, check them against the oracle,
 * then change a username (C1), emulate the change-feed copies by diffing materializations, and
 * check that Q3 shows the new username.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItemType, Model } from "../../src/model/types.js";
import { generateDataset, type Dataset } from "../../src/synthetic/generate-records.js";
import { generateWriteRecord } from "../../src/synthetic/generate-writes.js";
import { diffItems, materializeDataset } from "../../src/synthetic/materialize-dataset.js";
import { mulberry32 } from "../../src/synthetic/random.js";
import { answerFromItem, checkReadAnswer } from "../../src/verify/compare-answers.js";
import { deployModel, type Deployment } from "../../src/verify/deploy.js";
import {
  connectRealEndpoint,
  startEmbeddedEndpoint,
  type CosmosEndpoint,
} from "../../src/verify/endpoint.js";
import { applyItemChanges, loadItems } from "../../src/verify/load.js";
import { applyWriteToDataset } from "../../src/verify/apply-write.js";
import type { PatternParameters } from "../../src/verify/oracle.js";
import { pickParameters } from "../../src/verify/pick-parameters.js";
import { loadExample } from "../../src/test-support/evaluate-fixtures.js";
import type { ReadPattern, Workload, WritePattern } from "../../src/workload/types.js";

const { workload, model }: { workload: Workload; model: Model } = loadExample("blogging", "model-v3.yaml");

const pattern = (id: string): ReadPattern => workload.accessPatterns.find((p) => p.id === id) as ReadPattern;
const itemType = (container: string, type: string): ItemType => {
  const found = model.containers.find((c) => c.name === container)?.items.find((i) => i.type === type);
  if (found === undefined) throw new Error(`${container}/${type}`);
  return found;
};

const realEndpoint = process.env["COSMOS_ENDPOINT"];
const realKey = process.env["COSMOS_KEY"];
const targets: { name: string; skip?: string; open: () => Promise<CosmosEndpoint> }[] = [
  { name: "embedded", open: () => startEmbeddedEndpoint() },
  {
    name: "real account",
    ...(realEndpoint === undefined || realKey === undefined
      ? { skip: "COSMOS_ENDPOINT and COSMOS_KEY are not set" }
      : {}),
    open: () => connectRealEndpoint({ endpoint: realEndpoint ?? "", key: realKey ?? "" }),
  },
];

for (const target of targets) {
  const title = target.skip === undefined ? target.name : `${target.name} (skipped: ${target.skip})`;
  describe.skipIf(target.skip !== undefined)(`blogging v3 pipeline on ${title}`, () => {
    let dataset: Dataset = generateDataset(workload, { seed: 17, maxItemsPerEntity: 400 });
    let endpoint: CosmosEndpoint;
    let deployment: Deployment;

    const container = (name: string) => {
      const found = deployment.containers.get(name);
      if (found === undefined) throw new Error(`container ${name} missing`);
      return found;
    };

    const runQ3 = async (parameters: PatternParameters) => {
      const { resources } = await container("users")
        .items.query<Record<string, unknown>>({
          query: "SELECT * FROM c WHERE c.userId = @userId AND c.type = @type",
          parameters: [
            { name: "@userId", value: parameters["userId"] as string },
            { name: "@type", value: "post" },
          ],
        })
        .fetchAll();
      return resources.map((item) =>
        answerFromItem(workload, model, itemType("users", "post"), pattern("Q3"), item),
      );
    };

    beforeAll(async () => {
      endpoint = await target.open();
      deployment = await deployModel(endpoint.client, model);
      const result = await loadItems(deployment.containers, materializeDataset(workload, model, dataset));
      expect(result.conflicts).toEqual([]);
    });

    afterAll(async () => {
      await deployment?.remove();
      await endpoint?.close();
    });

    it("answers Q3 from the users container's post copies exactly as the oracle", async () => {
      const rng = mulberry32(5);
      for (let request = 0; request < 5; request++) {
        const parameters = pickParameters(workload, dataset, pattern("Q3"), rng) ?? {};
        const answers = await runQ3(parameters);
        expect(answers.every((answer) => answer.unresolved.length === 0)).toBe(true);
        const check = checkReadAnswer(
          workload,
          dataset,
          pattern("Q3"),
          parameters,
          answers.map((a) => a.answer),
        );
        expect(check.differences).toEqual([]);
        expect(check.expectedCount).toBeGreaterThan(0);
      }
    });

    it("answers Q4 (all attributes of a post's comments, with usernames) as the oracle", async () => {
      const parameters = pickParameters(workload, dataset, pattern("Q4"), mulberry32(8)) ?? {};
      const { resources } = await container("posts")
        .items.query<Record<string, unknown>>({
          query: "SELECT * FROM c WHERE c.postId = @postId AND c.type = @type",
          parameters: [
            { name: "@postId", value: parameters["postId"] as string },
            { name: "@type", value: "comment" },
          ],
        })
        .fetchAll();
      const answers = resources.map((item) =>
        answerFromItem(workload, model, itemType("posts", "comment"), pattern("Q4"), item),
      );
      const check = checkReadAnswer(
        workload,
        dataset,
        pattern("Q4"),
        parameters,
        answers.map((a) => a.answer),
      );
      expect(check.differences).toEqual([]);
      expect(check.actualCount).toBeGreaterThan(0);
    });

    it("answers Q6 (the feed) in order from the feed container", async () => {
      const started = performance.now();
      const { resources } = await container("feed")
        .items.query<Record<string, unknown>>({
          query: "SELECT TOP @limit * FROM c WHERE c.type = @type ORDER BY c.creationDate DESC",
          parameters: [
            { name: "@limit", value: 100 },
            { name: "@type", value: "post" },
          ],
        })
        .fetchAll();
      const elapsed = performance.now() - started;
      console.log(`Q6 feed query: ${resources.length} items in ${elapsed.toFixed(1)} ms on ${target.name}`);
      const answers = resources.map((item) =>
        answerFromItem(workload, model, itemType("feed", "post"), pattern("Q6"), item),
      );
      const check = checkReadAnswer(
        workload,
        dataset,
        pattern("Q6"),
        {},
        answers.map((a) => a.answer),
      );
      expect(check.differences).toEqual([]);
      expect(check.actualCount).toBe(100);
    });

    it("shows a changed username in Q3 after C1 and the emulated change feed", async () => {
      const c1 = workload.accessPatterns.find((p) => p.id === "C1") as WritePattern;
      // A user who has posts, so the copies in their posts must change.
      const parameters = pickParameters(workload, dataset, pattern("Q3"), mulberry32(9)) ?? {};
      const user = dataset.entities["User"]?.find((u) => u["userId"] === parameters["userId"]);
      const changed = { ...user, username: `${String(user?.["username"])}-renamed` };
      expect(generateWriteRecord(workload, dataset, c1, mulberry32(1))).toBeDefined();
      const before = materializeDataset(workload, model, dataset);
      const next = applyWriteToDataset(workload, dataset, c1, changed);
      const changes = diffItems(before, materializeDataset(workload, model, next));
      // The user item, and every item holding a copy of the username: the user's posts (in posts
      // and, as source copies, in users and the feed), comments and likes.
      const owned = (entity: string) =>
        dataset.entities[entity]?.filter((record) => record["userId"] === parameters["userId"]).length ?? 0;
      const postIds = new Set(
        dataset.entities["Post"]
          ?.filter((post) => post["userId"] === parameters["userId"])
          .map((post) => post["postId"]),
      );
      const inFeed = before
        .find((c) => c.container === "feed")
        ?.items.filter((entry) => postIds.has(entry.item["postId"])).length;
      expect(changes.upserts.length).toBe(
        1 + 2 * owned("Post") + (inFeed ?? 0) + owned("Comment") + owned("Like"),
      );
      expect(changes.deletes).toEqual([]);
      const stale = checkReadAnswer(
        workload,
        next,
        pattern("Q3"),
        parameters,
        (await runQ3(parameters)).map((a) => a.answer),
      );
      expect(stale.ok).toBe(false);
      await applyItemChanges(deployment.containers, changes);
      dataset = next;
      const fresh = checkReadAnswer(
        workload,
        dataset,
        pattern("Q3"),
        parameters,
        (await runQ3(parameters)).map((a) => a.answer),
      );
      expect(fresh.differences).toEqual([]);
      expect((await runQ3(parameters))[0]?.answer["User.username"]).toBe(changed.username);
    });
  });
}
