import { formatPath } from "../common/issues.js";
import { describe, expect, it } from "vitest";
import { validateOperation } from "./validate-operation.js";

describe("validateOperation", () => {
  it("accepts a full operation and ignores extra fields such as measuredRU", () => {
    const result = validateOperation({
      op: "query",
      returned: 7,
      returnedBytes: 512,
      scannedNotReturned: 60951,
      scannedBytes: 399998938,
      partitions: 1,
      consistency: "strong",
      measuredRU: 4059.95,
      scenario: "scan",
    });
    expect(result).toEqual({
      ok: true,
      issues: [],
      value: {
        op: "query",
        consistency: "strong",
        returned: 7,
        returnedBytes: 512,
        scannedNotReturned: 60951,
        scannedBytes: 399998938,
        partitions: 1,
      },
    });
  });
  it("rejects an unknown op with the valid kinds", () => {
    const result = validateOperation({ op: "insert", itemBytes: 10 });
    expect(result.ok).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: "operation.invalidOp", path: ["op"] });
    expect(result.issues[0]?.message).toContain("read, create, replace, upsert, delete, patch, query");
  });
  it("requires op", () => {
    expect(validateOperation({ itemBytes: 10 }).issues[0]).toMatchObject({
      code: "operation.missingOp",
      path: ["op"],
    });
  });
  it("reports every bad number at once, with the index prefix", () => {
    const result = validateOperation(
      { op: "create", itemBytes: -1, indexedValues: "many", partitions: 0.5, consistency: "Strong" },
      3,
    );
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.code, formatPath(issue.path)])).toEqual([
      ["operation.invalidNumber", "[3].itemBytes"],
      ["operation.invalidNumber", "[3].indexedValues"],
      ["operation.invalidConsistency", "[3].consistency"],
      ["operation.invalidPartitions", "[3].partitions"],
    ]);
    expect(result.issues[0]?.message).toBe("itemBytes must be a non-negative number; got -1");
    expect(result.issues[2]?.suggestion).toBe('did you mean "strong"?');
  });
  it("rejects items over the 2 MB limit", () => {
    expect(validateOperation({ op: "read", itemBytes: 3_000_000 }).issues[0]?.code).toBe(
      "operation.itemTooLarge",
    );
  });
  it("rejects values that are not objects", () => {
    for (const value of [null, 3, "read", [1]]) {
      expect(validateOperation(value).issues[0]?.code).toBe("operation.notAnObject");
    }
  });
  it("warns about a misspelled field but still accepts the operation", () => {
    const result = validateOperation({ op: "create", itemByte: 10 });
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "operation.unknownField",
        severity: "warning",
        path: ["itemByte"],
        suggestion: 'did you mean "itemBytes"?',
      }),
    ]);
  });
  it("warns when more values change than are indexed", () => {
    const result = validateOperation({ op: "replace", indexedValues: 2, changedValues: 5 });
    expect(result.ok).toBe(true);
    expect(result.issues[0]?.code).toBe("operation.changedExceedsIndexed");
  });
  it("accepts a batch and a stored procedure with their operations, checked like single ones", () => {
    const batch = validateOperation({
      op: "batch",
      operations: [
        { op: "create", itemBytes: 400 },
        { op: "patch", itemBytes: 800, changedValues: 1 },
      ],
    });
    expect(batch.ok && batch.value.operations?.map((o) => o.op)).toEqual(["create", "patch"]);
    const procedure = validateOperation({
      op: "storedProcedure",
      operations: [{ op: "query", returned: 3 }],
    });
    expect(procedure.ok).toBe(true);
  });
  it("reports every problem of a transaction's operations at once, with their paths", () => {
    const result = validateOperation(
      {
        op: "batch",
        operations: [
          { op: "query" },
          { op: "create", itemBytes: -1 },
          { op: "storedProcedure", operations: [] },
        ],
      },
      4,
    );
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => [i.code, i.path.join(".")])).toEqual([
      ["operation.invalidOperations", "4.operations.0.op"],
      ["operation.invalidNumber", "4.operations.1.itemBytes"],
      ["operation.invalidOperations", "4.operations.2.op"],
    ]);
  });
  it("refuses a transaction without operations, an oversized batch, and operations on a single operation", () => {
    expect(validateOperation({ op: "storedProcedure" }).issues[0]?.code).toBe("operation.invalidOperations");
    const many = Array.from({ length: 101 }, () => ({ op: "read" }));
    expect(validateOperation({ op: "batch", operations: many }).issues[0]?.message).toMatch(/1 to 100/);
    expect(validateOperation({ op: "read", operations: [] }).issues[0]?.code).toBe(
      "operation.invalidOperations",
    );
  });
});
