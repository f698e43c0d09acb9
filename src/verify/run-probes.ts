/**
 * Runs the probes of `probe-plan.ts` through the generated data-access functions, after the
 * pattern checks of a verify run, in the same database: writes with their maintenance (the change
 * feed on a real endpoint, the handlers called directly on the embedded one), then the counters,
 * copies and pages read back from the containers directly.
 */
import type { Container } from "@azure/cosmos";
import { deletePropagationOf } from "../model/deletes.js";
import { memoryCheckpointStore } from "../runtime/checkpoints.js";
import { propertyRef } from "../runtime/sql.js";
import type { EntityRecord } from "../synthetic/generate-records.js";
import type { GeneratedChange, GeneratedWriteResult } from "./load-data-access.js";
import type { CounterRef, ProbeOutcome } from "./probe-outcomes.js";
import { REAL_ACCOUNT_PROBES } from "./probe-outcomes.js";
import type { CounterSubject, ItemTypeRef, ProbePlan, ProbeRecord } from "./probe-plan.js";
import { errorText, round, type PatternRun } from "./run-patterns.js";

/** Pages a paging probe follows at most (beyond the items expected), so a looping token ends. */
const EXTRA_PAGES = 10;
/** Page size of the reference read of a paging probe. */
const LARGE_PAGE = 1000;
/** Longest wait of the feed probe for its counter (ms). */
const FEED_WAIT_MS = 60_000;

/** A probe run: the pattern run's module and endpoint, and the deployment's containers. */
export interface ProbeRun extends PatternRun {
  readonly containers: ReadonlyMap<string, Container>;
}

/** Writes a record through a write pattern, with its maintenance where the change feed does not run. */
async function write(run: ProbeRun, patternId: string, probe: ProbeRecord): Promise<void> {
  const result = (await run.access.pattern(patternId)(probe.record, {
    parents: probe.parents,
  })) as unknown as GeneratedWriteResult;
  if (run.feed !== undefined) return;
  run.state.depth++;
  try {
    await run.access.applyChanges(result.changes as GeneratedChange[]);
  } finally {
    run.state.depth--;
  }
}

async function settle(run: ProbeRun): Promise<void> {
  if (run.feed !== undefined) await run.feed.settle();
}

/** The live items of an item type whose `attribute` is `value` (tombstones left out). */
async function itemsWith(
  run: ProbeRun,
  ref: ItemTypeRef,
  attribute: string,
  value: unknown,
): Promise<EntityRecord[]> {
  const container = run.containers.get(ref.container);
  if (container === undefined) return [];
  const { resources } = await container.items
    .query<EntityRecord>({
      query: `SELECT * FROM c WHERE c.type = @type AND ${propertyRef(attribute)} = @value`,
      parameters: [
        { name: "@type", value: ref.itemType },
        { name: "@value", value: value as string | number },
      ],
    })
    .fetchAll();
  const deletes = deletePropagationOf(run.plan.model);
  const tombstone = deletes.mode === "softDelete" ? deletes.property : undefined;
  return resources.filter((item) => tombstone === undefined || item[tombstone] !== true);
}

/** The counter on each holder item of the subject's parent. */
async function counted(run: ProbeRun, subject: CounterSubject): Promise<number[]> {
  const holders = await itemsWith(
    run,
    subject.holder,
    subject.parentKey,
    subject.parent.record[subject.parentKey],
  );
  return holders.map((item) => {
    const value = item[subject.counter.as];
    return typeof value === "number" ? value : Number.NaN;
  });
}

function counterOf(subject: CounterSubject): CounterRef {
  return { holder: subject.holder, property: subject.counter.as, child: subject.childEntity };
}

/** Why a subject cannot be checked here (its containers are keyed by the first level only), if so. */
function blocked(run: ProbeRun, subject: CounterSubject): string | undefined {
  return run.hierarchical.has(subject.holder.container) || run.unreliable.has(subject.holder.container)
    ? run.hierarchicalReason
    : undefined;
}

/** N children created while the holder is edited N times, all at once: the counter ends at N. */
async function concurrentCounter(run: ProbeRun, subject: CounterSubject): Promise<ProbeOutcome> {
  const started = performance.now();
  const edit = subject.parentEdit;
  const base = {
    probe: "concurrentCounter" as const,
    counter: counterOf(subject),
    children: subject.children.length,
    edits: edit === undefined ? 0 : subject.children.length,
    expected: subject.children.length,
  };
  const reason = blocked(run, subject);
  if (reason !== undefined) {
    return { ...base, status: "notCheckable", detail: reason, failedWrites: 0, counted: [], elapsedMs: 0 };
  }
  await write(run, subject.parentCreate, subject.parent);
  await settle(run);
  const writes: Promise<void>[] = subject.children.map((child) => write(run, subject.childCreate, child));
  if (edit !== undefined) {
    subject.children.forEach((_, i) => {
      const record = { ...subject.parent.record, [edit.attribute]: `probe edit ${i}` };
      writes.push(write(run, edit.patternId, { record, parents: subject.parent.parents }));
    });
  }
  const settled = await Promise.allSettled(writes);
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  await settle(run);
  const found = await counted(run, subject);
  const exact = found.length > 0 && found.every((value) => value === base.expected);
  const detail =
    failures[0] !== undefined
      ? `${failures.length} of ${settled.length} writes failed, e.g. ${errorText(failures[0].reason, run.secrets)}`
      : exact
        ? undefined
        : found.length === 0
          ? `no ${subject.holder.itemType} item holds the counter of ${subject.parentEntity} ${String(subject.parent.record[subject.parentKey])}`
          : `the counter reads ${found.join(", ")} after ${base.children} ${subject.childEntity} created concurrently (expected ${base.expected})`;
  return {
    ...base,
    status: detail === undefined ? "passed" : "failed",
    ...(detail === undefined ? {} : { detail }),
    failedWrites: failures.length,
    counted: found,
    elapsedMs: round(performance.now() - started),
  };
}

/** A child created, changed and removed: the counter and the child's copies follow each step. */
async function childLifecycle(
  run: ProbeRun,
  probe: Extract<ProbePlan, { kind: "childLifecycle" }>,
): Promise<ProbeOutcome> {
  const started = performance.now();
  const child = probe.children[0];
  const update = probe.childUpdate;
  const steps =
    update === undefined ? (["created", "removed"] as const) : (["created", "changed", "removed"] as const);
  const expected = steps.map((step) => (step === "removed" ? 0 : 1));
  const base = { probe: "childLifecycle" as const, counter: counterOf(probe), steps: [...steps], expected };
  const reason = blocked(run, probe);
  if (child === undefined || reason !== undefined) {
    const why = reason ?? "no child record";
    return { ...base, status: "notCheckable", detail: why, counted: [], copies: [], elapsedMs: 0 };
  }
  const key = child.record[probe.childKey];
  const changed =
    update === undefined
      ? child
      : { ...child, record: { ...child.record, [update.attribute]: "probe changed" } };
  const countedAfter: (number | null)[] = [];
  const copies = probe.copies.map((copy) => ({ copy, found: [] as number[] }));
  const problems: string[] = [];
  await write(run, probe.parentCreate, probe.parent);
  await settle(run);
  for (const step of steps) {
    const patternId =
      step === "created"
        ? probe.childCreate
        : step === "changed"
          ? (update?.patternId ?? "")
          : probe.childDelete;
    await write(run, patternId, step === "created" ? child : changed);
    await settle(run);
    const found = await counted(run, probe);
    countedAfter.push(found[0] ?? null);
    const want = step === "removed" ? 0 : 1;
    if (found.length === 0 || found.some((value) => value !== want)) {
      problems.push(
        `after the ${probe.childEntity} was ${step} the counter reads ${found.join(", ") || "nothing"} (expected ${want})`,
      );
    }
    for (const entry of copies) {
      const items = await itemsWith(run, entry.copy, probe.childKey, key);
      entry.found.push(items.length);
      const stale =
        update !== undefined &&
        step === "changed" &&
        items.some(
          (item) => item[update.attribute] !== undefined && item[update.attribute] !== "probe changed",
        );
      if ((step === "removed") !== (items.length === 0) || stale) {
        problems.push(
          `after the ${probe.childEntity} was ${step} ${entry.copy.container}/${entry.copy.itemType} holds ${items.length} ${stale ? "stale " : ""}copies`,
        );
      }
    }
  }
  return {
    ...base,
    status: problems.length === 0 ? "passed" : "failed",
    ...(problems[0] === undefined ? {} : { detail: problems.join("; ") }),
    counted: countedAfter,
    copies,
    elapsedMs: round(performance.now() - started),
  };
}

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
 * same order of their ORDER BY values: items tied on them may come in either order.
 */
function sameAnswer(
  pages: readonly Record<string, unknown>[],
  expected: readonly Record<string, unknown>[],
  orderBy: readonly string[],
): boolean {
  const sorted = (list: readonly Record<string, unknown>[]) =>
    list.map((item) => JSON.stringify(item)).sort();
  if (JSON.stringify(sorted(pages)) !== JSON.stringify(sorted(expected))) return false;
  const order = (list: readonly Record<string, unknown>[]) =>
    JSON.stringify(list.map((item) => orderBy.map((name) => item[name] ?? null)));
  return orderBy.length === 0 || order(pages) === order(expected);
}

/** A read in small pages, joined, is the read in large pages: every item once, in the same order. */
async function paging(run: ProbeRun, probe: Extract<ProbePlan, { kind: "paging" }>): Promise<ProbeOutcome> {
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
  const same = sameAnswer(small.items, expected, probe.orderBy);
  const distinct = new Set(small.items.map((item) => JSON.stringify(item))).size;
  const detail = same
    ? undefined
    : `${small.items.length} items (${distinct} distinct) in ${small.pages} pages of ${pageSize}, against ${expected.length} read in pages of ${LARGE_PAGE}${small.items.length === expected.length && distinct === expected.length ? ` (out of the order of ${probe.orderBy.join(", ")})` : ""}`;
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

/** Waits until the counter reads `want` (or the time is up); the last value read. */
async function counterReaches(run: ProbeRun, subject: CounterSubject, want: number): Promise<number | null> {
  const deadline = performance.now() + FEED_WAIT_MS;
  let last: number | null = null;
  while (performance.now() < deadline) {
    last = (await counted(run, subject))[0] ?? null;
    if (last === want) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

/**
 * A real account's change feed: processors (from now, checkpoints in memory) whose handler fails
 * once; a child counted; the processors stopped, a second child written, restarted from their
 * checkpoints: the counter reads 2. Stops the run's own feed maintenance first (run it last).
 */
async function feedRestart(run: ProbeRun, subject: CounterSubject): Promise<ProbeOutcome> {
  const base = { probe: "feedRestart" as const, counter: counterOf(subject), expected: 2 };
  if (!run.capabilities.changeFeed || run.feed === undefined) {
    const detail = REAL_ACCOUNT_PROBES.feedRestart ?? "";
    return { ...base, status: "notCheckable", detail, failuresInjected: 0, counted: null, elapsedMs: 0 };
  }
  const started = performance.now();
  await run.feed.settle();
  await run.feed.stop();
  const checkpoints = memoryCheckpointStore();
  const errors: unknown[] = [];
  let failures = 0;
  const start = (failOnce: boolean) =>
    run.access.startChangeFeedProcessors({
      checkpoints,
      startFrom: "now",
      pollIntervalMs: 250,
      leaseRenewMs: 1000,
      backoff: { initialDelayMs: 50 },
      onError: (error) => errors.push(error),
      applyFeed: async (container, entries, range) => {
        if (failOnce && failures === 0 && entries.length > 0) {
          failures++;
          throw new Error("the probe's handler failed once");
        }
        return run.access.applyFeed(container, entries, range);
      },
    });
  const [first, second] = subject.children;
  let processor = start(true);
  await processor.ready;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await run.access.pattern(subject.parentCreate)(subject.parent.record, { parents: subject.parent.parents });
  if (first !== undefined)
    await run.access.pattern(subject.childCreate)(first.record, { parents: first.parents });
  const before = await counterReaches(run, subject, 1);
  await processor.stop();
  if (second !== undefined)
    await run.access.pattern(subject.childCreate)(second.record, { parents: second.parents });
  processor = start(false);
  await processor.ready;
  const after = await counterReaches(run, subject, 2);
  await processor.stop();
  const ok = failures === 1 && before === 1 && after === 2;
  return {
    ...base,
    status: ok ? "passed" : "failed",
    ...(ok
      ? {}
      : {
          detail: `${failures} failure injected; the counter read ${before ?? "-"} before the stop and ${after ?? "-"} after the restart (expected 1 and 2)`,
        }),
    failuresInjected: failures,
    counted: after,
    elapsedMs: round(performance.now() - started),
  };
}

/** One probe, its error (a write that throws, a read that fails) as a failed outcome. */
async function runProbe(run: ProbeRun, probe: ProbePlan): Promise<ProbeOutcome> {
  switch (probe.kind) {
    case "concurrentCounter":
      return concurrentCounter(run, probe);
    case "childLifecycle":
      return childLifecycle(run, probe);
    case "paging":
      return paging(run, probe);
    case "feedRestart":
      return feedRestart(run, probe);
    default:
      return probe satisfies never;
  }
}

/** Runs the probes in order (the feed restart last: it stops the run's feed maintenance). */
export async function runProbes(run: ProbeRun, probes: readonly ProbePlan[]): Promise<ProbeOutcome[]> {
  const ordered = [
    ...probes.filter((p) => p.kind !== "feedRestart"),
    ...probes.filter((p) => p.kind === "feedRestart"),
  ];
  const outcomes: ProbeOutcome[] = [];
  for (const probe of ordered) {
    try {
      outcomes.push(await runProbe(run, probe));
    } catch (error) {
      outcomes.push(failedProbe(probe, errorText(error, run.secrets)));
    }
  }
  return outcomes;
}

/** The outcome of a probe that threw before its figures were complete. */
function failedProbe(probe: ProbePlan, detail: string): ProbeOutcome {
  const fields = { status: "failed" as const, detail, elapsedMs: 0 };
  switch (probe.kind) {
    case "concurrentCounter":
      return {
        probe: "concurrentCounter",
        counter: counterOf(probe),
        children: probe.children.length,
        edits: 0,
        failedWrites: 0,
        expected: probe.children.length,
        counted: [],
        ...fields,
      };
    case "childLifecycle":
      return {
        probe: "childLifecycle",
        counter: counterOf(probe),
        steps: [],
        expected: [],
        counted: [],
        copies: [],
        ...fields,
      };
    case "paging":
      return {
        probe: "paging",
        patternId: probe.patternId,
        pageSize: 0,
        pages: 0,
        items: 0,
        expected: 0,
        distinct: 0,
        ...fields,
      };
    case "feedRestart":
      return {
        probe: "feedRestart",
        counter: counterOf(probe),
        failuresInjected: 0,
        expected: 2,
        counted: null,
        ...fields,
      };
    default:
      return probe satisfies never;
  }
}
