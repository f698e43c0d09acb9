/**
 * Design rules driven by how the current candidate serves the access patterns: denormalized
 * copies, counters and embedded newest children for `with` data; materialized copies keyed by a
 * frequent filter and bounded top-N sets (with replicas when one partition cannot serve them) for
 * patterns that fan out. Hot partitions are spread by `rules-spread.ts`.
 */
import { coversKey, isKeyAttribute } from "../workload/keys.js";
import type { DetailedEvaluation } from "../cost/evaluate.js";
import { effectiveItemType } from "../model/materialize-item.js";
import { templateAttributes } from "../model/templates.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { counterInBatch } from "../model/provenance.js";
import { createPlanningContext } from "../planner/context.js";
import { manyToManyCopyBytes } from "../planner/item-shape.js";
import { MANY_TO_MANY_COPY_MAX_BYTES, manyToManyLink } from "../planner/many-to-many.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { BYTES_PER_GB, MAX_LOGICAL_PARTITION_GB } from "../cosmos/limits.js";
import {
  addItem,
  containerFor,
  editItem,
  findPrimary,
  freshContainerName,
  freshItemType,
  propertyNameOf,
  twinOf,
  unspread,
} from "./model-edits.js";
import type { CounterMove } from "./parent-counters.js";
import type { Candidate } from "./search.js";

/** Replica counts tried for a bounded set of the newest items (all of them: the step can afford it). */
const REPLICA_CHOICES = [1, 2, 4, 8, 16, 32] as const;

/** True when a relationship with `via` (not many-to-many) leads from `parent` to `child`. */
function followsVia(workload: Workload, parent: string, child: string): boolean {
  return workload.relationships.some(
    (r) => r.parent === parent && r.child === child && r.kind !== "many-to-many" && r.via !== undefined,
  );
}

/**
 * True when `holder` and the entry's entity are many-to-many and the largest holder's array of
 * copied elements stays under `MANY_TO_MANY_COPY_MAX_BYTES` (else the read stays unserved and
 * says so: the link would need items of its own).
 */
function manyToManyCopyFits(
  workload: Workload,
  model: Model,
  holder: string,
  entry: { readonly entity: string; readonly attribute: string },
): boolean {
  const context = createPlanningContext(workload, model);
  const link = manyToManyLink(context, holder, entry.entity);
  if (link === undefined) return false;
  const copy = { from: { entity: entry.entity, attribute: entry.attribute }, as: "copy" };
  return manyToManyCopyBytes(context, copy, link).max <= MANY_TO_MANY_COPY_MAX_BYTES;
}

/**
 * True when the complete records of `entityName` are addressed by its key alone: the generated
 * code reads a copy's source by the key a new or re-parented holder gives (the way
 * src/render/code/model-data.ts finds it), so a source keyed otherwise cannot be copied from.
 */
function addressableByKey(workload: Workload, model: Model, entityName: string): boolean {
  const entity = workload.entities.find((e) => e.name === entityName);
  const item = findPrimary(model, entityName)?.item;
  if (entity === undefined || item === undefined) return false;
  if (item.select !== undefined || item.bucket !== undefined || item.replicas !== undefined) return false;
  if (item.shards !== undefined && item.shardBy !== undefined && !isKeyAttribute(entity, item.shardBy))
    return false;
  const named = [item.id, ...item.partitionKey].flatMap((t) => templateAttributes(t));
  return named.every((a) => isKeyAttribute(entity, a)) && coversKey(entity, named);
}

/**
 * True when a counter of `child` on `holder` would be kept in the transactional batch of every
 * write of the child (`counterInBatch` with each item type of the child's own), so a read that
 * must reflect every committed write can read it.
 */
function countsInBatch(
  workload: Workload,
  model: Model,
  holder: { readonly container: Container; readonly item: ItemType },
  child: string,
): boolean {
  if (holder.item.source !== undefined) return false;
  const children = model.containers.flatMap((container) =>
    container.items
      .filter((item) => item.entity === child && item.source === undefined)
      .map((item) => ({ container, item })),
  );
  return children.length > 0 && children.every((placed) => counterInBatch(workload, holder, placed));
}

/** A candidate of `denormalizationCandidates`; a counter on a parent says which (`parent-counters.ts`). */
export interface DenormalizationCandidate extends Candidate {
  readonly counter?: CounterMove;
}

/** Copies, counters and embedded newest children that would answer a read's `with` data in place. */
export function denormalizationCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pattern: ReadPattern,
): DenormalizationCandidate[] {
  const plan = evaluation.patterns.find((p) => p.id === pattern.id)?.plan;
  if (plan === undefined || plan.type !== "read" || plan.container === "") return [];
  // Copies and embeds are kept from the change feed: a read that must reflect every committed
  // write reads its related data at query time, or from a counter kept in the transactional batch
  // of every write of the counted child (`counterInBatch`).
  const fresh = pattern.maxStalenessSeconds === 0;
  const container = model.containers.find((c) => c.name === plan.container);
  const stored = container?.items.find((i) => i.type === plan.itemType);
  if (container === undefined || stored === undefined) return [];
  // What the answering item holds, including what a copy inherits from its source.
  const item = effectiveItemType(stored, model);
  // A copy is maintained from its source: denormalize on the source item.
  const target =
    stored.source === undefined ? { container: container.name, type: stored.type } : stored.source;
  const edits: { name: string; edit: (item: ItemType) => ItemType; counter?: CounterMove }[] = [];
  for (const entry of pattern.with) {
    switch (entry.kind) {
      case "attribute": {
        if (
          fresh ||
          entry.entity === pattern.entity ||
          item.copies.some((c) => c.from.entity === entry.entity && c.from.attribute === entry.attribute)
        )
          break;
        // A copy is kept up to date through the relationship's `via` (the holders are found by
        // it, a new holder finds its source by its key, so only from a source addressed by its key
        // alone), or across a many-to-many relationship as an array of elements that name their
        // source (planner/many-to-many.ts), while it fits.
        const manyToMany = !followsVia(workload, entry.entity, pattern.entity);
        if (manyToMany && !manyToManyCopyFits(workload, model, pattern.entity, entry)) break;
        if (!manyToMany && !addressableByKey(workload, model, entry.entity)) break;
        const property = manyToMany ? propertyNameOf(entry.attribute, true) : entry.attribute;
        const as = `${propertyNameOf(entry.entity, false)}${property.charAt(0).toUpperCase()}${property.slice(1)}`;
        edits.push({
          name: `copy ${entry.entity}.${entry.attribute} into ${target.type} items as ${as}`,
          edit: (i) => ({
            ...i,
            copies: [...i.copies, { from: { entity: entry.entity, attribute: entry.attribute }, as }],
          }),
        });
        break;
      }
      case "count": {
        // A counter is kept from the change feed of the counted items, which find their holder
        // by the relationship's `via`: none across a many-to-many relationship.
        if (
          item.counts.some((c) => c.of === entry.entity) ||
          !followsVia(workload, pattern.entity, entry.entity) ||
          (fresh && !countsInBatch(workload, model, { container, item: stored }, entry.entity))
        )
          break;
        const as = `${propertyNameOf(entry.entity, false)}Count`;
        edits.push({
          name: `keep a count of ${entry.entity} in ${target.type} items as ${as}`,
          edit: (i) => ({
            ...i,
            counts: [...i.counts, { of: entry.entity, as }],
          }),
          counter: { container: target.container, itemType: target.type, child: entry.entity, as },
        });
        break;
      }
      case "latest": {
        // The newest children are kept the same way as a counter; never an item's own kind (a
        // trip's newest managed trips: its write would patch the item it writes).
        if (
          fresh ||
          entry.entity === pattern.entity ||
          item.embeds.some((e) => e.entity === entry.entity) ||
          !followsVia(workload, pattern.entity, entry.entity)
        )
          break;
        const as = `recent${entry.entity}`;
        edits.push({
          name: `embed the newest ${entry.n} ${entry.entity} in ${target.type} items (subset pattern)`,
          edit: (i) => ({
            ...i,
            embeds: [...i.embeds, { entity: entry.entity, as, latest: entry.n }],
          }),
        });
        break;
      }
      case "aggregate":
      case "all":
        break;
      default:
        return entry satisfies never;
    }
  }
  const candidates = edits.map(({ name, edit, counter }) => ({
    name,
    model: editItem(model, target.container, target.type, edit),
    ...(counter === undefined ? {} : { counter }),
  }));
  // A read with several entries is served only when every one is: one at a time, none lowers the
  // cost of a read that stays unserved, so after each alone, all those still missing together
  // (independent seed 6: two copies across a many-to-many relationship, each refused alone).
  if (edits.length < 2) return candidates;
  const all: Candidate = {
    name: edits.map((e) => e.name).join("; "),
    model: editItem(model, target.container, target.type, (i) => edits.reduce((item, e) => e.edit(item), i)),
  };
  return [...candidates, all];
}

/**
 * The size of a bounded set of the newest `entity` items by `by` (descending) per value of the
 * equality filters `keys` (none: one set of all items), made for `pattern`: the largest limit of
 * every read the set would answer but for its size (same entity, order and equality filters, and
 * cuts that keep what it needs), so that no read in the set's order finds it too small (a set of
 * the newest 10 for one read and another read in that order asking for 100: one set of 100, the
 * smaller read takes its first 10). A read without a limit needs every item: no set is offered.
 * Undefined too when the set would not fit one logical partition (20 GB): a smaller one would be
 * too small for the larger read.
 */
function boundedSetCount(
  workload: Workload,
  pattern: ReadPattern,
  by: string,
  keys: readonly string[],
  projection: { readonly select?: readonly string[]; readonly truncate: ReadPattern["truncate"] },
): number | undefined {
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  // As the planner judges a set (planner/plan-read.ts coverageProblems): a projection answers
  // through a lookup of the complete item, so only a cut of an attribute the read needs counts.
  const answers = (read: ReadPattern): boolean => {
    const first = read.orderBy[0];
    const filters = new Set(read.where.map((w) => w.attribute));
    const needed = new Set([
      ...(read.select ?? entity?.attributes.map((a) => a.name) ?? []),
      ...read.where.map((w) => w.attribute),
      ...read.orderBy.map((o) => o.attribute),
    ]);
    return (
      read.entity === pattern.entity &&
      read.maxStalenessSeconds !== 0 &&
      first?.attribute === by &&
      first.direction === "desc" &&
      read.where.every((w) => w.op === "eq") &&
      filters.size === keys.length &&
      keys.every((k) => filters.has(k)) &&
      projection.truncate.every(
        (cut) =>
          !needed.has(cut.attribute) ||
          read.truncate.some((t) => t.attribute === cut.attribute && t.bytes <= cut.bytes),
      )
    );
  };
  const count = workload.accessPatterns
    .filter((p): p is ReadPattern => p.type === "read" && answers(p))
    .reduce((most, read) => Math.max(most, read.limit ?? Infinity), pattern.limit ?? Infinity);
  const bytes = count * (entity?.avgBytes ?? 0);
  return !Number.isFinite(count) || bytes > MAX_LOGICAL_PARTITION_GB * BYTES_PER_GB ? undefined : count;
}

/**
 * For a read that fans out: a copy keyed by each of its equality filters, a bounded set of the
 * newest items per value of its equality filters ("newest 20 by status"), or a bounded set of
 * its newest items when it has no filter. Copies are kept from the change feed, so a read that
 * must see every committed write (`maxStalenessSeconds: 0`) gets none.
 */
export function fanOutCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pattern: ReadPattern,
): Candidate[] {
  const evaluated = evaluation.patterns.find((p) => p.id === pattern.id);
  // Its own query visits every partition (even when the container has one today: the fan-out
  // grows with the data, and a diverging fan-out keeps the partition count from growing).
  const first = evaluated?.plan.operations[0];
  if (evaluated === undefined || first?.kind !== "query" || first.scope !== "fanOut") return [];
  if (pattern.maxStalenessSeconds === 0) return [];
  const home = findPrimary(model, pattern.entity);
  // A bucket holds the records of one bucket key and window: keyed by any other attribute, a
  // copy of it would have no key value (records of many values share the bucket).
  if (home === undefined || home.item.bucket !== undefined) return [];
  const projection = copyProjection(pattern, home.item);
  const equalities = [...new Set(pattern.where.filter((w) => w.op === "eq").map((w) => w.attribute))];
  return [
    ...keyedCopyCandidates(model, home, pattern, projection, equalities),
    ...boundedSetCandidates(workload, model, home, pattern, projection, equalities),
  ];
}

type Home = NonNullable<ReturnType<typeof findPrimary>>;
type Projection = Pick<ItemType, "select" | "truncate">;

/** What a copy serving the read stores: its `select` (with the id, filters and order) and cuts. */
function copyProjection(pattern: ReadPattern, item: ItemType): Projection {
  return {
    ...(pattern.select === undefined
      ? {}
      : {
          select: [
            ...new Set([
              ...pattern.select,
              // The attributes of the id (each of a composite key's): the copy's id is rendered from them.
              ...templateAttributes(item.id),
              ...pattern.where.map((w) => w.attribute),
              ...pattern.orderBy.map((o) => o.attribute),
            ]),
          ],
        }),
    truncate: pattern.truncate,
  };
}

/**
 * A copy of the home item type kept from its change feed under `partitionKey`: the record's own
 * attributes as the read's projection keeps them, without the home's spread, copies, counters or
 * embeds (those stay with the source).
 */
function copyOf(home: Home, partitionKey: readonly string[], projection: Projection): ItemType {
  return {
    ...unspread(home.item),
    partitionKey,
    source: { container: home.container.name, type: home.item.type },
    embeds: [],
    copies: [],
    counts: [],
    ...projection,
  };
}

/** A copy keyed by each equality filter of the read, in a container already keyed by it or a new one. */
function keyedCopyCandidates(
  model: Model,
  home: Home,
  pattern: ReadPattern,
  projection: Projection,
  equalities: readonly string[],
): Candidate[] {
  return equalities.flatMap((attribute) => {
    // Reuse a container already keyed by the filter (the case study's V3 move), or add one; of
    // several, the one that holds a copy of the entity under that key already (widened below).
    const keyedBy = model.containers.filter(
      (c) => c.partitionKey.length === 1 && c.partitionKey[0] === `/${attribute}`,
    );
    const copyIn = (container: Container | undefined): ItemType => ({
      ...copyOf(home, [`{${attribute}}`], projection),
      type: freshItemType(container, home.item.type),
    });
    const keyed = keyedBy.find((c) => twinOf(c, copyIn(c)) !== undefined) ?? keyedBy[0];
    const name =
      keyed?.name ?? freshContainerName(model, `${home.container.name}-by-${attribute.toLowerCase()}`);
    const container = keyed ?? containerFor(name, home.item, [`/${attribute}`]);
    const copy = copyIn(keyed);
    // The entity keyed by the filter there already: a copy of it (another read's) is widened to
    // serve this read too (addItem merges them), never a second item type of it at that place;
    // its own items need no copy.
    const twin = keyed === undefined ? undefined : twinOf(keyed, copy);
    if (twin !== undefined && twin.source === undefined) return [];
    return [
      {
        name:
          twin === undefined
            ? `copy ${pattern.entity} into ${name} (partitioned by ${attribute}) from the change feed`
            : `widen the copy ${name}/${twin.type} (partitioned by ${attribute}) to serve ${pattern.id} too`,
        model: addItem(model, container, copy),
      },
    ];
  });
}

/**
 * A bounded set of the newest N for a read ordered newest first with a limit: per value of its
 * equality filters (every filter must be one: the set holds only the newest of its partition, it
 * cannot filter further), or, without a filter, one set in REPLICA_CHOICES replicas.
 */
function boundedSetCandidates(
  workload: Workload,
  model: Model,
  home: Home,
  pattern: ReadPattern,
  projection: Projection,
  equalities: readonly string[],
): Candidate[] {
  const newest = pattern.orderBy[0];
  if (newest?.direction !== "desc" || pattern.limit === undefined) return [];
  const count = boundedSetCount(
    workload,
    pattern,
    newest.attribute,
    pattern.where.length === 0 ? [] : equalities,
    projection,
  );
  if (count === undefined) return [];
  const set = (partitionKey: readonly string[]): ItemType => ({
    ...copyOf(home, partitionKey, projection),
    keepLatest: { count, by: newest.attribute },
  });
  if (pattern.where.length > 0 && equalities.length === pattern.where.length && equalities.length <= 3) {
    const template = equalities.map((a) => `{${a}}`).join("-");
    const name = freshContainerName(
      model,
      `${home.container.name}-latest-by-${equalities.map((a) => a.toLowerCase()).join("-")}`,
    );
    const path = equalities.length === 1 ? `/${equalities[0] ?? ""}` : "/partition";
    return [
      {
        name: `keep the newest ${count} ${pattern.entity} per ${equalities.join(" and ")} in ${name}, trimmed from the change feed`,
        model: addItem(model, containerFor(name, home.item, [path]), set([template])),
      },
    ];
  }
  if (pattern.where.length > 0) return [];
  const name = freshContainerName(model, `${home.container.name}-latest`);
  // Identical copies spread the reads; the evaluation picks how many (more copies, more writes).
  return REPLICA_CHOICES.map((replicas) => {
    const key = replicas > 1 ? `${home.item.type}-{replica}` : home.item.type;
    return {
      name: `keep the newest ${count} ${pattern.entity} in ${name}${replicas > 1 ? ` (${replicas} replicas)` : ""}, trimmed from the change feed`,
      model: addItem(model, containerFor(name, home.item, ["/partition"]), {
        ...set([key]),
        ...(replicas > 1 ? { replicas } : {}),
      }),
    };
  });
}
