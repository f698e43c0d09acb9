/**
 * Derived data applied exactly once by the generated module (issue 25): retried writes applied
 * in-process, and the change-feed processor killed at step boundaries over a simulated feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { importGenerated, loadExampleModel } from "../test-support/generated-module.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";

type Result = { readonly item?: Record<string, unknown>; readonly changes: unknown[] };
type Access = Record<string, (input: unknown, related?: unknown) => Promise<Result>> & {
  applyChanges(changes: unknown[]): Promise<Result>;
};

let endpoint: CosmosEndpoint | undefined;
const deployments: Deployment[] = [];

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  for (const deployment of deployments) await deployment.remove();
  await endpoint?.close();
});

async function socialReactions(modelFile = "expert-model.yaml"): Promise<Access> {
  if (endpoint === undefined) throw new Error("no endpoint");
  const example = loadExampleModel("social-reactions", modelFile);
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `exactly-once-social-${modelFile.replace(/\W/g, "-")}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
  return create(deployment.database, { transactionalBatch: false });
}

describe("in-process maintenance", () => {
  it.each(["expert-model.yaml", "design-2026-11-23.yaml"])(
    "%s: a reaction upserted 50 times (a retried request, a changed kind, its changes applied twice) is counted once",
    async (modelFile) => {
      const access = await socialReactions(modelFile);
      const run = async (fn: string, input: unknown): Promise<void> => {
        const call = access[fn];
        if (call === undefined) throw new Error(`no ${fn}`);
        const { changes } = await call(input);
        await access.applyChanges(changes);
        // A caller that retries the maintenance (it did not learn that it succeeded).
        await access.applyChanges(changes);
      };
      await run("c1CreateAUserOrEditTheirProfile", {
        userId: "u1",
        displayName: "U",
        avatarUrl: "a",
        bio: "b",
        createdAt: "2026-01-01T00:00:00Z",
      });
      await run("c2PublishAPost", {
        postId: "p1",
        authorId: "u1",
        text: "t",
        mediaUrls: [],
        visibility: "public",
        createdAt: "2026-01-01T00:00:00Z",
      });
      for (let i = 0; i < 50; i++) {
        await run("c3ReactToAPostAddAReactionOrChangeItsKind", {
          postId: "p1",
          userId: "u2",
          kind: i % 2 === 0 ? "like" : "wow",
          createdAt: "2026-01-02T00:00:00Z",
        });
      }
      const read = access["q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName"];
      const post = await read?.({ postId: "p1" });
      expect(post?.item?.["reactionCount"]).toBe(1);
    },
  );
});
