/**
 * A patch that re-parents an order (test/fixtures/writes/reparent: it changes ownerId, which holds the key its
 * copy of Account.region is addressed by) reads the new account for the copy, set in the same
 * patch; a create reads its account for the copy too (`withCopies` in the generated code), once
 * per record, and the plan charges it.
 */
import { describe, expect, it } from "vitest";
import { loadWriteFixture } from "../test-support/generated-module.js";
import type { WritePlan } from "./types.js";

const loaded = loadWriteFixture("reparent");

function writePlan(id: string): WritePlan {
  const plan = loaded.plans.find((p) => p.patternId === id);
  if (plan?.type !== "write") throw new Error(`${id} is not a write`);
  return plan;
}

describe("copies of a re-parented child", () => {
  it("a patch of ownerId (the via of the account) reads the new account once per request, before the patch", () => {
    const [read, patch] = writePlan("W3").operations;
    expect(read).toMatchObject({
      kind: "pointRead",
      container: "accounts",
      itemType: "account",
      id: "{accountId}",
      partitionKey: ["{accountId}"],
      times: 1,
    });
    expect(read?.note).toMatch(/^read the new Account of a re-parented order/);
    expect(patch).toMatchObject({ kind: "write", operation: "patch", container: "orders" });
    // The read is part of the pattern's charge.
    const plan = writePlan("W3");
    const total = plan.operations.reduce((sum, step) => sum + step.ru.estimate * step.times, 0);
    expect(total).toBeGreaterThan((patch?.ru.estimate ?? 0) + 0.9);
  });

  it("a create reads the account it copies from, once per record", () => {
    const reads = writePlan("C2").operations.filter((step) => step.kind === "pointRead");
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ container: "accounts", itemType: "account", times: 1 });
    expect(reads[0]?.note).toMatch(/^read the Account of each written order/);
  });
});
