/**
 * The probes of a verify run (issue 13), derived from the model: which of the data-access layer's
 * promises apply to it and the write and read patterns that exercise them. Pure: the records are
 * drawn from the run's planned writes and dataset, with fresh keys so the probes' figures are
 * exact whatever the loaded data holds.
 *
 * - `concurrentCounter`: for each counter (`counts`) whose child has a create pattern, N children
 *   created while the holder is edited N times, all at once: the counter must end at exactly N.
 * - `childLifecycle`: for each counter whose child also has a delete pattern: a child created,
 *   changed (when the workload changes it), removed and created again: the counter reads 1, 1, 0,
 *   1 and the child's copies in other containers (item types kept from its change feed) follow it
 *   (the last step writes over a soft-delete tombstone when deletes are soft).
 * - `paging`: for each read whose first step is a query: every page at a small page size, joined,
 *   is the answer read in large pages, each item once, in the same order.
 * - `feedRestart`: for a counter kept from the change feed: a handler that fails once and a
 *   processor stopped and restarted from its checkpoints lose no change (a real account only).
 */
import { templateProblem, templateUses } from "../model/templates.js";
import type { Counter, Model } from "../model/types.js";
import type { QueryStep } from "../planner/types.js";
import type { EntityRecord } from "../synthetic/generate-records.js";
import { linkingRelationships } from "../synthetic/generate-records.js";
import type { Workload, WritePattern } from "../workload/types.js";
import type { PatternParameters } from "./oracle.js";
import { entityOf, recordsOf } from "./oracle.js";
import { linkedRecordsOf, parentRecordsOf, type VerificationPlan } from "./verification-plan.js";

/** Children created (and holder edits made) at once by `concurrentCounter`. */
export const CONCURRENT_WRITES = 20;
/** Read requests `paging` pages through per pattern (the ones with the most results). */
export const PAGING_REQUESTS = 3;

/** An item type of the model. */
export interface ItemTypeRef {
  readonly container: string;
  readonly itemType: string;
}

/** A record a probe writes through a write pattern, with the related records the function takes. */
export interface ProbeRecord {
  readonly record: EntityRecord;
  readonly parents: Readonly<Record<string, EntityRecord>>;
  /** Records linked many-to-many, by entity (for copies across the relationship; none for a new record). */
  readonly linked?: Readonly<Record<string, readonly EntityRecord[]>>;
}

/** What the counter probes share: the holder, its counter, and how to write a parent and a child. */
export interface CounterSubject {
  readonly holder: ItemTypeRef;
  readonly counter: Counter;
  readonly parentEntity: string;
  /** The parent entity's key attributes. */
  readonly parentKey: readonly string[];
  readonly childEntity: string;
  /** The child entity's key attributes. */
  readonly childKey: readonly string[];
  readonly parentCreate: string;
  readonly childCreate: string;
  /** The parent of every probe child (a fresh key). */
  readonly parent: ProbeRecord;
  /** Children of `parent` with fresh keys. */
  readonly children: readonly ProbeRecord[];
  /** The holder's edit pattern and the attribute it changes (none: no edit is raced). */
  readonly parentEdit?: { readonly patternId: string; readonly attribute: string };
  /** True when the counter is kept by the change feed's handlers (not in the child's write). */
  readonly fromFeed: boolean;
}

export type ProbePlan =
  | ({ readonly kind: "concurrentCounter" } & CounterSubject)
  | ({
      readonly kind: "childLifecycle";
      readonly childDelete: string;
      readonly childUpdate?: { readonly patternId: string; readonly attribute: string };
      /** Item types that copy the child from its container's change feed (all of them, no bound). */
      readonly copies: readonly ItemTypeRef[];
    } & CounterSubject)
  | {
      readonly kind: "paging";
      readonly patternId: string;
      /** The pattern's page size (its limit), when it has one. */
      readonly pageSize?: number;
      /**
       * Page sizes every request is read at (tests: 1, 2, 5, 7); absent: the request with the
       * most results, at a quarter of its answer.
       */
      readonly pageSizes?: readonly number[];
      /** The properties the query orders by (none: any order); items tied on them may swap. */
      readonly orderBy: readonly string[];
      /**
       * Properties that differ between the replicas of one item (the key or id properties whose
       * template uses `{replica}`): the reference read and the pages may read different replicas.
       */
      readonly replicaProperties: readonly string[];
      readonly requests: readonly PatternParameters[];
    }
  | ({ readonly kind: "feedRestart" } & CounterSubject);

/** The write patterns verify runs on their own (not written with a parent), by entity and operation. */
function runnableWrites(plan: VerificationPlan): WritePattern[] {
  const runnable = new Set(
    plan.patterns
      .filter((check) => check.kind === "write" && check.notCheckable === undefined)
      .map((check) => check.patternId),
  );
  return plan.workload.accessPatterns.filter(
    (pattern): pattern is WritePattern => pattern.type === "write" && runnable.has(pattern.id),
  );
}

function writeOf(
  writes: readonly WritePattern[],
  entity: string,
  operations: readonly WritePattern["operation"][],
): WritePattern | undefined {
  return writes.find((pattern) => pattern.entity === entity && operations.includes(pattern.operation));
}

/**
 * A string attribute a write may change that moves no item: not the key, not a reference to a
 * parent, not in any id or partition key template of the entity's item types.
 */
function changeableAttribute(workload: Workload, model: Model, pattern: WritePattern): string | undefined {
  const entity = entityOf(workload, pattern.entity);
  const fixed = new Set<string>(entity.key);
  for (const relationship of linkingRelationships(workload)) {
    if (relationship.child === entity.name) for (const via of relationship.via) fixed.add(via);
  }
  for (const name of addressAttributes(model, entity.name)) fixed.add(name);
  for (const item of model.containers.flatMap((container) => container.items)) {
    if (item.entity !== entity.name) continue;
    if (item.keepLatest !== undefined) fixed.add(item.keepLatest.by);
    if (item.bucket?.kind === "window") fixed.add(item.bucket.by);
    if (item.shardBy !== undefined) fixed.add(item.shardBy);
  }
  return entity.attributes.find(
    (attribute) =>
      attribute.type === "string" &&
      !fixed.has(attribute.name) &&
      (pattern.changes === undefined || pattern.changes.includes(attribute.name)),
  )?.name;
}

/**
 * Fresh values of `entity`'s key attributes (strings, or numbers for number attributes), by
 * attribute: a key no loaded record has.
 */
function freshKey(workload: Workload, entity: string, n: number): Record<string, string | number> {
  const found = entityOf(workload, entity);
  return Object.fromEntries(
    found.key.map((name, position) => {
      const type = found.attributes.find((attribute) => attribute.name === name)?.type;
      const suffix = found.key.length === 1 ? "" : `-${position}`;
      return [name, type === "number" ? 990_000_000 + n : `probe-${entity.toLowerCase()}-${n}${suffix}`];
    }),
  );
}

/** A template record of `entity` for `patternId`: its first planned write, else the first loaded record. */
function template(plan: VerificationPlan, patternId: string, entity: string): EntityRecord | undefined {
  return (
    plan.writes.find((write) => write.patternId === patternId)?.record ?? recordsOf(plan.dataset, entity)[0]
  );
}

/** Attributes in the id or partition key templates of `entity`'s item types. */
function addressAttributes(model: Model, entity: string): Set<string> {
  const names = new Set<string>();
  for (const item of model.containers.flatMap((container) => container.items)) {
    if (item.entity !== entity) continue;
    for (const template of [item.id, ...item.partitionKey]) {
      for (const match of template.matchAll(/\{([^}]+)\}/g)) names.add(match[1] ?? "");
    }
  }
  return names;
}

/**
 * Up to `count` records of `entity` whose address attributes (other than `fixed`: the key and the
 * parent reference the probe sets) differ, so each probe child is an item of its own (a reaction's
 * id is {postId}-{userId}: one user per reaction), their other references to existing records.
 */
function distinctTemplates(
  plan: VerificationPlan,
  first: EntityRecord,
  entity: string,
  fixed: ReadonlySet<string>,
  count: number,
): EntityRecord[] {
  const varying = [...addressAttributes(plan.model, entity)].filter((name) => !fixed.has(name));
  // Addressed by the fresh key and the parent alone: every copy of the template is its own item.
  if (varying.length === 0) return Array.from({ length: count }, () => first);
  const seen = new Set<string>();
  const out: EntityRecord[] = [];
  for (const record of [first, ...recordsOf(plan.dataset, entity)]) {
    const address = JSON.stringify(varying.map((name) => record[name] ?? null));
    if (seen.has(address)) continue;
    seen.add(address);
    out.push(record);
    if (out.length >= count) break;
  }
  return out;
}

/** The counter subjects of the model: holders whose counted child the workload creates. */
function counterSubjects(
  plan: VerificationPlan,
  writes: readonly WritePattern[],
  offset: number,
): CounterSubject[] {
  const { workload, model } = plan;
  const subjects: CounterSubject[] = [];
  let sequence = offset;
  for (const container of model.containers) {
    for (const item of container.items) {
      if (item.source !== undefined || item.bucket !== undefined) continue;
      for (const counter of item.counts) {
        const link = linkingRelationships(workload).find(
          (r) => r.parent === item.entity && r.child === counter.of,
        );
        const parentCreate = writeOf(writes, item.entity, ["create", "upsert"]);
        const childCreate = writeOf(writes, counter.of, ["create", "upsert"]);
        if (link === undefined || parentCreate === undefined || childCreate === undefined) continue;
        const parentTemplate = template(plan, parentCreate.id, item.entity);
        const childTemplate = template(plan, childCreate.id, counter.of);
        if (parentTemplate === undefined || childTemplate === undefined) continue;
        const parentKey = entityOf(workload, item.entity).key;
        const childKey = entityOf(workload, counter.of).key;
        const n = ++sequence;
        const parentRecord = { ...parentTemplate, ...freshKey(workload, item.entity, n) };
        const parent = {
          record: parentRecord,
          parents: parentRecordsOf(workload, plan.dataset, item.entity, parentTemplate),
          linked: linkedRecordsOf(workload, plan.dataset, item.entity, parentRecord),
        };
        const templates = distinctTemplates(
          plan,
          childTemplate,
          counter.of,
          new Set([...childKey, ...link.via]),
          CONCURRENT_WRITES,
        );
        const children = templates.map((record, i) => ({
          record: {
            ...record,
            ...freshKey(workload, counter.of, n * 1000 + i),
            // The via holds the parent's key, attribute by attribute.
            ...Object.fromEntries(link.via.map((via, index) => [via, parentRecord[parentKey[index] ?? ""]])),
          },
          parents: {
            ...parentRecordsOf(workload, plan.dataset, counter.of, record),
            [item.entity]: parentRecord,
          },
          linked: linkedRecordsOf(workload, plan.dataset, counter.of, record),
        }));
        const edit = writeOf(writes, item.entity, ["upsert", "replace", "patch"]);
        const attribute = edit === undefined ? undefined : changeableAttribute(workload, model, edit);
        const childPlan = plan.plans.find((p) => p.patternId === childCreate.id);
        subjects.push({
          holder: { container: container.name, itemType: item.type },
          counter,
          parentEntity: item.entity,
          parentKey,
          childEntity: counter.of,
          childKey,
          parentCreate: parentCreate.id,
          childCreate: childCreate.id,
          parent,
          children,
          ...(edit === undefined || attribute === undefined
            ? {}
            : { parentEdit: { patternId: edit.id, attribute } }),
          fromFeed:
            childPlan?.type === "write" &&
            childPlan.async.some(
              (step) =>
                step.reason === "counter" &&
                step.steps.some(
                  (inner) => inner.container === container.name && inner.itemType === item.type,
                ),
            ),
        });
      }
    }
  }
  return subjects;
}

/** The top-level properties of a query's ORDER BY (`c.createdAt DESC` -> createdAt). */
export function orderProperties(sql: string): string[] {
  const clause = /\bORDER\s+BY\s+(.+?)(?:\s+OFFSET\b|$)/is.exec(sql)?.[1];
  if (clause === undefined) return [];
  return [...clause.matchAll(/\bc(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[("(?:[^"\\]|\\.)*")\])/g)].map(
    (match) => match[1] ?? (JSON.parse(match[2] ?? '""') as string),
  );
}

/** The properties of the item type `query` reads whose value depends on the replica read. */
function replicaProperties(model: Model, query: QueryStep): string[] {
  const container = model.containers.find((c) => c.name === query.container);
  const item = container?.items.find((i) => i.type === query.itemType);
  if (container === undefined || item?.replicas === undefined) return [];
  const byReplica = (template: string | undefined) =>
    template !== undefined && templateProblem(template) === undefined && templateUses(template, "replica");
  return [
    ...(byReplica(item.id) ? ["id"] : []),
    ...container.partitionKey.flatMap((path, level) =>
      byReplica(item.partitionKey[level]) ? [path.slice(1)] : [],
    ),
  ];
}

/** What a run asks of its probes beyond the model's own (tests ask for more pages). */
export interface ProbeOptions {
  /** Page sizes the paging probe reads every request at (default: a quarter of the largest answer). */
  readonly pagingPageSizes?: readonly number[];
}

/** The paging probes: reads whose first step is a query, with the requests that return the most. */
function pagingProbes(plan: VerificationPlan, options: ProbeOptions): ProbePlan[] {
  const probes: ProbePlan[] = [];
  for (const check of plan.patterns) {
    if (check.kind !== "read" || check.notCheckable !== undefined) continue;
    const first = check.plan.operations[0];
    if (first?.kind !== "query" || check.requests.length === 0) continue;
    const query: QueryStep = first;
    probes.push({
      kind: "paging",
      patternId: check.patternId,
      ...(query.pageSize === undefined ? {} : { pageSize: query.pageSize }),
      ...(options.pagingPageSizes === undefined ? {} : { pageSizes: options.pagingPageSizes }),
      orderBy: orderProperties(query.sql),
      replicaProperties: replicaProperties(plan.model, query),
      requests: check.requests.slice(0, PAGING_REQUESTS).map((request) => request.parameters),
    });
  }
  return probes;
}

/**
 * The probes that apply to the model of `plan`, in a stable order (counters in model order, then
 * the reads in workload order, then the change-feed restart).
 */
export function planProbes(plan: VerificationPlan, options: ProbeOptions = {}): ProbePlan[] {
  const writes = runnableWrites(plan);
  // Each probe its own parent (fresh keys): the figures of one never include another's writes.
  const subjects = counterSubjects(plan, writes, 0);
  const probes: ProbePlan[] = subjects.map((subject) => ({ kind: "concurrentCounter", ...subject }));
  for (const subject of counterSubjects(plan, writes, 100)) {
    const childDelete = writeOf(writes, subject.childEntity, ["delete"]);
    if (childDelete === undefined) continue;
    const update = writeOf(writes, subject.childEntity, ["upsert", "replace", "patch"]);
    const attribute =
      update === undefined ? undefined : changeableAttribute(plan.workload, plan.model, update);
    const copies = plan.model.containers.flatMap((container) =>
      container.items
        .filter(
          (item) =>
            item.entity === subject.childEntity && item.source !== undefined && item.keepLatest === undefined,
        )
        .map((item) => ({ container: container.name, itemType: item.type })),
    );
    probes.push({
      kind: "childLifecycle",
      ...subject,
      childDelete: childDelete.id,
      ...(update === undefined || attribute === undefined
        ? {}
        : { childUpdate: { patternId: update.id, attribute } }),
      copies,
    });
  }
  probes.push(...pagingProbes(plan, options));
  const fed = counterSubjects(plan, writes, 200).find((subject) => subject.fromFeed);
  if (fed !== undefined) probes.push({ kind: "feedRestart", ...fed });
  return probes;
}
