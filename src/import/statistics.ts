/**
 * Workload numbers from PostgreSQL's column statistics (`pg_stats`, gathered by ANALYZE from a
 * sample of up to 300 x default_statistics_target rows): distinct values, skew, the JSON size of
 * an item, children per parent and growth. Each function returns the value with the formula
 * that produced it, so the import can say where every number came from.
 */
import { zipfShare } from "../cost/zipf.js";
import { SECONDS_PER_MONTH } from "../cosmos/limits.js";
import { formatDecimal as formatNumber } from "../common/format-number.js";
import type { ColumnInfo, ColumnStatistics } from "./snapshot/snapshot.js";

/** A number and how it was obtained. */
export interface Derived {
  readonly value: number;
  readonly how: string;
}

/**
 * Distinct non-null values: pg_stats.n_distinct is either the number itself (> 0) or minus the
 * share of rows (< 0, e.g. -1 for a unique column), which scales with the table.
 */
export function distinctValues(statistics: ColumnStatistics, rows: number): number | undefined {
  if (statistics.distinct > 0) return statistics.distinct;
  if (statistics.distinct < 0 && rows > 0) return -statistics.distinct * rows;
  return undefined;
}

/**
 * The Zipf exponent whose most used value takes the share of rows of the column's most common
 * value, among `distinct` values (found by bisection: the share grows with the exponent).
 * 0 when the most common value is no more common than average.
 */
export function zipfExponent(topShare: number, distinct: number): number {
  if (distinct <= 1 || topShare <= 1 / distinct) return 0;
  let low = 0;
  let high = 8;
  if (zipfShare(distinct, high) < topShare) return high;
  for (let i = 0; i < 50; i++) {
    const mid = (low + high) / 2;
    if (zipfShare(distinct, mid) < topShare) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Bytes of a JSON property name: the quotes, the colon and the comma after the value. */
function propertyOverhead(name: string): number {
  return Buffer.byteLength(name, "utf8") + 4;
}

/** Digits of the largest of `n` consecutive whole numbers starting at 1. */
function digits(n: number): number {
  return Math.max(1, Math.ceil(Math.log10(Math.max(2, n + 1))));
}

/**
 * Estimated bytes of one column's value in a JSON item, from the stored width (`avg_width`:
 * bytes of the binary form; text carries a 1-byte header when short) and the type:
 * integers as many digits as their distinct values need, numeric about 2 digits per stored byte,
 * text and JSON their width plus quotes, timestamps an ISO 8601 string, booleans `true`/`false`;
 * nulls `null`.
 */
export function jsonValueBytes(column: ColumnInfo, statistics: ColumnStatistics, rows: number): number {
  const width = statistics.averageWidth;
  const sqlType = column.sqlType.toLowerCase();
  let value: number;
  switch (column.type) {
    case "number":
      if (/^(small|big)?int|^integer|^int[248]|serial/.test(sqlType))
        value = digits(distinctValues(statistics, rows) ?? rows);
      else if (/^(numeric|decimal|money)/.test(sqlType)) value = Math.max(1, 2 * (width - 3)) + 1;
      else value = 10;
      break;
    case "boolean":
      value = 4.5;
      break;
    case "datetime":
      value = sqlType === "date" ? 12 : 26;
      break;
    case "string":
      value = sqlType === "uuid" ? 38 : Math.max(0, width - 1) + 2;
      break;
    case "object":
    case "array":
      value = Math.max(2, width);
      break;
    default:
      return column.type satisfies never;
  }
  const nulls = Math.min(1, Math.max(0, statistics.nullFraction));
  return (1 - nulls) * value + nulls * 4;
}

/**
 * The average JSON size of a row as an item: `{}` plus every column's property and value. Needs
 * statistics for every column (a table the role cannot SELECT from has none).
 */
export function averageItemBytes(
  columns: readonly ColumnInfo[],
  attributeNames: readonly string[],
  rows: number,
): Derived | undefined {
  if (columns.length === 0 || columns.some((column) => column.statistics === undefined)) return undefined;
  let bytes = 2;
  columns.forEach((column, index) => {
    if (column.statistics === undefined) return;
    bytes +=
      propertyOverhead(attributeNames[index] ?? column.name) +
      jsonValueBytes(column, column.statistics, rows);
  });
  const stored = columns.reduce((sum, column) => sum + (column.statistics?.averageWidth ?? 0), 0);
  return {
    value: Math.max(1, Math.round(bytes)),
    how: `JSON size estimated from pg_stats.avg_width of ${columns.length} columns (${formatNumber(stored)} bytes stored per row) with property names, quotes and number digits`,
  };
}

/**
 * Items created per month, from the histogram of a column the database fills with the current
 * time on insert: the newest tenth of the histogram's buckets holds a tenth of the rows, created
 * between its lower bound and the time of the import.
 */
export function growthPerMonth(
  statistics: ColumnStatistics,
  rows: number,
  capturedAt: number,
): Derived | undefined {
  const bounds = statistics.timeBounds;
  if (bounds === undefined || bounds.length < 3 || rows <= 0) return undefined;
  const buckets = bounds.length - 1;
  const newest = Math.max(1, Math.round(buckets / 10));
  const since = bounds[buckets - newest];
  if (since === undefined) return undefined;
  const seconds = (capturedAt - since) / 1000;
  if (!(seconds > 0)) return undefined;
  const created = (newest / buckets) * rows * (1 - statistics.nullFraction);
  const value = (created / seconds) * SECONDS_PER_MONTH;
  return {
    value,
    how: `${formatNumber(created)} rows (the newest ${newest} of ${buckets} pg_stats histogram buckets) created since ${new Date(since).toISOString()}, over ${formatNumber(seconds / 86_400)} days`,
  };
}
