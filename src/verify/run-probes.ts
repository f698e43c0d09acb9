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
import type { CounterSubject, ProbePlan } from "./probe-plan.js";
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
