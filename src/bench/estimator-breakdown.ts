/**
 * The estimator's error broken down by operation kind and item-size band: the figures issue 30
 * judges the model by (leave-one-source-out, and on the held-out split). Pure.
 */
import { isMeasurement, type CalibrationRow } from "../estimator/calibration-rows.js";

/** The operation kinds the report lists, in order. */
export const OPERATION_KINDS = [
  "point read",
  "create",
  "replace",
  "delete",
  "query",
  "stored procedure",
  "batch",
] as const;
export type OperationKindLabel = (typeof OPERATION_KINDS)[number];

/** Which kind a row measures: an upsert is a create or a replace, a patch a replace. */
export function kindOf(row: CalibrationRow): OperationKindLabel {
  const op = row.operation;
  switch (op.op) {
    case "read":
      return "point read";
    case "create":
      return "create";
    case "upsert":
      return op.changedValues === undefined ? "create" : "replace";
    case "replace":
    case "patch":
      return "replace";
    case "delete":
      return "delete";
    case "query":
      return "query";
    case "storedProcedure":
      return "stored procedure";
    case "batch":
      return "batch";
    default:
      return op.op satisfies never;
  }
}

/** Item-size bands (bytes of an item's JSON; a query's returned bytes per returned item). */
export const SIZE_BANDS = ["< 1 KB", "1-4 KB", "4-64 KB", ">= 64 KB", "size not given"] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

export function sizeBandOf(row: CalibrationRow): SizeBand {
  const op = row.operation;
  const bytes =
    op.itemBytes ??
    (op.returnedBytes !== undefined && (op.returned ?? 0) > 0
      ? op.returnedBytes / (op.returned ?? 1)
      : undefined);
  if (bytes === undefined) return "size not given";
  if (bytes < 1024) return "< 1 KB";
  if (bytes < 4096) return "1-4 KB";
  if (bytes < 65536) return "4-64 KB";
  return ">= 64 KB";
}

/** One row's estimate and range, from coefficients that never saw it. */
export interface EstimatedRow {
  readonly row: CalibrationRow;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}

/** Mean absolute relative error and range coverage of a group of rows. */
export interface GroupAccuracy {
  readonly group: string;
  readonly rows: number;
  readonly measuredRows: number;
  /** Over every row (documented figures too). */
  readonly meanAbsError: number;
  /** Over the measured rows only (NaN when there are none). */
  readonly measuredMeanAbsError: number;
  readonly insideShare: number;
}

export const relativeError = (entry: EstimatedRow): number =>
  Math.abs(entry.estimate - entry.row.measuredRU) / entry.row.measuredRU;

export const isInside = (entry: EstimatedRow): boolean =>
  entry.low <= entry.row.measuredRU && entry.row.measuredRU <= entry.high;

/**
 * The accuracy of `entries` grouped by `groupOf`, in the order of `order` (groups without rows
 * left out).
 * @example groupAccuracy(entries, (e) => kindOf(e.row), OPERATION_KINDS)
 */
export function groupAccuracy<G extends string>(
  entries: readonly EstimatedRow[],
  groupOf: (entry: EstimatedRow) => G,
  order: readonly G[],
): GroupAccuracy[] {
  return order.flatMap((group) => {
    const held = entries.filter((entry) => groupOf(entry) === group);
    if (held.length === 0) return [];
    const measured = held.filter((entry) => isMeasurement(entry.row));
    return [
      {
        group,
        rows: held.length,
        measuredRows: measured.length,
        meanAbsError: mean(held.map(relativeError)),
        measuredMeanAbsError: measured.length === 0 ? Number.NaN : mean(measured.map(relativeError)),
        insideShare: held.filter(isInside).length / held.length,
      },
    ];
  });
}

/** The per-kind target: mean |error| at most this, and at least this share inside the range. */
export interface KindTarget {
  readonly maxMeanAbsError: number;
  readonly minInsideShare: number;
}

/**
 * Whether a group meets the per-kind target: the error is judged on its measurements (as the
 * leave-one-source-out target is; a group without one is judged on its range alone), the range
 * coverage on every row (documented figures too).
 */
export function meetsTarget(g: GroupAccuracy, target: KindTarget): boolean {
  const errorMet = g.measuredRows === 0 || g.measuredMeanAbsError <= target.maxMeanAbsError;
  return errorMet && g.insideShare >= target.minInsideShare;
}

/** Lines of a breakdown table: rows, mean |error| (all, measured), share inside the range. */
export function formatGroupAccuracy(groups: readonly GroupAccuracy[], target?: KindTarget): string[] {
  return groups.map((g) => {
    const verdict =
      target === undefined
        ? ""
        : !meetsTarget(g, target)
          ? "  (target missed)"
          : g.measuredRows === 0
            ? "  (range met; no measurement to judge the error on)"
            : "  (target met)";
    return `  ${g.group.padEnd(16)} ${String(g.rows).padStart(3)} row(s): mean |error| ${percent(g.meanAbsError).padStart(6)}, on the ${g.measuredRows} measured ${Number.isNaN(g.measuredMeanAbsError) ? "  -   " : percent(g.measuredMeanAbsError).padStart(6)}; inside the range ${percent(g.insideShare).padStart(6)}${verdict}`;
  });
}

/**
 * The narrowest band [low, high] of ratios (measured / estimate) that holds at least `minShare`
 * of them (narrowest by high / low), or undefined without ratios.
 * @example narrowestBand([0.8, 1, 1.1, 2], 0.75) // { low: 0.8, high: 1.1 }
 */
export function narrowestBand(
  ratios: readonly number[],
  minShare: number,
): { readonly low: number; readonly high: number } | undefined {
  const sorted = [...ratios].sort((a, b) => a - b);
  const needed = Math.max(1, Math.ceil(minShare * sorted.length - 1e-9));
  let best: { low: number; high: number } | undefined;
  for (let start = 0; start + needed <= sorted.length; start++) {
    const low = sorted[start] ?? 0;
    const high = sorted[start + needed - 1] ?? 0;
    if (best === undefined || high / low < best.high / best.low) best = { low, high };
  }
  return best;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
