/**
 * Look-ups over a workload and a model that every planning and costing step needs: entities by
 * name, relationships between two entities, where each entity is stored, and how many distinct
 * values (and how skewed) an attribute has.
 */
import { deleteCarriersOf, deletePropagationOf } from "../model/deletes.js";
import { effectiveItemType } from "../model/materialize-item.js";
import type { Container, DeletePropagation, ItemType, Model } from "../model/types.js";
import type { AccessPattern, Attribute, Entity, Relationship, Workload } from "../workload/types.js";
import { itemsAtHorizon } from "../workload/horizon.js";

/** One item type together with the container that holds it. */
export interface Placement {
  readonly container: Container;
  readonly item: ItemType;
}

export interface PlanningContext {
  readonly workload: Workload;
  readonly model: Model;
  entity(name: string): Entity;
  attribute(entity: string, name: string): Attribute | undefined;
  /** Every item type (in every container) that stores records of `entity`. */
  placementsOf(entity: string): readonly Placement[];
  placement(container: string, type: string): Placement | undefined;
  container(name: string): Container | undefined;
  /** The relationship whose parent is `parent` and child is `child` (one-to-many or one-to-one). */
  relationship(parent: string, child: string): Relationship | undefined;
  /** Relationships where `entity` is the child, with a `via` attribute. */
  parentsOf(entity: string): readonly Relationship[];
  /** Relationships where `entity` is the parent. */
  childrenOf(entity: string): readonly Relationship[];
  /** Entity count at the end of the planning horizon (`itemsAtHorizon`: growth, or the TTL steady state). */
  countAtHorizon(entity: string): number;
  /** Distinct values of an attribute: its `distinct`, the parent count for a `via`, the count for the key. */
  distinctValues(entity: string, attribute: string): number;
  /** Zipf exponent of how the attribute's values are used (0 = uniform). */
  skewOf(entity: string, attribute: string): number;
  /** Write patterns on an entity. */
  writesOf(entity: string): readonly AccessPattern[];
  /** Position of an access pattern in the workload (for ordering merged lists). */
  patternIndex(id: string): number;
  /** Read patterns on an entity or asking for it in `with`, in the workload's order. */
  readsTouching(entity: string): readonly AccessPattern[];
  /** Item types (as stored, not inherited) that are copies of `container`/`type`. */
  copiesOf(container: string, type: string): readonly Placement[];
  /** Item types without `source` that embed, count, or copy an attribute of `entity`. */
  embeddersOf(entity: string): readonly Placement[];
  counterHoldersOf(entity: string): readonly Placement[];
  copyHoldersOf(entity: string): readonly Placement[];
  /**
   * The tombstone property of an item type whose deletes are soft (a delete carrier under the
   * model's `deletes: softDelete`, `src/model/deletes.ts`): its deletes are patches, reads skip
   * tombstones. Undefined for every other item type.
   */
  tombstone(container: string, type: string): string | undefined;
  /** How the model carries deletes to the change feed (`deletePropagationOf`, its default filled in). */
  deletes(): DeletePropagation;
}

/** Builds the look-ups once for a workload and a model. */
export function createPlanningContext(workload: Workload, model: Model): PlanningContext {
  const entities = new Map(workload.entities.map((entity) => [entity.name, entity]));
  const placements = new Map<string, Placement[]>();
  const byKey = new Map<string, Placement>();
  const containers = new Map(model.containers.map((container) => [container.name, container]));
  for (const container of model.containers) {
    for (const stored of container.items) {
      // A copy holds what its source holds (copies, counters, embeds), narrowed by its projection.
      const item = effectiveItemType(stored, model);
      const list = placements.get(item.entity) ?? [];
      list.push({ container, item });
      placements.set(item.entity, list);
      byKey.set(`${container.name}/${item.type}`, { container, item });
    }
  }
  const entity = (name: string): Entity => {
    const found = entities.get(name);
    if (found === undefined)
      throw new Error(`internal: unknown entity ${name} (the loader checks references)`);
    return found;
  };
  const countAtHorizon = (name: string): number =>
    itemsAtHorizon(entity(name), workload.scale.horizonMonths).items;
  const { parents, children, pairs, writes, order, touching } = workloadIndexes(workload);
  const parentsOf = (name: string): readonly Relationship[] => parents.get(name) ?? [];
  const distinctValues = (entityName: string, name: string, seen: Set<string>): number => {
    const found = entity(entityName);
    const attribute = found.attributes.find((a) => a.name === name);
    if (attribute?.distinct !== undefined) return attribute.distinct;
    // A single key, or a unique attribute, has one value per record; an attribute of a composite
    // key does not (a film's id repeats on each of its actors' links).
    if ((found.key.length === 1 && found.key[0] === name) || attribute?.unique === true)
      return Math.max(1, countAtHorizon(entityName));
    const parent = parentsOf(entityName).find((r) => r.via?.includes(name) === true);
    const position = parent?.via?.indexOf(name) ?? -1;
    if (parent !== undefined && parent.via?.length === 1) return Math.max(1, countAtHorizon(parent.parent));
    // A via of one attribute of a composite parent key: that attribute's values among the parents.
    const parentKey = parent === undefined ? undefined : entity(parent.parent).key[position];
    if (parent !== undefined && parentKey !== undefined && !seen.has(`${parent.parent}.${parentKey}`)) {
      seen.add(`${entityName}.${name}`);
      return Math.min(
        Math.max(1, countAtHorizon(entityName)),
        distinctValues(parent.parent, parentKey, seen),
      );
    }
    // Unknown cardinality: assume every item has its own value (the optimistic default the
    // spec implies by asking for `distinct` on low-cardinality attributes).
    return Math.max(1, countAtHorizon(entityName));
  };
  const index = (pick: (item: ItemType) => readonly string[]): Map<string, Placement[]> => {
    const out = new Map<string, Placement[]>();
    for (const container of model.containers) {
      for (const item of container.items) {
        for (const key of new Set(pick(item))) append(out, key, { container, item });
      }
    }
    return out;
  };
  const copies = index((i) => (i.source === undefined ? [] : [`${i.source.container}/${i.source.type}`]));
  const embedders = index((i) => (i.source === undefined ? i.embeds.map((e) => e.entity) : []));
  const counters = index((i) => (i.source === undefined ? i.counts.map((c) => c.of) : []));
  const copyHolders = index((i) => (i.source === undefined ? i.copies.map((c) => c.from.entity) : []));
  const deletes = deletePropagationOf(model);
  const tombstoned = new Set(
    deletes.mode === "softDelete"
      ? deleteCarriersOf(workload, model).map((carrier) => `${carrier.container}/${carrier.itemType}`)
      : [],
  );
  return {
    workload,
    model,
    entity,
    attribute: (entityName, name) => entity(entityName).attributes.find((a) => a.name === name),
    placementsOf: (name) => placements.get(name) ?? [],
    placement: (container, type) => byKey.get(`${container}/${type}`),
    container: (name) => containers.get(name),
    relationship: (parent, child) => pairs.get(`${parent}>${child}`),
    parentsOf,
    childrenOf: (name) => children.get(name) ?? [],
    countAtHorizon,
    distinctValues: (entityName, name) => distinctValues(entityName, name, new Set()),
    skewOf: (entityName, name) => entity(entityName).attributes.find((a) => a.name === name)?.skew ?? 0,
    writesOf: (name) => writes.get(name) ?? [],
    readsTouching: (name) => touching.get(name) ?? [],
    patternIndex: (id) => order.get(id) ?? 0,
    copiesOf: (container, type) => copies.get(`${container}/${type}`) ?? [],
    embeddersOf: (name) => embedders.get(name) ?? [],
    counterHoldersOf: (name) => counters.get(name) ?? [],
    copyHoldersOf: (name) => copyHolders.get(name) ?? [],
    tombstone: (container, type) =>
      deletes.mode === "softDelete" && tombstoned.has(`${container}/${type}`) ? deletes.property : undefined,
    deletes: () => deletes,
  };
}

/**
 * Relationships and access patterns by entity, so look-ups stay constant-time on large workloads:
 * the relationships naming each entity as child (with a via) and as parent (not many-to-many),
 * the first relationship of each pair, the writes of each entity, the reads touching it (its own
 * and those asking for it in `with`), and each pattern's position.
 */
/** Appends `value` to the list under `key` (made on first use). */
function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

type WorkloadIndexes = ReturnType<typeof newWorkloadIndexes>;

/** The indexes of each workload, built once (every evaluation of a design builds a context). */
const indexesOf = new WeakMap<Workload, WorkloadIndexes>();

function workloadIndexes(workload: Workload): WorkloadIndexes {
  let indexes = indexesOf.get(workload);
  if (indexes === undefined) {
    indexes = newWorkloadIndexes(workload);
    indexesOf.set(workload, indexes);
  }
  return indexes;
}

function newWorkloadIndexes(workload: Workload) {
  const parents = new Map<string, Relationship[]>();
  const children = new Map<string, Relationship[]>();
  const pairs = new Map<string, Relationship>();
  for (const r of workload.relationships) {
    if (r.via !== undefined) append(parents, r.child, r);
    if (r.kind === "many-to-many") continue;
    append(children, r.parent, r);
    if (!pairs.has(`${r.parent}>${r.child}`)) pairs.set(`${r.parent}>${r.child}`, r);
  }
  const writes = new Map<string, AccessPattern[]>();
  const touching = new Map<string, AccessPattern[]>();
  for (const p of workload.accessPatterns) {
    if (p.type === "write") {
      append(writes, p.entity, p);
      continue;
    }
    for (const name of new Set([p.entity, ...p.with.map((w) => w.entity)])) append(touching, name, p);
  }
  const order = new Map(workload.accessPatterns.map((p, i) => [p.id, i]));
  return { parents, children, pairs, writes, order, touching };
}
