import { beforeAll, describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import type { ItemType, Model } from "../model/types.js";
import { designedExample } from "../test-support/designed-examples.js";
import { readExample, readExampleWorkload } from "../test-support/model-examples.js";
import type { Workload } from "../workload/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import { designModel, type DesignResult } from "./design-model.js";
import { generateWorkload } from "./generate-workload.js";
import { HEADROOM_PREMIUM, scoreModel } from "./search.js";

const NAMES = [
  "blogging",
  "accounts-sessions",
  "ecommerce",
  "iot-telemetry",
  "multitenant-saas",
  "social-reactions",
] as const;
type Name = (typeof NAMES)[number];

const designs = new Map<
  Name,
  { workload: Workload; result: DesignResult; expertCost: number; expertPeak: number }
>();

beforeAll(() => {
  for (const name of NAMES) {
    // Designed once per process (shared with the other test files that use the examples).
    const { workload, design } = designedExample(name);
    const expert = loadModel(readExample(`${name}/expert-model.yaml`), { workload });
    if (!expert.ok) throw new Error(`expert model of ${name} does not load`);
    const evaluation = evaluateModel(workload, expert.value);
    designs.set(name, {
      workload,
      result: design,
      expertCost: evaluation.totals.monthlyCostUSD,
      expertPeak: evaluation.totals.rus.peak,
    });
  }
}, 120_000);

function design(name: Name) {
  const found = designs.get(name);
  if (found === undefined) throw new Error(`no design for ${name}`);
  return found;
}

/** Every item type of the model with its container. */
function items(model: Model): { container: string; paths: readonly string[]; item: ItemType }[] {
  return model.containers.flatMap((c) =>
    c.items.map((item) => ({ container: c.name, paths: c.partitionKey, item })),
  );
}

function primary(model: Model, entity: string) {
  const found = items(model).find((i) => i.item.entity === entity && i.item.source === undefined);
  if (found === undefined) throw new Error(`${entity} is not stored`);
  return found;
}

/**
 * Where the design costs more than the expert model, the reason, in numbers (issue 4 allows it
 * when the test documents it). Each entry is asserted to stay within its stated margin.
 */
const ABOVE_EXPERT: Partial<Record<Name, { readonly margin: number; readonly why: string }>> = {
  "accounts-sessions": {
    margin: 0.01,
    why: "the design shares the accounts container with the password-reset tokens (both read by id) where the expert shares the sessions container; the 7-partition sessions container then carries a little more autoscale floor (about $6/month).",
  },
  "iot-telemetry": {
    margin: 0.01,
    why: "devices and alerts are keyed by site like the expert's, but in two containers: their autoscale floors add up to the same as one shared container, so the evaluation sees no saving in merging them; the rest is a few RU/s of indexing on the device items.",
  },
};

describe("designModel on the examples", () => {
  it.each(NAMES)("%s: respects every hard limit and costs no more than the baseline", (name) => {
    const { result } = design(name);
    expect(result.evaluation.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThanOrEqual(result.baseline.monthlyCostUSD);
    for (const container of result.evaluation.containers) {
      expect(container.hottestLogicalPartition.rus).toBeLessThanOrEqual(10_000);
      expect(container.hottestLogicalPartition.storageGB).toBeLessThanOrEqual(20);
    }
  });

  it.each(NAMES)("%s: costs no more than the expert model, or the documented margin", (name) => {
    const { result, expertCost } = design(name);
    const allowed = ABOVE_EXPERT[name];
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThanOrEqual(
      expertCost * (1 + (allowed?.margin ?? 0)),
    );
  });

  it.each(NAMES)("%s: every decision names what it chose and prices its alternatives", (name) => {
    for (const decision of design(name).result.decisions) {
      expect(decision.why.length).toBeGreaterThan(10);
      for (const alternative of decision.alternatives) {
        expect(Number.isFinite(alternative.monthlyCostUSD)).toBe(true);
        expect(Number.isFinite(alternative.rusPeak)).toBe(true);
      }
      if (decision.alternatives.length > 0)
        expect(decision.alternatives.map((a) => a.name)).toContain(decision.chosen);
    }
  });
});

/**
 * Issue 11 asks that the examples' designs cost no more than before its changes: the model each
 * design wrote on 2026-11-23 (commit f171845, `test/fixtures/examples/<name>/design-2026-11-23.yaml`)
 * is evaluated today, with its throughput left to the evaluation (as written, two containers of
 * multitenant-saas are under-provisioned under today's placement and would be throttled), and
 * compared with today's design. Changed, and why (2026-11-25):
 * - blogging: $6,606 then, $5,433 now (the old posts-latest put two hot feed replicas in one
 *   hash range: 11,133 RU/s in one physical partition, a hard-limit error as written);
 * - social-reactions: $320,298 then (two containers over the 1,000,000 RU/s default maximum),
 *   $119,425 now;
 * - multitenant-saas: $9,354 then (hierarchical keys whose hot tenant needs 146,082 RU/s on
 *   session-events for an even split), $7,279 now;
 * - accounts-sessions: $4,668 then, $4,673 now (+0.12%): the old sessions container's busiest
 *   partition needed 9,694 of its 10,000 RU/s; today's design keeps every hottest logical
 *   partition under 80% at the top of its RU range (scale.targetUtilization, evaluate.noHeadroom),
 *   worth up to 10% more (HEADROOM_PREMIUM): $4,644 since 2026-11-28;
 * - ecommerce $1,616 -> $1,613, iot-telemetry $16,292 both times.
 */
describe("today's designs against the designs of 2026-11-23 (issue 11)", () => {
  it.each(NAMES)("%s: costs no more, or buys headroom under the partition limit", (name) => {
    const { workload, result } = design(name);
    const loaded = loadModel(readExample(`${name}/design-2026-11-23.yaml`), { workload });
    if (!loaded.ok) throw new Error(`the design of 2026-11-23 for ${name} does not load`);
    const unsized: Model = {
      ...loaded.value,
      containers: loaded.value.containers.map(({ throughput: _sized, ...container }) => container),
    };
    const before = scoreModel(workload, unsized, {});
    const today = scoreModel(workload, result.model, {});
    expect(today.errors).toBe(0);
    if (today.monthlyCostUSD > before.monthlyCostUSD) {
      expect(today.nearLimit).toBeLessThan(before.nearLimit);
      expect(today.monthlyCostUSD).toBeLessThanOrEqual(before.monthlyCostUSD * HEADROOM_PREMIUM);
    }
  });
});

describe("blogging acceptance (issue 4)", () => {
  it("has the expert model's peak RU/s (within 1%, for less per month) and no fan-out for Q2, Q3 and Q6", () => {
    const { result, expertPeak, expertCost } = design("blogging");
    // The feed's maintenance costs what the generated code does (a member check and a members
    // read per comment or like): the design replicates the feed 16 times where the expert does 8,
    // 0.15% more RU/s at peak (every new post written into 16 replicas) on fewer physical
    // partitions, about 20% less per month.
    expect(result.evaluation.totals.rus.peak).toBeLessThanOrEqual(expertPeak * 1.01);
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThan(expertCost);
    for (const id of ["Q2", "Q3", "Q6"]) {
      expect(result.evaluation.patterns.find((p) => p.id === id)?.fanOut).toBe(false);
    }
  });

  it("makes the case study's moves", () => {
    const { model } = design("blogging").result;
    const comment = primary(model, "Comment");
    const post = primary(model, "Post");
    // Comments live in their post's logical partition; counters and usernames on the post.
    expect(comment.container).toBe(post.container);
    expect(primary(model, "Like").container).toBe(post.container);
    expect(comment.item.partitionKey).toEqual(["{postId}"]);
    expect(post.item.counts.map((c) => c.of).sort()).toEqual(["Comment", "Like"]);
    expect(post.item.copies.map((c) => `${c.from.entity}.${c.from.attribute}`)).toContain("User.username");
    // A user's posts: a copy in the container keyed by userId (the users container, V3's move).
    const copies = items(model).filter((i) => i.item.entity === "Post" && i.item.source !== undefined);
    const byUser = copies.find((i) => i.paths.join() === "/userId");
    expect(byUser?.container).toBe(primary(model, "User").container);
    // The feed may be 5 s stale: served through the integrated cache, chosen over the case
    // study's newest 100 replicated (and a plain query) by monthly cost.
    expect(model.integratedCache?.patterns).toEqual(["Q6"]);
    const decision = design("blogging").result.decisions.find((d) => d.subject.kind === "integratedCache");
    const replicas = decision?.alternatives.find((a) => a.name.startsWith("replicas (the newest 100"));
    const chosen = decision?.alternatives.find((a) => a.name === decision.chosen);
    expect(chosen?.monthlyCostUSD ?? Infinity).toBeLessThan(replicas?.monthlyCostUSD ?? 0);
    expect(decision?.alternatives.map((a) => a.name)).toContain("plain query (no copy)");
  });

  it("without staleness allowed, the feed is the case study's bounded set of the newest 100, replicated", () => {
    const text = readExample("blogging/workload.yaml").replace("    maxStalenessSeconds: 5\n", "");
    const loaded = loadWorkload(text, { file: "blogging/workload.yaml" });
    if (!loaded.ok) throw new Error("the blogging workload without staleness does not load");
    const { model } = designModel(loaded.value);
    expect(model.integratedCache).toBeUndefined();
    const feed = items(model).find((i) => i.item.entity === "Post" && i.item.keepLatest !== undefined);
    expect(feed?.item.keepLatest).toEqual({ count: 100, by: "creationDate" });
    expect(feed?.item.replicas ?? 1).toBeGreaterThanOrEqual(4);
  }, 240_000);
});

describe("the README decisions of each example", () => {
  it("accounts-sessions: email uniqueness by a lookup item, TTLs from the entities", () => {
    const { model } = design("accounts-sessions").result;
    // The lookup item's id is the email (its type as a prefix when it shares its container).
    const lookup = items(model).find(
      (i) => i.item.entity === "Account" && /^(\w+-)?\{email\}$/.test(i.item.id),
    );
    expect(lookup?.item.partitionKey).toEqual([lookup?.item.id]);
    expect(lookup?.paths).toEqual(["/id"]);
    expect(model.containers.every((c) => c.uniqueKeys.length === 0)).toBe(true);
    // Sessions expire after a day: the container's default, or their own ttl when they share a
    // container (read by id, they may share the accounts container: one minimum throughput).
    const session = items(model).find((i) => i.item.entity === "Session" && i.item.source === undefined);
    const sessionContainer = model.containers.find((c) => c.name === session?.container);
    expect(session?.item.ttl ?? sessionContainer?.defaultTtl).toBe(86_400);
    const reset = items(model).find((i) => i.item.entity === "PasswordResetToken");
    const resetContainer = model.containers.find((c) => c.name === reset?.container);
    expect(reset?.item.ttl ?? resetContainer?.defaultTtl).toBe(900);
    // Q1 by email: the lookup item, then the account (two point reads).
    const q1 = design("accounts-sessions").result.evaluation.patterns.find((p) => p.id === "Q1");
    expect(q1?.plan.operations.map((s) => s.kind)).toEqual(["pointRead", "pointRead"]);
  });

  it("ecommerce: addresses and order lines embedded, reviews beside their product, orders by customer", () => {
    const { model } = design("ecommerce").result;
    const customer = primary(model, "Customer");
    expect(customer.item.embeds.map((e) => e.entity)).toContain("Address");
    const order = primary(model, "Order");
    expect(order.item.embeds.map((e) => e.entity)).toContain("OrderLine");
    expect(order.paths).toEqual(["/customerId"]);
    // Where the design departs from the README (issue 11): co-location with the parent is a
    // candidate for every pair, and orders in their customer's logical partition save a
    // container's autoscale floor ($578 against $591 a month with separate containers).
    expect(order.container).toBe(customer.container);
    expect(order.item.partitionKey).toEqual(["{customerId}"]);
    const review = primary(model, "Review");
    const product = primary(model, "Product");
    expect(review.container).toBe(product.container);
    expect(product.item.copies.map((c) => `${c.from.entity}.${c.from.attribute}`)).toContain("Category.name");
  });

  it("iot-telemetry: readings binned per device per minute, partitioned by device, expiring after 30 days", () => {
    const { model } = design("iot-telemetry").result;
    const reading = primary(model, "Reading");
    expect(reading.item.bucket).toEqual({ kind: "window", by: "timestamp", windowSeconds: 60 });
    expect(reading.paths).toEqual(["/deviceId"]);
    expect(model.containers.find((c) => c.name === reading.container)?.defaultTtl).toBe(2_592_000);
    // A site's devices (Q5) and its open alerts (Q6) are single-partition queries.
    expect(primary(model, "Device").paths).toEqual(["/siteId"]);
    expect(primary(model, "Alert").paths).toEqual(["/siteId"]);
    const { evaluation } = design("iot-telemetry").result;
    for (const id of ["Q5", "Q6"])
      expect(evaluation.patterns.find((p) => p.id === id)?.plan.kind).toBe("singlePartitionQuery");
  });

  it("multitenant-saas: events not under a key led by the skewed tenant (the README's hierarchical key)", () => {
    const { model, evaluation } = design("multitenant-saas").result;
    const events = primary(model, "SessionEvent");
    // Where the design departs from the README (issue 11): a hierarchical key is placed by its
    // first level, and the biggest tenant (skew 1.1: 17% of the events) keeps its events on a
    // few physical partitions; throughput is split evenly, so [tenantId, userId, sessionId]
    // needs 3 times the RU/s of an even spread ($4,083 a month for the former design against
    // $3,158 keyed by event; both with autoscale average-billed, the lower bound of the range).
    expect(events.paths[0]).not.toBe("/tenantId");
    expect(model.containers.find((c) => c.name === events.container)?.defaultTtl).toBe(2_592_000);
    expect(evaluation.totals.monthlyCostRange.lowUSD).toBeLessThan(4_083);
  });

  it("social-reactions: reactions in their user's partition, one per user and post by id, counts on posts", () => {
    const { model, evaluation, decisions } = design("social-reactions").result;
    // Where the design departs from the README (issue 11: moves combined with their repairs):
    // the reaction lives in its user's partition (Q2, C3, C4 point operations). The README's
    // post-keyed reactions, write-sharded by hash(userId), are priced and lose: 20, 32 or 64
    // shards cost more ($67,408, $69,940, $53,647 a month) than answering Q3 (300 requests/s)
    // across partitions without the copy ($31,566; these figures with autoscale average-billed).
    // The README's copy of User.displayName into posts is priced and, with autoscale compared at
    // 12 peak hours a day, wins for Q4 ($420,016 against $422,067 reading the author at query
    // time; it lost by a hair on the average-billed figures).
    // Since the headroom target (issue 26), the shards are reached on the way (a copy of the
    // reactions keyed by post, sharded 32 ways) and the copy is dropped later: at the end
    // (pruneCopies), or, with the request charges refitted for issue 30, as the cheapest answer
    // of the step that prices its shards.
    const sharded = decisions.flatMap((d) =>
      d.alternatives.filter((a) => /shards picked by hash\(userId\)/.test(a.name)),
    );
    expect(sharded.length).toBeGreaterThan(0);
    for (const alternative of sharded)
      expect(alternative.monthlyCostUSD).toBeGreaterThan(evaluation.totals.monthlyCostUSD);
    expect(decisions.some((d) => d.chosen === "drop the copy reactions/reaction")).toBe(true);
    expect(
      model.containers.some((c) => c.items.some((i) => i.entity === "Reaction" && i.source !== undefined)),
    ).toBe(false);
    const reaction = primary(model, "Reaction");
    expect(reaction.item.id).toMatch(/\{postId\}-\{userId\}$/);
    expect(reaction.item.partitionKey).toEqual(["{userId}"]);
    const post = primary(model, "Post");
    expect(post.item.counts.map((c) => c.of)).toContain("Reaction");
    // Chosen for Q1 or Q4, whichever the search reaches with the copy paying for itself.
    const copy = decisions.find(
      (d) =>
        /^denormalize-Q[14]-copy-User-displayName-into-post-items-as-userDisplayName$/.test(d.id) &&
        d.chosen.startsWith("copy User.displayName into post items"),
    );
    const chosenCopy = copy?.alternatives.find((a) => a.name === copy.chosen);
    expect(chosenCopy?.name).toMatch(/^copy User\.displayName into post items/);
    for (const alternative of copy?.alternatives ?? [])
      expect(chosenCopy?.monthlyCostUSD).toBeLessThanOrEqual(alternative.monthlyCostUSD);
    expect(post.item.copies.map((c) => `${c.from.entity}.${c.from.attribute}`)).toContain("User.displayName");
    expect(evaluation.patterns.find((p) => p.id === "Q2")?.plan.kind).toBe("pointRead");
    expect(evaluation.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(evaluation.totals.monthlyCostRange.lowUSD).toBeLessThan(46_963);
  });
});

describe("baseline", () => {
  it("is one container per entity keyed by its key", () => {
    const workload = readExampleWorkload("blogging");
    const { model, decisions } = designModel(workload, { baseline: true });
    expect(decisions).toEqual([]);
    expect(model.containers.map((c) => c.partitionKey)).toEqual(
      workload.entities.map((e) => [`/${e.key[0] ?? ""}`]),
    );
  });
});

describe("generated workloads", () => {
  it("designs a generated workload (independent chains of related entities) part by part", () => {
    const workload = generateWorkload(8);
    const result = designModel(workload);
    expect(result.model.containers.length).toBeGreaterThan(0);
    expect(result.evaluation.totals.monthlyCostUSD).toBeLessThanOrEqual(result.baseline.monthlyCostUSD);
  });
});
