/**
 * `atomicWith` pairs against hand-written models: together only when the pair's items share a
 * logical partition of one container (or the child is embedded); otherwise the evaluation warns
 * with the typed reason.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatIssue, formatPath } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { atomicPairs, colocation } from "./atomic-writes.js";
import { evaluateModel } from "./evaluate.js";

const subs = readFileSync(
  fileURLToPath(new URL("../design/__fixtures__/issue-11/subs.yaml", import.meta.url)),
  "utf8",
).replace(
  "      entity: Receipt,\n      rps:",
  "      entity: Receipt,\n      atomicWith: [W2],\n      rps:",
);

function workload(): Workload {
  const loaded = loadWorkload(subs);
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

function model(workload: Workload, text: string): Model {
  const loaded = loadModel(text, { file: "model.yaml", workload });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

const subscription = `{ type: subscription, entity: Subscription, id: "{subscriptionId}", partitionKey: ["{subscriptionId}"] }`;

const MODELS = {
  together: `version: 1
containers:
  - name: subscriptions
    partitionKey: [/pk]
    items:
      - ${subscription}
      - { type: receipt, entity: Receipt, id: "{receiptId}", partitionKey: ["{subscriptionId}"] }
`,
  differentKeys: `version: 1
containers:
  - name: subscriptions
    partitionKey: [/pk]
    items:
      - ${subscription}
      - { type: receipt, entity: Receipt, id: "{receiptId}", partitionKey: ["{receiptId}"] }
`,
  differentContainers: `version: 1
containers:
  - name: subscriptions
    partitionKey: [/subscriptionId]
    items: [${subscription}]
  - name: receipts
    partitionKey: [/subscriptionId]
    items:
      - { type: receipt, entity: Receipt, id: "{receiptId}", partitionKey: ["{subscriptionId}"] }
`,
  sharded: `version: 1
containers:
  - name: subscriptions
    partitionKey: [/pk]
    items:
      - ${subscription}
      - { type: receipt, entity: Receipt, id: "{receiptId}", partitionKey: ["{subscriptionId}-{shard}"], shards: 4, shardBy: receiptId }
`,
} as const;

describe("atomicWith pairs", () => {
  it("lists each pair once, with the entities its writes change", () => {
    expect(atomicPairs(workload())).toEqual([
      { pattern: "W3", partner: "W2", entity: "Receipt", partnerEntity: "Subscription" },
    ]);
  });

  it.each([
    ["together", undefined],
    ["differentKeys", "differentKeys"],
    ["differentContainers", "differentContainers"],
    ["sharded", "differentKeys"],
  ] as const)("%s: the evaluation warns only when the items are apart, with the reason", (name, reason) => {
    const w = workload();
    const m = model(w, MODELS[name]);
    const where = colocation(w, m, "Receipt", "Subscription");
    expect(where.together).toBe(reason === undefined);
    const findings = evaluateModel(w, m).issues.filter((i) => i.code === "evaluate.notAtomic");
    if (reason === undefined) {
      expect(findings).toEqual([]);
      return;
    }
    expect(findings).toHaveLength(1);
    const finding = findings[0];
    expect(finding?.code === "evaluate.notAtomic" ? finding.reason : undefined).toBe(reason);
    expect(finding?.severity).toBe("error");
    expect(formatPath(finding?.path ?? [])).toBe("accessPatterns[2].atomicWith");
    expect(finding?.message).toMatch(/W3 and W2 must commit together/);
  });

  it("an entity with no item type of its own is not stored apart from nothing", () => {
    const w = workload();
    const m = model(w, MODELS.differentContainers);
    const withoutReceipts: Model = { ...m, containers: m.containers.filter((c) => c.name !== "receipts") };
    expect(colocation(w, withoutReceipts, "Receipt", "Subscription")).toMatchObject({
      together: false,
      reason: "notStored",
    });
  });
});
