import { describe, expect, it } from "vitest";
import type { CalibrationRow } from "../estimator/calibration-rows.js";
import type { Operation } from "../estimator/operation.js";
import {
  OPERATION_KINDS,
  SIZE_BANDS,
  groupAccuracy,
  kindOf,
  meetsTarget,
  narrowestBand,
  sizeBandOf,
} from "./estimator-breakdown.js";

const row = (
  operation: Operation,
  measuredRU = 1,
  evidence: CalibrationRow["evidence"] = "measured",
): CalibrationRow => ({
  operation,
  measuredRU,
  scenario: "test",
  source: "https://example.org/page",
  evidence,
});

describe("the estimator's error by operation kind and item size", () => {
  it("names the kind of every operation: an upsert with changed values is a replace, a patch too", () => {
    expect(kindOf(row({ op: "read" }))).toBe("point read");
    expect(kindOf(row({ op: "upsert" }))).toBe("create");
    expect(kindOf(row({ op: "upsert", changedValues: 2 }))).toBe("replace");
    expect(kindOf(row({ op: "patch" }))).toBe("replace");
    expect(kindOf(row({ op: "delete" }))).toBe("delete");
    expect(kindOf(row({ op: "storedProcedure", operations: [] }))).toBe("stored procedure");
  });
  it("bands an item by its size, a query by the size of one returned item", () => {
    expect(sizeBandOf(row({ op: "read", itemBytes: 1023 }))).toBe("< 1 KB");
    expect(sizeBandOf(row({ op: "read", itemBytes: 1024 }))).toBe("1-4 KB");
    expect(sizeBandOf(row({ op: "create", itemBytes: 5000 }))).toBe("4-64 KB");
    expect(sizeBandOf(row({ op: "read", itemBytes: 102195 }))).toBe(">= 64 KB");
    expect(sizeBandOf(row({ op: "query", returned: 2000, returnedBytes: 1125600 }))).toBe("< 1 KB");
    expect(sizeBandOf(row({ op: "query", returned: 0 }))).toBe("size not given");
  });
  it("reports mean |error| (all rows and measured ones) and range coverage per group, in order", () => {
    const entries = [
      { row: row({ op: "read" }, 1), estimate: 1.2, low: 1, high: 1.5 },
      { row: row({ op: "read" }, 2, "documented-table"), estimate: 1, low: 1, high: 1.5 },
      { row: row({ op: "query" }, 3), estimate: 3, low: 2.5, high: 3.5 },
    ];
    const groups = groupAccuracy(entries, (entry) => kindOf(entry.row), OPERATION_KINDS);
    expect(groups.map((g) => g.group)).toEqual(["point read", "query"]);
    expect(groups[0]?.meanAbsError).toBeCloseTo((0.2 + 0.5) / 2, 12);
    expect(groups[0]?.measuredMeanAbsError).toBeCloseTo(0.2, 12);
    expect(groups[0]?.insideShare).toBe(0.5);
    expect(groups[1]?.insideShare).toBe(1);
    expect(groupAccuracy(entries, (entry) => sizeBandOf(entry.row), SIZE_BANDS).map((g) => g.rows)).toEqual([
      3,
    ]);
  });
  it("finds the narrowest band of ratios holding a share of them", () => {
    expect(narrowestBand([0.8, 1, 1.1, 2], 0.75)).toEqual({ low: 0.8, high: 1.1 });
    expect(narrowestBand([0.5, 1, 1.1, 1.2], 0.75)).toEqual({ low: 1, high: 1.2 });
    expect(narrowestBand([0.5, 1, 1.1, 1.2], 1)).toEqual({ low: 0.5, high: 1.2 });
    expect(narrowestBand([], 0.9)).toBeUndefined();
  });
  it("judges a kind's error on its measurements and its range on every row", () => {
    const target = { maxMeanAbsError: 0.1, minInsideShare: 0.9 };
    const entry = (measuredRU: number, estimate: number, evidence: CalibrationRow["evidence"]) => ({
      row: row({ op: "create" }, measuredRU, evidence),
      estimate,
      low: estimate * 0.8,
      high: estimate * 1.2,
    });
    const [documentedOff] = groupAccuracy(
      [entry(1, 1.05, "measured"), entry(1, 1.15, "documented-table")],
      () => "create",
      ["create"],
    );
    expect(documentedOff && meetsTarget(documentedOff, target)).toBe(true);
    const [measuredOff] = groupAccuracy(
      [entry(1, 1.15, "measured"), entry(1, 1, "documented-table")],
      () => "create",
      ["create"],
    );
    expect(measuredOff && meetsTarget(measuredOff, target)).toBe(false);
    const [outside] = groupAccuracy(
      [entry(1, 1, "measured"), entry(1, 2, "documented-table")],
      () => "create",
      ["create"],
    );
    expect(outside && meetsTarget(outside, target)).toBe(false);
  });
});
