/**
 * The design-question warnings of `check` (the same the interview gives at the moment of the
 * answer): a read that selects nothing, a stated growth the create rate contradicts, a filter on
 * an attribute no write sets.
 */
import { describe, expect, it } from "vitest";
import { formatPath } from "../common/issues.js";
import { loadWorkload } from "./load-workload.js";

const base = (extra: { entity?: string; patterns?: string }) =>
  [
    "version: 1",
    "name: Shop",
    "entities:",
    "  Order:",
    "    key: orderId",
    "    count: 1000000",
    "    avgBytes: 1000",
    extra.entity ?? "",
    "    attributes: { orderId: string, customerId: string, status: string, note: string }",
    "accessPatterns:",
    "  - { id: Q1, name: By customer, type: read, entity: Order, where: { customerId: eq }, rps: { avg: 10, peak: 20 } }",
    "  - { id: C1, name: Place, type: write, entity: Order, operation: create, rps: { avg: 600, peak: 900 } }",
    extra.patterns ?? "",
  ]
    .filter((line) => line !== "")
    .join("\n");

function warnings(text: string): [string, string, string][] {
  const loaded = loadWorkload(text, { file: "workload.yaml" });
  expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
  return loaded.issues
    .filter((i) => i.severity === "warning")
    .map((i) => [i.code, formatPath(i.path), i.message]);
}

describe("design-question warnings", () => {
  it("none for a workload that states no growth, filters selectively and writes what it filters", () => {
    expect(warnings(base({}))).toEqual([]);
  });

  it("a read without a filter, a limit or a result size reads every record", () => {
    const found = warnings(
      base({ patterns: "  - { id: Q2, name: All, type: read, entity: Order, rps: { avg: 1, peak: 2 } }" }),
    );
    expect(found).toEqual([
      [
        "workload.unselectiveRead",
        "accessPatterns[2].where",
        "Q2 has no filter: each request reads all 1,000,000 Order records (more as they grow), 1 requests/s on average, across every partition",
      ],
    ]);
    // a limit (a global feed) or a stated result size is selective enough
    expect(
      warnings(
        base({
          patterns:
            "  - { id: Q2, name: Feed, type: read, entity: Order, limit: 20, rps: { avg: 1, peak: 2 } }",
        }),
      ),
    ).toEqual([]);
  });

  it("a stated growth far from what the create patterns make", () => {
    const found = warnings(base({ entity: "    growthPerMonth: 50000000" }));
    expect(found).toEqual([
      [
        "workload.growthMismatch",
        "entities.Order.growthPerMonth",
        "Order grows by 50,000,000 records a month, but its create patterns make 1,576,800,000 a month (C1 600/s on average, x 2,628,000 s in a 730-hour month): less than 1/2 to 2x of it",
      ],
    ]);
    // within a factor of 2 it is consistent
    expect(warnings(base({ entity: "    growthPerMonth: 1000000000" }))).toEqual([]);
  });

  it("a filter on an attribute that only patches write, none of them this one", () => {
    const text = [
      "version: 1",
      "name: Fleet",
      "entities:",
      "  Courier: { key: courierId, count: 1000, avgBytes: 500, attributes: { courierId: string, city: string, status: string } }",
      "accessPatterns:",
      "  - { id: Q1, name: By city, type: read, entity: Courier, where: { city: eq }, rps: { avg: 1, peak: 2 } }",
      "  - { id: C1, name: Status, type: write, entity: Courier, operation: patch, changes: [status], rps: { avg: 1, peak: 2 } }",
    ].join("\n");
    const found = warnings(text).filter(([code]) => code === "workload.filterNeverWritten");
    expect(found).toEqual([
      [
        "workload.filterNeverWritten",
        "accessPatterns[0].where.city",
        "Q1 filters on Courier.city, but no write of Courier sets it: C1 is a patch that does not change it and nothing creates the records",
      ],
    ]);
  });
});
