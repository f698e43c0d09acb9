/**
 * Data attributes, item sizes and entity options of an independent workload's entities
 * (`independent-workloads-schema.ts` builds the entities and relationships first). Names come
 * from one shared pool, so the same name (`status`, `name`, `createdAt`) turns up in several
 * entities with a different meaning and different statistics; a few collisions are placed on
 * purpose: a status in two entities, `createdAt` everywhere, a child attribute named like its
 * parent's key that is not the via.
 */
import {
  isBinned,
  type AttributeType,
  type DraftAttribute,
  type DraftEntity,
  type DraftRelationship,
  type GeneratorSettings,
} from "./independent-workloads-model.js";
import {
  between,
  chance,
  intBetween,
  logBetween,
  pick,
  roundSignificant,
  sample,
  type Random,
} from "./independent-workloads-random.js";

/** The largest item Azure Cosmos DB stores, 2 MB (learn.microsoft.com/azure/cosmos-db/concepts-limits, 2025). */
const MAX_ITEM_BYTES = 2_097_152;

interface DataTemplate {
  readonly name: string;
  readonly type: AttributeType;
  readonly categorical?: boolean;
  readonly long?: boolean;
  readonly uniqueish?: boolean;
  readonly mutable?: boolean;
}

const DATA_TEMPLATES: readonly DataTemplate[] = [
  { name: "updatedAt", type: "datetime", mutable: true },
  { name: "occurredAt", type: "datetime" },
  { name: "dueAt", type: "datetime", mutable: true },
  { name: "status", type: "string", categorical: true, mutable: true },
  { name: "kind", type: "string", categorical: true },
  { name: "region", type: "string", categorical: true },
  { name: "priority", type: "number", categorical: true, mutable: true },
  { name: "rating", type: "number", categorical: true },
  { name: "name", type: "string", mutable: true },
  { name: "title", type: "string", mutable: true },
  { name: "label", type: "string", mutable: true },
  { name: "displayName", type: "string", mutable: true },
  { name: "description", type: "string", long: true, mutable: true },
  { name: "body", type: "string", long: true, mutable: true },
  { name: "notes", type: "string", long: true, mutable: true },
  { name: "email", type: "string", uniqueish: true, mutable: true },
  { name: "code", type: "string", uniqueish: true },
  { name: "slug", type: "string", uniqueish: true, mutable: true },
  { name: "amount", type: "number", mutable: true },
  { name: "price", type: "number", mutable: true },
  { name: "quantity", type: "number", mutable: true },
  { name: "score", type: "number", mutable: true },
  { name: "position", type: "number", mutable: true },
  { name: "active", type: "boolean", mutable: true },
  { name: "verified", type: "boolean", mutable: true },
  { name: "archived", type: "boolean", mutable: true },
  { name: "tags", type: "array", mutable: true },
  { name: "members", type: "array", mutable: true },
  { name: "items", type: "array" },
  { name: "metadata", type: "object", mutable: true },
  { name: "settings", type: "object", mutable: true },
  { name: "address", type: "object", mutable: true },
];

const CREATED_AT: DataTemplate = { name: "createdAt", type: "datetime" };

/**
 * Sizes every entity and gives it data attributes, a few collisions of names, and options
 * (`ttlSeconds`, `growthPerMonth`, `maxBytes`, `binning`). Changes the entities in place.
 */
export function decorateEntities(
  random: Random,
  settings: GeneratorSettings,
  entities: readonly DraftEntity[],
  relationships: readonly DraftRelationship[],
): void {
  for (const entity of entities) sizeEntity(random, settings, entity);
  for (const entity of entities) {
    if (chance(random, 0.8)) addData(random, entity, CREATED_AT);
    const free = DATA_TEMPLATES.filter((template) => !has(entity, template.name));
    for (const template of sample(random, free, intBetween(random, 1, 5))) addData(random, entity, template);
  }
  addCollisions(random, entities, relationships);
  addAwkwardName(random, entities);
  for (const entity of entities) addEntityOptions(random, entity, relationships);
}

/**
 * Names an application may well use that a model must quote or keep apart: Cosmos DB SQL
 * keywords (`c["value"]`), and names of properties a model may set itself (`pk`). The format
 * refuses `ttl`, `type`, names starting with `_` and an `id` that is not the whole key as
 * attribute names (every item has them, or Cosmos DB keeps them), so they are not drawn.
 */
const AWKWARD_NAMES: readonly DataTemplate[] = [
  { name: "value", type: "number", mutable: true },
  { name: "order", type: "number", mutable: true },
  { name: "top", type: "boolean" },
  { name: "group", type: "string", categorical: true },
  { name: "pk", type: "string" },
  { name: "partitionKey", type: "string" },
  { name: "$type", type: "string", categorical: true },
];

function addAwkwardName(random: Random, entities: readonly DraftEntity[]): void {
  if (entities.length === 0 || !chance(random, 0.2)) return;
  const entity = pick(random, entities);
  const free = AWKWARD_NAMES.filter((template) => !has(entity, template.name));
  if (free.length > 0) addData(random, entity, pick(random, free));
}

function sizeEntity(random: Random, settings: GeneratorSettings, entity: DraftEntity): void {
  const { min, max } = settings.itemBytes;
  const large = entity.count <= 60 && settings.largeItemBytes > max && chance(random, 0.06);
  const small = Math.min(max, Math.max(min, 2000));
  const bytes = large
    ? logBetween(random, Math.max(max, 100_000), settings.largeItemBytes)
    : chance(random, 0.7)
      ? logBetween(random, min, small)
      : logBetween(random, small, max);
  entity.avgBytes = Math.min(MAX_ITEM_BYTES, roundSignificant(bytes, 2));
  if (chance(random, 0.35)) {
    entity.maxBytes = chance(random, 0.1)
      ? entity.avgBytes
      : Math.min(MAX_ITEM_BYTES, Math.round(entity.avgBytes * between(random, 1.2, 4)));
  }
}

/** Adds a data attribute drawn from `template`, with statistics drawn for this entity. */
function addData(random: Random, entity: DraftEntity, template: DataTemplate): void {
  if (has(entity, template.name)) return;
  const attribute: DraftAttribute = {
    name: template.name,
    type: template.type,
    role: "data",
    ...(template.categorical === true ? { categorical: true } : {}),
    ...(template.long === true ? { long: true } : {}),
  };
  if (template.categorical === true) {
    attribute.distinct = template.type === "number" ? intBetween(random, 3, 5) : intBetween(random, 2, 12);
    if (chance(random, 0.25)) attribute.skew = roundSignificant(between(random, 0.3, 1.5), 2);
  } else if (template.type === "boolean") {
    if (chance(random, 0.5)) attribute.distinct = 2;
  } else if (template.uniqueish === true) {
    if (chance(random, 0.6)) attribute.unique = true;
  } else if (template.type === "number" && chance(random, 0.25)) {
    attribute.distinct = Math.max(1, Math.min(entity.count, intBetween(random, 10, 1000)));
  }
  const ranked = template.type !== "object" && template.type !== "array";
  if (ranked && attribute.skew === undefined && attribute.unique !== true && chance(random, 0.08)) {
    attribute.skew = roundSignificant(between(random, 0.3, 1.2), 2);
  }
  if (template.mutable === true) {
    const draw = random.next();
    if (draw < 0.3) attribute.changes = "rare";
    else if (draw < 0.5) attribute.changes = "frequent";
    else if (draw < 0.55) attribute.changes = "never";
  }
  if (template.name !== "createdAt" && chance(random, 0.12)) {
    attribute.presence = roundSignificant(between(random, 0.05, 0.95), 2);
  }
  const bytes = attributeBytes(random, entity, template);
  if (bytes !== undefined) attribute.avgBytes = bytes;
  entity.attributes.push(attribute);
}

/** An explicit size for the attribute, or none; explicit sizes stay within 60% of the item. */
function attributeBytes(random: Random, entity: DraftEntity, template: DataTemplate): number | undefined {
  const budget = entity.avgBytes * 0.6 - entity.attributes.reduce((sum, a) => sum + (a.avgBytes ?? 0), 0);
  const wanted =
    template.long === true && entity.avgBytes >= 400 && chance(random, 0.7)
      ? Math.round(entity.avgBytes * between(random, 0.2, 0.5))
      : ["string", "object", "array"].includes(template.type) && chance(random, 0.15)
        ? intBetween(random, 12, 300)
        : template.type === "number" && chance(random, 0.05)
          ? 8
          : template.type === "datetime" && chance(random, 0.05)
            ? 26
            : undefined;
  return wanted !== undefined && wanted <= budget ? wanted : undefined;
}

function addCollisions(
  random: Random,
  entities: readonly DraftEntity[],
  relationships: readonly DraftRelationship[],
): void {
  // The same `status` in two entities, with a different number of values and change rate.
  const withoutStatus = entities.filter((entity) => !has(entity, "status"));
  if (withoutStatus.length >= 2 && chance(random, 0.3)) {
    const [first, second] = sample(random, withoutStatus, 2);
    if (first !== undefined && second !== undefined) {
      first.attributes.push(statusAttribute(3, "frequent"));
      second.attributes.push(statusAttribute(intBetween(random, 4, 9), "rare"));
    }
  }
  // A child attribute named like its parent's key that the via (named otherwise) is not.
  const renamed = relationships.filter((relationship) => {
    if (relationship.via === undefined || relationship.parent === relationship.child) return false;
    const parentKey = keyOf(entities, relationship.parent);
    return parentKey !== undefined && parentKey !== "id" && parentKey !== relationship.via;
  });
  if (renamed.length > 0 && chance(random, 0.3)) {
    const relationship = pick(random, renamed);
    const child = entities.find((entity) => entity.name === relationship.child);
    const parent = entities.find((entity) => entity.name === relationship.parent);
    const parentKey = parent?.attributes.find((attribute) => attribute.name === parent.key[0]);
    if (child !== undefined && parentKey !== undefined && !has(child, parentKey.name)) {
      child.attributes.push({ name: parentKey.name, type: parentKey.type, role: "data" });
    }
  }
  if (entities.length >= 2 && chance(random, 0.35)) {
    for (const entity of entities) addData(random, entity, CREATED_AT);
  }
}

function statusAttribute(distinct: number, changes: "rare" | "frequent"): DraftAttribute {
  return { name: "status", type: "string", role: "data", categorical: true, distinct, changes };
}

function addEntityOptions(
  random: Random,
  entity: DraftEntity,
  relationships: readonly DraftRelationship[],
): void {
  if (chance(random, 0.15)) {
    entity.ttlSeconds = chance(random, 0.6)
      ? pick(random, [3600, 86_400, 604_800, 2_592_000, 7_776_000])
      : intBetween(random, 3600, 8_000_000);
  }
  if (chance(random, 0.25)) entity.growthPerMonth = Math.round(entity.count * between(random, 0, 1));
  const isParent = relationships.some((relationship) => relationship.parent === entity.name);
  const isChild = relationships.some(
    (relationship) => relationship.child === entity.name && relationship.kind !== "many-to-many",
  );
  if (!isParent && isChild && chance(random, 0.18)) {
    addData(random, entity, CREATED_AT);
    entity.binning = chance(random, 0.5)
      ? { windowSeconds: pick(random, [60, 3600, 86_400]) }
      : { recordsPerItem: intBetween(random, 10, 200) };
  } else if (chance(random, 0.05)) {
    entity.binning = false;
  }
  if (!isBinned(entity) && chance(random, 0.05)) {
    const key = entity.attributes.find((attribute) => attribute.role === "key");
    if (key !== undefined && entity.key.length === 1)
      key.skew = roundSignificant(between(random, 0.5, 1.2), 2);
  }
}

function keyOf(entities: readonly DraftEntity[], name: string): string | undefined {
  const entity = entities.find((candidate) => candidate.name === name);
  return entity?.key.length === 1 ? entity.key[0] : undefined;
}

function has(entity: DraftEntity, name: string): boolean {
  return entity.attributes.some((attribute) => attribute.name === name);
}
