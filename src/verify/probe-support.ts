/**
 * What the probes of a verify run share (`run-probes.ts`): writing a record through a write pattern
 * with its maintenance, waiting for the change feed, and reading items, counters and copies back
 * from the containers directly (not through the code under test).
 */
import type { Container } from "@azure/cosmos";
import { deletePropagationOf } from "../model/deletes.js";
import { propertyRef } from "../runtime/sql.js";
import type { EntityRecord } from "../synthetic/generate-records.js";
import type { GeneratedChange, GeneratedWriteResult } from "./load-data-access.js";
import type { CounterRef } from "./probe-outcomes.js";
import type { CounterSubject, ItemTypeRef, ProbeRecord } from "./probe-plan.js";
import type { PatternRun } from "./run-patterns.js";
import { writeInputRecord } from "./write-input.js";

/** A probe run: the pattern run's module and endpoint, and the deployment's containers. */
export interface ProbeRun extends PatternRun {
  readonly containers: ReadonlyMap<string, Container>;
}

/** Writes a record through a write pattern, with its maintenance where the change feed does not run. */
export async function write(run: ProbeRun, patternId: string, probe: ProbeRecord): Promise<void> {
  const pattern = run.plan.workload.accessPatterns.find((p) => p.id === patternId);
  const record =
    pattern?.type === "write"
      ? writeInputRecord(run.plan.workload, run.plan.model, pattern, probe.record)
      : probe.record;
  const result = (await run.access.pattern(patternId)(record, {
    parents: probe.parents,
    ...(probe.linked === undefined ? {} : { linked: probe.linked }),
  })) as unknown as GeneratedWriteResult;
  if (run.feed !== undefined) return;
  run.state.depth++;
  try {
    await run.access.applyChanges(result.changes as GeneratedChange[]);
  } finally {
    run.state.depth--;
  }
}

export async function settle(run: ProbeRun): Promise<void> {
  if (run.feed !== undefined) await run.feed.settle();
}

/**
 * The live items of an item type holding the values of `key`'s attributes taken from `record`
 * (a record's whole key, one attribute or several; tombstones left out).
 */
export async function itemsWith(
  run: ProbeRun,
  ref: ItemTypeRef,
  key: readonly string[],
  record: Readonly<Record<string, unknown>>,
): Promise<EntityRecord[]> {
  const container = run.containers.get(ref.container);
  if (container === undefined) return [];
  const conditions = key.map((attribute, index) => `${propertyRef(attribute)} = @value${index}`);
  const { resources } = await container.items
    .query<EntityRecord>({
      query: `SELECT * FROM c WHERE c.type = @type AND ${conditions.join(" AND ")}`,
      parameters: [
        { name: "@type", value: ref.itemType },
        ...key.map((attribute, index) => ({
          name: `@value${index}`,
          value: record[attribute] as string | number,
        })),
      ],
    })
    .fetchAll();
  const deletes = deletePropagationOf(run.plan.model);
  const tombstone = deletes.mode === "softDelete" ? deletes.property : undefined;
  return resources.filter((item) => tombstone === undefined || item[tombstone] !== true);
}

/** The counter on each holder item of the subject's parent. */
export async function counted(run: ProbeRun, subject: CounterSubject): Promise<number[]> {
  const holders = await itemsWith(run, subject.holder, subject.parentKey, subject.parent.record);
  return holders.map((item) => {
    const value = item[subject.counter.as];
    return typeof value === "number" ? value : Number.NaN;
  });
}

export function counterOf(subject: CounterSubject): CounterRef {
  return { holder: subject.holder, property: subject.counter.as, child: subject.childEntity };
}

/** Why a subject cannot be checked here (its containers are keyed by the first level only), if so. */
export function blocked(run: ProbeRun, subject: CounterSubject): string | undefined {
  return run.hierarchical.has(subject.holder.container) || run.unreliable.has(subject.holder.container)
    ? run.hierarchicalReason
    : undefined;
}
