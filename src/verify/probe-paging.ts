/**
 * The paging probe of a verify run: a read whose first step is a query, in small pages joined by
 * their continuation tokens, returns exactly what it returns in one large page (every item once,
 * in the same order, ties included); its first page at its own size (the pattern's limit) is the
 * oracle's answer and begins that large page.
 */
import type { ReadPattern } from "../workload/types.js";
import type { PatternParameters } from "./oracle.js";
import type { ProbeOutcome } from "./probe-outcomes.js";
import type { ProbePlan } from "./probe-plan.js";
import type { ProbeRun } from "./probe-support.js";
import { asReadOutput, checkOutput, containersOf, round, type ReadCheck } from "./run-patterns.js";

/** Pages a paging probe follows at most (beyond the items expected), so a looping token ends. */
const EXTRA_PAGES = 10;
/** Page size of the reference read of a paging probe. */
const LARGE_PAGE = 1000;

type Item = Record<string, unknown>;

/** Every page of a read at `pageSize`: the items in order and the pages taken. */
async function readPages(
  run: ProbeRun,
  patternId: string,
  parameters: Readonly<Record<string, unknown>>,
  pageSize: number,
  maxPages: number,
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await run.access.pattern(patternId)(parameters, {
      pageSize,
      ...(token === undefined ? {} : { continuationToken: token }),
    });
    pages++;
    items.push(...((page["items"] as Item[] | undefined) ?? []));
    token = typeof page["continuationToken"] === "string" ? page["continuationToken"] : undefined;
  } while (token !== undefined && pages < maxPages);
  return { items, pages };
}

/** An item's answer: its properties without system properties (`_rid`...) and `ignored` ones, sorted. */
function contentOf(item: Item, ignored: ReadonlySet<string>): string {
  return JSON.stringify(
    Object.entries(item)
      .filter(([name]) => !name.startsWith("_") && !ignored.has(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * True when `pages` holds the items of `expected`, each as often, and (ordered queries) in the
 * same order of their ORDER BY values: items tied on them may come in either order. Items are
 * compared without Cosmos DB's system properties (`_rid`, `_etag`, `_ts`...) and the properties
 * that name the replica (`replicaProperties`): the two reads may each read another replica, whose
 * items tied on the ORDER BY values may come in another order.
 */
export function sameAnswer(
  pages: readonly Item[],
  expected: readonly Item[],
  orderBy: readonly string[],
  replicaProperties: readonly string[] = [],
): boolean {
  const ignored = new Set(replicaProperties);
  const sorted = (list: readonly Item[]) => list.map((item) => contentOf(item, ignored)).sort();
  if (JSON.stringify(sorted(pages)) !== JSON.stringify(sorted(expected))) return false;
  const order = (list: readonly Item[]) =>
    JSON.stringify(list.map((item) => orderBy.map((name) => item[name] ?? null)));
  return orderBy.length === 0 || order(pages) === order(expected);
}

/**
 * True when `pages` is `expected` item for item, in the same order (ties on the ORDER BY
 * included: one read must page through one order), without system properties.
 */
export function sameSequence(pages: readonly Item[], expected: readonly Item[]): boolean {
  const none = new Set<string>();
  return (
    pages.length === expected.length &&
    pages.every((item, index) => {
      const other = expected[index];
      return other !== undefined && contentOf(item, none) === contentOf(other, none);
    })
  );
}

/**
 * The values of the replica properties in a read's items: which replica it read; undefined when
 * an item does not carry them (a projection leaves them out: the replica cannot be told).
 */
function replicaOf(items: readonly Item[], properties: readonly string[]): string | undefined {
  if (items.some((item) => properties.some((name) => item[name] === undefined))) return undefined;
  const values = new Set(items.flatMap((item) => properties.map((name) => JSON.stringify(item[name]))));
  return JSON.stringify([...values].sort());
}

/**
 * True when two reads answered alike: item for item with ORDER BY (tied items may swap only when
 * the reads read different replicas), the same items without.
 */
export function sameRead(
  probe: Pick<PagingProbe, "orderBy" | "replicaProperties">,
  items: readonly Item[],
  expected: readonly Item[],
): boolean {
  // Another replica may order the items tied on the ORDER BY otherwise; the same replica may not.
  // Items that do not return the replica's properties may come from either (independent seed 71:
  // a projection of task replicas without their partition property, ties on status swapped).
  const replica = replicaOf(items, probe.replicaProperties);
  const sameReplica =
    probe.replicaProperties.length === 0 ||
    (replica !== undefined && replica === replicaOf(expected, probe.replicaProperties));
  return probe.orderBy.length > 0 && sameReplica
    ? sameSequence(items, expected)
    : sameAnswer(items, expected, probe.orderBy, probe.replicaProperties);
}

type PagingProbe = Extract<ProbePlan, { kind: "paging" }>;

/** What a paging probe reports of the read it shows (the first that failed, else the last). */
interface PagingFigures {
  readonly pageSize: number;
  readonly pages: number;
  readonly items: number;
  readonly distinct: number;
  readonly expected: number;
}

/** What went wrong reading `parameters` at `pageSize`, or undefined. */
function pagingProblem(
  probe: PagingProbe,
  expected: readonly Item[],
  small: { readonly items: readonly Item[]; readonly pages: number },
  pageSize: number,
): string | undefined {
  if (sameRead(probe, small.items, expected)) return undefined;
  const distinct = new Set(small.items.map((item) => JSON.stringify(item))).size;
  const complete = small.items.length === expected.length && distinct === expected.length;
  const how = !complete
    ? ""
    : probe.orderBy.length === 0
      ? " (other items)"
      : ` (out of the order of ${probe.orderBy.join(", ")} or of its ties)`;
  return `${small.items.length} items (${distinct} distinct) in ${small.pages} pages of ${pageSize}, against ${expected.length} read in pages of ${LARGE_PAGE}${how}`;
}

/**
 * A read in small pages, joined, is the read in one large page: every item once, in the same
 * order; its first page at its own size is the oracle's answer and the start of the large page.
 * Without `pageSizes`, the request with the most results at a quarter of its answer; with them,
 * every request that returns an item at each size.
 */
export async function paging(
  run: ProbeRun,
  probe: Extract<ProbePlan, { kind: "paging" }>,
): Promise<ProbeOutcome> {
  const started = performance.now();
  // A container that could not hold all its items (an endpoint keyed by the first level of a
  // hierarchical key refused one) cannot be judged: the read is not checkable there, nor its pages
  // (independent seed 72: a folder moved to another second-level key under the same id).
  const check = run.plan.patterns.find((c) => c.kind === "read" && c.patternId === probe.patternId);
  const collided =
    check === undefined ? undefined : [...containersOf(check)].find((name) => run.unreliable.has(name));
  if (collided !== undefined)
    return {
      probe: "paging",
      patternId: probe.patternId,
      expected: 0,
      pageSize: 0,
      status: "notCheckable",
      detail: `container ${collided} could not hold all its items (409 for ids that differ only in a lower partition key level): ${run.hierarchicalReason}`,
      pages: 0,
      items: 0,
      distinct: 0,
      elapsedMs: 0,
    };
  const references: { parameters: PatternParameters; items: Item[]; detail?: string }[] = [];
  for (const parameters of probe.requests) {
    const reference = await readPages(run, probe.patternId, parameters, LARGE_PAGE, LARGE_PAGE);
    references.push({
      parameters,
      items: reference.items,
      ...(await firstPageProblem(run, probe, parameters, reference.items)),
    });
  }
  const best = references.reduce<(typeof references)[number] | undefined>(
    (a, b) => (a === undefined || b.items.length > a.items.length ? b : a),
    undefined,
  );
  const largest = best?.items.length ?? 0;
  const quarter = Math.max(1, Math.ceil(largest / 4));
  const sizes = probe.pageSizes ?? [quarter];
  const base = { probe: "paging" as const, patternId: probe.patternId, expected: largest };
  if (best === undefined || largest === 0) {
    const detail = "none of the run's requests of this read returns an item: nothing to page";
    return {
      ...base,
      pageSize: quarter,
      status: "notCheckable",
      detail,
      pages: 0,
      items: 0,
      distinct: 0,
      elapsedMs: 0,
    };
  }
  const checked = probe.pageSizes === undefined ? [best] : references.filter((r) => r.items.length > 0);
  let failing: PagingFigures | undefined;
  let last: PagingFigures | undefined;
  let detail: string | undefined;
  for (const reference of checked) {
    detail ??= reference.detail;
    for (const pageSize of sizes) {
      const small = await readPages(
        run,
        probe.patternId,
        reference.parameters,
        pageSize,
        Math.ceil(reference.items.length / pageSize) + EXTRA_PAGES,
      );
      last = {
        pageSize,
        pages: small.pages,
        items: small.items.length,
        distinct: new Set(small.items.map((item) => JSON.stringify(item))).size,
        expected: reference.items.length,
      };
      const problem = pagingProblem(probe, reference.items, small, pageSize);
      if (problem !== undefined && failing === undefined) {
        failing = last;
        detail ??= `${problem} (parameters ${JSON.stringify(reference.parameters)})`;
      }
    }
  }
  const figures = failing ??
    last ?? { pageSize: quarter, pages: 0, items: 0, distinct: 0, expected: largest };
  return {
    ...base,
    ...figures,
    status: detail === undefined ? "passed" : "failed",
    ...(detail === undefined ? {} : { detail }),
    elapsedMs: round(performance.now() - started),
  };
}

/**
 * The read's first page at its own page size (what the read phase checks) against the oracle, and
 * against the first items of the large page: `{ detail }` when either differs.
 */
async function firstPageProblem(
  run: ProbeRun,
  probe: PagingProbe,
  parameters: PatternParameters,
  reference: readonly Item[],
): Promise<{ detail?: string }> {
  const check = run.plan.patterns.find(
    (candidate): candidate is ReadCheck =>
      candidate.kind === "read" && candidate.patternId === probe.patternId,
  );
  const pattern = run.plan.workload.accessPatterns.find((p) => p.id === probe.patternId);
  if (check === undefined || pattern?.type !== "read") return {};
  const output = asReadOutput(await run.access.pattern(probe.patternId)(parameters));
  const checked = checkOutput(run, check, pattern as ReadPattern, parameters, output);
  if (checked.detail !== undefined) return { detail: `its first page: ${checked.detail}` };
  const first = output.items as readonly Item[];
  return sameRead(probe, first, reference.slice(0, first.length))
    ? {}
    : {
        detail: `its first page (${first.length} items) is not the start of the read in one page of ${LARGE_PAGE} (parameters ${JSON.stringify(parameters)})`,
      };
}
