/**
 * Binning as written: a binned create is costed as what the generated code does, a patch
 * appending each record to its bucket (or a patch per 10 buffered records when the writer
 * buffers), plus once per bucket the append that finds no bucket and the bucket's create.
 */
import { describe, expect, it } from "vitest";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import { loadModel } from "../model/load-model.js";
import { readWriteFixture } from "../test-support/model-examples.js";
import { loadWorkload } from "../workload/load-workload.js";
import { planModel } from "./plan-model.js";
import type { WritePlan } from "./types.js";

function pingPlan(buffered?: number): WritePlan {
  const text = readWriteFixture("gps");
  const workloadText =
    buffered === undefined
      ? text.workload
      : text.workload.replace(
          "operation: create, entity: Ping,",
          `operation: create, entity: Ping, bufferedRecords: ${buffered},`,
        );
  const workload = loadWorkload(workloadText);
  if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
  const model = loadModel(text.model, { workload: workload.value });
  if (!model.ok) throw new Error(JSON.stringify(model.issues));
  const plan = planModel(workload.value, model.value).find((p) => p.patternId === "C1");
  if (plan?.type !== "write") throw new Error("C1 is a write");
  return plan;
}

// 2,000 pings/s over 10,000 vehicles in 5-minute windows: 60 records per bucket.
const RECORDS = (2000 * 300) / 10_000;

describe("binned writes (gps.yaml: pings in 5-minute buckets per vehicle)", () => {
  it("without buffering: one patch per record, and per bucket a 404 and a create", () => {
    const plan = pingPlan();
    expect(plan.operations.map((s) => [s.kind, s.kind === "write" ? s.operation : "", s.times])).toEqual([
      ["write", "patch", (RECORDS - 1) / RECORDS],
      ["pointRead", "", 1 / RECORDS],
      ["write", "create", 1 / RECORDS],
    ]);
    const [append] = plan.operations;
    // A patch of a bucket about half full is charged like an update of that item: well over a create / 60.
    expect(append?.ru.estimate).toBeGreaterThan(10);
    const total = plan.operations.reduce((sum, s) => sum + s.ru.estimate * s.times, 0);
    expect(total).toBeGreaterThan((50 * (plan.operations[2]?.ru.estimate ?? 0)) / RECORDS);
  });

  it("with bufferedRecords: 12, one append of 12 records per 12 pings, in patches of 10", () => {
    const plan = pingPlan(12);
    const [append, missing, create] = plan.operations;
    // 5 appends per bucket: the first creates it, the other 4 patch it (2 patches each).
    expect(append?.times).toBeCloseTo((1 / RECORDS) * 4 * 2);
    expect(missing?.times).toBeCloseTo(1 / RECORDS);
    expect(create?.times).toBeCloseTo(1 / RECORDS);
    expect(append?.note).toBe(
      "append 12 buffered records to the pingBucket item (2 patches of up to 10 records), a bucket of ~60 records",
    );
    const unbuffered = pingPlan().operations.reduce((sum, s) => sum + s.ru.estimate * s.times, 0);
    const buffered = plan.operations.reduce((sum, s) => sum + s.ru.estimate * s.times, 0);
    expect(buffered).toBeLessThan(unbuffered / 3);
    expect(missing?.ru).toEqual(estimateRequestCharge({ op: "read", itemBytes: 1 }));
  });

  it("a writer buffering a whole bucket creates each bucket with one request", () => {
    const plan = pingPlan(60);
    expect(plan.operations.map((s) => [s.kind === "write" ? s.operation : s.kind, s.times])).toEqual([
      ["create", 1 / 60],
    ]);
  });
});

describe("binned reads (gps.yaml)", () => {
  it("a read of pings by pingId tests the records of each bucket, whose items hold only vehicleId and the window start", () => {
    const text = readWriteFixture("gps");
    const workload = loadWorkload(
      text.workload.replace(
        "accessPatterns:\n",
        "accessPatterns:\n  - { id: Q9, name: ping by id, type: read, entity: Ping, where: { pingId: eq }, rps: { avg: 1, peak: 2 } }\n",
      ),
    );
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const model = loadModel(text.model, { workload: workload.value });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const plan = planModel(workload.value, model.value).find((p) => p.patternId === "Q9");
    const [query] = plan?.operations ?? [];
    expect(query?.kind === "query" ? query.sql : "").toBe(
      "SELECT * FROM c WHERE c.type = @type AND EXISTS(SELECT VALUE r FROM r IN c.records WHERE r.pingId = @pingId)",
    );
  });
});

describe("the read of bucket items (gps.yaml Q1: a vehicle's pings in a time range, newest first)", () => {
  function q1Sql(bucket: string): string {
    const text = readWriteFixture("gps");
    const workload = loadWorkload(text.workload);
    if (!workload.ok) throw new Error(JSON.stringify(workload.issues));
    const model = loadModel(text.model.replace("bucket: { by: at, window: 5m }", bucket), {
      workload: workload.value,
    });
    if (!model.ok) throw new Error(JSON.stringify(model.issues));
    const plan = planModel(workload.value, model.value).find((p) => p.patternId === "Q1");
    const [step] = plan?.operations ?? [];
    if (step?.kind !== "query") throw new Error("Q1 starts with a query");
    return step.sql;
  }

  it("orders time windows by the window start they hold", () => {
    expect(q1Sql("bucket: { by: at, window: 5m }")).toMatch(/ORDER BY c\.at DESC$/);
  });

  it("never orders records buckets by a record attribute (Cosmos DB would leave every item out)", () => {
    // independent seed 58: ORDER BY c.createdAt over items of 112 records answered nothing.
    expect(q1Sql("bucket: { records: 60 }")).not.toMatch(/ORDER BY/);
  });
});
