/**
 * The paging probe of a verify run: a read whose first step is a query, in small pages joined by
 * their continuation tokens, returns what it returns in large pages, every item once, in order.
 */
import type { ProbeOutcome } from "./probe-outcomes.js";
import type { ProbePlan } from "./probe-plan.js";
import type { ProbeRun } from "./probe-support.js";
import { round } from "./run-patterns.js";

/** Pages a paging probe follows at most (beyond the items expected), so a looping token ends. */
const EXTRA_PAGES = 10;
/** Page size of the reference read of a paging probe. */
const LARGE_PAGE = 1000;

/** Every page of a read at `pageSize`; the items in order and the pages taken. */
async function readPages(
  run: ProbeRun,
  patternId: string,
  parameters: Readonly<Record<string, unknown>>,
  pageSize: number,
  maxPages: number,
): Promise<{ items: Record<string, unknown>[]; pages: number }> {
  const items: Record<string, unknown>[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await run.access.pattern(patternId)(parameters, {
      pageSize,
      ...(token === undefined ? {} : { continuationToken: token }),
    });
    pages++;
    items.push(...((page["items"] as Record<string, unknown>[] | undefined) ?? []));
    token = typeof page["continuationToken"] === "string" ? page["continuationToken"] : undefined;
  } while (token !== undefined && pages < maxPages);
  return { items, pages };
}

/**
 * True when `pages` holds the items of `expected`, each as often, and (ordered queries) in the
 * same order of their ORDER BY values: items tied on them may come in either order. Items are
 * compared without Cosmos DB's system properties (`_rid`, `_etag`, `_ts`...) and the properties
 * that name the replica (`replicaProperties`): the two reads may each read another replica.
 */
export function sameAnswer(
  pages: readonly Record<string, unknown>[],
  expected: readonly Record<string, unknown>[],
  orderBy: readonly string[],
  replicaProperties: readonly string[] = [],
): boolean {
  const ignored = new Set(replicaProperties);
  const content = (item: Record<string, unknown>) =>
    JSON.stringify(
      Object.entries(item)
        .filter(([name]) => !name.startsWith("_") && !ignored.has(name))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  const sorted = (list: readonly Record<string, unknown>[]) => list.map(content).sort();
  if (JSON.stringify(sorted(pages)) !== JSON.stringify(sorted(expected))) return false;
  const order = (list: readonly Record<string, unknown>[]) =>
    JSON.stringify(list.map((item) => orderBy.map((name) => item[name] ?? null)));
  return orderBy.length === 0 || order(pages) === order(expected);
}

/** A read in small pages, joined, is the read in large pages: every item once, in the same order. */
export async function paging(
  run: ProbeRun,
  probe: Extract<ProbePlan, { kind: "paging" }>,
): Promise<ProbeOutcome> {
  const started = performance.now();
  let best: { parameters: Readonly<Record<string, unknown>>; items: Record<string, unknown>[] } | undefined;
  for (const parameters of probe.requests) {
    const reference = await readPages(run, probe.patternId, parameters, LARGE_PAGE, LARGE_PAGE);
    if (best === undefined || reference.items.length > best.items.length) {
      best = { parameters, items: reference.items };
    }
  }
  const expected = best?.items ?? [];
  const pageSize = Math.max(1, Math.ceil(expected.length / 4));
  const base = { probe: "paging" as const, patternId: probe.patternId, pageSize, expected: expected.length };
  if (best === undefined || expected.length === 0) {
    const detail = "none of the run's requests of this read returns an item: nothing to page";
    return { ...base, status: "notCheckable", detail, pages: 0, items: 0, distinct: 0, elapsedMs: 0 };
  }
  const small = await readPages(
    run,
    probe.patternId,
    best.parameters,
    pageSize,
    expected.length + EXTRA_PAGES,
  );
  const same = sameAnswer(small.items, expected, probe.orderBy, probe.replicaProperties);
  const distinct = new Set(small.items.map((item) => JSON.stringify(item))).size;
  const detail = same
    ? undefined
    : `${small.items.length} items (${distinct} distinct) in ${small.pages} pages of ${pageSize}, against ${expected.length} read in pages of ${LARGE_PAGE}${small.items.length === expected.length && distinct === expected.length ? ` (${probe.orderBy.length === 0 ? "other items" : `out of the order of ${probe.orderBy.join(", ")}`})` : ""}`;
  return {
    ...base,
    status: same ? "passed" : "failed",
    ...(detail === undefined ? {} : { detail }),
    pages: small.pages,
    items: small.items.length,
    distinct,
    elapsedMs: round(performance.now() - started),
  };
}
