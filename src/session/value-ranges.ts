/**
 * The ranges the interview accepts for each kind of number, as data: the change schemas (what an
 * assistant sends over MCP), the questions (what the terminal validates as it is typed) and the
 * messages ("expected a whole number from 1 to 2,147,483,647, got 0") all read them, so the three
 * cannot disagree. They are the workload format's ranges (docs/workload-format.md): the draft
 * must load once it is complete.
 */
import { z } from "zod";
import { formatDecimal } from "../common/format-number.js";
import { MAX_EXACT_NUMBER, MAX_TTL_SECONDS } from "../cosmos/limits.js";

/** The values a number may take. */
export interface NumberRange {
  readonly min: number;
  /** false: the value must be more than `min` (a count, a size); true: at least `min`. */
  readonly minInclusive: boolean;
  readonly max: number;
  readonly integer: boolean;
}

const number = (
  min: number,
  minInclusive: boolean,
  max = MAX_EXACT_NUMBER,
  integer = false,
): NumberRange => ({
  min,
  minInclusive,
  max,
  integer,
});

/** The ranges of the workload format's numbers. */
export const RANGES = {
  /** count, avgBytes, maxBytes, relationship avg and max, attribute avgBytes, latencyMs. */
  positive: number(0, false),
  /** growthPerMonth, skew, rps, returns.avg, maxStalenessSeconds. */
  nonNegative: number(0, true),
  /** distinct, limit, batch, bufferedRecords, binning counts, regions, horizonMonths. */
  positiveInteger: number(1, true, MAX_EXACT_NUMBER, true),
  ttlSeconds: number(1, true, MAX_TTL_SECONDS, true),
  /** presence: a share of the records. */
  share: { min: 0, minInclusive: false, max: 1, integer: false },
  /** The peak-hour factor of an estimate: the peak hour is at least as busy as the average. */
  peakFactor: number(1, true),
} as const satisfies Readonly<Record<string, NumberRange>>;

/** The range in words: "a number more than 0", "a whole number from 1 to 2,147,483,647". */
export function describeRange(range: NumberRange): string {
  const kind = range.integer ? "a whole number" : "a number";
  const max = range.max >= MAX_EXACT_NUMBER ? undefined : formatDecimal(range.max);
  if (range.minInclusive) {
    return max === undefined
      ? `${kind} ${range.integer ? "from" : "of at least"} ${formatDecimal(range.min)}${range.integer ? " up" : ""}`
      : `${kind} from ${formatDecimal(range.min)} to ${max}`;
  }
  return `${kind} more than ${formatDecimal(range.min)}${max === undefined ? "" : ` and at most ${max}`}`;
}

/** Why `value` is outside `range` ("expected ..., got -5"), or undefined when it is inside. */
export function rangeProblem(value: number, range: NumberRange): string | undefined {
  const inside =
    Number.isFinite(value) &&
    (range.minInclusive ? value >= range.min : value > range.min) &&
    value <= range.max &&
    (!range.integer || Number.isInteger(value));
  if (inside) return undefined;
  const shown = Number.isFinite(value) && Math.abs(value) < 1e21 ? formatDecimal(value) : String(value);
  const tooLarge =
    value > range.max && range.max >= MAX_EXACT_NUMBER
      ? " (at most 9,007,199,254,740,991, the largest whole number Cosmos DB holds exactly)"
      : "";
  return `expected ${describeRange(range)}, got ${shown}${tooLarge}`;
}

/** Text that is only a number: assistants sometimes send 600 as "600". */
const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A zod schema for a number in `range`, also accepting the number written as text ("600"),
 * with the range in its messages. Its JSON schema is `type: number` with the bounds.
 */
export function numberIn(range: NumberRange) {
  let schema = z.number({
    error: (issue) => `expected ${describeRange(range)}, got ${describeInput(issue.input)}`,
  });
  const problem = (value: number): string => rangeProblem(value, range) ?? "";
  schema = range.minInclusive
    ? schema.min(range.min, { error: (issue) => problem(issue.input as number) })
    : schema.gt(range.min, { error: (issue) => problem(issue.input as number) });
  schema = schema.max(range.max, { error: (issue) => problem(issue.input as number) });
  if (range.integer) schema = schema.int({ error: (issue) => problem(issue.input as number) });
  return z.preprocess(
    (value) => (typeof value === "string" && NUMERIC_TEXT.test(value.trim()) ? Number(value.trim()) : value),
    schema,
  );
}

function describeInput(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : String(value);
}
