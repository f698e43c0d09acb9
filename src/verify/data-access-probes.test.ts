/**
 * The probes of issue 13, as tests of the generated data-access modules: on the embedded endpoint
 * always, and on a real account when COSMOS_ENDPOINT and COSMOS_KEY are set (skipped otherwise).
 * What the embedded endpoint cannot show (new changes after its change feed's first read, several
 * feed ranges) is tested with an in-memory feed in src/runtime/change-feed.test.ts; the feed probe
 * below writes while the processor is stopped only on a real account.
 */
import { ChangeFeedStartFrom, type Database } from "@azure/cosmos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Model } from "../model/types.js";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { Workload } from "../workload/types.js";
import { importGenerated, loadExampleModel } from "../test-support/generated-module.js";
import { endpointTitle, TEST_ENDPOINTS } from "../test-support/test-endpoints.js";
import { deployModel, type Deployment } from "./deploy.js";
import type { CosmosEndpoint } from "./endpoint.js";

type Fn = (
  input: unknown,
  second?: unknown,
) => Promise<{
  items?: Record<string, unknown>[];
  item?: Record<string, unknown>;
  changes?: unknown[];
  continuationToken?: string;
  requestCharge: number;
}>;
type Access = Record<string, Fn>;

interface Generated {
  readonly module: Record<string, unknown>;
  readonly access: Access;
  readonly deployment: Deployment;
}

let sequence = 0;

/** Requests counted by `countingDatabase`. */
interface RequestCounts {
  bulk: number;
  pointReads: number;
}

/** Calls `method` of `target` through a counter; every other member is the target's own. */
function counting<T extends object>(target: T, method: string, count: () => void): T {
  return new Proxy(target, {
    get(object, name) {
      const value: unknown = Reflect.get(object, name, object);
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      if (name !== method) return bound;
      return (...args: unknown[]) => {
        count();
        return bound(...args);
      };
    },
  });
}

/** The database, with its containers' bulk calls and point reads counted in `counts`. */
function countingDatabase(database: Database, counts: RequestCounts): Database {
  return new Proxy(database, {
    get(object, name) {
      if (name !== "container") {
        const value: unknown = Reflect.get(object, name, object);
        return typeof value === "function" ? (value as () => unknown).bind(object) : value;
      }
      return (id: string) => {
        const container = object.container(id);
        return new Proxy(container, {
          get(inner, member) {
            if (member === "items") return counting(inner.items, "bulk", () => counts.bulk++);
            if (member === "item")
              return (itemId: string, key: Parameters<typeof inner.item>[1]) =>
                counting(inner.item(itemId, key), "read", () => counts.pointReads++);
            const value: unknown = Reflect.get(inner, member, inner);
            return typeof value === "function" ? (value as () => unknown).bind(inner) : value;
          },
        });
      };
    },
  });
}

/** Deploys `model` on `endpoint`, imports its generated module and binds it to the database. */
async function generated(
  endpoint: CosmosEndpoint,
  workload: Workload,
  model: Model,
  wrap: (database: Database) => Database = (database) => database,
): Promise<Generated> {
  const deployment = await deployModel(endpoint.client, model);
  const plans = evaluateModel(workload, model).patterns.map((pattern) => pattern.plan);
  const module = await importGenerated(`probe-${++sequence}`, renderDataAccessFiles(workload, model, plans));
  const create = module["createDataAccess"] as (database: Database, options: unknown) => Access;
  // Batches with patch operations only where the endpoint runs them atomically.
  const batches = endpoint.capabilities.atomicBatch && endpoint.capabilities.patchInBatch;
  return { module, access: create(wrap(deployment.database), { transactionalBatch: batches }), deployment };
}

/** A user and one post of theirs: what every reaction probe starts from. */
async function authorAndPost(access: Access, userId: string, postId: string): Promise<void> {
  await call(
    access,
    "c1CreateAUserOrEditTheirProfile",
  )({ userId, displayName: "Ann", avatarUrl: "a", bio: "b" });
  await call(
    access,
    "c2PublishAPost",
  )({ postId, authorId: userId, text: "t", mediaUrls: [], createdAt: "2026-11-24T01:00:00Z" });
}

function call(access: Access, name: string): Fn {
  const fn = access[name];
  if (fn === undefined) throw new Error(`no function ${name}`);
  return fn;
}

const SOCIAL = loadExampleModel("social-reactions");
const { deletes: _allVersions, ...SOCIAL_SOFT_DELETE } = SOCIAL.model;

for (const target of TEST_ENDPOINTS) {
  describe.skipIf(target.skip !== undefined)(`the generated modules on ${endpointTitle(target)}`, () => {
    let endpoint: CosmosEndpoint;
    const deployments: Deployment[] = [];
    beforeAll(async () => {
      endpoint = await target.open();
    }, 60_000);
    afterAll(async () => {
      for (const deployment of deployments) await deployment.remove();
      await endpoint?.close();
    });

    it.each([
      ["soft delete (latest-version feed)", SOCIAL_SOFT_DELETE as Model],
      ["all versions and deletes", SOCIAL.model],
    ])(
      "count a reaction that is added, changed and removed exactly (%s)",
      async (_, model) => {
        const { access, deployment } = await generated(endpoint, SOCIAL.workload, model);
        deployments.push(deployment);
        await authorAndPost(access, "u1", "p1");
        const reaction = {
          reactionId: "r1",
          postId: "p1",
          userId: "u2",
          kind: "like",
          createdAt: "2026-11-24T01:01:00Z",
        };
        const count = async () =>
          (await call(access, "q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName")({ postId: "p1" }))
            .item?.["reactionCount"];
        const apply = async (result: { changes?: unknown[] }) => call(access, "applyChanges")(result.changes);
        await apply(await call(access, "c3ReactToAPostAddAReactionOrChangeItsKind")(reaction));
        expect(await count()).toBe(1);
        await apply(
          await call(access, "c3ReactToAPostAddAReactionOrChangeItsKind")({ ...reaction, kind: "love" }),
        );
        expect(await count()).toBe(1);
        await apply(await call(access, "c4RemoveAReaction")(reaction));
        expect(await count()).toBe(0);
        const left = await call(
          access,
          "q2GetTheSignedInUsersReactionToAPost",
        )({ postId: "p1", userId: "u2" });
        expect(left.item).toBe(undefined);
      },
      60_000,
    );

    it("brings a removed reaction back when it is added again, also racing removals (soft delete: no write lands on a tombstone)", async () => {
      const { access, deployment } = await generated(endpoint, SOCIAL.workload, SOCIAL_SOFT_DELETE as Model);
      deployments.push(deployment);
      await authorAndPost(access, "u1", "p1");
      const reaction = { reactionId: "r1", postId: "p1", userId: "u2", kind: "like", createdAt: "x" };
      const react = call(access, "c3ReactToAPostAddAReactionOrChangeItsKind");
      const remove = call(access, "c4RemoveAReaction");
      const apply = async (result: { changes?: unknown[] }) => call(access, "applyChanges")(result.changes);
      const state = async () => ({
        kind: (await call(access, "q2GetTheSignedInUsersReactionToAPost")({ postId: "p1", userId: "u2" }))
          .item?.["kind"],
        count: (
          await call(access, "q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName")({ postId: "p1" })
        ).item?.["reactionCount"],
      });
      await apply(await react(reaction));
      await apply(await remove(reaction));
      expect(await state()).toEqual({ kind: undefined, count: 0 });
      await apply(await react({ ...reaction, kind: "wow" }));
      expect(await state()).toEqual({ kind: "wow", count: 1 });
      // Adds and removals at once, then one last add, maintained from the feed as a processor reads
      // it (the latest version of each item: a stale snapshot of a raced write is never applied).
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0 ? react({ ...reaction, kind: `k${i}` }) : remove(reaction),
        ),
      );
      await react({ ...reaction, kind: "last" });
      const page = await deployment.database
        .container("reactions")
        .items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() })
        .readNext();
      const applyFeed = access["applyFeed"] as unknown as (
        c: string,
        e: unknown[],
        r: string,
      ) => Promise<unknown>;
      await applyFeed("reactions", page.result as unknown[], "");
      expect(await state()).toEqual({ kind: "last", count: 1 });
    }, 60_000);

    it("counts a feed page read twice once (soft delete: the counted flag of the latest version)", async () => {
      const { access, deployment } = await generated(endpoint, SOCIAL.workload, SOCIAL_SOFT_DELETE as Model);
      deployments.push(deployment);
      await authorAndPost(access, "u1", "p1");
      const react = call(access, "c3ReactToAPostAddAReactionOrChangeItsKind");
      for (const [i, kind] of ["like", "love", "wow"].entries()) {
        await react({
          reactionId: `r${i}`,
          postId: "p1",
          userId: `u${i}`,
          kind,
          createdAt: "2026-11-24T01:01:00Z",
        });
      }
      // Changed, and removed before the feed was read: the feed shows the latest version only.
      await react({
        reactionId: "r0",
        postId: "p1",
        userId: "u0",
        kind: "sad",
        createdAt: "2026-11-24T01:01:00Z",
      });
      await call(
        access,
        "c4RemoveAReaction",
      )({ reactionId: "r2", postId: "p1", userId: "u2", kind: "wow", createdAt: "x" });
      const applyFeed = access["applyFeed"] as unknown as (
        c: string,
        e: unknown[],
        r: string,
      ) => Promise<unknown>;
      for (let read = 0; read < 2; read++) {
        // A new reader from the beginning: what a processor restarted before its checkpoint reads.
        const iterator = deployment.database.container("reactions").items.getChangeFeedIterator({
          changeFeedStartFrom: ChangeFeedStartFrom.Beginning(),
        });
        const page = await iterator.readNext();
        await applyFeed("reactions", page.result as unknown[], "");
        expect(
          (await call(access, "q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName")({ postId: "p1" }))
            .item?.["reactionCount"],
        ).toBe(2);
      }
    }, 60_000);

    it("counts a feed page delivered twice once (all versions and deletes: the holder's sequence mark)", async () => {
      const { access, deployment } = await generated(endpoint, SOCIAL.workload, SOCIAL.model);
      deployments.push(deployment);
      await authorAndPost(access, "u1", "p1");
      const written = await call(
        access,
        "c3ReactToAPostAddAReactionOrChangeItsKind",
      )({
        reactionId: "r1",
        postId: "p1",
        userId: "u2",
        kind: "like",
        createdAt: "2026-11-24T01:01:00Z",
      });
      const item = (written.changes?.[0] as { item: Record<string, unknown> }).item;
      // The page as the all-versions-and-deletes feed delivers it (its format, checked 2026-11-24).
      const page = [
        { current: item, metadata: { operationType: "create", lsn: 7 } },
        {
          current: { ...item, kind: "love" },
          metadata: { operationType: "replace", lsn: 8, previousImageLSN: 7 },
        },
        {
          metadata: { operationType: "create", lsn: 9 },
          current: { ...item, id: "p1-u3", reactionId: "r3", userId: "u3" },
        },
        {
          metadata: {
            operationType: "delete",
            lsn: 10,
            id: item["id"],
            partitionKey: { postShard: item["postShard"] },
          },
        },
      ];
      const applyFeed = access["applyFeed"] as unknown as (
        c: string,
        e: unknown[],
        r: string,
      ) => Promise<unknown>;
      await applyFeed("reactions", page, "00..FF");
      await applyFeed("reactions", page, "00..FF");
      await applyFeed("reactions", page.slice(2), "00..FF");
      const q1 = await call(
        access,
        "q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName",
      )({ postId: "p1" });
      expect(q1.item?.["reactionCount"]).toBe(1);
    }, 60_000);

    it("loses nothing when a handler fails once and the processor is stopped and restarted", async () => {
      const blogging = loadExampleModel("blogging");
      const { access, deployment, module } = await generated(endpoint, blogging.workload, blogging.model);
      deployments.push(deployment);
      const memoryCheckpointStore = module["memoryCheckpointStore"] as () => unknown;
      const start = module["startChangeFeedProcessors"] as (
        database: Database,
        access: unknown,
        options: Record<string, unknown>,
      ) => { ready: Promise<void>; stop(): Promise<void> };
      const checkpoints = memoryCheckpointStore();
      const applyFeed = access["applyFeed"] as unknown as (
        c: string,
        e: unknown[],
        r: string,
      ) => Promise<unknown>;
      let failures = 0;
      const errors: unknown[] = [];
      const failingOnce = async (container: string, entries: unknown[], range: string) => {
        if (container === "posts" && failures === 0) {
          failures++;
          throw new Error("the handler failed once");
        }
        return applyFeed(container, entries, range);
      };
      const options = {
        checkpoints,
        startFrom: "beginning",
        pollIntervalMs: 20,
        leaseRenewMs: 50,
        backoff: { initialDelayMs: 5 },
        onError: (error: unknown) => errors.push(error),
      };
      await call(access, "c1CreateOrEditAUser")({ userId: "u1", username: "ann" });
      const post = {
        postId: "p1",
        userId: "u1",
        title: "T",
        content: "c",
        creationDate: "2026-11-24T00:00:00Z",
      };
      await call(access, "c2CreateOrEditAPost")(post);
      const copies = async (userId: string) =>
        (await call(access, "q3ListAUsersPostsInShortForm")({ userId })).items?.map(
          (item) => item["postId"],
        ) ?? [];
      const until = async (what: () => Promise<boolean>) => {
        for (let attempt = 0; attempt < 300 && !(await what()); attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      let processor = start(deployment.database, { applyFeed: failingOnce }, options);
      await processor.ready;
      await until(async () => (await copies("u1")).length === 1);
      await processor.stop();
      expect(failures).toBe(1);
      expect(errors.map(String)).toEqual(["Error: the handler failed once"]);
      expect(await copies("u1")).toEqual(["p1"]);
      // Written while no processor runs: read from the saved continuation after the restart (a real
      // account's feed; the embedded endpoint's feed shows nothing after its first read).
      await call(access, "c2CreateOrEditAPost")({ ...post, postId: "p2" });
      processor = start(deployment.database, { applyFeed }, options);
      await processor.ready;
      if (endpoint.capabilities.changeFeed) await until(async () => (await copies("u1")).length === 2);
      else await new Promise((resolve) => setTimeout(resolve, 200));
      await processor.stop();
      expect(errors).toHaveLength(1);
      expect((await copies("u1")).sort()).toEqual(endpoint.capabilities.changeFeed ? ["p1", "p2"] : ["p1"]);
    }, 120_000);

    it("keeps every like while the post is edited concurrently (40 edits, 40 likes)", async () => {
      const blogging = loadExampleModel("blogging");
      const { access, deployment } = await generated(endpoint, blogging.workload, blogging.model);
      deployments.push(deployment);
      await call(access, "c1CreateOrEditAUser")({ userId: "u1", username: "ann" });
      const post = {
        postId: "p1",
        userId: "u1",
        title: "T",
        content: "c",
        creationDate: "2026-11-24T00:00:00Z",
      };
      await call(access, "c2CreateOrEditAPost")(post);
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        writes.push(call(access, "c2CreateOrEditAPost")({ ...post, title: `T${i}` }));
        writes.push(
          call(
            access,
            "c4LikeAPost",
          )({ likeId: `l${i}`, postId: "p1", userId: `w${i}`, creationDate: "2026-11-24T00:01:00Z" }),
        );
      }
      const settled = await Promise.allSettled(writes);
      expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
      const q2 = await call(
        access,
        "q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts",
      )({ postId: "p1" });
      expect(q2.item?.["likeCount"]).toBe(40);
      expect(q2.item?.["title"]).toMatch(/^T\d+$/);
    }, 120_000);

    it("never sells the last unit twice: concurrent decrements with a floor of 0", async () => {
      const ecommerce = loadExampleModel("ecommerce");
      const { access, deployment, module } = await generated(endpoint, ecommerce.workload, ecommerce.model);
      deployments.push(deployment);
      const product = {
        productId: "pr1",
        name: "Lamp",
        description: "d",
        price: 10,
        categoryId: "c1",
        stock: 1,
        imageUrls: [],
      };
      await call(access, "c9CreateOrRenameACategory")({ categoryId: "c1", name: "Lights" });
      await call(access, "c7CreateOrEditAProductCatalogManagementPriceChanges")(product);
      const update = call(access, "c6UpdateAProductsStockDecrementForEachOrderedLineRestock");
      const orders = await Promise.allSettled([
        update({ productId: "pr1", stock: { incr: -1, min: 0 } }),
        update({ productId: "pr1", stock: { incr: -1, min: 0 } }),
      ]);
      expect(orders.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      const rejected = orders.find((o): o is PromiseRejectedResult => o.status === "rejected");
      expect(rejected?.reason).toBeInstanceOf(module["DataAccessError"] as new () => Error);
      expect((rejected?.reason as { code?: string }).code).toBe("boundViolated");
      const read = await call(
        access,
        "q2ShowAProductPageWithItsCategoryNameAndReviewCount",
      )({ productId: "pr1" });
      expect(read.item?.["stock"]).toBe(0);
    }, 60_000);

    it("pages a 50-per-page list: every item once, then no continuation", async () => {
      const { access, deployment } = await generated(endpoint, SOCIAL.workload, SOCIAL.model);
      deployments.push(deployment);
      await authorAndPost(access, "u0", "p2");
      for (let i = 0; i < 60; i++) {
        await call(
          access,
          "c3ReactToAPostAddAReactionOrChangeItsKind",
        )({
          reactionId: `x${i}`,
          postId: "p2",
          userId: `v${i}`,
          kind: "like",
          createdAt: `2026-11-24T02:${String(i).padStart(2, "0")}:00Z`,
        });
      }
      const q3 = call(access, "q3ListWhoReactedToAPostNewestFirstWithDisplayNames50PerPage");
      const first = await q3({ postId: "p2" });
      expect(first.items).toHaveLength(50);
      expect(first.continuationToken).toBeTypeOf("string");
      const second = await q3({ postId: "p2" }, { continuationToken: first.continuationToken });
      expect(second.items).toHaveLength(10);
      expect(second.continuationToken).toBe(undefined);
      const ids = [...(first.items ?? []), ...(second.items ?? [])].map((item) => item["reactionId"]);
      expect(new Set(ids).size).toBe(60);
      const dates = [...(first.items ?? []), ...(second.items ?? [])].map((item) =>
        String(item["createdAt"]),
      );
      expect(dates).toEqual([...dates].sort().reverse());
      const small = await q3({ postId: "p2" }, { pageSize: 7 });
      expect(small.items).toHaveLength(7);
    }, 120_000);

    it("reads a feed page's posts as one ReadMany (bulk reads, no point read each), in the order asked, a missing one left out", async () => {
      const counts: RequestCounts = { bulk: 0, pointReads: 0 };
      const { access, deployment } = await generated(endpoint, SOCIAL.workload, SOCIAL.model, (database) =>
        countingDatabase(database, counts),
      );
      deployments.push(deployment);
      await call(
        access,
        "c1CreateAUserOrEditTheirProfile",
      )({ userId: "u9", displayName: "Ann", avatarUrl: "a", bio: "b" });
      for (let i = 0; i < 20; i++) {
        await call(
          access,
          "c2PublishAPost",
        )({
          postId: `f${i}`,
          authorId: "u9",
          text: `t${i}`,
          mediaUrls: [],
          createdAt: "2026-11-24T03:00:00Z",
        });
      }
      // 20 posts of the page, newest first as a feed lists them, and one that was never written.
      const asked = Array.from({ length: 20 }, (_, i) => `f${19 - i}`);
      asked.splice(7, 0, "gone");
      counts.bulk = 0;
      counts.pointReads = 0;
      const page = await call(access, "q4RenderAFeedPage20PostsWithTheirReactionCounts")({ postId: asked });
      expect((page.items ?? []).map((item) => item["postId"])).toEqual(asked.filter((id) => id !== "gone"));
      expect((page.items ?? []).map((item) => item["text"])).toEqual(
        asked.filter((id) => id !== "gone").map((id) => `t${id.slice(1)}`),
      );
      expect(counts).toEqual({ bulk: 1, pointReads: 0 });
      expect(page.requestCharge).toBeGreaterThan(0);
    }, 120_000);
  });
}
