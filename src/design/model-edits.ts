/**
 * Small immutable edits of a model that the design search applies and evaluates: the baseline
 * (one container per entity), moving an item type into another container, re-keying a
 * container, adding copies, counters, embeds, materialized copies and bounded sets.
 */
import { zipfShare } from "../cost/zipf.js";
import { keyTemplate } from "../workload/keys.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { parseTemplate, templateAttributes } from "../model/templates.js";
import type { Entity, Workload } from "../workload/types.js";

/** `SessionEvent` -> `session-events`. */
export function containerNameOf(entity: string): string {
  const kebab = entity
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9-]+/g, "-")
    .toLowerCase();
  if (/(s|x|ch|sh)$/.test(kebab)) return `${kebab}es`;
  if (/[^aeiou]y$/.test(kebab)) return `${kebab.slice(0, -1)}ies`;
  return `${kebab}s`;
}

/** `SessionEvent` -> `sessionEvent`. */
export function itemTypeOf(entity: string): string {
  return entity.charAt(0).toLowerCase() + entity.slice(1);
}

/** A property name for an entity (`OrderLine` -> `orderLine`, or `orderLines` when plural). */
export function propertyNameOf(entity: string, plural: boolean): string {
  const name = itemTypeOf(entity).replace(/[^A-Za-z0-9_]/g, "");
  if (!plural) return name;
  if (/(s|x|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** A container name not used yet in `model`. */
export function freshContainerName(model: Model, wanted: string): string {
  let name = wanted;
  for (let n = 2; model.containers.some((c) => c.name === name); n++) name = `${wanted}-${n}`;
  return name;
}

/**
 * The attribute an entity's own container is keyed by: its key, or of a composite key the
 * attribute whose busiest value takes the smallest share of the records (its distinct values and
 * skew; the first on a tie: a link's parent, `filmId` of `[filmId, actorId]`). The id, of the
 * whole key, stays unique within each of its logical partitions. A reaction keyed
 * `[postId, userId]` where one viral post takes 38% of the reactions is keyed by `userId`.
 */
export function ownPartitionAttribute(entity: Entity, workload?: Workload): string {
  const first = entity.key[0] ?? "id";
  if (workload === undefined || entity.key.length < 2) return first;
  const busiestShare = (name: string): number => {
    const attribute = entity.attributes.find((a) => a.name === name);
    const parent = workload.relationships
      .filter((r) => r.child === entity.name && r.via?.length === 1 && r.via[0] === name)
      .map((r) => workload.entities.find((e) => e.name === r.parent)?.count)
      .find((count) => count !== undefined);
    const distinct = Math.max(1, attribute?.distinct ?? parent ?? entity.count);
    return zipfShare(distinct, attribute?.skew ?? 0);
  };
  let best = first;
  for (const name of entity.key) if (busiestShare(name) < busiestShare(best)) best = name;
  return best;
}

/** The item type of an entity in its own container, keyed by `keyAttributes` (1-3); its id is the whole key. */
export function plainItem(entity: Entity, keyAttributes: readonly string[]): ItemType {
  return {
    type: itemTypeOf(entity.name),
    entity: entity.name,
    id: keyTemplate(entity.key),
    partitionKey: keyAttributes.map((a) => `{${a}}`),
    truncate: [],
    embeds: [],
    copies: [],
    counts: [],
  };
}

/** An item type without the shards and replicas of its old key (a new key starts unspread). */
export function unspread(item: ItemType): ItemType {
  const { shards: _shards, shardBy: _shardBy, replicas: _replicas, ...rest } = item;
  return rest;
}

/** A container holding one item type, keyed by the item's key attributes. */
export function containerFor(name: string, item: ItemType, paths: readonly string[]): Container {
  return { name, partitionKey: paths, uniqueKeys: [], indexing: { kind: "derived" }, items: [item] };
}

/** The naive model: one container per entity, partitioned by the entity's key. */
export function baselineModel(workload: Workload): Model {
  return {
    version: 1,
    containers: workload.entities.map((entity) =>
      containerFor(
        containerNameOf(entity.name),
        plainItem(entity, [ownPartitionAttribute(entity, workload)]),
        [`/${ownPartitionAttribute(entity, workload)}`],
      ),
    ),
  };
}

/** Where an entity's primary item type lives. */
export function findPrimary(
  model: Model,
  entity: string,
): { container: Container; item: ItemType } | undefined {
  for (const container of model.containers) {
    const item = container.items.find((i) => i.entity === entity && i.source === undefined);
    if (item !== undefined) return { container, item };
  }
  return undefined;
}

/** Replaces one container (by name) and drops containers left without items. */
export function replaceContainer(model: Model, name: string, next: Container | undefined): Model {
  const containers = model.containers
    .map((c) => (c.name === name ? next : c))
    .filter((c): c is Container => c !== undefined && c.items.length > 0);
  return { ...model, containers };
}

/** Applies `edit` to the item type `type` of container `container`. */
export function editItem(
  model: Model,
  container: string,
  type: string,
  edit: (item: ItemType) => ItemType,
): Model {
  return {
    ...model,
    containers: model.containers.map((c) =>
      c.name === container ? { ...c, items: c.items.map((i) => (i.type === type ? edit(i) : i)) } : c,
    ),
  };
}

/** The item types that are copies (`source`) of `container`/`type`. */
export function copiesOf(
  model: Model,
  container: string,
  type: string,
): { container: Container; item: ItemType }[] {
  return model.containers.flatMap((c) =>
    c.items
      .filter((i) => i.source?.container === container && i.source.type === type)
      .map((item) => ({ container: c, item })),
  );
}

/**
 * Points every copy of the item types named in `moves` (`container/type` -> new place) at their
 * new place, so a move or a merge never leaves a copy whose source is gone.
 */
export function retargetSources(
  model: Model,
  moves: ReadonlyMap<string, { readonly container: string; readonly type: string }>,
): Model {
  if (moves.size === 0) return model;
  return {
    ...model,
    containers: model.containers.map((c) => ({
      ...c,
      items: c.items.map((i) => {
        const moved =
          i.source === undefined ? undefined : moves.get(`${i.source.container}/${i.source.type}`);
        return moved === undefined ? i : { ...i, source: { container: moved.container, type: moved.type } };
      }),
    })),
  };
}

/**
 * Moves an item type to another container (created when it does not exist), possibly changed
 * (`item`: a new type name, key or options), and points its copies at the new place.
 */
export function moveItem(
  model: Model,
  from: { readonly container: string; readonly type: string },
  target: Container,
  item: ItemType,
): Model {
  const without = removeItem(model, from.container, from.type);
  const existing = without.containers.find((c) => c.name === target.name) ?? target;
  return retargetSources(
    addItem(without, existing, item),
    new Map([[`${from.container}/${from.type}`, { container: target.name, type: item.type }]]),
  );
}

/** Moves every item type of container `from` into container `into` (`merged`), copies following. */
export function mergeContainers(model: Model, from: Container, merged: Container): Model {
  const moves = new Map(
    from.items.map((i) => [`${from.name}/${i.type}`, { container: merged.name, type: i.type }] as const),
  );
  return retargetSources(
    {
      ...model,
      containers: model.containers
        .filter((c) => c.name !== from.name)
        .map((c) => (c.name === merged.name ? merged : c)),
    },
    moves,
  );
}

/** Removes an item type from its container (and the container when it is left empty). */
export function removeItem(model: Model, container: string, type: string): Model {
  const found = model.containers.find((c) => c.name === container);
  if (found === undefined) return model;
  return replaceContainer(model, container, { ...found, items: found.items.filter((i) => i.type !== type) });
}

/**
 * Adds an item type to a container (creating the container when it does not exist). One entity is
 * never stored twice at one place of one container (issue 26: a change-feed copy `menuItem2`
 * beside `menuItem`, both keyed `{restaurantId}`, makes every write pay twice for nothing): an
 * item type that would be the twin of one already there (`twinOf`) is merged into it instead.
 * A copy beside its entity's own items is not added (they answer its reads in the same logical
 * partitions); the entity's own items take the place of a copy of them (they hold every attribute
 * of every record); two copies become one that stores what either stored (`widenCopy`).
 */
export function addItem(model: Model, container: Container, item: ItemType): Model {
  const existing = model.containers.find((c) => c.name === container.name);
  if (existing === undefined)
    return { ...model, containers: [...model.containers, { ...container, items: [item] }] };
  const twin = twinOf(existing, item);
  if (twin === undefined)
    return replaceContainer(model, container.name, { ...existing, items: [...existing.items, item] });
  if (twin.source === undefined) return model;
  const merged = item.source === undefined ? item : widenCopy(twin, item);
  const next = replaceContainer(model, container.name, {
    ...existing,
    items: existing.items.map((i) => (i === twin ? merged : i)),
  });
  return merged.type === twin.type
    ? next
    : retargetSources(
        next,
        new Map([[`${existing.name}/${twin.type}`, { container: existing.name, type: merged.type }]]),
      );
}

/**
 * Where an item type puts its records in a container: its entity, the placeholders of each
 * partition key template in order (the literal text only names the item type: `order-{orderId}`
 * and `order2-{orderId}` of a container keyed by /id are one logical partition per order each),
 * and the attributes its id is built from. Two item types of one place store the same records
 * (or a part of them) at the same logical partitions.
 */
export function itemPlace(item: ItemType): string {
  const placeholders = (template: string): string =>
    parseTemplate(template)
      .map((part) =>
        part.kind === "literal" ? "" : part.kind === "attribute" ? `{${part.name}}` : part.kind,
      )
      .join("");
  const addressedBy = [...new Set(templateAttributes(item.id))].sort();
  return [item.entity, ...item.partitionKey.map(placeholders), "|", ...addressedBy].join("\u0000");
}

/**
 * The item type of `container` that would hold the same records as `item` at the same place
 * (`itemPlace`): the same entity under the same partition key, addressed by the same attributes
 * (a lookup item keyed by `{email}` with the id `{email}` is not the twin of a copy keyed
 * `{email}` with the id `{accountId}`: it enforces uniqueness). Only the entity's complete
 * records or a copy of them can be twins (a lookup item is a projection of its own; a bucket, a
 * sharded or replicated key places its records otherwise), and two item types of the entity's
 * own records (no `source`) never are.
 */
export function twinOf(container: Container, item: ItemType): ItemType | undefined {
  const placed = (i: ItemType): boolean =>
    (i.source !== undefined || i.select === undefined) &&
    i.bucket === undefined &&
    i.shards === undefined &&
    i.replicas === undefined;
  if (!placed(item)) return undefined;
  const place = itemPlace(item);
  return container.items.find(
    (other) =>
      other !== item &&
      placed(other) &&
      (other.source !== undefined || item.source !== undefined) &&
      itemPlace(other) === place,
  );
}

/**
 * One copy for two copies of one entity at one place: it stores every attribute either stores
 * (no `select` when either has none), cuts only what both cut (to the longer of the two cuts),
 * and keeps every record unless both keep only the newest by the same attribute (then the larger
 * number of them): each read either answered, it answers. `kept`'s name, id and source stay;
 * counters, copies and embeds stay with the source.
 */
export function widenCopy(kept: ItemType, other: ItemType): ItemType {
  const { select: _select, keepLatest: _keepLatest, ...rest } = kept;
  const select =
    kept.select === undefined || other.select === undefined
      ? undefined
      : [...new Set([...kept.select, ...other.select])];
  const keepLatest =
    kept.keepLatest === undefined ||
    other.keepLatest === undefined ||
    kept.keepLatest.by !== other.keepLatest.by
      ? undefined
      : { count: Math.max(kept.keepLatest.count, other.keepLatest.count), by: kept.keepLatest.by };
  const truncate = kept.truncate.flatMap((cut) => {
    const also = other.truncate.find((t) => t.attribute === cut.attribute);
    return also === undefined ? [] : [{ attribute: cut.attribute, bytes: Math.max(cut.bytes, also.bytes) }];
  });
  return {
    ...rest,
    truncate,
    ...(select === undefined ? {} : { select }),
    ...(keepLatest === undefined ? {} : { keepLatest }),
  };
}

/** A unique item type name within a container. */
export function freshItemType(container: Container | undefined, wanted: string): string {
  let name = wanted;
  for (let n = 2; container?.items.some((i) => i.type === name) === true; n++) name = `${wanted}${n}`;
  return name;
}

/** Text before a template's first placeholder (`post-{replica}` -> `post-`). */
function leadingLiteral(template: string): string {
  const brace = template.indexOf("{");
  return brace === -1 ? template : template.slice(0, brace);
}

/**
 * Ids that cannot collide: item types that share a container and whose id templates start with
 * the same literal text (usually none: `{customerId}` and `{addressId}`) can produce the same id
 * in one logical partition (customer 1 and address 1 of a container keyed by /id, or a user and
 * its post 7 in user 7's partition), and Cosmos DB refuses the second item (409 Conflict). Such
 * types get their type as a prefix (`customer-{customerId}`); the partition key component of a container
 * keyed by /id (which is the id template) follows it.
 * @example distinctItemIds(model).containers[0]?.items.map((i) => i.id) // ["customer-{customerId}", "address-{addressId}"]
 */
export function distinctItemIds(model: Model, workload?: Workload): Model {
  // An entity with an attribute named `id` keeps `{id}`: the item's id is that attribute.
  const ownsId = (entity: string): boolean =>
    workload?.entities.find((e) => e.name === entity)?.attributes.some((a) => a.name === "id") === true;
  const containers = model.containers.map((container) => {
    if (container.items.length < 2) return container;
    const byLiteral = new Map<string, number>();
    for (const item of container.items) {
      const literal = leadingLiteral(item.id);
      byLiteral.set(literal, (byLiteral.get(literal) ?? 0) + 1);
    }
    if ([...byLiteral.values()].every((n) => n < 2)) return container;
    return {
      ...container,
      items: container.items.map((item) => {
        if ((byLiteral.get(leadingLiteral(item.id)) ?? 0) < 2 || ownsId(item.entity)) return item;
        const id = `${item.type}-${item.id}`;
        return {
          ...item,
          id,
          partitionKey: item.partitionKey.map((component, level) =>
            container.partitionKey[level] === "/id" && component === item.id ? id : component,
          ),
        };
      }),
    };
  });
  return containers.every((c, index) => c === model.containers[index]) ? model : { ...model, containers };
}
