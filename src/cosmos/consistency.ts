/**
 * How the account's consistency level changes request charges.
 */

/**
 * The consistency levels an Azure Cosmos DB account can be set to (strong, bounded staleness,
 * session, consistent prefix, eventual). Source: optimize-cost-reads-writes (below), checked
 * 2026-11-22.
 */
export type Consistency = "strong" | "bounded" | "session" | "consistent-prefix" | "eventual";

/**
 * The factor a read operation (point read or query) is charged at: strong and bounded staleness
 * read from two replicas and cost twice as much; session, consistent prefix and eventual cost
 * the base charge. Writes are not affected.
 * Source: https://learn.microsoft.com/azure/cosmos-db/optimize-cost-reads-writes (ms.date
 * 2021-08-26), checked 2026-11-22.
 * @example consistencyReadMultiplier("strong") // 2
 */
export function consistencyReadMultiplier(consistency: Consistency): number {
  switch (consistency) {
    case "strong":
    case "bounded":
      return 2;
    case "session":
    case "consistent-prefix":
    case "eventual":
      return 1;
    default:
      return consistency satisfies never;
  }
}

/** The consistency levels, strongest first. */
export const CONSISTENCY_LEVELS: readonly Consistency[] = [
  "strong",
  "bounded",
  "session",
  "consistent-prefix",
  "eventual",
];
