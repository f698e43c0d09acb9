/**
 * Number formats for messages and reports. `toLocaleString` builds a new formatter on every call,
 * which the design search (thousands of evaluations) cannot afford; these are built once.
 */
const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `12,345` */
export function formatInteger(value: number): string {
  return INTEGER.format(Math.round(value));
}

/** `$1,234` (whole dollars) or `$1,234.56` with `cents`. */
export function formatUsd(value: number, cents = false): string {
  return `$${cents ? CENTS.format(value) : INTEGER.format(value)}`;
}

const DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** `1,234.5`, `0.2`: at most two decimals. */
export function formatDecimal(value: number): string {
  return DECIMAL.format(value);
}
