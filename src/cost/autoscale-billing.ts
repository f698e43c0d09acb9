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
 *   the lower bound) to "peak-billed" (every hour reaches the peak, the upper bound). Figures say
 *   which assumption they use; comparisons between modes use the same one.
 */
import { AUTOSCALE_MIN_FRACTION_OF_MAX } from "../cosmos/limits.js";
import type { TrafficProfile } from "../workload/types.js";

export const HOURS_PER_DAY = 24;

/** The traffic assumption an autoscale figure uses. */
export type AutoscaleBasis =
  | { readonly kind: "profile"; readonly profile: TrafficProfile }
  | { readonly kind: "average" }
  | { readonly kind: "peak" };

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
    case "profile": {
      const profile = basis.profile;
      if (profile.kind === "hourly") return profile.shares.map((share) => ({ hours: 1, share }));
      const peakHours = Math.min(HOURS_PER_DAY, profile.peakHoursPerDay);
      return [
        { hours: peakHours, share: 1 },
        { hours: HOURS_PER_DAY - peakHours, share: averageShare },
      ];
    }
    default:
      return basis satisfies never;
  }
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
export function describeBasis(basis: AutoscaleBasis): string {
  switch (basis.kind) {
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
