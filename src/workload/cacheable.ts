/**
 * Whether a read may be served through the integrated cache of a dedicated gateway: it must say
 * how stale its answer may be (`maxStalenessSeconds` above 0) and read at session or eventual
 * consistency (the others bypass the cache: `cosmos/dedicated-gateway.ts`).
 */
import { CACHEABLE_CONSISTENCIES } from "../cosmos/dedicated-gateway.js";
import type { Consistency } from "../cosmos/consistency.js";
import type { AccessPattern, Workload } from "./types.js";

/** Why a pattern cannot be cached, as data. */
export type UncacheableReason = "notRead" | "mustBeFresh" | "consistency";

/** The consistency a read pattern's requests are made at: its own, else the account's. */
export function readConsistencyOf(workload: Workload, pattern: AccessPattern): Consistency {
  return (pattern.type === "read" ? pattern.consistency : undefined) ?? workload.scale.consistency;
}

/**
 * Why `pattern` cannot be served through the integrated cache, or undefined when it can. An
 * absent `maxStalenessSeconds` reads as "must be fresh" here (the reading of issue 26: only a
 * read that says how stale it may be is cached), although for change-feed copies an absent value
 * allows their few seconds of delay.
 * @example cacheIneligibility(workload, feed) // undefined: session, maxStalenessSeconds 5
 */
export function cacheIneligibility(
  workload: Workload,
  pattern: AccessPattern,
): { readonly reason: UncacheableReason; readonly message: string } | undefined {
  if (pattern.type !== "read")
    return { reason: "notRead", message: `${pattern.id} is a write; the integrated cache serves reads only` };
  if (pattern.maxStalenessSeconds === undefined || pattern.maxStalenessSeconds <= 0)
    return {
      reason: "mustBeFresh",
      message: `${pattern.id} must see every write (no maxStalenessSeconds above 0), so no cached answer may serve it`,
    };
  const consistency = readConsistencyOf(workload, pattern);
  if (!CACHEABLE_CONSISTENCIES.includes(consistency))
    return {
      reason: "consistency",
      message: `${pattern.id} reads at ${consistency} consistency; the integrated cache serves only session and eventual reads (the others bypass it)`,
    };
  return undefined;
}
