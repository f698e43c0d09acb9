/**
 * The most records one time-window bucket item holds, at the workload's maxima rather than its
 * averages (issue 24: daily buckets sized on ~5 entries a day overflowed 2 MB when one owner
 * wrote its maximum). A bucket of the hottest key value fills at that key's share of the create
 * rate: the peak rate for the window's peak hours (the traffic profile's, else
 * `COMPARISON_PEAK_HOURS_PER_DAY`), the average for the rest; never more than the children a
 * parent may have (`max` of the relationship whose via keys the bucket) nor than the key's records
 * at the horizon. Pure.
 */
import type { Placement } from "../planner/context.js";
import type { PlanEnvironment } from "../planner/environment.js";
import { partitionKeyAttributes } from "../planner/routing.js";
import type { Workload } from "../workload/types.js";
import { COMPARISON_PEAK_HOURS_PER_DAY } from "./autoscale-billing.js";
import { zipfShare } from "./zipf.js";

const SECONDS_PER_HOUR = 3600;

/** Hours a day the workload runs at its peak rates (the profile's, or the assumption). */
function peakHoursPerDay(workload: Workload): number {
  const profile = workload.scale.trafficProfile;
  if (profile === undefined) return COMPARISON_PEAK_HOURS_PER_DAY;
  if (profile.kind === "peakHours") return profile.peakHoursPerDay;
  // An hourly profile: the hours it would take at the peak to carry its peaks.
  return profile.shares.reduce((sum, share) => sum + share, 0);
}

/**
 * The most records one bucket item of `placement` holds: exact for `records` buckets, the
 * hottest key's window at its maxima for time windows (1 for other item types).
 * @example maxRecordsPerBucket(env, { container, item: { ...reading, bucket: { kind: "window", by: "at", windowSeconds: 86400 } } })
 */
export function maxRecordsPerBucket(env: PlanEnvironment, placement: Placement): number {
  const { item } = placement;
  const bucket = item.bucket;
  if (bucket === undefined) return 1;
  if (bucket.kind === "records") return bucket.records;
  const { context } = env;
  const workload = context.workload;
  const creates = context.writesOf(item.entity).filter((p) => p.type === "write" && p.operation !== "delete");
  const rate = (which: "avg" | "peak"): number =>
    creates.reduce((sum, p) => sum + p.rps[which] * (p.type === "write" ? p.batch : 1), 0);
  const attributes = partitionKeyAttributes(item);
  const keys = Math.max(
    1,
    attributes.reduce((product, name) => product * context.distinctValues(item.entity, name), 1),
  );
  const skew = Math.max(0, ...attributes.map((name) => context.skewOf(item.entity, name)));
  const share = zipfShare(keys, skew);
  const window = bucket.windowSeconds;
  const atPeak = Math.min(window, peakHoursPerDay(workload) * SECONDS_PER_HOUR);
  const byRate = share * (rate("peak") * atPeak + rate("avg") * Math.max(0, window - atPeak));
  // A key holds no more records than exist for it, nor than its parent's children at most.
  const bounds = [byRate, share * context.countAtHorizon(item.entity)];
  for (const relationship of context.parentsOf(item.entity)) {
    if (
      relationship.max !== undefined &&
      relationship.via !== undefined &&
      relationship.via.every((name) => attributes.includes(name))
    )
      bounds.push(relationship.max);
  }
  return Math.max(1, Math.ceil(Math.min(...bounds)));
}

/** The largest item of `placement` in bytes (without system properties), buckets at their maxima. */
export function maxItemBytes(env: PlanEnvironment, placement: Placement): number {
  const shape = env.shape(placement);
  const most = maxRecordsPerBucket(env, placement);
  if (placement.item.bucket === undefined || most <= shape.recordsPerItem) return shape.maxBytes;
  return shape.maxBytes + (most - shape.recordsPerItem) * shape.recordMaxBytes;
}
