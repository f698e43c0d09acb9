/**
 * Moves in the plan: a write that changes an attribute of an item's id or partition key is
 * planned as finding the item, then create + delete for the share of records that move (two
 * requests, no batch), in place for the rest; copies keyed by a changing attribute look for the
 * copy left under the old key; a delete of a source that can move checks the copy first. The
 * charges are the estimator's for each request, times how often it runs.
 */
import { describe, expect, it } from "vitest";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import { loadWriteFixture } from "../test-support/generated-module.js";
import type { PlanStep, WritePlan } from "./types.js";

function writePlan(fixture: string, id: string): WritePlan {
  const plan = loadWriteFixture(fixture).plans.find((p) => p.patternId === id);
  if (plan?.type !== "write") throw new Error(`${fixture} ${id} is not a write`);
  return plan;
}

const brief = (step: PlanStep) => ({
  kind: step.kind,
  ...(step.kind === "write" ? { operation: step.operation } : {}),
  ...(step.role === undefined ? {} : { role: step.role }),
  container: step.container,
  times: step.times,
});

describe("a write that changes a partition key attribute (status.yaml)", () => {
  const plan = writePlan("status", "W1");
  it("finds the ticket through its copy and moves it when the status changes (half the time)", () => {
    // W1 changes only the status: when it keeps its value there is nothing to patch. The ticket
    // has a copy, so under the default `deletes: softDelete` the old ticket becomes a tombstone
    // (a patch) that the latest-version change feed carries to the copy.
    expect(plan.operations.map(brief)).toEqual([
      { kind: "pointRead", container: "tickets-by-ticketid", times: 1 },
      { kind: "pointRead", container: "tickets", times: 1 },
      { kind: "write", operation: "create", container: "tickets", times: 0.5 },
      { kind: "write", operation: "patch", container: "tickets", times: 0.5 },
    ]);
    expect(plan.moves).toEqual([
      expect.objectContaining({
        container: "tickets",
        itemType: "ticket",
        attributes: ["status"],
        share: 0.5,
        helper: expect.objectContaining({ container: "tickets-by-ticketid", derives: false }),
      }),
    ]);
    expect(plan.notes.join(" ")).toContain("two requests in two logical partitions (no transactional batch)");
  });

  it("costs each request with the estimator, never a patch of the key", () => {
    const [helper, current, create, remove] = plan.operations;
    // The ticket copy and the ticket are the same 2 KB item: one point read each.
    expect(helper?.ru).toEqual(current?.ru);
    expect(helper?.ru.estimate).toBeCloseTo(
      estimateRequestCharge({ op: "read", itemBytes: 2100 }).estimate,
      0,
    );
    const total = plan.operations.reduce((sum, step) => sum + step.ru.estimate * step.times, 0);
    expect(total).toBeCloseTo(
      (helper?.ru.estimate ?? 0) +
        (current?.ru.estimate ?? 0) +
        0.5 * ((create?.ru.estimate ?? 0) + (remove?.ru.estimate ?? 0)),
    );
  });

  it("checks the copy before the delete of the old ticket removes it", () => {
    const deletes = plan.async.filter((step) =>
      step.steps.some((s) => s.kind === "write" && s.operation === "delete"),
    );
    expect(deletes.map((step) => step.steps.map(brief))).toEqual([
      [
        { kind: "pointRead", role: "checkCopy", container: "tickets-by-ticketid", times: 0.5 },
        { kind: "write", operation: "delete", container: "tickets-by-ticketid", times: 0.5 },
      ],
    ]);
  });
});

describe("a copy keyed by an attribute writes change (esc.yaml)", () => {
  it("looks for the copy under the old escalatedTo when it changes, and deletes it", () => {
    const plan = writePlan("esc", "W1");
    const copy = plan.async.find((step) => step.container === "complaints-by-escalatedto");
    expect(copy?.steps.map(brief)).toEqual([
      { kind: "write", operation: "upsert", container: "complaints-by-escalatedto", times: 1 },
      {
        kind: "query",
        role: "staleCopies",
        container: "complaints-by-escalatedto",
        times: expect.closeTo(0.01, 6),
      },
      {
        kind: "write",
        operation: "delete",
        container: "complaints-by-escalatedto",
        times: expect.closeTo(0.01, 6),
      },
    ]);
    const byCustomer = plan.async.find((step) => step.container === "complaints-by-customerid");
    expect(byCustomer?.steps.map(brief)).toEqual([
      { kind: "write", operation: "upsert", container: "complaints-by-customerid", times: 1 },
    ]);
  });

  it("searches for an old copy on every create (the latest-version feed cannot tell it from an update)", () => {
    const plan = writePlan("esc", "C1");
    const copy = plan.async.find((step) => step.container === "complaints-by-escalatedto");
    expect(copy?.steps.map(brief)).toEqual([
      { kind: "write", operation: "upsert", container: "complaints-by-escalatedto", times: 1 },
      { kind: "query", role: "staleCopies", container: "complaints-by-escalatedto", times: 1 },
    ]);
  });
});

describe("a child moved to another parent's partition (gen-17.yaml W6)", () => {
  it("finds each order by a query over the container (no item type is keyed by orderId) and moves it", () => {
    const plan = writePlan("gen-17", "W6");
    expect(plan.operations.map(brief)).toEqual([
      { kind: "query", container: "accounts", times: 10 },
      { kind: "write", operation: "create", container: "accounts", times: 10 },
      { kind: "write", operation: "delete", container: "accounts", times: 10 },
    ]);
    const [find] = plan.operations;
    expect(find?.kind === "query" ? [find.scope, find.sql] : []).toEqual([
      "fanOut",
      "SELECT * FROM c WHERE c.type = @type AND c.orderId = @orderId",
    ]);
  });
});

describe("a lookup item keyed by a unique attribute (accounts-sessions C2)", () => {
  it("derives the old lookup from the account (one read), creates the new one first, then deletes", async () => {
    const { loadExampleModel } = await import("../test-support/generated-module.js");
    const plan = loadExampleModel("accounts-sessions").plans.find((p) => p.patternId === "C2");
    if (plan?.type !== "write") throw new Error("C2 is a write");
    const move = plan.moves?.[0];
    expect(move).toMatchObject({ itemType: "emailLookup", helper: { itemType: "account", derives: true } });
    expect(plan.operations.map(brief).slice(0, 3)).toEqual([
      { kind: "pointRead", container: "accounts", times: 1 },
      { kind: "write", operation: "create", container: "accounts", times: expect.any(Number) as number },
      { kind: "write", operation: "delete", container: "accounts", times: expect.any(Number) as number },
    ]);
  });
});
