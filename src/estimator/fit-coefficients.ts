/**
 * Fits the RU model's coefficients to measured rows, and cross-validates the fit. Used by the
 * bench to show where DEFAULT_RU_COEFFICIENTS come from and how well they generalise, and by
 * `calibrate` to fit them to the charges a user's own account measured (recordings.ts).
 */
import {
  DEFAULT_RU_COEFFICIENTS,
  type NumericCoefficient as NumericKey,
  type RuCoefficients,
} from "./coefficients.js";
import { estimateRequestCharge } from "./estimate-request-charge.js";
import { consistencyReadMultiplier } from "../cosmos/consistency.js";
import type { CalibrationRow } from "./calibration-rows.js";
import type { RuEstimate } from "./operation.js";

/** The operation families fitted by least squares, with the coefficients each one determines. */
export const FAMILIES = {
  read: ["pointReadBase", "pointReadPerKB"],
  insert: ["writeBase", "writePerKB", "writePerIndexedValue"],
  indexedQuery: ["queryPerPartition", "queryPerReturnedItem", "queryPerReturnedKB"],
} as const satisfies Record<string, readonly NumericKey[]>;

/**
 * Every family a row can belong to. `scan` and `transaction` are fitted in closed form;
 * `update` and `delete` have no coefficient of their own (an update is the documented multiple
 * of an insert, a delete is priced as an insert), so their rows check the insert coefficients.
 */
export type Family = keyof typeof FAMILIES | "scan" | "transaction" | "update" | "delete";

/**
 * The coefficients fitted from each family's rows: a row can be cross-validated only when the
 * other rows of its family (from other sources, for leave-one-source-out) are at least as many
 * (otherwise its coefficients would come from nothing or be underdetermined). Update and delete
 * rows rest on the insert rows.
 */
export const FAMILY_PARAMETERS: Readonly<Record<Family, { readonly from: Family; readonly count: number }>> =
  {
    read: { from: "read", count: 2 },
    insert: { from: "insert", count: 3 },
    indexedQuery: { from: "indexedQuery", count: 3 },
    scan: { from: "scan", count: 2 },
    transaction: { from: "transaction", count: 1 },
    update: { from: "insert", count: 3 },
    delete: { from: "insert", count: 3 },
  };

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
    case "upsert":
      return op.changedValues === undefined ? "insert" : "update";
    case "replace":
    case "patch":
      return "update";
    case "delete":
      return "delete";
    case "batch":
    case "storedProcedure":
      return "transaction";
    default:
      return op.op satisfies never;
  }
}

/**
 * The estimate a row is compared with. A row with `directRU` (the same operations measured run
 * directly, on the same items) compares only what the transaction adds: directRU plus the
 * transaction's estimate less its operations' estimates alone.
 */
export function rowEstimate(row: CalibrationRow, coefficients: RuCoefficients): number {
  const estimate = estimateRequestCharge(row.operation, coefficients).estimate;
  if (row.directRU === undefined) return estimate;
  const alone = (row.operation.operations ?? []).reduce(
    (sum, inner) => sum + estimateRequestCharge(inner, coefficients).estimate,
    0,
  );
  return row.directRU + estimate - alone;
}

/**
 * The estimate and range a row is compared with: the operation's charge, moved with `directRU`
 * for a row measured beside the same operations run directly (see rowEstimate).
 */
export function rowRange(row: CalibrationRow, coefficients: RuCoefficients): RuEstimate {
  const charge = estimateRequestCharge(row.operation, coefficients);
  const shift = rowEstimate(row, coefficients) - charge.estimate;
  return { estimate: charge.estimate + shift, low: charge.low + shift, high: charge.high + shift };
}

/** log(estimate / measured): the residual the fit minimises (symmetric in over/under). */
export function logResidual(row: CalibrationRow, coefficients: RuCoefficients): number {
  const estimate = rowEstimate(row, coefficients);
  return estimate > 0 ? Math.log(estimate / row.measuredRU) : Number.POSITIVE_INFINITY;
}

/** Whether `row` can be estimated from `others` alone (see FAMILY_PARAMETERS). */
export function canCrossValidate(row: CalibrationRow, others: readonly CalibrationRow[]): boolean {
  const { from, count } = FAMILY_PARAMETERS[familyOf(row)];
  return others.filter((other) => familyOf(other) === from).length >= count;
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
  fitted = fitScan(
    rows.filter((row) => familyOf(row) === "scan"),
    fitted,
  );
  const transactions = rows.filter((row) => familyOf(row) === "transaction" && row.directRU !== undefined);
  if (transactions.length > 0) {
    // The script's overhead: the mean of what each measured stored procedure cost beyond the
    // same operations run directly (closed form: the mean minimises the squared differences).
    const extra = transactions.map((row) => row.measuredRU - (row.directRU ?? 0));
    fitted = { ...fitted, scriptOverhead: extra.reduce((sum, value) => sum + value, 0) / extra.length };
  }
  return fitted;
}

/**
 * The scan coefficients from the scan rows, in closed form: the charge left after the
 * index-served part is split between a per-item and a per-KB cost by least squares when the rows
 * separate them (items of different sizes), else evenly between the two (one row cannot).
 */
function fitScan(scanRows: readonly CalibrationRow[], fitted: RuCoefficients): RuCoefficients {
  if (scanRows.length === 0) return fitted;
  const indexServed: RuCoefficients = { ...fitted, queryPerScannedItem: 0, queryPerScannedKB: 0 };
  const points = scanRows.map((row) => {
    const multiplier = consistencyReadMultiplier(row.operation.consistency ?? "session");
    const left = (row.measuredRU - estimateRequestCharge(row.operation, indexServed).estimate) / multiplier;
    return {
      left,
      items: row.operation.scannedNotReturned ?? 0,
      kb: (row.operation.scannedBytes ?? 0) / 1024,
    };
  });
  // Least squares of left ~ a x items + b x kb, relative to each row's charge (each row counts
  // the same whatever its size): minimise sum ((a items + b kb) / left - 1)^2.
  let sii = 0;
  let skk = 0;
  let sik = 0;
  let si = 0;
  let sk = 0;
  for (const p of points) {
    if (p.left <= 0) continue;
    const i = p.items / p.left;
    const k = p.kb / p.left;
    sii += i * i;
    skk += k * k;
    sik += i * k;
    si += i;
    sk += k;
  }
  const determinant = sii * skk - sik * sik;
  if (determinant > 1e-12 * sii * skk) {
    const a = (si * skk - sk * sik) / determinant;
    const b = (sk * sii - si * sik) / determinant;
    if (a > 0 && b > 0) return { ...fitted, queryPerScannedItem: a, queryPerScannedKB: b };
  }
  const left = points.reduce((sum, p) => sum + Math.max(0, p.left), 0);
  const items = points.reduce((sum, p) => sum + p.items, 0);
  const kb = points.reduce((sum, p) => sum + p.kb, 0);
  if (left <= 0 || items <= 0 || kb <= 0) return fitted;
  return { ...fitted, queryPerScannedItem: left / items / 2, queryPerScannedKB: left / kb / 2 };
}

/** One row's error when the model is fitted without it. */
export interface CrossValidatedRow {
  readonly row: CalibrationRow;
  readonly estimate: number;
  /** The range printed with that estimate (same refit). */
  readonly low: number;
  readonly high: number;
  /** False when too few other rows of its family exist to fit its coefficients without it. */
  readonly crossValidated: boolean;
}

/** Leave-one-out cross-validation: refit without each row, then estimate that row. */
export function crossValidateLeaveOneOut(rows: readonly CalibrationRow[]): CrossValidatedRow[] {
  return rows.map((row, index) => {
    const others = rows.filter((_, other) => other !== index);
    const coefficients = fitCoefficients(others);
    return { row, ...rowRange(row, coefficients), crossValidated: canCrossValidate(row, others) };
  });
}

/**
 * The source a row is held out with: its source group (the page or repository it came from), else
 * its address without the anchor and query (two tables of one page are one source: they share
 * whatever the page's author measured on).
 */
export function sourceOf(row: CalibrationRow): string {
  return row.sourceGroup ?? row.source.replace(/[#?].*$/, "").replace(/\/+$/, "");
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
      estimates.set(row, {
        row,
        ...rowRange(row, coefficients),
        crossValidated: canCrossValidate(row, others),
      });
    }
  }
  return rows.map(
    (row) =>
      estimates.get(row) ?? {
        row,
        estimate: Number.NaN,
        low: Number.NaN,
        high: Number.NaN,
        crossValidated: false,
      },
  );
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
