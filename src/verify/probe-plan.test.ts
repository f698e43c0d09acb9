/**
 * Which probes a model gets (pure): a counter probe per counter whose child the workload creates,
 * a lifecycle probe where it also deletes it, a paging probe per read that starts with a query,
 * the change-feed restart where a counter is kept from the feed; each probe child its own item.
 */
import { describe, expect, it } from "vitest";
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
