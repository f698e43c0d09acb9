/**
 * Fits the RU model's coefficients to measured rows, and cross-validates the fit. Used by the
 * bench to show where DEFAULT_RU_COEFFICIENTS come from and how well they generalise.
 */
import { DEFAULT_RU_COEFFICIENTS, type RuCoefficients } from "../estimator/coefficients.js";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import { consistencyReadMultiplier } from "../cosmos/consistency.js";
import type { CalibrationRow } from "./calibration-rows.js";

type NumericKey = {
  [K in keyof RuCoefficients]: RuCoefficients[K] extends number ? K : never;
}[keyof RuCoefficients];

/** The operation families fitted separately, with the coefficients each one determines. */
export const FAMILIES = {
  read: ["pointReadBase", "pointReadPerKB"],
  insert: ["writeBase", "writePerKB", "writePerIndexedValue"],
  indexedQuery: ["queryPerPartition", "queryPerReturnedItem", "queryPerReturnedKB"],
} as const satisfies Record<string, readonly NumericKey[]>;

export type Family = keyof typeof FAMILIES | "scan" | "other";

/** Which family a row calibrates. */
export function familyOf(row: CalibrationRow): Family {
  const op = row.operation;
  switch (op.op) {
    case "read":
      return "read";
    case "create":
      return "insert";
    case "query":
      return (op.scannedNotReturned ?? 0) > 0 || (op.scannedBytes ?? 0) > 0 ? "scan" : "indexedQuery";
    case "replace":
    case "upsert":
    case "delete":
    case "patch":
      return "other";
    default:
      return op.op satisfies never;
  }
}

/** log(estimate / measured): the residual the fit minimises (symmetric in over/under). */
export function logResidual(row: CalibrationRow, coefficients: RuCoefficients): number {
  const estimate = estimateRequestCharge(row.operation, coefficients).estimate;
  return estimate > 0 ? Math.log(estimate / row.measuredRU) : Number.POSITIVE_INFINITY;
}

/**
 * Least-squares fit of every family's coefficients on `rows`, starting from `start`. Families
 * without rows keep the starting values. The scan coefficients come from the scan rows in closed
 * form (the charge left after the index-served part, split evenly between per item and per KB).
 */
export function fitCoefficients(
  rows: readonly CalibrationRow[],
  start: RuCoefficients = DEFAULT_RU_COEFFICIENTS,
): RuCoefficients {
  let fitted: RuCoefficients = start;
  for (const family of Object.keys(FAMILIES) as (keyof typeof FAMILIES)[]) {
    const keys: readonly NumericKey[] = FAMILIES[family];
    const familyRows = rows.filter((row) => familyOf(row) === family);
    if (familyRows.length === 0) continue;
    const base = fitted;
    const withValues = (values: readonly number[]): RuCoefficients => ({
      ...base,
      ...Object.fromEntries(keys.map((key, index) => [key, values[index] ?? 0])),
    });
    const objective = (values: readonly number[]): number => {
      if (values.some((value) => value < 0)) return Number.POSITIVE_INFINITY;
      const coefficients = withValues(values);
      return familyRows.reduce((sum, row) => sum + logResidual(row, coefficients) ** 2, 0);
    };
    fitted = withValues(
      minimizeNelderMead(
        objective,
        keys.map((key) => base[key]),
      ),
    );
  }
  const scanRows = rows.filter((row) => familyOf(row) === "scan");
  if (scanRows.length > 0) {
    const indexServed: RuCoefficients = { ...fitted, queryPerScannedItem: 0, queryPerScannedKB: 0 };
    let scanRu = 0;
    let items = 0;
    let kilobytes = 0;
    for (const row of scanRows) {
      const multiplier = consistencyReadMultiplier(row.operation.consistency ?? "session");
      scanRu +=
        row.measuredRU / multiplier - estimateRequestCharge(row.operation, indexServed).estimate / multiplier;
      items += row.operation.scannedNotReturned ?? 0;
      kilobytes += (row.operation.scannedBytes ?? 0) / 1024;
    }
    if (scanRu > 0 && items > 0 && kilobytes > 0) {
      fitted = {
        ...fitted,
        queryPerScannedItem: scanRu / items / 2,
        queryPerScannedKB: scanRu / kilobytes / 2,
      };
    }
  }
  return fitted;
}

/** One row's error when the model is fitted without it. */
export interface CrossValidatedRow {
  readonly row: CalibrationRow;
  readonly estimate: number;
  /** False when no other row of its family exists, so the row could not be left out. */
  readonly crossValidated: boolean;
}

/** Leave-one-out cross-validation: refit without each row, then estimate that row. */
export function crossValidateLeaveOneOut(rows: readonly CalibrationRow[]): CrossValidatedRow[] {
  return rows.map((row, index) => {
    const others = rows.filter((_, other) => other !== index);
    const family = familyOf(row);
    const crossValidated = others.some((other) => familyOf(other) === family);
    const coefficients = fitCoefficients(others);
    return { row, estimate: estimateRequestCharge(row.operation, coefficients).estimate, crossValidated };
  });
}

/**
 * The source a row is held out with: its page or repository, without the anchor and query (two
 * tables of one page are one source: they share whatever the page's author measured on).
 */
export function sourceOf(row: CalibrationRow): string {
  return row.source.replace(/[#?].*$/, "").replace(/\/+$/, "");
}

/**
 * Leave-one-source-out cross-validation: refit without every row of a source, then estimate that
 * source's rows. Harder than leave-one-out (a page's rows share an account, an item shape and a
 * way of measuring), so closer to the error on measurements nobody has calibrated on.
 */
export function crossValidateLeaveOneSourceOut(rows: readonly CalibrationRow[]): CrossValidatedRow[] {
  const sources = [...new Set(rows.map(sourceOf))];
  const estimates = new Map<CalibrationRow, CrossValidatedRow>();
  for (const source of sources) {
    const held = rows.filter((row) => sourceOf(row) === source);
    const others = rows.filter((row) => sourceOf(row) !== source);
    const coefficients = fitCoefficients(others);
    for (const row of held) {
      const family = familyOf(row);
      estimates.set(row, {
        row,
        estimate: estimateRequestCharge(row.operation, coefficients).estimate,
        crossValidated: others.some((other) => familyOf(other) === family),
      });
    }
  }
  return rows.map((row) => estimates.get(row) ?? { row, estimate: Number.NaN, crossValidated: false });
}

/**
 * Minimises `f` with the Nelder-Mead simplex method (no derivatives; fine for 2-3 parameters).
 */
export function minimizeNelderMead(
  f: (x: readonly number[]) => number,
  start: readonly number[],
  iterations = 2_000,
): number[] {
  const n = start.length;
  let simplex: number[][] = [start.slice()];
  for (let i = 0; i < n; i++) {
    const vertex = start.slice();
    vertex[i] = vertex[i] === 0 ? 0.05 : (vertex[i] ?? 0) * 1.25;
    simplex.push(vertex);
  }
  let values = simplex.map(f);
  const point = (a: readonly number[], b: readonly number[], t: number): number[] =>
    a.map((value, j) => value + t * ((b[j] ?? 0) - value));
  for (let k = 0; k < iterations; k++) {
    const order = values.map((_, index) => index).sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0));
    simplex = order.map((index) => simplex[index] ?? []);
    values = order.map((index) => values[index] ?? Number.POSITIVE_INFINITY);
    const worst = simplex[n] ?? [];
    const centroid = Array.from(
      { length: n },
      (_, j) => simplex.slice(0, n).reduce((sum, vertex) => sum + (vertex[j] ?? 0), 0) / n,
    );
    const reflected = point(centroid, worst, -1);
    const fReflected = f(reflected);
    if (fReflected < (values[0] ?? 0)) {
      const expanded = point(centroid, worst, -2);
      const fExpanded = f(expanded);
      [simplex[n], values[n]] = fExpanded < fReflected ? [expanded, fExpanded] : [reflected, fReflected];
    } else if (fReflected < (values[n - 1] ?? 0)) {
      [simplex[n], values[n]] = [reflected, fReflected];
    } else {
      const contracted = point(centroid, worst, 0.5);
      const fContracted = f(contracted);
      if (fContracted < (values[n] ?? 0)) {
        [simplex[n], values[n]] = [contracted, fContracted];
      } else {
        const best = simplex[0] ?? [];
        for (let i = 1; i <= n; i++) {
          simplex[i] = point(best, simplex[i] ?? [], 0.5);
          values[i] = f(simplex[i] ?? []);
        }
      }
    }
  }
  const bestIndex = values.indexOf(Math.min(...values));
  return simplex[bestIndex] ?? start.slice();
}
