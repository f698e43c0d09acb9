/**
 * Write inputs that fit the write (issue 25), run by the generated code on the embedded endpoint:
 * a patch given only the key and what it changes, a delete given only the key, leave the rest of
 * the item and everything derived from it (copies, counters, embedded children) right; records the
 * model writes with their parent's create are stored by it, and refused alone with a typed error;
 * a write whose input lacks what its maintenance needs reads the current item first, as planned.
 * The embedded endpoint charges 1 RU per request, so a request charge is a request count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDataAccessFiles } from "../render/code/render-data-access.js";
import { parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import { importGenerated, loadExampleModel, type LoadedExample } from "../test-support/generated-module.js";
import { evaluateModel } from "../cost/evaluate.js";
import { deployModel, type Deployment } from "./deploy.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "./endpoint.js";

interface Result {
  readonly items?: Record<string, unknown>[];
  readonly item?: Record<string, unknown>;
  readonly changes?: unknown[];
  readonly requestCharge: number;
}
type Access = Record<string, (input: unknown, related?: unknown) => Promise<Result>>;

interface Opened {
  readonly example: LoadedExample;
  /** Calls a function of the module; a write's changes are applied (the change-feed work). */
  readonly write: (name: string, input: unknown, related?: unknown) => Promise<Result>;
  readonly call: (name: string, input: unknown, related?: unknown) => Promise<Result>;
  readonly itemsOf: (container: string) => Promise<Record<string, unknown>[]>;
}

let endpoint: CosmosEndpoint | undefined;
const deployments: Deployment[] = [];

beforeAll(async () => {
  endpoint = await startEmbeddedEndpoint();
}, 30_000);

afterAll(async () => {
  for (const deployment of deployments) await deployment.remove();
  await endpoint?.close();
});

async function open(label: string, example: LoadedExample): Promise<Opened> {
  if (endpoint === undefined) throw new Error("no endpoint");
  const deployment = await deployModel(endpoint.client, example.model);
  deployments.push(deployment);
  const module = await importGenerated(
    `inputs-${label}`,
    renderDataAccessFiles(example.workload, example.model, example.plans),
  );
  const create = module["createDataAccess"] as (database: unknown, options: unknown) => Access;
  const access = create(deployment.database, { transactionalBatch: false, random: () => 0 });
  const call = (name: string, input: unknown, related?: unknown): Promise<Result> => {
    const found = access[name];
    if (found === undefined) throw new Error(`no function ${name}`);
    return found(input, related);
  };
  return {
    example,
    call,
    write: async (name, input, related) => {
      const result = await call(name, input, related);
      await call("applyChanges", result.changes);
      return result;
    },
    itemsOf: async (container) => {
      const cosmos = deployment.containers.get(container);
      if (cosmos === undefined) throw new Error(`no container ${container}`);
      const { resources } = await cosmos.items.query<Record<string, unknown>>("SELECT * FROM c").fetchAll();
      return resources;
    },
  };
}

/** The synchronous requests the plan of `patternId` lists per request (batches by their writes). */
function plannedRequests(example: LoadedExample, patternId: string): number {
  const plan = example.plans.find((p) => p.patternId === patternId);
  if (plan?.type !== "write") throw new Error(`no write plan ${patternId}`);
  return plan.operations.reduce(
    (sum, step) => sum + (step.kind === "batch" ? step.operations.length : 1) * step.times,
    0,
  );
}

describe("ecommerce (expert model): a stock patch given the product's key and stock", () => {
  it("decrements the stock and keeps the name, price, images, category name and review count", async () => {
    const shop = await open("ecommerce", loadExampleModel("ecommerce"));
    await shop.write("c9CreateOrRenameACategory", {
      categoryId: "k1",
      name: "Kitchen",
      parentCategoryId: "root",
    });
    const product = {
      productId: "p1",
      name: "Kettle",
      description: "A kettle",
      price: 30,
      categoryId: "k1",
      stock: 5,
      imageUrls: ["a.png"],
    };
    await shop.write("c7CreateOrEditAProductCatalogManagementPriceChanges", product);
    await shop.write("c8WriteAReview", {
      reviewId: "r1",
      productId: "p1",
      customerId: "c1",
      rating: 5,
      title: "Good",
      body: "Boils",
      createdAt: "2026-11-20T10:00:00Z",
    });
    const decrement = "c6UpdateAProductsStockDecrementForEachOrderedLineRestock";
    const sold = await shop.write(decrement, { productId: "p1", stock: { incr: -2, min: 0 } });
    // One patch, as the plan lists: nothing is read to complete the record.
    expect(sold.requestCharge).toBe(plannedRequests(shop.example, "C6"));
    expect(sold.requestCharge).toBe(1);
    const page = await shop.call("q2ShowAProductPageWithItsCategoryNameAndReviewCount", { productId: "p1" });
    expect(page.item).toMatchObject({
      ...product,
      stock: 3,
      categoryName: "Kitchen",
      reviewCount: 1,
    });
    // A set, and an increment that would go below its floor (refused, nothing changed).
    await shop.write(decrement, { productId: "p1", stock: 1 });
    await expect(
      shop.call(decrement, { productId: "p1", stock: { incr: -2, min: 0 } }),
    ).rejects.toMatchObject({
      code: "boundViolated",
    });
    await expect(shop.call(decrement, { productId: "none", stock: 1 })).rejects.toMatchObject({
      code: "notFound",
    });
    const after = await shop.call("q2ShowAProductPageWithItsCategoryNameAndReviewCount", { productId: "p1" });
    expect(after.item).toMatchObject({ ...product, stock: 1, categoryName: "Kitchen", reviewCount: 1 });
    // A category rename still reaches the product (the patch kept its categoryId).
    await shop.write("c9CreateOrRenameACategory", {
      categoryId: "k1",
      name: "Cooking",
      parentCategoryId: "root",
    });
    const renamed = await shop.call("q2ShowAProductPageWithItsCategoryNameAndReviewCount", {
      productId: "p1",
    });
    expect(renamed.item).toMatchObject({ name: "Kettle", stock: 1, categoryName: "Cooking" });
  }, 60_000);

  it("stores an order's lines with its create, refuses them alone (writtenWithParent), and patches the status alone", async () => {
    const shop = await open("ecommerce-orders", loadExampleModel("ecommerce"));
    const order = {
      orderId: "o1",
      customerId: "c1",
      orderDate: "2026-11-20T10:00:00Z",
      status: "placed",
      total: 12,
      currency: "EUR",
      shippingAddress: { city: "Lyon" },
      paymentMethod: "card",
    };
    const lines = [1, 2].map((n) => ({
      lineId: `l${n}`,
      orderId: "o1",
      productId: `p${n}`,
      productName: `Product ${n}`,
      quantity: n,
      unitPrice: 4,
    }));
    await shop.write("c3PlaceAnOrder", order, { embeds: { OrderLine: lines } });
    // Alone, the lines have no item to land in: refused, not silently dropped.
    await expect(
      shop.call("c4WriteTheLinesOfANewOrderSameCheckoutRequestAsC3", { ...lines[0], lineId: "l3" }),
    ).rejects.toMatchObject({ code: "writtenWithParent", name: "DataAccessError" });
    const status = "c5UpdateAnOrdersStatusPaymentShippingDeliveryReturns";
    const shipped = await shop.write(status, { orderId: "o1", customerId: "c1", status: "shipped" });
    expect(shipped.requestCharge).toBe(plannedRequests(shop.example, "C5"));
    const read = await shop.call("q4ShowAnOrderWithAllItsLinesOrderDetailsPage", {
      customerId: "c1",
      orderId: "o1",
    });
    expect(read.item).toMatchObject({ ...order, status: "shipped", lines });
    const orders = await shop.itemsOf("orders");
    expect(orders.map((item) => (item["lines"] as unknown[]).length)).toEqual([2]);
  }, 60_000);
});

describe("social reactions (expert model): a reaction removed by its key", () => {
  it("deletes the reaction given postId and userId only, and the post's reaction count follows", async () => {
    const social = await open("social-reactions", loadExampleModel("social-reactions"));
    await social.write("c1CreateAUserOrEditTheirProfile", {
      userId: "u1",
      displayName: "Ann",
      avatarUrl: "a.png",
      bio: "",
      createdAt: "2026-11-01T00:00:00Z",
    });
    await social.write("c2PublishAPost", {
      postId: "p1",
      authorId: "u1",
      text: "Hello",
      mediaUrls: [],
      visibility: "public",
      createdAt: "2026-11-20T10:00:00Z",
    });
    for (const [userId, kind] of [
      ["u2", "like"],
      ["u3", "love"],
    ] as const) {
      await social.write("c3ReactToAPostAddAReactionOrChangeItsKind", {
        postId: "p1",
        userId,
        kind,
        createdAt: "2026-11-20T11:00:00Z",
      });
    }
    const count = async () =>
      (await social.call("q1GetAPostWithItsReactionCountsAndItsAuthorsDisplayName", { postId: "p1" })).item?.[
        "reactionCount"
      ];
    expect(await count()).toBe(2);
    const removed = await social.write("c4RemoveAReaction", { postId: "p1", userId: "u2" });
    expect(removed.requestCharge).toBe(plannedRequests(social.example, "C4"));
    expect(await count()).toBe(1);
    const mine = await social.call("q2GetTheSignedInUsersReactionToAPost", { postId: "p1", userId: "u2" });
    expect(mine.items ?? (mine.item === undefined ? [] : [mine.item])).toEqual([]);
    const kept = await social.call("q2GetTheSignedInUsersReactionToAPost", { postId: "p1", userId: "u3" });
    expect(kept.items ?? [kept.item]).toMatchObject([{ kind: "love" }]);
    // Removed again: nothing to remove, and the count stays.
    await social.write("c4RemoveAReaction", { postId: "p1", userId: "u2" });
    expect(await count()).toBe(1);
  }, 60_000);
});

/**
 * Comments with an item of their own (keyed by commentId alone) and embedded in their post: a
 * patch or a delete given the comment's key does not give the post it sits in, so the generated
 * code reads the comment first (the plan's `currentRecord` read) and changes the post's copy.
 */
const COMMENTS_WORKLOAD = `version: 1
name: comments
entities:
  Post: { key: postId, count: 1000, avgBytes: 800, attributes: { postId: string, title: string } }
  Comment:
    key: commentId
    count: 5000
    avgBytes: 300
    attributes: { commentId: string, postId: string, text: { type: string, changes: frequent }, createdAt: datetime }
relationships:
  - { parent: Post, child: Comment, via: postId, avg: 5, max: 20 }
accessPatterns:
  - { id: C1, name: write post, type: write, operation: create, entity: Post, rps: { avg: 1, peak: 2 } }
  - { id: C2, name: write comment, type: write, operation: create, entity: Comment, rps: { avg: 20, peak: 40 } }
  - { id: W1, name: edit comment, type: write, operation: patch, entity: Comment, changes: [text], rps: { avg: 2, peak: 4 } }
  - { id: D1, name: remove comment, type: write, operation: delete, entity: Comment, rps: { avg: 1, peak: 2 } }
  - { id: Q1, name: post with comments, type: read, entity: Post, where: { postId: eq }, with: [all(Comment)], rps: { avg: 50, peak: 100 } }
  - { id: Q2, name: comment, type: read, entity: Comment, where: { commentId: eq }, rps: { avg: 5, peak: 10 } }
`;

const COMMENTS_MODEL = `version: 1
containers:
  - name: posts
    partitionKey: [/postId]
    items:
      - { type: post, entity: Post, id: "{postId}", partitionKey: ["{postId}"], embeds: [{ entity: Comment, as: comments }] }
  - name: comments
    partitionKey: [/commentId]
    items:
      - { type: comment, entity: Comment, id: "{commentId}", partitionKey: ["{commentId}"] }
`;

function commentsExample(): LoadedExample {
  const workload = parseWorkload(COMMENTS_WORKLOAD);
  const model = parseModel(COMMENTS_MODEL, workload);
  return { workload, model, plans: evaluateModel(workload, model).patterns.map((p) => p.plan) };
}

describe("a comment embedded in its post, edited and removed by its key", () => {
  it("plans a read of the current comment before the patch and the delete, and costs it", () => {
    const { plans } = commentsExample();
    for (const id of ["W1", "D1"]) {
      const plan = plans.find((p) => p.patternId === id);
      const first = plan?.type === "write" ? plan.operations[0] : undefined;
      expect(first, id).toMatchObject({
        kind: "pointRead",
        role: "currentRecord",
        itemType: "comment",
        times: 1,
      });
      expect(first?.ru.estimate ?? 0, id).toBeGreaterThan(0);
    }
    // A create gives the whole record: nothing to read.
    const create = plans.find((p) => p.patternId === "C2");
    expect(create?.type === "write" && create.operations.some((s) => s.role === "currentRecord")).toBe(false);
  });

  it("edits the comment and its copy in the post, then removes both, with the requests the plan lists", async () => {
    const blog = await open("comments", commentsExample());
    await blog.write("c1WritePost", { postId: "p1", title: "Hello" });
    const comment = { commentId: "m1", postId: "p1", text: "first", createdAt: "2026-11-20T10:00:00Z" };
    await blog.write("c2WriteComment", comment);
    await blog.write("c2WriteComment", { ...comment, commentId: "m2", text: "second" });
    const edited = await blog.write("w1EditComment", { commentId: "m1", text: "edited" });
    // The comment read, its patch, the post read (ETag) and the post's patch.
    expect(edited.requestCharge).toBe(plannedRequests(blog.example, "W1"));
    expect(edited.requestCharge).toBe(4);
    const post = async () => (await blog.call("q1PostWithComments", { postId: "p1" })).item;
    expect(await post()).toMatchObject({
      comments: expect.arrayContaining([
        { ...comment, text: "edited" },
        { ...comment, commentId: "m2", text: "second" },
      ]) as unknown,
    });
    expect((await blog.call("q2Comment", { commentId: "m1" })).item).toMatchObject({
      ...comment,
      text: "edited",
    });
    const removed = await blog.write("d1RemoveComment", { commentId: "m1" });
    expect(removed.requestCharge).toBe(plannedRequests(blog.example, "D1"));
    expect((await post())?.["comments"]).toEqual([{ ...comment, commentId: "m2", text: "second" }]);
    expect((await blog.call("q2Comment", { commentId: "m1" })).item).toBeUndefined();
    // Removing it again finds nothing to read: nothing is written.
    const again = await blog.write("d1RemoveComment", { commentId: "m1" });
    expect(again.requestCharge).toBe(1);
    await expect(blog.call("w1EditComment", { commentId: "m1", text: "x" })).rejects.toMatchObject({
      code: "notFound",
    });
  }, 60_000);
});
