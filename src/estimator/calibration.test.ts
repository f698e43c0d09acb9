import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseMeasurementRows } from "./calibration-rows.js";
import { calibrate, parseCoefficients, parseRecording, serializeCoefficients } from "./calibration.js";
import { DEFAULT_RU_COEFFICIENTS, type RuCoefficients } from "./coefficients.js";
import { estimateRequestCharge } from "./estimate-request-charge.js";
import type { Operation } from "./operation.js";

/** A recording line: the operation, its measured charge, where it was measured. */
function line(operation: Operation, measuredRU: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...operation,
    measuredRU,
    source: "verify https://test.documents.azure.com",
    endpoint: "azure",
    ...extra,
  });
}

/** Operations of several sizes, the way a verify run meets them. */
const OPERATIONS: readonly Operation[] = [
  ...[300, 1_000, 4_000, 12_000, 40_000].map((itemBytes): Operation => ({ op: "read", itemBytes })),
  ...[
    [400, 4],
    [1_000, 12],
    [2_500, 8],
    [6_000, 30],
    [20_000, 15],
  ].map(([itemBytes = 0, indexedValues = 0]): Operation => ({ op: "create", itemBytes, indexedValues })),
  ...[
    [1, 1, 800],
    [10, 1, 900],
    [25, 2, 700],
    [100, 1, 500],
    [5, 4, 2_000],
  ].map(([returned = 0, partitions = 1, bytes = 0]): Operation => ({
    op: "query",
    returned,
    returnedBytes: returned * bytes,
    partitions,
  })),
];

describe("calibrate", () => {
  it("recovers the coefficients of the account that measured the charges (a round trip)", () => {
    // an account whose charges follow the model with other coefficients than the defaults
    const truth: RuCoefficients = {
      ...DEFAULT_RU_COEFFICIENTS,
      pointReadPerKB: DEFAULT_RU_COEFFICIENTS.pointReadPerKB * 1.4,
      writeBase: DEFAULT_RU_COEFFICIENTS.writeBase * 1.2,
      writePerIndexedValue: DEFAULT_RU_COEFFICIENTS.writePerIndexedValue * 0.8,
      queryPerPartition: DEFAULT_RU_COEFFICIENTS.queryPerPartition * 1.3,
      queryPerReturnedItem: DEFAULT_RU_COEFFICIENTS.queryPerReturnedItem * 0.7,
    };
    const text = OPERATIONS.map((op) => line(op, estimateRequestCharge(op, truth).estimate)).join("\n");
    const recording = parseRecording(text, "charges.jsonl");
    expect(recording.ok).toBe(true);
    if (!recording.ok) return;
    const calibration = calibrate([recording.value]);
    for (const key of ["pointReadPerKB", "writeBase", "writePerIndexedValue", "queryPerPartition"] as const)
      expect(calibration.coefficients[key] / truth[key], key).toBeCloseTo(1, 1);
    // every row is estimated as measured, left out or not
    for (const family of calibration.families) {
      expect(family.leaveOneOutError, family.family).toBeLessThan(0.05);
      expect(family.defaultError, family.family).toBeGreaterThan(family.leaveOneOutError ?? 1);
    }
    expect(calibration.changes.map((c) => c.coefficient)).toContain("writeBase");
    expect(calibration.unfitted).toEqual(["scan", "transaction"]);
  });

  it("fits the public measurements no worse than the defaults fitted on them", () => {
    const rows = parseMeasurementRows(readFileSync("bench/data/ru-measurements.jsonl", "utf8")).filter(
      (row) => row.outOfModel === undefined && row.heldOut !== true,
    );
    const text = rows
      .map((row) =>
        JSON.stringify({
          ...row.operation,
          measuredRU: row.measuredRU,
          source: row.source,
          scenario: row.scenario,
        }),
      )
      .join("\n");
    const recording = parseRecording(text, "public.jsonl");
    expect(recording.ok).toBe(true);
    if (!recording.ok) return;
    expect(recording.value.rows).toHaveLength(rows.length);
    const calibration = calibrate([recording.value]);
    const error = (coefficients: RuCoefficients): number =>
      rows.reduce(
        (sum, row) =>
          sum + Math.abs(estimateRequestCharge(row.operation, coefficients).estimate / row.measuredRU - 1),
        0,
      ) / rows.length;
    expect(error(calibration.coefficients)).toBeLessThanOrEqual(error(DEFAULT_RU_COEFFICIENTS) + 0.01);
    expect(calibration.sources.length).toBeGreaterThan(5);
  });

  it("refuses charges of the embedded endpoint, and says every problem at once", () => {
    const text = [
      line({ op: "read", itemBytes: 1000 }, 1, { endpoint: "embedded" }),
      line({ op: "read", itemBytes: 1000 }, 1, { chargeBearing: false }),
      "{ not json",
      line({ op: "read", itemBytes: 1000 }, -2),
      JSON.stringify({ op: "teleport", measuredRU: 3, source: "x" }),
    ].join("\n");
    const result = parseRecording(text, "charges.jsonl");
    expect(result.ok).toBe(false);
    const issues = result.issues.filter((issue) => issue.severity === "error");
    expect(issues.map((issue) => [issue.code, issue.line])).toEqual([
      ["calibration.notChargeBearing", 1],
      ["calibration.notChargeBearing", 2],
      ["calibration.invalidRow", 3],
      ["calibration.invalidRow", 4],
      ["operation.invalidOp", 5],
    ]);
    expect(issues[0]?.message).toContain("not Cosmos DB's");
    expect(parseRecording("\n\n", "empty.jsonl").ok).toBe(false);
  });
});

describe("a coefficients file", () => {
  it("round-trips and says what it was fitted on", () => {
    const text = OPERATIONS.map((op) => line(op, estimateRequestCharge(op).estimate * 1.1)).join("\n");
    const recording = parseRecording(text, "charges.jsonl");
    if (!recording.ok) throw new Error("unexpected");
    const calibration = calibrate([recording.value]);
    const read = parseCoefficients(
      serializeCoefficients(calibration, ["charges.jsonl"]),
      "coefficients.json",
    );
    expect(read).toMatchObject({ ok: true, value: { coefficients: calibration.coefficients } });
    expect(read.ok && read.value.fittedOn).toBe("15 measured operations of charges.jsonl (1 source)");
  });

  it("names every wrong field", () => {
    const wrong = parseCoefficients(
      JSON.stringify({
        version: 1,
        fittedOn: "x",
        coefficients: { ...DEFAULT_RU_COEFFICIENTS, writeBase: -1, extra: 2 },
      }),
      "c.json",
    );
    expect(wrong.ok).toBe(false);
    expect(wrong.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["coefficients.writeBase", "coefficients"]),
    );
    expect(parseCoefficients("nope", "c.json").issues[0]?.code).toBe("coefficients.invalid");
  });
});
