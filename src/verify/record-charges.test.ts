import { describe, expect, it } from "vitest";
import type { ReadPlan } from "../planner/types.js";
import { itemBytes, recordingLines, recordRead } from "./record-charges.js";

const ru = { estimate: 1, low: 1, high: 1 };

function plan(operations: ReadPlan["operations"]): ReadPlan {
  return {
    patternId: "Q1",
    type: "read",
    kind: "pointRead",
    container: "c",
    itemType: "t",
    operations,
    fanOut: false,
    served: true,
  } as unknown as ReadPlan;
}

const pointRead = {
  kind: "pointRead",
  container: "c",
  itemType: "t",
  ru,
  times: 1,
  note: "",
  id: "{id}",
  partitionKey: ["{id}"],
  estimatedFrom: { op: "read", itemBytes: 900, consistency: "session" },
} as const;
const query = (scope: string, estimatedFrom: Record<string, unknown>) =>
  ({
    kind: "query",
    container: "c",
    itemType: "t",
    ru,
    times: 1,
    note: "",
    sql: "SELECT *",
    parameters: [],
    scope,
    partitions: 1,
    returned: 3,
    orderServedByIndex: true,
    estimatedFrom,
  }) as const;

describe("recording a read's measured charge", () => {
  it("measures the item without the service's system properties", () => {
    expect(itemBytes({ id: "a", _rid: "x", _etag: "y", _ts: 1, _self: "s", _attachments: "a" })).toBe(10);
  });

  it("records a point read and a single-partition query with the sizes they returned", () => {
    expect(recordRead(plan([pointRead] as never), [{ id: "a", n: 1 }], 1.05)).toEqual({
      operation: { op: "read", itemBytes: 16, consistency: "session" },
      measuredRU: 1.05,
      scenario: "Q1: pointRead on c",
    });
    const items = [{ id: "a" }, { id: "bb" }];
    expect(recordRead(plan([query("single", { op: "query", returned: 3 })] as never), items, 2.9)).toEqual({
      operation: { op: "query", returned: 2, returnedBytes: 10 + 11, partitions: 1 },
      measuredRU: 2.9,
      scenario: "Q1: query on c",
    });
  });

  it("records nothing whose features one answer does not show", () => {
    expect(recordRead(plan([pointRead] as never), [], 1)).toBeUndefined(); // a missing item
    expect(recordRead(plan([query("fanOut", { op: "query" })] as never), [{}], 5)).toBeUndefined();
    expect(
      recordRead(plan([query("single", { op: "query", scannedNotReturned: 40 })] as never), [{}], 5),
    ).toBeUndefined();
    expect(recordRead(plan([pointRead, pointRead] as never), [{}], 2)).toBeUndefined(); // a follow-up
  });

  it("writes lines calibrate reads, marked not charge-bearing on the embedded endpoint", () => {
    const charge = { operation: { op: "read", itemBytes: 100 } as const, measuredRU: 1, scenario: "Q1" };
    const embedded = JSON.parse(
      recordingLines([charge], { kind: "embedded", url: "https://127.0.0.1:8081" }),
    );
    expect(embedded).toMatchObject({ op: "read", endpoint: "embedded", chargeBearing: false, measuredRU: 1 });
    expect(
      JSON.parse(recordingLines([charge], { kind: "real", url: "https://localhost:8081/" })),
    ).toMatchObject({ endpoint: "emulator" });
    const azure = JSON.parse(
      recordingLines([charge], { kind: "real", url: "https://acct.documents.azure.com:443/" }),
    );
    expect(azure).toMatchObject({
      endpoint: "azure",
      source: "verify https://acct.documents.azure.com:443/",
    });
    expect(azure.chargeBearing).toBeUndefined();
  });
});
