import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import {
  datasetCounts,
  generateDataset,
  MAX_DATASET_BYTES_PER_ENTITY,
  type EntityRecord,
} from "./generate-records.js";
import { distributeCounts, mulberry32, zipfSampler } from "./random.js";
import { EXAMPLES_DIR } from "../test-support/model-examples.js";

function example(name: string): Workload {
  const result = loadWorkload(readFileSync(`${EXAMPLES_DIR}${name}/workload.yaml`, "utf8"));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function workloadOf(yaml: string): Workload {
  const result = loadWorkload(yaml);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function childrenPerParent(children: readonly EntityRecord[], via: string): number[] {
  const counts = new Map<unknown, number>();
  for (const child of children) counts.set(child[via], (counts.get(child[via]) ?? 0) + 1);
  return [...counts.values()];
}

const average = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

describe("generateDataset", () => {
  const blogging = example("blogging");

  it("is deterministic: the same seed gives the same data, another seed other data", () => {
    const first = generateDataset(blogging, { seed: 7, maxItemsPerEntity: 300 });
    const again = generateDataset(blogging, { seed: 7, maxItemsPerEntity: 300 });
    const other = generateDataset(blogging, { seed: 8, maxItemsPerEntity: 300 });
    expect(again).toEqual(first);
    expect(JSON.stringify(other.entities)).not.toBe(JSON.stringify(first.entities));
    // Keys do not depend on the seed; the values do.
    expect(other.entities["Post"]?.[0]?.["postId"]).toBe("post-000001");
    expect(other.entities["Post"]?.[0]?.["title"]).not.toBe(first.entities["Post"]?.[0]?.["title"]);
  });

  it("bounds the bytes of an entity's records: large records get fewer of them", () => {
    const yaml = readFileSync(`${EXAMPLES_DIR}blogging/workload.yaml`, "utf8").replace(
      "content: { type: string, avgBytes: 2600 }",
      "content: { type: string, avgBytes: 1900000 }",
    );
    const large = workloadOf(yaml);
    const counts = datasetCounts(large, { seed: 1 });
    expect(counts["Post"]).toBe(Math.floor(MAX_DATASET_BYTES_PER_ENTITY / 1_900_000));
    expect(counts["User"]).toBe(2000);
    const posts = generateDataset(large, { seed: 1 }).entities["Post"] ?? [];
    const bytes = posts.reduce((sum, post) => sum + JSON.stringify(post).length, 0);
    expect(bytes).toBeLessThan(MAX_DATASET_BYTES_PER_ENTITY * 1.25);
  });

  it("caps every entity and keeps the children-per-parent averages and maxima", () => {
    const dataset = generateDataset(blogging, { seed: 1 });
    expect(datasetCounts(blogging, { seed: 1 })).toEqual({
      User: 2000,
      Post: 2000,
      Comment: 2000,
      Like: 2000,
    });
    const cases = [
      { child: "Post", via: "userId", avg: 27.5, max: 50 },
      { child: "Comment", via: "postId", avg: 12.5, max: 25 },
      { child: "Like", via: "postId", avg: 50, max: 100 },
    ];
    for (const { child, via, avg, max } of cases) {
      const perParent = childrenPerParent(dataset.entities[child] ?? [], via);
      expect(Math.max(...perParent), `${child} per parent`).toBeLessThanOrEqual(max);
      expect(Math.abs(average(perParent) - avg) / avg, `${child} average`).toBeLessThan(0.1);
    }
  });

  it("points every child at an existing parent", () => {
    const dataset = generateDataset(blogging, { seed: 3, maxItemsPerEntity: 500 });
    const postIds = new Set(dataset.entities["Post"]?.map((post) => post["postId"]));
    const userIds = new Set(dataset.entities["User"]?.map((user) => user["userId"]));
    for (const comment of dataset.entities["Comment"] ?? []) {
      expect(postIds.has(comment["postId"])).toBe(true);
      expect(userIds.has(comment["userId"])).toBe(true);
    }
  });

  it("skews children per parent by the via attribute's Zipf exponent and never exceeds max", () => {
    const workload = workloadOf(`
version: 1
name: skewed
entities:
  Post: { key: postId, count: 1000, avgBytes: 200, attributes: { postId: string } }
  Reaction:
    key: reactionId
    count: 20000
    avgBytes: 100
    attributes: { reactionId: string, postId: { type: string, skew: 1.5 } }
  Vote:
    key: voteId
    count: 20000
    avgBytes: 100
    attributes: { voteId: string, postId: { type: string, skew: 2 } }
relationships:
  - { parent: Post, child: Reaction, via: postId, avg: 20 }
  - { parent: Post, child: Vote, via: postId, avg: 20, max: 30 }
accessPatterns:
  - { id: Q1, name: q, type: read, entity: Reaction, where: { postId: eq }, rps: { avg: 1, peak: 1 }, standalone: true }
`);
    const dataset = generateDataset(workload, { seed: 5 });
    const reactions = childrenPerParent(dataset.entities["Reaction"] ?? [], "postId");
    // 100 active posts; with exponent 1.5 the first holds 1/H(100,1.5) of 2,000, about 840.
    expect(Math.max(...reactions)).toBeGreaterThan(600);
    const votes = childrenPerParent(dataset.entities["Vote"] ?? [], "postId");
    expect(Math.max(...votes)).toBeLessThanOrEqual(30);
    expect(votes.reduce((sum, value) => sum + value, 0)).toBe(2000);
  });

  it("gives the children of one parent distinct second parents (one reaction per user and post)", () => {
    const social = example("social-reactions");
    const started = performance.now();
    const dataset = generateDataset(social, { seed: 6 });
    expect(performance.now() - started).toBeLessThan(5000);
    const reactions = dataset.entities["Reaction"] ?? [];
    const pairs = new Set(
      reactions.map((reaction) => `${String(reaction["postId"])}|${String(reaction["userId"])}`),
    );
    expect(reactions.length).toBe(2000);
    expect(pairs.size).toBe(reactions.length);
    // The Zipf skew of postId (1.5) still gives one post hundreds of reactions.
    expect(Math.max(...childrenPerParent(reactions, "postId"))).toBeGreaterThan(500);
  });

  it("keeps unique attributes unique and low-cardinality attributes within distinct", () => {
    const accounts = example("accounts-sessions");
    const dataset = generateDataset(accounts, { seed: 11 });
    const emails = (dataset.entities["Account"] ?? []).map((account) => account["email"]);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails[0]).toMatch(/^[a-z]+\.[a-z]+\d+@example\.com$/);
    const statuses = new Set((dataset.entities["Account"] ?? []).map((account) => account["status"]));
    expect(statuses.size).toBeLessThanOrEqual(3);
    expect(statuses.size).toBeGreaterThan(1);
  });

  it("copies ancestor keys from the parent so denormalized keys agree", () => {
    const saas = example("multitenant-saas");
    const dataset = generateDataset(saas, { seed: 2, maxItemsPerEntity: 400 });
    const userTenant = new Map(
      (dataset.entities["User"] ?? []).map((user) => [user["userId"], user["tenantId"]]),
    );
    const sessions = dataset.entities["Session"] ?? [];
    expect(sessions.length).toBe(400);
    for (const session of sessions) expect(session["tenantId"]).toBe(userTenant.get(session["userId"]));
    const sessionOwner = new Map(sessions.map((session) => [session["sessionId"], session]));
    for (const event of dataset.entities["SessionEvent"] ?? []) {
      const session = sessionOwner.get(event["sessionId"]);
      expect([event["tenantId"], event["userId"]]).toEqual([session?.["tenantId"], session?.["userId"]]);
    }
  });

  it("types values by attribute type and sizes records near the entity's avgBytes", () => {
    const dataset = generateDataset(blogging, { seed: 4, maxItemsPerEntity: 400 });
    const comments = dataset.entities["Comment"] ?? [];
    const bytes = average(comments.map((comment) => JSON.stringify(comment).length));
    expect(Math.abs(bytes - 400) / 400).toBeLessThan(0.1);
    const dates = comments.map((comment) => comment["creationDate"] as string);
    expect(dates.every((date) => !Number.isNaN(Date.parse(date)) && date.endsWith("Z"))).toBe(true);
    // Datetimes increase with the record's rank.
    expect([...dates].sort()).toEqual(dates);
    const posts = dataset.entities["Post"] ?? [];
    const content = average(posts.map((post) => JSON.stringify(post["content"]).length));
    expect(Math.abs(content - 2600) / 2600).toBeLessThan(0.1);
  });

  it("fills the entity's size with free attributes, never with the ones that locate records (unique, a parent's, filtered by eq)", () => {
    // Names that say nothing: only the structure tells which attributes a model may key on.
    const workload = workloadOf(`
version: 1
name: stretch
entities:
  P: { key: pk, count: 10, avgBytes: 200, attributes: { pk: string } }
  E:
    key: k
    count: 50
    avgBytes: 6000
    attributes: { k: string, u: { type: string, unique: true }, p: string, f: string, free: string }
relationships:
  - { parent: P, child: E, via: p, avg: 5 }
accessPatterns:
  - { id: Q1, name: by f, type: read, entity: E, where: { f: eq }, rps: { avg: 1, peak: 1 } }
  - { id: C1, name: add, type: write, operation: create, entity: E, rps: { avg: 1, peak: 1 } }
`);
    const records = generateDataset(workload, { seed: 3 }).entities["E"] ?? [];
    const longest = (name: string): number => Math.max(...records.map((r) => JSON.stringify(r[name]).length));
    for (const name of ["u", "p", "f"]) expect(longest(name), name).toBeLessThan(64);
    expect(average(records.map((r) => JSON.stringify(r["free"]).length))).toBeGreaterThan(4000);
  });

  it("respects the parents' capacity when the children outnumber it", () => {
    const workload = workloadOf(`
version: 1
name: capacity
entities:
  Order: { key: orderId, count: 10, avgBytes: 200, attributes: { orderId: string } }
  Line: { key: lineId, count: 5000, avgBytes: 100, attributes: { lineId: string, orderId: string } }
relationships:
  - { parent: Order, child: Line, via: orderId, avg: 3, max: 50 }
accessPatterns:
  - { id: Q1, name: q, type: read, entity: Line, where: { orderId: eq }, rps: { avg: 1, peak: 1 }, standalone: true }
`);
    expect(datasetCounts(workload, { seed: 1 })).toEqual({ Order: 10, Line: 500 });
    const lines = generateDataset(workload, { seed: 1 }).entities["Line"] ?? [];
    expect(Math.max(...childrenPerParent(lines, "orderId"))).toBe(50);
  });
});

describe("random helpers", () => {
  it("distributeCounts splits exactly, proportionally, within the cap", () => {
    expect(distributeCounts(10, [1, 1, 2], 4)).toEqual([3, 3, 4]);
    expect(distributeCounts(7, [1, 1, 1, 1])).toEqual([2, 2, 2, 1]);
    // The first share is capped at 30; the other 70 split evenly, the remainder going first.
    expect(distributeCounts(100, [100, 1, 1, 1], 30)).toEqual([30, 24, 23, 23]);
    expect(() => distributeCounts(10, [1, 1], 4)).toThrow(RangeError);
  });

  it("mulberry32 is uniform enough and repeatable", () => {
    const rng = mulberry32(123);
    const values = Array.from({ length: 10_000 }, () => rng());
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(Math.abs(average(values) - 0.5)).toBeLessThan(0.02);
    const again = mulberry32(123);
    expect(again()).toBe(values[0]);
  });

  it("zipfSampler follows the rank weights", () => {
    const rng = mulberry32(9);
    const sample = zipfSampler(10, 1);
    const counts = Array.from({ length: 10 }, () => 0);
    for (let draw = 0; draw < 20_000; draw++) {
      const rank = sample(rng);
      counts[rank] = (counts[rank] ?? 0) + 1;
    }
    // P(rank 0) = 1 / H(10) = 0.341; P(rank 1) = 0.171.
    expect((counts[0] ?? 0) / 20_000).toBeCloseTo(0.341, 1);
    expect((counts[1] ?? 0) / 20_000).toBeCloseTo(0.171, 1);
  });
});
