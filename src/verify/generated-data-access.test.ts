/**
 * The generated data-access module run against the embedded Cosmos DB endpoint: every function
 * of every example's module, transactional batches and the change feed processors, on a
 * database deployed from the model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeShard } from "../model/materialize-item.js";
import { dataAccessNames, renderDataAccessFiles } from "../render/code/render-data-access.js";
import { entitiesParentsFirst, generateDataset } from "../synthetic/generate-records.js";
import { generateWriteRecord } from "../synthetic/generate-writes.js";
import { mulberry32 } from "../synthetic/random.js";
import { importGenerated, loadExampleModel } from "../test-support/generated-module.js";
import { EXAMPLE_NAMES } from "../test-support/model-examples.js";
import type { ReadPattern, WritePattern } from "../workload/types.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";

interface Access {
  [name: string]: (
    input: unknown,
    related?: unknown,
  ) => Promise<{
    items?: Record<string, unknown>[];
    item?: Record<string, unknown>;
    changes?: unknown[];
    followUps?: { items: Record<string, unknown>[] }[];
    requestCharge: number;
  }>;
}

describe("the generated blogging module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  let access: Access;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("blogging");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-blogging",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    let turn = 0;
    // The embedded endpoint has no patch in batches: one request per operation.
    access = create(deployment.database, { transactionalBatch: false, random: () => (turn++ % 8) / 8 });
  }, 30_000);
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  const call = (name: string, input: unknown, related?: unknown) => {
    const fn = access[name];
    if (fn === undefined) throw new Error(`no function ${name}`);
    return fn(input, related);
  };

  it("writes through the write functions, maintains copies and counters, and reads back Q1, Q2, Q3 and Q6", async () => {
    const user = { userId: "u1", username: "ann" };
    const post = {
      postId: "p1",
      userId: "u1",
      title: "Hello",
      content: "x".repeat(300),
      creationDate: "2026-11-22T01:00:00Z",
    };
    await call("c1CreateOrEditAUser", user);
    const written = await call("c2CreateOrEditAPost", post);
    // The embedded endpoint has no working change feed: run the post's handler directly.
    const handled = await call("handlePostsPostChanges", written.changes);
    expect(handled.changes?.length).toBe(1 + 8); // users/post and the 8 feed replicas

    const q1 = await call("q1RetrieveAUser", { userId: "u1" });
    expect(q1.item).toMatchObject({ id: "u1", userId: "u1", type: "user", username: "ann" });
    const q2 = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2.item).toMatchObject({
      id: "p1",
      postId: "p1",
      userUsername: "ann",
      commentCount: 0,
      likeCount: 0,
    });
    expect(q2.item?.["content"]).toBe(post.content);
    const q3 = await call("q3ListAUsersPostsInShortForm", { userId: "u1" });
    expect(q3.items).toHaveLength(1);
    expect(q3.items?.[0]).toMatchObject({
      postId: "p1",
      title: "Hello",
      userUsername: "ann",
      content: "x".repeat(200),
    });
    for (let read = 0; read < 8; read++) {
      // Each read picks another replica (the random source cycles through 0..7).
      const q6 = await call("q6ListThe100MostRecentPostsInShortFormTheFeed", {});
      expect(q6.items?.map((item) => item["postId"])).toEqual(["p1"]);
    }

    // A comment: the comment and the post's counter (one by one here), then the copies follow.
    const comment = await call("c3CreateAComment", {
      commentId: "c1",
      postId: "p1",
      userId: "u1",
      content: "nice",
      creationDate: "2026-11-22T01:05:00Z",
    });
    await call("applyChanges", comment.changes);
    const q2After = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2After.item).toMatchObject({ commentCount: 1 });
    const q3After = await call("q3ListAUsersPostsInShortForm", { userId: "u1" });
    expect(q3After.items?.[0]).toMatchObject({ commentCount: 1 });
    const q4 = await call("q4ListAPostsCommentsWithTheirAuthorsUsernames", { postId: "p1" });
    expect(q4.items?.[0]).toMatchObject({ commentId: "c1", userUsername: "ann" });

    // A new username propagates to the post and comment copies, and on to the users and feed copies.
    const renamed = await call("c1CreateOrEditAUser", { userId: "u1", username: "bea" });
    await call("applyChanges", renamed.changes);
    const q2Renamed = await call("q2RetrieveAPostWithItsAuthorsUsernameAndItsCommentAndLikeCounts", {
      postId: "p1",
    });
    expect(q2Renamed.item).toMatchObject({ userUsername: "bea", commentCount: 1 });
    const q6Renamed = await call("q6ListThe100MostRecentPostsInShortFormTheFeed", {});
    expect(q6Renamed.items?.[0]).toMatchObject({ userUsername: "bea" });
    const q4Renamed = await call("q4ListAPostsCommentsWithTheirAuthorsUsernames", { postId: "p1" });
    expect(q4Renamed.items?.[0]).toMatchObject({ userUsername: "bea" });
  }, 60_000);
});

describe("transactional batches", () => {
  interface BatchCall {
    readonly container: string;
    readonly operations: readonly Record<string, unknown>[];
    readonly partitionKey: unknown;
  }

  /** A database stand-in: point reads answer from `items`, batches are recorded and answered. */
  function stubDatabase(items: Record<string, Record<string, unknown>>, batchStatus: number) {
    const batches: BatchCall[] = [];
    const database = {
      container: (name: string) => ({
        item: (id: string) => ({
          read: () =>
            Promise.resolve({ resource: items[`${name}/${id}`], requestCharge: 1, statusCode: 200 }),
        }),
        items: {
          batch: (operations: Record<string, unknown>[], partitionKey: unknown) => {
            batches.push({ container: name, operations, partitionKey });
            return Promise.resolve({
              result: operations.map((operation, index) => ({
                statusCode: index === 0 ? batchStatus : 200,
                requestCharge: 5,
                resourceBody:
                  operation["operationType"] === "Patch"
                    ? { id: operation["id"], type: "post", postId: operation["id"], commentCount: 1 }
                    : operation["resourceBody"],
              })),
            });
          },
        },
      }),
    };
    return { database, batches };
  }

  const comment = {
    commentId: "c1",
    postId: "p1",
    userId: "u1",
    content: "nice",
    creationDate: "2026-11-22T01:05:00Z",
  };

  it("sends the comment and its post's counter as one batch in the post's partition", async () => {
    const example = loadExampleModel("blogging");
    const module = await importGenerated(
      "batch-blogging",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const { database, batches } = stubDatabase(
      { "users/u1": { id: "u1", userId: "u1", username: "ann" } },
      201,
    );
    const access = create(database, { transactionalBatch: true });
    const result = await access["c3CreateAComment"]?.(comment);
    expect(batches).toEqual([
      {
        container: "posts",
        partitionKey: "p1",
        operations: [
          {
            operationType: "Create",
            partitionKey: "p1",
            resourceBody: {
              id: "c1",
              postId: "p1",
              type: "comment",
              commentId: "c1",
              userId: "u1",
              content: "nice",
              creationDate: "2026-11-22T01:05:00Z",
              userUsername: "ann",
            },
          },
          {
            operationType: "Patch",
            id: "p1",
            partitionKey: "p1",
            resourceBody: { operations: [{ op: "incr", path: "/commentCount", value: 1 }] },
          },
        ],
      },
    ]);
    // 1 RU for reading the author's username, 5 + 5 for the batch's two operations.
    expect(result?.requestCharge).toBe(11);
    expect(result?.changes).toMatchObject([
      { container: "posts", itemType: "comment", kind: "create", item: { id: "c1" } },
      { container: "posts", itemType: "post", kind: "update", item: { id: "p1", commentCount: 1 } },
    ]);
    const { database: failing } = stubDatabase(
      { "users/u1": { id: "u1", userId: "u1", username: "ann" } },
      409,
    );
    await expect(
      create(failing, { transactionalBatch: true })["c3CreateAComment"]?.(comment),
    ).rejects.toThrow("transactional batch failed: operation 0 answered 409");
  });
});

describe("the generated accounts-sessions module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("finds an account through its email lookup item and moves the lookup when the email changes", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("accounts-sessions");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-accounts",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const access = create(deployment.database, { transactionalBatch: false });
    const call = (name: string, input: unknown) => {
      const fn = access[name];
      if (fn === undefined) throw new Error(`no function ${name}`);
      return fn(input);
    };
    const account = {
      accountId: "a1",
      email: "ann@example.com",
      passwordHash: "h1",
      displayName: "Ann",
      status: "active",
      emailVerified: true,
      mfaEnabled: false,
      createdAt: "2026-11-22T01:00:00Z",
    };
    await call("c1SignUpCreateAnAccountWithAUniqueEmail", account);
    const find = "q1FindAnAccountByEmailSignInSignUpCheckPasswordResetRequest";
    const found = await call(find, { email: "ann@example.com" });
    // The lookup item holds the email and the account id; the answer is the complete account.
    expect(found.items).toMatchObject([{ id: "a1", type: "account", displayName: "Ann" }]);
    const changed = await call("c2UpdateAnAccountProfilePasswordEmailChangeVerification", {
      ...account,
      email: "bea@example.com",
    });
    expect(changed.changes?.map((c) => (c as { kind: string; itemType: string }).itemType)).toEqual([
      "emailLookup",
      "emailLookup",
      "account",
    ]);
    expect((await call(find, { email: "bea@example.com" })).items).toMatchObject([
      { id: "a1", email: "bea@example.com" },
    ]);
    expect((await call(find, { email: "ann@example.com" })).items).toEqual([]);
    // The lookup keeps emails unique: another account cannot take bea@example.com.
    await call("c1SignUpCreateAnAccountWithAUniqueEmail", {
      ...account,
      accountId: "a2",
      email: "cid@example.com",
    });
    await expect(
      call("c2UpdateAnAccountProfilePasswordEmailChangeVerification", {
        ...account,
        accountId: "a2",
        email: "bea@example.com",
      }),
    ).rejects.toMatchObject({ code: "conflict", statusCode: 409 });
  }, 30_000);
});

describe("the change feed processors on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("read the posts container's feed and keep the users and feed copies", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("blogging");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "feed-blogging",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const start = module["startChangeFeedProcessors"] as (
      database: unknown,
      access: Access,
      options: unknown,
    ) => { stop(): Promise<void> };
    const access = create(deployment.database, { transactionalBatch: false });
    await access["c1CreateOrEditAUser"]?.({ userId: "u1", username: "ann" });
    await access["c2CreateOrEditAPost"]?.({
      postId: "p1",
      userId: "u1",
      title: "Hello",
      content: "text",
      creationDate: "2026-11-22T01:00:00Z",
    });
    const errors: unknown[] = [];
    const memoryCheckpointStore = module["memoryCheckpointStore"] as () => unknown;
    // The embedded feed returns everything on its first read (and nothing new afterwards).
    const processors = start(deployment.database, access, {
      checkpoints: memoryCheckpointStore(),
      startFrom: "beginning",
      pollIntervalMs: 20,
      onError: (error: unknown) => errors.push(error),
    });
    let copies: unknown[] = [];
    for (let attempt = 0; attempt < 100 && copies.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      copies = (await access["q3ListAUsersPostsInShortForm"]?.({ userId: "u1" }))?.items ?? [];
    }
    await processors.stop();
    expect(errors).toEqual([]);
    expect(copies).toMatchObject([{ postId: "p1", userUsername: "ann" }]);
  }, 30_000);
});

describe("the generated social-reactions module on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  let access: Access;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel("social-reactions");
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      "embedded-social",
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    access = create(deployment.database, { transactionalBatch: false });
  }, 30_000);
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  const call = (name: string, input: unknown) => {
    const fn = access[name];
    if (fn === undefined) throw new Error(`no function ${name}`);
    return fn(input);
  };

  it("keeps reactions in write shards, counts them from the change feed and reads them across shards", async () => {
    await call("c1CreateAUserOrEditTheirProfile", {
      userId: "u1",
      displayName: "Ann",
      avatarUrl: "a",
      bio: "b",
    });
    await call("c2PublishAPost", {
      postId: "p1",
      authorId: "u1",
      text: "hi",
      mediaUrls: [],
      createdAt: "2026-11-22T01:00:00Z",
    });
    const reaction = {
      reactionId: "r1",
      postId: "p1",
      userId: "u1",
      kind: "like",
      createdAt: "2026-11-22T01:01:00Z",
    };
    const reacted = await call("c3ReactToAPostAddAReactionOrChangeItsKind", reaction);
    const stored = reacted.changes?.[0] as { item: Record<string, unknown> } | undefined;
    // The shard is FNV-1a of the userId mod 20, as the model's computeShard says.
    expect(stored?.item["postShard"]).toBe(`p1-${computeShard("u1", 20)}`);
    await call("applyChanges", reacted.changes);
    // Changing the kind of the same reaction is an update (the upsert answers 200): not counted again.
    const changed = await call("c3ReactToAPostAddAReactionOrChangeItsKind", { ...reaction, kind: "love" });
    expect(changed.changes?.map((change) => (change as { kind: string }).kind)).toEqual(["update"]);
    await call("applyChanges", changed.changes);
    const q1 = await call("q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName", { postId: "p1" });
    expect(q1.item).toMatchObject({ authorDisplayName: "Ann", reactionCount: 1 });
    const q2 = await call("q2GetTheSignedInUsersReactionToAPost", { postId: "p1", userId: "u1" });
    expect(q2.item).toMatchObject({ kind: "love" });
    const q3 = await call("q3ListWhoReactedToAPostNewestFirstWithDisplayNames50PerPage", { postId: "p1" });
    expect(q3.items?.map((item) => item["userId"])).toEqual(["u1"]);
    expect(q3.followUps?.[0]?.items).toEqual([{ userId: "u1", displayName: "Ann" }]);
    const removed = await call("c4RemoveAReaction", reaction);
    await call("applyChanges", removed.changes);
    const q1After = await call("q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName", { postId: "p1" });
    expect(q1After.item).toMatchObject({ reactionCount: 0 });
  }, 60_000);
});

/** A read input for `pattern` from a record of its entity (eq, in, range, prefix, contains). */
function readInput(pattern: ReadPattern, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const predicate of pattern.where) {
    const value = record[predicate.attribute];
    switch (predicate.op) {
      case "eq":
        input[predicate.attribute] = value;
        break;
      case "in":
        input[predicate.attribute] = [value];
        break;
      case "range":
        input[predicate.attribute] =
          typeof value === "number" ? { from: value, to: value + 1 } : { from: value, to: "9999" };
        break;
      case "prefix":
        input[predicate.attribute] = typeof value === "string" ? value.slice(0, 2) : "";
        break;
      case "contains":
        input[predicate.attribute] = Array.isArray(value) ? value[0] : value;
        break;
      default:
        return predicate.op satisfies never;
    }
  }
  return input;
}

describe.each(EXAMPLE_NAMES)("every function of the %s module on the embedded endpoint", (name) => {
  let endpoint: CosmosEndpoint | undefined;
  let deployment: Deployment | undefined;
  afterAll(async () => {
    await deployment?.remove();
    await endpoint?.close();
  });

  it("writes records through the write patterns, applies the changes and answers every read pattern", async () => {
    endpoint = await startEmbeddedEndpoint();
    const example = loadExampleModel(name);
    deployment = await deployModel(endpoint.client, example.model);
    const module = await importGenerated(
      `smoke-${name}`,
      renderDataAccessFiles(example.workload, example.model, example.plans),
    );
    const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
    const access = create(deployment.database, { transactionalBatch: false });
    const names = dataAccessNames(example.workload, []);
    const full = generateDataset(example.workload, { seed: 3, maxItemsPerEntity: 20 });
    // The parent records of a child record (for parent items keyed by what the child lacks).
    const parentsOf = (entity: string, record: Readonly<Record<string, unknown>>) => {
      const parents: Record<string, unknown> = {};
      for (const relationship of example.workload.relationships) {
        if (relationship.child !== entity || relationship.via === undefined) continue;
        const key = example.workload.entities.find((e) => e.name === relationship.parent)?.key ?? [];
        const via = relationship.via;
        const parent = full.entities[relationship.parent]?.find((r) =>
          key.every((name, index) => r[name] === record[via[index] ?? name]),
        );
        if (parent !== undefined) parents[relationship.parent] = parent;
      }
      return { parents };
    };
    // Children the model writes with their parent's create (an order's lines): the parent's
    // create takes them; their own pattern refuses a write of them alone.
    const withParent = (id: string) => {
      const plan = example.plans.find((p) => p.patternId === id);
      return plan?.type === "write" ? plan.writtenWithParent : undefined;
    };
    const carried = example.workload.accessPatterns.flatMap((p) => {
      const parent = withParent(p.id)?.parent;
      const link = example.workload.relationships.find((r) => r.parent === parent && r.child === p.entity);
      return parent === undefined || link?.via === undefined
        ? []
        : [{ parent, child: p.entity, via: link.via }];
    });
    const embedsOf = (entity: string, record: Readonly<Record<string, unknown>>) => {
      const key = example.workload.entities.find((e) => e.name === entity)?.key ?? [];
      const embeds: Record<string, unknown[]> = {};
      for (const { child, via } of carried.filter((c) => c.parent === entity)) {
        embeds[child] = (full.entities[child] ?? []).filter((r) =>
          key.every((name, index) => r[via[index] ?? name] === record[name]),
        );
      }
      return Object.keys(embeds).length === 0 ? {} : { embeds };
    };
    const run = async (id: string, input: Readonly<Record<string, unknown>>) => {
      const fn = access[names.patterns.get(id) ?? ""];
      if (fn === undefined) throw new Error(`no function for ${id}`);
      const pattern = example.workload.accessPatterns.find((p) => p.id === id);
      if (withParent(id) !== undefined) {
        await expect(fn(input, parentsOf(pattern?.entity ?? "", input))).rejects.toMatchObject({
          code: "writtenWithParent",
        });
        return { requestCharge: 0 };
      }
      const result = await fn(
        input,
        pattern?.type === "write"
          ? { ...parentsOf(pattern.entity, input), ...embedsOf(pattern.entity, input) }
          : undefined,
      );
      if (result.changes !== undefined) await access["applyChanges"]?.(result.changes);
      return result;
    };
    const written: Record<string, Readonly<Record<string, unknown>>[]> = {};
    // Parents first, a few records each, through the entity's create (or upsert) pattern.
    for (const entity of entitiesParentsFirst(example.workload)) {
      const creator = example.workload.accessPatterns.find(
        (p): p is WritePattern =>
          p.type === "write" &&
          p.entity === entity.name &&
          (p.operation === "create" || p.operation === "upsert"),
      );
      if (creator === undefined) continue;
      const records = (full.entities[entity.name] ?? []).slice(0, 3);
      for (const record of records) await run(creator.id, record);
      written[entity.name] = records;
    }
    const dataset = { seed: 3, entities: written };
    const rng = mulberry32(11);
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "write" || pattern.operation === "delete") continue;
      const record = generateWriteRecord(example.workload, dataset, pattern, rng);
      if (record !== undefined) await run(pattern.id, record);
    }
    let answered = 0;
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "read") continue;
      const plan = example.plans.find((p) => p.patternId === pattern.id);
      const record = written[pattern.entity]?.[0];
      if (record === undefined || plan?.served !== true) continue;
      const result = await run(pattern.id, readInput(pattern, record));
      expect(Array.isArray(result.items), pattern.id).toBe(true);
      if ((result.items?.length ?? 0) > 0) answered++;
    }
    expect(answered).toBeGreaterThan(0);
    for (const pattern of example.workload.accessPatterns) {
      if (pattern.type !== "write" || pattern.operation !== "delete") continue;
      const record = generateWriteRecord(example.workload, dataset, pattern, rng);
      if (record !== undefined) await run(pattern.id, record);
    }
  }, 60_000);
});
