/**
 * The paging property (issue 25) over designs of random workloads: every read whose first step is
 * a query, read at pages of 1, 2, 5 and 7, is the read in one page of 1,000 item for item, and
 * its first page is the oracle's answer (verify's paging probe with `pagingPageSizes`). Shared by
 * its test (test/verify/paging-designs.test.ts, chosen designs) and the paging bench
 * (src/bench/paging.ts, a sweep of seeds of both generators).
 */
import fc from "fast-check";
import { verifiedWorkloads } from "./design-verification.js";
import { generateIndependentWorkload } from "./independent-workloads.js";
import type { WorkloadDocument } from "./workload-arbitrary.js";

/** The page sizes every request is read at. */
export const PAGE_SIZES: readonly number[] = [1, 2, 5, 7];

/** The generators a design's workload comes from. */
export type PagingSource = "arbitrary" | "independent";

/**
 * The workload of `seed`: the fast-check generator of the tests (one to three entities) or the
 * independent generator (at most three entities, so a verify run stays short).
 * @example pagingWorkload("independent", 176) // a read over write shards ordered by createdAt
 */
export function pagingWorkload(source: PagingSource, seed: number): WorkloadDocument {
  if (source === "independent") return generateIndependentWorkload(seed, { maxEntities: 3 }).document;
  const [document] = fc.sample(verifiedWorkloads, { numRuns: 1, seed });
  if (document === undefined) throw new Error(`no workload for seed ${seed}`);
  return document;
}
