/**
 * Autoscale billing by the hour: Azure bills each hour on the highest RU/s autoscale scaled to in
 * that hour, never less than 10% of the maximum (autoscale-faq, `cosmos/limits.ts`). Autoscale
 * scales the whole container to what its busiest physical partition needs, so at a moment when
 * traffic is a share s of the peak it runs at s x the RU/s the container needs at peak (the
 * provisioning requirement, which includes the even split over partitions).
 *
 * What each hour's highest moment is depends on the daily traffic shape:
 * - with `scale.trafficProfile` given, its hours (24 shares of the peak, or N hours at the peak and
 *   the others at the average rate);
 * - without one, the cost is a range: "average-billed" (every hour's highest is the average rate,
 *   the lower bound) to "peak-billed" (every hour reaches the peak, the upper bound), and the
 *   figure the modes are compared on is its middle, `COMPARISON_PEAK_HOURS_PER_DAY` hours at the
 *   peak (`comparisonBasis`). Every figure carries the assumption it uses (`CostBasis`).
 */
import { AUTOSCALE_MIN_FRACTION_OF_MAX } from "../cosmos/limits.js";
import type { TrafficProfile } from "../workload/types.js";

export const HOURS_PER_DAY = 24;

/**
 * Without a traffic profile, modes are compared as if the peak lasted this many hours a day and
 * the other hours ran at the average rate: the middle of autoscale's range (average-billed is 0
 * peak hours, peak-billed 24, and the bill is linear in between). Choosing there makes the most a
 * wrong choice can overpay as small as it can be: manual overpays at most `manual - lowUSD` (if
 * the peak is brief), autoscale at most `highUSD - manual` (if every hour peaks), and autoscale is
 * chosen exactly when the first is the larger, that is when manual would win only with a peak of
 * over 12 hours a day. An assumption of this model, not a Cosmos DB fact.
 */
export const COMPARISON_PEAK_HOURS_PER_DAY = 12;

/** The traffic assumption an autoscale figure uses. */
export type AutoscaleBasis =
  | { readonly kind: "profile"; readonly profile: TrafficProfile }
  /** No profile: the figure the modes are compared on (`COMPARISON_PEAK_HOURS_PER_DAY`). */
  | { readonly kind: "assumedPeakHours"; readonly peakHoursPerDay: number }
  | { readonly kind: "average" }
  | { readonly kind: "peak" };

/**
 * The assumption of any throughput figure: autoscale's (above), manual's (provisioned for the
 * peak every hour, whatever the traffic shape) or serverless's (the RU consumed at the average
 * rates, whatever the shape). Documents and `evaluate --json` carry it beside each figure.
 */
export type CostBasis =
  AutoscaleBasis | { readonly kind: "provisionedForPeak" } | { readonly kind: "consumedAtAverage" };

/** A basis with the words documents print for it. */
export type DescribedBasis = CostBasis & { readonly description: string };

/** The basis the modes are compared on: the workload's profile, else the assumed peak hours. */
export function comparisonBasis(trafficProfile: TrafficProfile | undefined): AutoscaleBasis {
  return trafficProfile === undefined
    ? { kind: "assumedPeakHours", peakHoursPerDay: COMPARISON_PEAK_HOURS_PER_DAY }
    : { kind: "profile", profile: trafficProfile };
}

/** `basis` with its words. */
export function described(basis: CostBasis): DescribedBasis {
  return { ...basis, description: describeBasis(basis) };
}

/** Hours of a day at a share of the peak (the busiest moment of each of those hours). */
export interface HoursAtShare {
  readonly hours: number;
  readonly share: number;
}

/**
 * The day under `basis` for a container whose average is `averageShare` of its peak.
 * @example dayOf({ kind: "profile", profile: { kind: "peakHours", peakHoursPerDay: 4 } }, 0.25)
 *   // [{ hours: 4, share: 1 }, { hours: 20, share: 0.25 }]
 */
export function dayOf(basis: AutoscaleBasis, averageShare: number): readonly HoursAtShare[] {
  switch (basis.kind) {
    case "average":
      return [{ hours: HOURS_PER_DAY, share: averageShare }];
    case "peak":
      return [{ hours: HOURS_PER_DAY, share: 1 }];
    case "assumedPeakHours":
      return peakHoursDay(basis.peakHoursPerDay, averageShare);
    case "profile": {
      const profile = basis.profile;
      if (profile.kind === "hourly") return profile.shares.map((share) => ({ hours: 1, share }));
      return peakHoursDay(profile.peakHoursPerDay, averageShare);
    }
    default:
      return basis satisfies never;
  }
}

/** `peakHours` hours at the peak, the others at the average. */
function peakHoursDay(peakHours: number, averageShare: number): readonly HoursAtShare[] {
  const atPeak = Math.min(HOURS_PER_DAY, peakHours);
  return [
    { hours: atPeak, share: 1 },
    { hours: HOURS_PER_DAY - atPeak, share: averageShare },
  ];
}

/**
 * The RU/s billed on average per hour: each hour's share of `neededAtPeak`, at least 10% of
 * `maxRus` and at most `maxRus`, averaged over the day.
 * @example autoscaleBilledRus(4_000, 4_000, [{ hours: 24, share: 0.025 }]) // 400 (the 10% floor)
 */
export function autoscaleBilledRus(
  neededAtPeak: number,
  maxRus: number,
  day: readonly HoursAtShare[],
): number {
  const floor = maxRus * AUTOSCALE_MIN_FRACTION_OF_MAX;
  const total = day.reduce(
    (sum, hour) => sum + hour.hours * Math.min(maxRus, Math.max(floor, hour.share * neededAtPeak)),
    0,
  );
  return total / day.reduce((sum, hour) => sum + hour.hours, 0);
}

/** Words for a basis, as documents print it next to a figure. */
export function describeBasis(basis: CostBasis): string {
  switch (basis.kind) {
    case "provisionedForPeak":
      return "provisioned for the peak every hour, whatever the traffic shape";
    case "consumedAtAverage":
      return "the RU consumed at the average rates, whatever the traffic shape";
    case "assumedPeakHours":
      return `${basis.peakHoursPerDay} peak hours a day, the others at the average rate (no traffic profile given: the middle of the average-billed to peak-billed range, the figure the modes are compared on)`;
    case "average":
      return "average-billed: each hour billed at the average rate (lower bound; no traffic profile given)";
    case "peak":
      return "peak-billed: every hour reaches the peak (upper bound; no traffic profile given)";
    case "profile":
      return basis.profile.kind === "hourly"
        ? "billed by the workload's hourly traffic profile (scale.trafficProfile.hourly)"
        : `billed by the workload's traffic profile: ${basis.profile.peakHoursPerDay} peak hour(s) a day, the others at the average rate`;
    default:
      return basis satisfies never;
  }
}

/** A few words for a basis, as a formula prints it. */
export function basisLabel(basis: CostBasis): string {
  switch (basis.kind) {
    case "provisionedForPeak":
      return "provisioned for the peak";
    case "consumedAtAverage":
      return "RU consumed at the average rates";
    case "assumedPeakHours":
      return `${basis.peakHoursPerDay} peak hours a day assumed, no traffic profile given`;
    case "average":
      return "average-billed";
    case "peak":
      return "peak-billed";
    case "profile":
      return "the workload's traffic profile";
    default:
      return basis satisfies never;
  }
}
