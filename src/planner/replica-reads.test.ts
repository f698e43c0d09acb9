/**
 * Reads of a replicated item type (`replicas: N`) name one replica, or they would answer each
 * record N times: a query that does not know every partition key level holding `{replica}` (a
 * fan-out, a key prefix above it) is not served there, and the planner reads elsewhere
 * (independent seeds 61 and 92: `accountId in [...]` over account replicas keyed
 * `{accountId}-{replica}` returned 4 of each; counts over replicas count each child N times).
 */
import { describe, expect, it } from "vitest";
import { parseModel, parseWorkload } from "../test-support/evaluate-fixtures.js";
import { planModel } from "./plan-model.js";
import { readsEveryReplica } from "./routing.js";
import type { ReadPlan } from "./types.js";

const workload = parseWorkload(`
version: 1
name: accounts and payments
entities:
  Account:
    key: accountId
    count: 100
    avgBytes: 400
    attributes: { accountId: string, createdAt: datetime }
  Payment:
    key: paymentId
    count: 1000
    avgBytes: 300
    attributes: { paymentId: string, accountId: string, amount: number }
relationships:
  - { parent: Account, child: Payment, via: accountId, avg: 10 }
accessPatterns:
  - { id: C1, name: open account, type: write, operation: create, entity: Account, rps: { avg: 1, peak: 2 } }
  - { id: C2, name: pay, type: write, operation: create, entity: Payment, rps: { avg: 5, peak: 10 } }
  - id: Q1
    name: accounts by key, newest first
    type: read
    entity: Account
    where: { accountId: in }
    orderBy: { createdAt: desc }
    rps: { avg: 50, peak: 100 }
  - id: Q2
    name: an account with its payment count
    type: read
    entity: Account
    where: { accountId: eq }
    with: ["count(Payment)"]
    rps: { avg: 50, peak: 100 }
`);

const replicated = (name: string, entity: string, key: string) => `
  - name: ${name}
    partitionKey: [/${key}Replica]
    items:
      - type: ${entity.toLowerCase()}
        entity: ${entity}
        id: "{${entity.toLowerCase()}Id}"
        partitionKey: ["{${key}}-{replica}"]
        source: ${entity.toLowerCase()}s/${entity.toLowerCase()}
        replicas: 4`;
const own = (name: string, entity: string, key: string) => `
  - name: ${name}
    partitionKey: [/${key}]
    items:
      - { type: ${entity.toLowerCase()}, entity: ${entity}, id: "{${entity.toLowerCase()}Id}", partitionKey: ["{${key}}"] }`;

function read(modelText: string, id: string): ReadPlan {
  const plan = planModel(workload, parseModel(modelText, workload)).find((p) => p.patternId === id);
  if (plan?.type !== "read") throw new Error(`${id} is not a read`);
  return plan;
}

describe("reads of replicated item types", () => {
  it("a fan-out over the replicas is not where a list of keys is read", () => {
    const plan = read(
      `version: 1\ncontainers:${replicated("account-replicas", "Account", "accountId")}${own("accounts", "Account", "accountId")}${own("payments", "Payment", "accountId")}`,
      "Q1",
    );
    expect(plan.container).toBe("accounts");
    expect(plan.served).toBe(true);
  });

  it("a fan-out over the accounts' own items (each once) is preferred to one over their replicas", () => {
    const accounts = `
  - name: accounts
    partitionKey: [/createdAtKey]
    items:
      - { type: account, entity: Account, id: "{accountId}", partitionKey: ["{createdAt}"] }`;
    const plan = read(
      `version: 1\ncontainers:${accounts}${replicated("account-replicas", "Account", "accountId")}${own("payments", "Payment", "accountId")}`,
      "Q1",
    );
    expect(plan).toMatchObject({ container: "accounts", kind: "fanOut", served: true });
  });

  it("counts children from a placement that names one replica, never across all of them", () => {
    const plan = read(
      `version: 1\ncontainers:${own("accounts", "Account", "accountId")}${replicated("payment-replicas", "Payment", "paymentId")}${own("payments", "Payment", "paymentId")}`,
      "Q2",
    );
    const count = plan.operations.find(
      (step) => step.kind === "query" && step.withEntry === "count(Payment)",
    );
    expect(count?.container).toBe("payments");
  });

  it("knows which routings read every replica", () => {
    const item = {
      type: "account",
      entity: "Account",
      id: "{accountId}",
      partitionKey: ["{accountId}-{replica}"],
      replicas: 4,
    } as const;
    const routing = { knownLevels: 1, idKnown: true, shardCount: 1 } as const;
    expect(readsEveryReplica(item as never, { ...routing, scope: "single" })).toBe(false);
    expect(readsEveryReplica(item as never, { ...routing, scope: "fanOut", knownLevels: 0 })).toBe(true);
    expect(readsEveryReplica({ ...item, replicas: 1 } as never, { ...routing, scope: "fanOut" })).toBe(false);
    // Replicas told apart by their id alone share a logical partition: every query reads them all.
    expect(
      readsEveryReplica({ ...item, id: "{accountId}-{replica}", partitionKey: ["{accountId}"] } as never, {
        ...routing,
        scope: "single",
      }),
    ).toBe(true);
  });
});
