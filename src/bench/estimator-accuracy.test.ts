import { resolve } from "node:path";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { COEFFICIENT_SOURCES, DEFAULT_RU_COEFFICIENTS } from "../estimator/coefficients.js";
import { caseStudyFanOutCheck } from "../estimator/calibration-rows.js";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import {
  ACCURACY_TARGETS,
  crossValidatedError,
  gatedKindsMissed,
  loadCalibrationRows,
  loadHeldOutRows,
  loadOutOfModelRows,
  measureAccuracy,
} from "./estimator-accuracy.js";
import { isMeasurement, parseMeasurementRows } from "../estimator/calibration-rows.js";
import {
  FAMILIES,
  crossValidateLeaveOneSourceOut,
  familyOf,
  fitCoefficients,
  rowEstimate,
  sourceOf,
} from "../estimator/fit-coefficients.js";
import { OPERATION_KINDS, groupAccuracy, kindOf, meetsTarget } from "./estimator-breakdown.js";
import { BENCH_DATA_DIR } from "../test-support/model-examples.js";

const benchmarksDir = BENCH_DATA_DIR;

/** The leave-one-source-out cross-validation of the calibration rows, computed once (a refit per source). */
let leaveSourceOut: Promise<ReturnType<typeof crossValidateLeaveOneSourceOut>> | undefined;
const leaveOneSourceOut = () =>
  (leaveSourceOut ??= loadCalibrationRows(benchmarksDir).then(crossValidateLeaveOneSourceOut));

describe("estimator accuracy on the benchmark files", () => {
  it("uses every jsonl row the estimator models plus the four V3 single-partition queries", async () => {
    const rows = await loadCalibrationRows(benchmarksDir);
    const jsonl = await readFile(resolve(benchmarksDir, "ru-measurements.jsonl"), "utf8");
    const lines = jsonl.split("\n").filter((line) => line.trim() !== "");
    const outOfModel = lines.filter(
      (line) => (JSON.parse(line) as { calibration?: boolean }).calibration === false,
    );
    expect(outOfModel).toHaveLength((await loadOutOfModelRows(benchmarksDir)).length);
    const heldOut = lines.filter((line) => (JSON.parse(line) as { split?: string }).split === "held-out");
    expect(heldOut).toHaveLength((await loadHeldOutRows(benchmarksDir)).length);
    expect(rows.length).toBe(lines.length - outOfModel.length - heldOut.length + 4);
  });
  it("keeps a held-out split chosen by source group, which the shipped coefficients were not fitted on", async () => {
    const heldOut = await loadHeldOutRows(benchmarksDir);
    const calibration = await loadCalibrationRows(benchmarksDir);
    expect(heldOut.length).toBeGreaterThanOrEqual(5);
    const heldGroups = new Set(heldOut.map(sourceOf));
    expect(heldGroups.size).toBeGreaterThanOrEqual(2);
    // no source group on both sides of the split
    expect(calibration.filter((row) => heldGroups.has(sourceOf(row)))).toEqual([]);
    // the shipped coefficients are the fit of the calibration split alone: adding the held-out
    // rows would move them (so the split is what keeps them out)
    const withHeldOut = fitCoefficients([...calibration, ...heldOut]);
    expect(withHeldOut.writeBase).not.toBeCloseTo(DEFAULT_RU_COEFFICIENTS.writeBase, 3);
  });
  it("refuses a source group split across the calibration and held-out splits", async () => {
    const jsonl = await readFile(resolve(benchmarksDir, "ru-measurements.jsonl"), "utf8");
    const [first = ""] = jsonl.split("\n");
    const moved = JSON.stringify({ ...(JSON.parse(first) as object), split: "held-out" });
    expect(() => parseMeasurementRows(`${first}\n${moved}\n`)).toThrow(/same split/);
    expect(() =>
      parseMeasurementRows(JSON.stringify({ ...(JSON.parse(first) as object), split: "x" })),
    ).toThrow(/split must be/);
  });
  it("keeps every row with its source address, evidence, consistency and indexing", async () => {
    const jsonl = await readFile(resolve(benchmarksDir, "ru-measurements.jsonl"), "utf8");
    for (const line of jsonl.split("\n").filter((l) => l.trim() !== "")) {
      const row = JSON.parse(line) as Record<string, unknown>;
      expect(String(row["source"]), line).toMatch(/^https:\/\//);
      expect([
        "measured",
        "lab-observed",
        "documented-table",
        "documented-average",
        "documented-example",
      ]).toContain(row["evidence"]);
      expect(typeof row["consistency"], line).toBe("string");
      expect(typeof row["indexing"], line).toBe("string");
      expect(typeof row["scenario"], line).toBe("string");
      expect(typeof row["sourceGroup"], line).toBe("string");
      expect(["calibration", "held-out"]).toContain(row["split"]);
    }
  });
  it("meets the leave-one-source-out target on measurements, and the bench fails when it is missed", async () => {
    const entries = await leaveOneSourceOut();
    expect(crossValidatedError(entries, true)).toBeLessThanOrEqual(
      ACCURACY_TARGETS.maxLeaveOneSourceOutError,
    );
    // The same figure, restated from the entries, and a worse one fails the bench's rule.
    const kept = entries.filter((entry) => entry.crossValidated && isMeasurement(entry.row));
    expect(kept.length).toBeGreaterThanOrEqual(20);
    const restated =
      kept.reduce(
        (sum, entry) => sum + Math.abs(entry.estimate - entry.row.measuredRU) / entry.row.measuredRU,
        0,
      ) / kept.length;
    expect(restated).toBeCloseTo(crossValidatedError(entries, true), 12);
    const doubled = entries.map((entry) => ({
      ...entry,
      estimate:
        entry.row.measuredRU + 2 * (entry.estimate - entry.row.measuredRU) + 0.2 * entry.row.measuredRU,
    }));
    expect(crossValidatedError(doubled, true)).toBeGreaterThan(ACCURACY_TARGETS.maxLeaveOneSourceOutError);
  });
  it("meets the targets: mean |error| <= 10%, >= 90% of rows inside [low, high]", async () => {
    const summary = measureAccuracy(await loadCalibrationRows(benchmarksDir));
    expect(summary.meanAbsError).toBeLessThanOrEqual(ACCURACY_TARGETS.maxMeanAbsError);
    expect(summary.insideShare).toBeGreaterThanOrEqual(ACCURACY_TARGETS.minInsideShare);
    // ...with ranges that stay honest: the median range is under 60% of the estimate.
    expect(summary.medianRelativeWidth).toBeLessThan(0.6);
  });
  it("sets each family's range from its leave-one-source-out spread: >= 90% of every kind's rows inside", async () => {
    const entries = (await leaveOneSourceOut()).filter((entry) => entry.crossValidated);
    const kinds = groupAccuracy(entries, (entry) => kindOf(entry.row), OPERATION_KINDS);
    expect(kinds.map((kind) => kind.group)).toEqual(["point read", "create", "replace", "delete", "query"]);
    for (const kind of kinds) {
      expect(kind.insideShare, kind.group).toBeGreaterThanOrEqual(ACCURACY_TARGETS.perKind.minInsideShare);
    }
    // ...and no wider than that spread: each band's edges are within 0.02 of a ratio it holds
    const ratios = (family: string) =>
      entries.filter((entry) => familyOf(entry.row) === family).map((e) => e.row.measuredRU / e.estimate);
    const { read, insert, query } = DEFAULT_RU_COEFFICIENTS.bands;
    for (const [band, family] of [
      [read, "read"],
      [insert, "insert"],
      [query, "indexedQuery"],
    ] as const) {
      const held = ratios(family).filter((ratio) => band.low <= ratio && ratio <= band.high);
      expect(Math.min(...held) - band.low, family).toBeLessThan(0.02);
      expect(band.high - Math.max(...held), family).toBeLessThan(0.02);
    }
  });
  it("fails the bench when a gated kind misses its target, and gates every kind that meets it", async () => {
    const entries = await leaveOneSourceOut();
    expect(gatedKindsMissed(entries)).toEqual([]);
    const kinds = groupAccuracy(
      entries.filter((entry) => entry.crossValidated),
      (entry) => kindOf(entry.row),
      OPERATION_KINDS,
    );
    const met = kinds.filter((kind) => kind.measuredRows > 0 && meetsTarget(kind, ACCURACY_TARGETS.perKind));
    expect(ACCURACY_TARGETS.perKind.gated).toEqual(met.map((kind) => kind.group));
    // point reads estimated 30% high miss the target, and the bench says so
    const worse = entries.map((entry) =>
      kindOf(entry.row) === "point read" ? { ...entry, estimate: entry.estimate * 1.3 } : entry,
    );
    expect(gatedKindsMissed(worse)).toEqual(["point read"]);
  });
  it("names the source of every coefficient: the calibration rows it is fitted on, never a held-out row", async () => {
    const calibration = await loadCalibrationRows(benchmarksDir);
    const heldOutIds = new Set((await loadHeldOutRows(benchmarksDir)).map((row) => row.id));
    const idsOf = (family: string) =>
      calibration.filter((row) => familyOf(row) === family).map((row) => row.id);
    const fittedFamily: Record<string, string> = {
      queryPerScannedItem: "scan",
      queryPerScannedKB: "scan",
      scriptOverhead: "transaction",
    };
    for (const [family, keys] of Object.entries(FAMILIES)) {
      for (const key of keys) fittedFamily[key] = family;
    }
    for (const [key, source] of Object.entries(COEFFICIENT_SOURCES)) {
      expect(source.checked, key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (source.kind === "fitted") {
        expect(source.rows, key).toEqual(idsOf(fittedFamily[key] ?? "none"));
        expect(
          source.rows.filter((id) => heldOutIds.has(id)),
          key,
        ).toEqual([]);
      } else if (source.kind === "documented") {
        expect(source.url, key).toMatch(/^https:\/\/learn\.microsoft\.com\//);
      }
    }
    expect(Object.keys(COEFFICIENT_SOURCES).sort()).toEqual(
      Object.entries(DEFAULT_RU_COEFFICIENTS)
        .filter(([, value]) => typeof value === "number")
        .map(([key]) => key)
        .sort(),
    );
  });
  it("ships the coefficients the fit finds (within rounding)", async () => {
    const refit = fitCoefficients(await loadCalibrationRows(benchmarksDir));
    for (const key of [
      "pointReadBase",
      "pointReadPerKB",
      "writeBase",
      "writePerKB",
      "writePerIndexedValue",
      "queryPerPartition",
      "queryPerReturnedItem",
      "queryPerReturnedKB",
      "queryPerScannedItem",
      "queryPerScannedKB",
      "scriptOverhead",
    ] as const) {
      expect(Math.abs(refit[key] / DEFAULT_RU_COEFFICIENTS[key] - 1), key).toBeLessThan(0.01);
    }
  });
  // Leave-one-out (mean |error| under 15%, a refit per row) is a target of the estimator-accuracy
  // bench (`npm run bench -- estimator-accuracy`).
  it("leave-one-source-out estimates every row with coefficients fitted without any row of its source", async () => {
    const rows = await loadCalibrationRows(benchmarksDir);
    const validated = await leaveOneSourceOut();
    expect(validated.map((entry) => entry.row)).toEqual(rows);
    expect(new Set(rows.map(sourceOf)).size).toBeGreaterThan(3);
    for (const entry of validated.filter((_, index) => index % 7 === 0)) {
      const others = rows.filter((row) => sourceOf(row) !== sourceOf(entry.row));
      expect(entry.estimate).toBeCloseTo(rowEstimate(entry.row, fitCoefficients(others)), 10);
    }
  });
  it("puts the case study's V2 Q3 fan-out (201.54 RU over 70 partitions) inside its range", async () => {
    const row = caseStudyFanOutCheck(
      await readFile(resolve(benchmarksDir, "blogging-case-study.json"), "utf8"),
    );
    expect(row).toBeDefined();
    if (row === undefined) return;
    const charge = estimateRequestCharge(row.operation);
    expect(charge.low).toBeLessThanOrEqual(row.measuredRU);
    expect(charge.high).toBeGreaterThanOrEqual(row.measuredRU);
  });
});
