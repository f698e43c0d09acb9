/**
 * The workloads of issue 11 on which `design` crashed or left a hard limit broken, kept as
 * regression tests. Each is designed, written as model.yaml, loaded back and evaluated.
 */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { formatIssue, formatPath } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import { readExample } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel, type DesignResult } from "./design-model.js";

function workloadOf(document: Record<string, unknown> | string): Workload {
  const loaded = loadWorkload(typeof document === "string" ? document : stringify(document));
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  return loaded.value;
}

/** Designs, writes model.yaml, loads it back against the workload and evaluates it again. */
function designAndReload(workload: Workload): DesignResult {
  const result = designModel(workload);
  const loaded = loadModel(serializeModel(result.model), { file: "model.yaml", workload });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const again = evaluateModel(workload, loaded.value);
  expect(again.totals.monthlyCostUSD).toBeCloseTo(result.evaluation.totals.monthlyCostUSD, 6);
  return result;
}

const errorsOf = (result: DesignResult) =>
  result.evaluation.issues
    .filter((issue) => issue.severity === "error")
    .map((i) => `${i.code} ${formatPath(i.path)}`);

/** Customer -> Order (owned); orders read by their id and by restaurant. */
function customerOrders(avg: number, peak: number): Workload {
  return workloadOf({
    version: 1,
    name: "customer orders",
    entities: {
      Customer: { key: "customerId", count: 100_000, avgBytes: 1000, attributes: { customerId: "string" } },
      Order: {
        key: "orderId",
        count: 1_000_000,
        avgBytes: 1000,
        attributes: { orderId: "string", customerId: "string", restaurantId: "string" },
      },
    },
    relationships: [{ parent: "Customer", child: "Order", via: "customerId", avg: 10, owned: true }],
    accessPatterns: [
      {
        id: "Q1",
        name: "order by id",
        type: "read",
        entity: "Order",
        where: { orderId: "eq" },
        rps: { avg, peak },
      },
      {
        id: "Q2",
        name: "orders of a restaurant",
        type: "read",
        entity: "Order",
        where: { restaurantId: "eq" },
        rps: { avg, peak },
      },
    ],
  });
}

describe("design on the workloads of issue 11", () => {
  it.each([
    [300, 1000],
    [1000, 3000],
  ])(
    "Customer/Order at %d / %d requests/s: a model that loads and evaluates, without errors",
    (avg, peak) => {
      const result = designAndReload(customerOrders(avg, peak));
      expect(errorsOf(result)).toEqual([]);
    },
  );

  it("accounts-sessions with Q2 asking for all(Session) and latest(Session, 3)", () => {
    const text = readExample("accounts-sessions/workload.yaml").replace(
      "    where: { accountId: eq }\n    rps: { avg: 3000, peak: 10000 }",
      '    where: { accountId: eq }\n    with: [all(Session), "latest(Session, 3)"]\n    rps: { avg: 3000, peak: 10000 }',
    );
    const workload = workloadOf(text);
    const q2 = workload.accessPatterns.find((p) => p.id === "Q2");
    expect(q2?.type === "read" ? q2.with.length : 0).toBe(2);
    const result = designAndReload(workload);
    expect(errorsOf(result)).toEqual([]);
  });
});
