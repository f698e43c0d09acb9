/**
 * The Azure Cosmos DB limits the workload loader checks. Kept here until `src/cosmos/limits.ts`
 * (the shared home of Cosmos DB facts) exists; then this file re-exports from it.
 */

/**
 * Largest item: 2 MB, the UTF-8 length of the item's JSON representation.
 * Source: https://learn.microsoft.com/azure/cosmos-db/concepts-limits ("Maximum size of an
 * item"), checked 2026-11-22.
 */
export const MAX_ITEM_BYTES = 2 * 1024 * 1024;
