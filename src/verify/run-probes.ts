/**
 * Runs the probes of `probe-plan.ts` through the generated data-access functions, after the
 * pattern checks of a verify run, in the same database: writes with their maintenance (the change
 * feed on a real endpoint, the handlers called directly on the embedded one), then the counters,
 * copies and pages read back from the containers directly. The counter probes are here; paging
 * and the change-feed restart have files of their own.
 */
import type { ProbeOutcome } from "./probe-outcomes.js";
import { feedRestart } from "./probe-feed-restart.js";
import { paging } from "./probe-paging.js";
import type { CounterSubject, ProbePlan, ProbeRecord } from "./probe-plan.js";
import { blocked, counted, counterOf, itemsWith, settle, write, type ProbeRun } from "./probe-support.js";
import { errorText, round } from "./run-patterns.js";

export type { ProbeRun } from "./probe-support.js";

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
      writes.push(
        write(run, edit.patternId, {
          record,
          parents: subject.parent.parents,
          ...(subject.parent.linked === undefined ? {} : { linked: subject.parent.linked }),
        }),
      );
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
          ? `no ${subject.holder.itemType} item holds the counter of ${subject.parentEntity} ${subject.parentKey.map((name) => String(subject.parent.record[name])).join("-")}`
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

/** The steps of a child's lifecycle: the write, its record and the count it leaves. */
function lifecycleSteps(
  probe: Extract<ProbePlan, { kind: "childLifecycle" }>,
  child: ProbeRecord,
): { step: LifecycleStep; patternId: string; record: ProbeRecord; want: number }[] {
  const update = probe.childUpdate;
  const changed =
    update === undefined ? child : { ...child, record: { ...child.record, [update.attribute]: CHANGED } };
  return [
    { step: "created", patternId: probe.childCreate, record: child, want: 1 },
    ...(update === undefined
      ? []
      : [{ step: "changed" as const, patternId: update.patternId, record: changed, want: 1 }]),
    { step: "removed", patternId: probe.childDelete, record: changed, want: 0 },
    // Written again after its removal (over a soft-delete tombstone, when deletes are soft).
    { step: "restored", patternId: probe.childCreate, record: child, want: 1 },
  ];
}

type LifecycleStep = "created" | "changed" | "removed" | "restored";

/** The value the lifecycle probe gives the attribute its update changes. */
const CHANGED = "probe changed";

/**
 * A child created, changed, removed and created again: the counter and the child's copies follow
 * each step (a copy of the changed child carries the change).
 */
async function childLifecycle(
  run: ProbeRun,
  probe: Extract<ProbePlan, { kind: "childLifecycle" }>,
): Promise<ProbeOutcome> {
  const started = performance.now();
  const child = probe.children[0];
  const steps = child === undefined ? [] : lifecycleSteps(probe, child);
  const base = {
    probe: "childLifecycle" as const,
    counter: counterOf(probe),
    steps: steps.map((s) => s.step),
    expected: steps.map((s) => s.want),
  };
  const reason = blocked(run, probe);
  if (child === undefined || reason !== undefined) {
    const why = reason ?? "no child record";
    return { ...base, status: "notCheckable", detail: why, counted: [], copies: [], elapsedMs: 0 };
  }
  const update = probe.childUpdate;
  const countedAfter: (number | null)[] = [];
  const copies = probe.copies.map((copy) => ({ copy, found: [] as number[] }));
  const problems: string[] = [];
  await write(run, probe.parentCreate, probe.parent);
  await settle(run);
  for (const { step, patternId, record, want } of steps) {
    await write(run, patternId, record);
    await settle(run);
    const found = await counted(run, probe);
    countedAfter.push(found[0] ?? null);
    if (found.length === 0 || found.some((value) => value !== want)) {
      problems.push(
        `after the ${probe.childEntity} was ${step} the counter reads ${found.join(", ") || "nothing"} (expected ${want})`,
      );
    }
    for (const entry of copies) {
      const items = await itemsWith(run, entry.copy, probe.childKey, child.record);
      entry.found.push(items.length);
      const stale =
        update !== undefined &&
        step === "changed" &&
        items.some((item) => item[update.attribute] !== undefined && item[update.attribute] !== CHANGED);
      if ((want === 0) !== (items.length === 0) || stale) {
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

/**
 * Runs the probes: the paging probes first (they only read, so the data is still what the
 * oracle's final dataset holds), the feed restart last (it stops the run's feed maintenance).
 * The outcomes are in the order of `probes`.
 */
export async function runProbes(run: ProbeRun, probes: readonly ProbePlan[]): Promise<ProbeOutcome[]> {
  const rank = (probe: ProbePlan): number =>
    probe.kind === "paging" ? 0 : probe.kind === "feedRestart" ? 2 : 1;
  const ranked = probes
    .map((probe, index) => ({ probe, index }))
    .sort((a, b) => rank(a.probe) - rank(b.probe));
  const outcomes = new Array<ProbeOutcome>(probes.length);
  for (const { probe, index } of ranked) {
    try {
      outcomes[index] = await runProbe(run, probe);
    } catch (error) {
      outcomes[index] = failedProbe(probe, errorText(error, run.secrets));
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
