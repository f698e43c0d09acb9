/**
 * Request rates estimated from business figures, with the arithmetic shown, for a user who does
 * not know a pattern's rate: average = daily active users x actions per user per day / 86,400 s,
 * peak = average x peak-hour factor.
 */
import type { RateEstimate } from "./state.js";

/** Seconds in a day: the average rate spreads the day's requests over it. */
export const SECONDS_PER_DAY = 86_400;

/** Business figures from which a rate is estimated. */
export interface BusinessFigures {
  readonly dailyActiveUsers: number;
  readonly actionsPerUserPerDay: number;
  /** Peak-hour rate divided by the day's average rate (1 = flat traffic). */
  readonly peakFactor: number;
}

/**
 * Estimates a pattern's average and peak requests per second from business figures.
 * @example estimateRate("Q1", { dailyActiveUsers: 1_000_000, actionsPerUserPerDay: 4, peakFactor: 3 })
 *   // avg 46.3, peak 138.89, with the two steps of arithmetic
 */
export function estimateRate(pattern: string, figures: BusinessFigures): RateEstimate {
  const { dailyActiveUsers, actionsPerUserPerDay, peakFactor } = figures;
  const perDay = dailyActiveUsers * actionsPerUserPerDay;
  const avg = roundRate(perDay / SECONDS_PER_DAY);
  const peak = roundRate((perDay / SECONDS_PER_DAY) * peakFactor);
  return {
    pattern,
    dailyActiveUsers,
    actionsPerUserPerDay,
    peakFactor,
    avg,
    peak,
    arithmetic: [
      `requests per day = ${formatNumber(dailyActiveUsers)} daily active users x ${formatNumber(actionsPerUserPerDay)} actions per user per day = ${formatNumber(perDay)}`,
      `average = ${formatNumber(perDay)} / ${formatNumber(SECONDS_PER_DAY)} s per day = ${formatNumber(avg)} requests/s`,
      `peak = ${formatNumber(avg)} requests/s x peak-hour factor ${formatNumber(peakFactor)} = ${formatNumber(peak)} requests/s`,
    ],
  };
}

/** Rounds a rate to 0.01 request/s, keeping any non-zero rate above zero. */
function roundRate(value: number): number {
  if (value === 0) return 0;
  return Math.max(0.01, Math.round(value * 100) / 100);
}

/** Formats a number for people: thousands separators, at most 2 decimals. */
export function formatNumber(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}
