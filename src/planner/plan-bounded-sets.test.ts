/**
 * Refills of a bounded set (test/fixtures/writes/newest: the newest 3 of 8 tickets per status, 2
 * replicas, kept from tickets partitioned by ticketId on 4 physical partitions): a delete of a
 * member, a re-date of `openedAt` and a change of `status` (the set's key) plan the query that
 * reads the newest 3 of the status from the tickets, the members of the set, and the write of the
 * member that takes the leaving one's place in each replica, for the share of writes that take a
 * member out (3 kept of 8, times the share that changes the attribute).
 */
import { describe, expect, it } from "vitest";
import { loadWriteFixture } from "../test-support/generated-module.js";
import { createPlanningContext } from "./context.js";
import { deriveIndexingPolicy } from "./indexing.js";
import type { ChangeFeedStep, PlanStep, QueryStep, WritePlan } from "./types.js";

const loaded = loadWriteFixture("newest");

function trimOf(id: string): ChangeFeedStep {
  const plan = loaded.plans.find((p): p is WritePlan => p.patternId === id && p.type === "write");
  const trim = plan?.async.find((step) => step.reason === "trim");
  if (trim === undefined) throw new Error(`${id} keeps no bounded set`);
  return trim;
}

const refillsOf = (trim: ChangeFeedStep): QueryStep[] =>
  trim.steps.filter((step): step is QueryStep => step.kind === "query" && step.role === "boundedSetRefill");

/** The steps after the refill query (members, write of the next newest...). */
const afterRefill = (trim: ChangeFeedStep): PlanStep[] => {
  const at = trim.steps.findIndex((step) => step.kind === "query" && step.role === "boundedSetRefill");
  return trim.steps.slice(at + 1);
};

describe("refills of the newest 3 tickets per status (3 kept of 8)", () => {
  it("a delete reads the newest 3 of the status from the tickets for the 3 in 8 deletes that hit a member", () => {
    const [refill, ...others] = refillsOf(trimOf("D1"));
    expect(others).toEqual([]);
    expect(refill).toMatchObject({
      container: "tickets",
      itemType: "ticket",
      scope: "fanOut",
      partitions: 4,
      returned: 3,
      orderServedByIndex: true,
    });
    expect(refill?.times).toBeCloseTo(3 / 8, 10);
    expect(refill?.sql).toMatch(/^SELECT TOP @limit \* FROM c WHERE c\.type = @type AND c\.status = @status/);
    expect(refill?.sql).toContain("ORDER BY c.openedAt DESC");
    // Soft-deleted tickets (the delete's own tombstone) are no candidates.
    expect(refill?.sql).toContain("NOT IS_DEFINED");
    expect(refill?.parameters).toContainEqual({
      name: "@status",
      source: { kind: "fromResult", attribute: "status" },
    });
    // Then the members of the set (one replica) and the next newest written into both replicas.
    const [members, upsert] = afterRefill(trimOf("D1"));
    expect(members).toMatchObject({ kind: "query", role: "boundedSet", container: "tickets-newest" });
    expect(members?.times).toBeCloseTo(3 / 8, 10);
    expect(upsert).toMatchObject({ kind: "write", operation: "upsert", container: "tickets-newest" });
    expect(upsert?.times).toBeCloseTo((2 * 3) / 8, 10);
  });

  it("a re-date refills for the share that changes openedAt (rare: 1%) of the members", () => {
    const [refill] = refillsOf(trimOf("W1"));
    expect(refill?.times).toBeCloseTo((0.01 * 3) / 8, 10);
    // The member made older leaves when a ticket outside the set is newer: deleted in each replica.
    expect(
      afterRefill(trimOf("W1")).map((step) => (step.kind === "write" ? step.operation : step.kind)),
    ).toEqual(["query", "upsert", "delete"]);
  });

  it("a status change refills the set the member left, for the share that changes status", () => {
    const [refill] = refillsOf(trimOf("W2"));
    expect(refill?.times).toBeCloseTo((0.01 * 3) / 8, 10);
  });

  it("a create takes nothing out of a set: no refill", () => {
    expect(refillsOf(trimOf("C1"))).toEqual([]);
  });

  it("the tickets' derived policy indexes the set's order attribute and key for the refill", () => {
    const context = createPlanningContext(loaded.workload, loaded.model);
    const tickets = loaded.model.containers.find((container) => container.name === "tickets");
    if (tickets === undefined) throw new Error("no tickets container");
    expect(deriveIndexingPolicy(context, tickets).included).toEqual(
      expect.arrayContaining(["/openedAt/?", "/status/?"]),
    );
  });
});
