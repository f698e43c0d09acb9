/**
 * Number formats for messages, documents and reports: the one place numbers become text, so
 * that the same figure reads the same everywhere. `toLocaleString` builds a new formatter on
 * every call, which the design search (thousands of evaluations) cannot afford; these are built
 * once per number of decimals.
 *
 * A figure is never rounded to a different small value: a non-zero value keeps at least two
 * significant digits (0.005 prints `0.005`, never `0.01`), and `<` is printed only for a value
 * truly below the floor shown (`<0.000001`; `<0.0001` for GB).
 */
const FORMATS = new Map<number, Intl.NumberFormat>();

/** The `en-US` format with at most `decimals` decimals (cached). */
function withDecimals(decimals: number): Intl.NumberFormat {
  let format = FORMATS.get(decimals);
  if (format === undefined) {
    format = new Intl.NumberFormat("en-US", { maximumFractionDigits: decimals });
    FORMATS.set(decimals, format);
  }
  return format;
}

/** Most decimals a figure is ever shown with (Intl allows 100; past 20 nothing is readable). */
const MAX_DECIMALS = 20;

export interface FigureFormat {
  /** Decimals shown at most for a value large enough to need no more (default 1). */
  readonly decimals?: number;
  /** Least significant digits of a non-zero value (default 2): adds decimals to small values. */
  readonly significant?: number;
  /** A non-zero value whose magnitude is under this prints as `<floor` (default 0.000001). */
  readonly floor?: number;
}

/** Decimals a value is printed with under `format` (what its text's precision is). */
export function decimalsFor(value: number, format: FigureFormat = {}): number {
  const decimals = format.decimals ?? 1;
  const significant = format.significant ?? 2;
  const magnitude = Math.abs(value);
  if (magnitude === 0 || !Number.isFinite(magnitude)) return decimals;
  const needed = significant - 1 - Math.floor(Math.log10(magnitude));
  return Math.min(MAX_DECIMALS, Math.max(decimals, needed));
}

/**
 * A figure with thousands separators: at most `decimals` decimals, more for a small value so it
 * keeps `significant` digits; under `floor`, `<floor` (`>-floor` below zero).
 * @example formatFigure(12345.67) // "12,345.7"; formatFigure(0.005, { decimals: 2 }) // "0.005"
 * formatFigure(0.00005) // "0.00005"; formatFigure(0.00001, { floor: 0.0001 }) // "<0.0001"
 */
export function formatFigure(value: number, format: FigureFormat = {}): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const floor = format.floor ?? 0.000001;
  if (Math.abs(value) < floor) {
    const shown = withDecimals(MAX_DECIMALS).format(floor);
    return value > 0 ? `<${shown}` : `>-${shown}`;
  }
  return withDecimals(decimalsFor(value, format)).format(value);
}

/**
 * A whole number with `en-US` thousands separators, written without `Intl` when its digits are
 * exact (`Intl.NumberFormat.format` costs microseconds, and the design search formats a message
 * figure for every candidate): the same text as `withDecimals(0).format(whole)`.
 */
function groupedWhole(whole: number): string {
  if (!Number.isSafeInteger(whole)) return withDecimals(0).format(whole);
  if (whole === 0) return Object.is(whole, -0) ? "-0" : "0";
  const digits = String(Math.abs(whole));
  let text = "";
  let end = digits.length;
  while (end > 3) {
    text = `,${digits.slice(end - 3, end)}${text}`;
    end -= 3;
  }
  return `${whole < 0 ? "-" : ""}${digits.slice(0, end)}${text}`;
}

/** `12,345` (whole numbers: counts, RU/s in messages). */
export function formatInteger(value: number): string {
  return groupedWhole(Math.round(value));
}

const CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `$1,234` (whole dollars) or `$1,234.56` with `cents`. */
export function formatUsd(value: number, cents = false): string {
  // Without cents, Intl rounds half away from zero ("half expand"): -2.5 prints -3.
  return `$${cents ? CENTS.format(value) : groupedWhole(value < 0 ? -Math.round(-value) : Math.round(value))}`;
}

/** `1,234.5`, `0.2`, `0.005`: at most two decimals, two significant digits for small values. */
export function formatDecimal(value: number): string {
  return formatFigure(value, { decimals: 2 });
}
