/**
 * Bench: how close estimateRequestCharge comes to the measured charges of the calibration set,
 * how often the measured charge falls inside [low, high], and the leave-one-source-out error on
 * measurements (the honest figure for measurements the model has not seen; a target that fails
 * the bench when missed).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_RU_COEFFICIENTS, type RuCoefficients } from "../estimator/coefficients.js";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import type { Bench } from "./bench.js";
import {
  OPERATION_KINDS,
  SIZE_BANDS,
  formatGroupAccuracy,
  groupAccuracy,
  isInside,
  kindOf,
  meetsTarget,
  narrowestBand,
  sizeBandOf,
  type EstimatedRow,
  type OperationKindLabel,
} from "./estimator-breakdown.js";
import {
  CASE_STUDY_FILE,
  MEASUREMENTS_FILE,
  caseStudyCalibrationRows,
  caseStudyFanOutCheck,
  isMeasurement,
  parseMeasurementRows,
  type CalibrationRow,
} from "../estimator/calibration-rows.js";
import {
  crossValidateLeaveOneOut,
  crossValidateLeaveOneSourceOut,
  familyOf,
  fitCoefficients,
  rowEstimate,
  rowRange,
  sourceOf,
  type CrossValidatedRow,
  type Family,
} from "../estimator/fit-coefficients.js";

/** The operation kinds whose per-kind target fails the bench (see ACCURACY_TARGETS.perKind). */
const GATED_KINDS: readonly OperationKindLabel[] = ["point read", "create", "query"];

/**
 * Targets: in sample, mean absolute error at most 10% and at least 90% of the rows inside the
 * range; out of sample, the leave-one-source-out mean absolute error on measurements at most 10%
 * and the leave-one-out mean absolute error under 15% (a refit per row: checked here only, no
 * longer by `npm test`, since 2026-11-28).
 */
export const ACCURACY_TARGETS = {
  maxMeanAbsError: 0.1,
  minInsideShare: 0.9,
  maxLeaveOneSourceOutError: 0.1,
  maxLeaveOneOutError: 0.15,
  /**
   * Issue 30: per operation kind, on rows estimated by coefficients that never saw their source
   * (the error on the kind's measurements, the range on all its rows). A kind in `gated` fails
   * the bench when it misses the target: a kind joins the list once it meets it, so a met
   * target cannot silently regress.
   */
  perKind: {
    maxMeanAbsError: 0.1,
    minInsideShare: 0.9,
    gated: GATED_KINDS,
  },
} as const;

/** The families in the order the report lists them. */
const FAMILY_ORDER: readonly Family[] = [
  "read",
  "insert",
  "update",
  "delete",
  "indexedQuery",
  "scan",
  "transaction",
];

export interface RowAccuracy {
  readonly row: CalibrationRow;
  readonly family: Family;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** (estimate - measured) / measured. */
  readonly error: number;
  readonly inside: boolean;
}

export interface AccuracySummary {
  readonly rows: readonly RowAccuracy[];
  readonly meanAbsError: number;
  readonly medianAbsError: number;
  readonly worst: RowAccuracy;
  readonly insideShare: number;
  /** Median of (high - low) / estimate: how wide the ranges are. */
  readonly medianRelativeWidth: number;
}

/** Accuracy of `coefficients` on `rows` (pure). */
export function measureAccuracy(
  rows: readonly CalibrationRow[],
  coefficients: RuCoefficients = DEFAULT_RU_COEFFICIENTS,
): AccuracySummary {
  if (rows.length === 0) throw new Error("no calibration rows");
  const measured = rows.map((row): RowAccuracy => {
    const charge = estimateRequestCharge(row.operation, coefficients);
    // A row measured beside the same operations run directly moves the whole range with them.
    const shift = rowEstimate(row, coefficients) - charge.estimate;
    const [estimate, low, high] = [charge.estimate + shift, charge.low + shift, charge.high + shift];
    return {
      row,
      family: familyOf(row),
      estimate,
      low,
      high,
      error: (estimate - row.measuredRU) / row.measuredRU,
      inside: low <= row.measuredRU && row.measuredRU <= high,
    };
  });
  const absErrors = measured.map((row) => Math.abs(row.error));
  const worst = measured.reduce((a, b) => (Math.abs(b.error) > Math.abs(a.error) ? b : a));
  return {
    rows: measured,
    meanAbsError: mean(absErrors),
    medianAbsError: median(absErrors),
    worst,
    insideShare: measured.filter((row) => row.inside).length / measured.length,
    medianRelativeWidth: median(measured.map((row) => (row.high - row.low) / row.estimate)),
  };
}

/**
 * Loads the calibration set from the bench data folder (bench/data): the rows of the calibration
 * split the estimator models, and the case study's V3 queries. The held-out split is not in it.
 */
export async function loadCalibrationRows(dataDir: string): Promise<CalibrationRow[]> {
  const measurements = await readFile(join(dataDir, MEASUREMENTS_FILE), "utf8");
  const caseStudy = await readFile(join(dataDir, CASE_STUDY_FILE), "utf8");
  return [
    ...parseMeasurementRows(measurements).filter(
      (row) => row.outOfModel === undefined && row.heldOut !== true,
    ),
    ...caseStudyCalibrationRows(caseStudy),
  ];
}

/** The held-out split (whole source groups the coefficients are never fitted on). */
export async function loadHeldOutRows(dataDir: string): Promise<CalibrationRow[]> {
  const measurements = await readFile(join(dataDir, MEASUREMENTS_FILE), "utf8");
  return parseMeasurementRows(measurements).filter(
    (row) => row.outOfModel === undefined && row.heldOut === true,
  );
}

/** The measured rows the estimator does not model (`calibration: false`), with their reasons. */
export async function loadOutOfModelRows(dataDir: string): Promise<CalibrationRow[]> {
  const measurements = await readFile(join(dataDir, MEASUREMENTS_FILE), "utf8");
  return parseMeasurementRows(measurements).filter((row) => row.outOfModel !== undefined);
}

/** Mean |error| of cross-validated rows (all of them, or the measurements only). */
export function crossValidatedError(
  entries: readonly CrossValidatedRow[],
  measurementsOnly: boolean,
): number {
  const kept = entries.filter(
    (entry) => entry.crossValidated && (!measurementsOnly || isMeasurement(entry.row)),
  );
  return mean(kept.map((entry) => Math.abs(entry.estimate - entry.row.measuredRU) / entry.row.measuredRU));
}

/**
 * The gated operation kinds (ACCURACY_TARGETS.perKind.gated) that miss the per-kind target on
 * the leave-one-source-out estimates.
 */
export function gatedKindsMissed(leaveSourceOut: readonly CrossValidatedRow[]): OperationKindLabel[] {
  const groups = groupAccuracy(
    leaveSourceOut.filter((entry) => entry.crossValidated),
    (entry) => kindOf(entry.row),
    OPERATION_KINDS,
  );
  return ACCURACY_TARGETS.perKind.gated.filter((kind) => {
    const group = groups.find((g) => g.group === kind);
    return group === undefined || !meetsTarget(group, ACCURACY_TARGETS.perKind);
  });
}

/** The bands the families' leave-one-source-out ratios call for, beside the shipped ones. */
function bandSection(entries: readonly CrossValidatedRow[]): string[] {
  const bands = DEFAULT_RU_COEFFICIENTS.bands;
  const shipped: Readonly<Partial<Record<Family, { low: number; high: number }>>> = {
    read: bands.read,
    insert: bands.insert,
    indexedQuery: bands.query,
    update: bands.uncalibratedWrite,
    delete: bands.uncalibratedWrite,
  };
  const lines = [
    `bands (measured / estimate, leave-one-source-out; the narrowest holding >= ${percent(ACCURACY_TARGETS.perKind.minInsideShare)} of a family's rows):`,
  ];
  for (const family of FAMILY_ORDER) {
    const band = shipped[family];
    const ratios = entries
      .filter((entry) => familyOf(entry.row) === family)
      .map((entry) => entry.row.measuredRU / entry.estimate);
    const needed = narrowestBand(ratios, ACCURACY_TARGETS.perKind.minInsideShare);
    if (band === undefined || needed === undefined) continue;
    const held = ratios.filter((ratio) => band.low <= ratio && ratio <= band.high).length;
    lines.push(
      `  ${family.padEnd(13)} ${String(ratios.length).padStart(2)} rows, ratios ${Math.min(...ratios).toFixed(3)}..${Math.max(...ratios).toFixed(3)}, narrowest ${needed.low.toFixed(3)}..${needed.high.toFixed(3)}; shipped ${band.low}..${band.high} holds ${held}`,
    );
  }
  return lines;
}

export const bench: Bench = {
  name: "RU estimator accuracy (calibration set: ru-measurements.jsonl + blogging case study)",
  async run({ dataDir }) {
    const missing = [MEASUREMENTS_FILE, CASE_STUDY_FILE].filter((file) => !existsSync(join(dataDir, file)));
    if (missing.length > 0) {
      return {
        ran: false,
        passed: true,
        report: `skipped: ${missing.join(", ")} not found in ${dataDir}`,
      };
    }
    const rows = await loadCalibrationRows(dataDir);
    const summary = measureAccuracy(rows);
    const leaveSourceOut = crossValidateLeaveOneSourceOut(rows);
    const losoMeasured = crossValidatedError(leaveSourceOut, true);
    const leaveOneOut = crossValidateLeaveOneOut(rows);
    const kindsMissed = gatedKindsMissed(leaveSourceOut);
    const passed =
      summary.meanAbsError <= ACCURACY_TARGETS.maxMeanAbsError &&
      summary.insideShare >= ACCURACY_TARGETS.minInsideShare &&
      losoMeasured <= ACCURACY_TARGETS.maxLeaveOneSourceOutError &&
      leaveOneOutError(leaveOneOut) < ACCURACY_TARGETS.maxLeaveOneOutError &&
      kindsMissed.length === 0;
    const lines = [
      ...inSampleSection(rows, summary),
      ...leaveOneOutSection(leaveOneOut),
      ...leaveOneSourceOutSection(rows, leaveSourceOut),
      ...breakdownSection(
        "leave-one-source-out",
        leaveSourceOut.filter((entry) => entry.crossValidated),
      ),
      ...(kindsMissed.length > 0
        ? [`  gated kinds that missed the target (the bench fails): ${kindsMissed.join(", ")}`]
        : [`  the target fails the bench for: ${ACCURACY_TARGETS.perKind.gated.join(", ")}`]),
      ...bandSection(leaveSourceOut.filter((entry) => entry.crossValidated)),
      ...heldOutSection(await loadHeldOutRows(dataDir)),
      ...outOfModelSection(await loadOutOfModelRows(dataDir)),
      ...refitSection(rows),
      ...fanOutSection(await readFile(join(dataDir, CASE_STUDY_FILE), "utf8")),
      "",
      passed ? "targets met" : "TARGETS MISSED",
    ];
    return { ran: true, passed, report: lines.join("\n") };
  },
};

const relativeError = (entry: CrossValidatedRow): number =>
  Math.abs(entry.estimate - entry.row.measuredRU) / entry.row.measuredRU;

/** The row table and the in-sample figures, overall and per family. */
function inSampleSection(rows: readonly CalibrationRow[], summary: AccuracySummary): string[] {
  const lines = [formatRowTable(summary.rows), "", `rows: ${rows.length}`];
  lines.push(
    `mean |error|: ${percent(summary.meanAbsError)} (target <= ${percent(ACCURACY_TARGETS.maxMeanAbsError)})`,
  );
  lines.push(`median |error|: ${percent(summary.medianAbsError)}`);
  lines.push(
    `worst row: ${summary.worst.row.scenario} (measured ${summary.worst.row.measuredRU}, estimate ${round(summary.worst.estimate)}, ${signedPercent(summary.worst.error)})`,
  );
  lines.push(
    `inside [low, high]: ${percent(summary.insideShare)} (target >= ${percent(ACCURACY_TARGETS.minInsideShare)}); median range width ${percent(summary.medianRelativeWidth)} of the estimate`,
  );
  lines.push("", "per family (in sample):");
  for (const family of FAMILY_ORDER) {
    const familyRows = summary.rows.filter((row) => row.family === family);
    if (familyRows.length === 0) continue;
    lines.push(
      `  ${family.padEnd(13)} ${String(familyRows.length).padStart(2)} rows, mean |error| ${percent(mean(familyRows.map((row) => Math.abs(row.error))))}, inside ${percent(familyRows.filter((row) => row.inside).length / familyRows.length)}, measured/estimate ${ratioRange(familyRows)}`,
    );
  }
  const strong = summary.rows.filter(
    (row) => row.row.operation.consistency === "strong" || row.row.operation.consistency === "bounded",
  );
  if (strong.length > 0) {
    lines.push(
      `  of which strong or bounded staleness: ${strong.length} row(s), mean |error| ${percent(mean(strong.map((row) => Math.abs(row.error))))}`,
    );
  }
  return lines;
}

/**
 * The leave-one-out mean absolute error over the rows that could be cross-validated.
 * @example leaveOneOutError(crossValidateLeaveOneOut(rows)) // 0.07
 */
export function leaveOneOutError(crossValidated: readonly CrossValidatedRow[]): number {
  return mean(crossValidated.filter((entry) => entry.crossValidated).map(relativeError));
}

/** Leave-one-out cross-validation: each row estimated by coefficients fitted without it. */
function leaveOneOutSection(crossValidated: readonly CrossValidatedRow[]): string[] {
  const validated = crossValidated.filter((entry) => entry.crossValidated);
  const looErrors = validated.map(relativeError);
  const worstLoo = validated.reduce((a, b) => (relativeError(b) > relativeError(a) ? b : a));
  const looError = leaveOneOutError(crossValidated);
  const lines = [
    "",
    `leave-one-out cross-validation (refit without each row; the expected error on unseen data): mean |error| ${percent(looError)}, median ${percent(median(looErrors))}, over ${validated.length} rows (target < ${percent(ACCURACY_TARGETS.maxLeaveOneOutError)}${looError < ACCURACY_TARGETS.maxLeaveOneOutError ? "" : ", MISSED"})`,
    `  worst: ${worstLoo.row.scenario} (measured ${worstLoo.row.measuredRU}, estimate ${round(worstLoo.estimate)})`,
  ];
  const alone = crossValidated.filter((entry) => !entry.crossValidated);
  if (alone.length > 0) {
    lines.push(
      `  not cross-validated (only row of its family, its coefficients come from it alone): ${alone.map((entry) => entry.row.scenario).join("; ")}`,
    );
  }
  return lines;
}

/** Leave-one-source-out cross-validation: every row of a source held out together (the target). */
function leaveOneSourceOutSection(
  rows: readonly CalibrationRow[],
  leaveSourceOut: readonly CrossValidatedRow[],
): string[] {
  const bySource = leaveSourceOut.filter((entry) => entry.crossValidated);
  const sources = new Set(rows.map(sourceOf)).size;
  const losoMeasured = crossValidatedError(leaveSourceOut, true);
  const losoAll = crossValidatedError(leaveSourceOut, false);
  const measuredCount = bySource.filter((entry) => isMeasurement(entry.row)).length;
  const lines = [
    `leave-one-source-out cross-validation (refit without every row of a source, ${sources} sources): on measurements mean |error| ${percent(losoMeasured)} over ${measuredCount} rows (target <= ${percent(ACCURACY_TARGETS.maxLeaveOneSourceOutError)}${losoMeasured > ACCURACY_TARGETS.maxLeaveOneSourceOutError ? ", MISSED" : ""}); with the documented figures too ${percent(losoAll)} over ${bySource.length} rows`,
  ];
  for (const source of [...new Set(bySource.map((entry) => sourceOf(entry.row)))]) {
    const held = bySource.filter((entry) => sourceOf(entry.row) === source);
    const evidence = held.every((entry) => isMeasurement(entry.row))
      ? "measured"
      : held.some((entry) => isMeasurement(entry.row))
        ? "mixed"
        : "documented";
    lines.push(
      `  ${percent(mean(held.map(relativeError))).padStart(6)} over ${String(held.length).padStart(2)} row(s) (${evidence}): ${source}`,
    );
  }
  const notCrossValidated = leaveSourceOut.filter((entry) => !entry.crossValidated);
  if (notCrossValidated.length > 0) {
    lines.push(
      `  not cross-validated by source (too few rows of their family elsewhere to fit it): ${notCrossValidated.map((entry) => entry.row.scenario).join("; ")}`,
    );
  }
  return lines;
}

/**
 * The error and the range coverage per operation kind and per item-size band of estimates made
 * by coefficients that never saw the rows (targets per kind: ACCURACY_TARGETS.perKind).
 */
function breakdownSection(what: string, entries: readonly EstimatedRow[]): string[] {
  return [
    "",
    `per operation kind (${what}; target per kind: mean |error| <= ${percent(ACCURACY_TARGETS.perKind.maxMeanAbsError)}, inside the range >= ${percent(ACCURACY_TARGETS.perKind.minInsideShare)}):`,
    ...formatGroupAccuracy(
      groupAccuracy(entries, (entry) => kindOf(entry.row), OPERATION_KINDS),
      ACCURACY_TARGETS.perKind,
    ),
    `per item-size band (${what}):`,
    ...formatGroupAccuracy(groupAccuracy(entries, (entry) => sizeBandOf(entry.row), SIZE_BANDS)),
  ];
}

/**
 * The held-out split: whole source groups the shipped coefficients were never fitted on, each
 * row estimated with them.
 */
function heldOutSection(heldOut: readonly CalibrationRow[]): string[] {
  if (heldOut.length === 0) return [];
  const entries = heldOut.map((row) => ({ row, ...rowRange(row, DEFAULT_RU_COEFFICIENTS) }));
  return [
    "",
    `held-out split (${heldOut.length} rows from ${new Set(heldOut.map(sourceOf)).size} source groups, never fitted on; estimated with DEFAULT_RU_COEFFICIENTS):`,
    ...entries.map(
      (entry) =>
        `  ${isInside(entry) ? "in " : "OUT"} measured ${String(entry.row.measuredRU).padStart(7)}, estimate ${round(entry.estimate).padStart(7)} [${round(entry.low)}, ${round(entry.high)}] ${signedPercent((entry.estimate - entry.row.measuredRU) / entry.row.measuredRU).padStart(7)}  ${entry.row.evidence}: ${entry.row.scenario.length > 80 ? `${entry.row.scenario.slice(0, 77)}...` : entry.row.scenario} (${sourceOf(entry.row)})`,
    ),
    ...breakdownSection("held-out split", entries),
  ];
}

/** Measurements the model does not cover, with the estimate they would get. */
function outOfModelSection(outOfModel: readonly CalibrationRow[]): string[] {
  if (outOfModel.length === 0) return [];
  return [
    "",
    "measured but outside the model (not calibrated, shown with the estimate they would get):",
    ...outOfModel.map((row) => {
      const estimate = rowEstimate(row, DEFAULT_RU_COEFFICIENTS);
      return `  ${row.scenario}: measured ${row.measuredRU}, estimate ${round(estimate)} (${signedPercent((estimate - row.measuredRU) / row.measuredRU)}); ${row.outOfModel ?? ""}`;
    }),
  ];
}

/** Coefficients refitted on every row next to the shipped ones (where they differ). */
function refitSection(rows: readonly CalibrationRow[]): string[] {
  const lines = ["", "refit on all rows vs DEFAULT_RU_COEFFICIENTS (coefficients.ts):"];
  const refit = fitCoefficients(rows);
  for (const key of Object.keys(refit) as (keyof RuCoefficients)[]) {
    const fitted = refit[key];
    const shipped = DEFAULT_RU_COEFFICIENTS[key];
    if (typeof fitted !== "number" || typeof shipped !== "number" || fitted === shipped) continue;
    lines.push(
      `  ${key.padEnd(22)} fitted ${fitted.toPrecision(4).padStart(8)}  shipped ${String(shipped).padStart(8)}`,
    );
  }
  return lines;
}

/** The case study's fan-out query, estimated (a check, not calibration). */
function fanOutSection(caseStudy: string): string[] {
  const fanOut = caseStudyFanOutCheck(caseStudy);
  if (fanOut === undefined) return [];
  const charge = estimateRequestCharge(fanOut.operation);
  return [
    "",
    `fan-out check (not calibration): ${fanOut.scenario}: measured ${fanOut.measuredRU}, estimate ${round(charge.estimate)} [${round(charge.low)}, ${round(charge.high)}]`,
  ];
}

function formatRowTable(rows: readonly RowAccuracy[]): string {
  const header = [
    "op",
    "family",
    "evidence",
    "measured",
    "estimate",
    "low",
    "high",
    "error",
    "in",
    "scenario",
  ];
  const body = rows.map((row) => [
    row.row.operation.op,
    row.family,
    row.row.evidence,
    String(row.row.measuredRU),
    round(row.estimate),
    round(row.low),
    round(row.high),
    signedPercent(row.error),
    row.inside ? "yes" : "NO",
    row.row.scenario.length > 70 ? `${row.row.scenario.slice(0, 67)}...` : row.row.scenario,
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((line) => (line[column] ?? "").length)),
  );
  const numeric = new Set([3, 4, 5, 6, 7]);
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) =>
        column === line.length - 1
          ? cell
          : numeric.has(column)
            ? cell.padStart(widths[column] ?? 0)
            : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ");
  return [format(header), ...body.map(format)].join("\n");
}

function ratioRange(rows: readonly RowAccuracy[]): string {
  const ratios = rows.map((row) => row.row.measuredRU / row.estimate);
  return `${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}`;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function signedPercent(value: number): string {
  return `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;
}

function round(value: number): string {
  return value.toFixed(2);
}
