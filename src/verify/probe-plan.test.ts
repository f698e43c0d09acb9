/**
 * Which probes a model gets (pure): a counter probe per counter whose child the workload creates,
 * a lifecycle probe where it also deletes it, a paging probe per read that starts with a query,
 * the change-feed restart where a counter is kept from the feed; each probe child its own item.
 */
import { describe, expect, it } from "vitest";
import { parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import { loadExampleModel } from "../test-support/generated-module.js";
import { EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS } from "./endpoint.js";
import { CONCURRENT_WRITES, orderProperties, planProbes } from "./probe-plan.js";
import { buildVerificationPlan } from "./verification-plan.js";

function probesOf(name: string) {
  const { workload, model } = loadExampleModel(name);
  const plan = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
    maxItemsPerEntity: 50,
    maxItemsPerContainer: 400,
  });
  return planProbes(plan);
}

const summary = (probes: ReturnType<typeof probesOf>): string[] =>
  probes.map((probe) =>
    probe.kind === "paging"
      ? `paging ${probe.patternId}`
      : `${probe.kind} ${probe.holder.itemType}.${probe.counter.as}`,
  );

describe("planProbes", () => {
  it("blogging: two counters raced with post edits, every query paged, no feed restart (counted in the write's batch)", () => {
    const probes = probesOf("blogging");
    expect(summary(probes)).toEqual([
      "concurrentCounter post.commentCount",
      "concurrentCounter post.likeCount",
      "paging Q3",
      "paging Q4",
      "paging Q5",
      "paging Q6",
    ]);
    const likes = probes.find((p) => p.kind === "concurrentCounter" && p.counter.as === "likeCount");
    expect(likes?.kind === "concurrentCounter" ? likes.parentEdit?.patternId : undefined).toBe("C2");
    expect(likes?.kind === "concurrentCounter" ? likes.children.length : 0).toBe(CONCURRENT_WRITES);
  });

  it("social-reactions: reactions by distinct users (their id is {postId}-{userId}), a lifecycle and the feed restart", () => {
    const probes = probesOf("social-reactions");
    expect(summary(probes)).toEqual([
      "concurrentCounter post.reactionCount",
      "childLifecycle post.reactionCount",
      "paging Q3",
      "feedRestart post.reactionCount",
    ]);
    const [counter] = probes;
    if (counter?.kind !== "concurrentCounter") throw new Error("no counter probe");
    const addresses = counter.children.map(
      (child) => `${String(child.record["postId"])}-${String(child.record["userId"])}`,
    );
    expect(new Set(addresses).size).toBe(counter.children.length);
    expect(new Set(counter.children.map((child) => child.record["postId"]))).toEqual(
      new Set([counter.parent.record["postId"]]),
    );
    // Each probe has a parent of its own.
    const parents = probes.flatMap((p) => (p.kind === "paging" ? [] : [p.parent.record["postId"]]));
    expect(new Set(parents).size).toBe(parents.length);
  });
});

describe("orderProperties", () => {
  it("reads the ORDER BY properties of a query, escaped names included", () => {
    expect(orderProperties("SELECT * FROM c WHERE c.a = @a ORDER BY c.createdAt DESC")).toEqual([
      "createdAt",
    ]);
    expect(orderProperties('SELECT * FROM c ORDER BY c["desc"] ASC, c.b DESC OFFSET 0 LIMIT 5')).toEqual([
      "desc",
      "b",
    ]);
    expect(orderProperties("SELECT * FROM c WHERE c.a = @a")).toEqual([]);
  });
});

describe("a counter holder that copies across a many-to-many relationship (independent seed 61)", () => {
  it("its new probe record comes with its linked records (none yet), as the write function needs", () => {
    const workload = parseWorkload(
      [
        "version: 1",
        "name: alerts",
        "entities:",
        "  Customer: { key: customerId, count: 20, avgBytes: 300, attributes: { customerId: string, name: string } }",
        "  Team: { key: teamId, count: 5, avgBytes: 200, attributes: { teamId: string, archived: boolean } }",
        "  Alert: { key: alertId, count: 100, avgBytes: 200, attributes: { alertId: string, customerId: string } }",
        "relationships:",
        "  - { parent: Customer, child: Alert, via: customerId, avg: 5 }",
        "  - { parent: Customer, child: Team, kind: many-to-many, avg: 2, max: 4 }",
        "accessPatterns:",
        "  - { id: C1, name: add customer, type: write, operation: create, entity: Customer, rps: { avg: 1, peak: 2 } }",
        "  - { id: C2, name: add alert, type: write, operation: create, entity: Alert, rps: { avg: 5, peak: 9 } }",
        "  - { id: Q1, name: customer, type: read, entity: Customer, where: { customerId: eq }, with: [count(Alert), Team.archived], rps: { avg: 9, peak: 20 } }",
      ].join("\n"),
    );
    const model = parseModel(
      [
        "version: 1",
        "containers:",
        "  - name: customers",
        "    partitionKey: [/customerId]",
        "    items:",
        '      - { type: customer, entity: Customer, id: "{customerId}", partitionKey: ["{customerId}"], counts: [{ of: Alert, as: alertCount }], copies: [{ from: Team.archived, as: teamArchiveds }] }',
        '      - { type: alert, entity: Alert, id: "{alertId}", partitionKey: ["{customerId}"] }',
        "  - name: teams",
        "    partitionKey: [/teamId]",
        "    items:",
        '      - { type: team, entity: Team, id: "{teamId}", partitionKey: ["{teamId}"] }',
      ].join("\n"),
      workload,
    );
    const plan = buildVerificationPlan(workload, model, EMBEDDED_CAPABILITIES, EMBEDDED_LIMITATIONS, {
      maxItemsPerEntity: 50,
      maxItemsPerContainer: 400,
    });
    const counter = planProbes(plan).find((p) => p.kind === "concurrentCounter");
    expect(counter?.kind === "concurrentCounter" ? counter.parent.linked : undefined).toEqual({ Team: [] });
  });
});
