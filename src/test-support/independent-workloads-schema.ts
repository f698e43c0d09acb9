/**
 * Entities and relationships of an independent workload (`independent-workloads.ts`), built from
 * motifs: the shapes where a data model goes wrong, placed on purpose. A liker (`Post.userId` is
 * the author, `Like.userId` the liker), a message with two relationships to one person, a link
 * entity between two others, a chain 3 to 5 deep, a one-to-one (sometimes sharing the parent's
 * key), a many-to-many, an order line, a self relationship, and plain children and roots.
 * Data attributes and item sizes are added afterwards (`independent-workloads-attributes.ts`).
 */
import { decorateEntities } from "./independent-workloads-attributes.js";
import {
  lowerFirst,
  type DraftEntity,
  type DraftRelationship,
  type DraftSchema,
  type GeneratorSettings,
  type RelationshipKind,
} from "./independent-workloads-model.js";
import {
  between,
  chance,
  intBetween,
  logBetween,
  pick,
  pickWeighted,
  roundSignificant,
  shuffle,
  type Random,
} from "./independent-workloads-random.js";

const ENTITY_NAMES = [
  "User",
  "Account",
  "Customer",
  "Member",
  "Student",
  "Course",
  "Post",
  "Comment",
  "Like",
  "Order",
  "Shipment",
  "Invoice",
  "Payment",
  "Product",
  "Review",
  "Tag",
  "Category",
  "Device",
  "Reading",
  "Alert",
  "Team",
  "Project",
  "Task",
  "Message",
  "Thread",
  "Profile",
  "Store",
  "Ticket",
  "Event",
  "Session",
  "Vendor",
  "Film",
  "Actor",
  "Playlist",
  "Track",
  "Board",
  "Card",
  "Workspace",
  "Document",
  "Folder",
  "Booking",
  "Group",
  "Room",
  "Patient",
  "Visit",
  "Vehicle",
  "Trip",
] as const;

/** Names of a via that says the role of the parent rather than repeating its key. */
const VIA_ROLES = ["authorId", "ownerId", "creatorId", "assigneeId", "hostId", "reviewerId", "holderId"];

/** Two roles of one parent in one child (a message's sender and recipient). */
const ROLE_PAIRS: readonly (readonly [string, string])[] = [
  ["senderId", "recipientId"],
  ["buyerId", "sellerId"],
  ["fromId", "toId"],
  ["homeId", "awayId"],
  ["reporterId", "assigneeId"],
  ["from", "to"], // a Cosmos DB SQL keyword as a property name (c["from"], not c.from)
];

const SELF_VIAS = ["managerId", "parentId", "replyToId", "referrerId"];

interface Builder {
  readonly random: Random;
  readonly settings: GeneratorSettings;
  readonly entities: DraftEntity[];
  readonly relationships: DraftRelationship[];
  readonly motifs: Set<string>;
}

/** How a child is attached to its parent. */
interface Attachment {
  readonly via?: string;
  /** Prefer a via named like the parent's key (`userId`) over a role (`authorId`). */
  readonly sameName?: boolean;
  readonly owned: boolean;
  readonly kind?: RelationshipKind;
}

type Motif = (builder: Builder, remaining: number) => void;

/**
 * Draws the entities and relationships of one workload: up to `settings.maxEntities` entities.
 * @example draftSchema(createRandom(7), settings).entities.length // 1 to settings.maxEntities
 */
export function draftSchema(random: Random, settings: GeneratorSettings): DraftSchema {
  const builder: Builder = { random, settings, entities: [], relationships: [], motifs: new Set() };
  const max = Math.max(1, Math.floor(settings.maxEntities));
  const target = chance(random, 0.75)
    ? intBetween(random, Math.ceil(max / 2), max)
    : intBetween(random, 1, max);
  while (builder.entities.length < target) {
    const remaining = target - builder.entities.length;
    pickWeighted(random, motifWeights(builder, remaining))(builder, remaining);
  }
  if (chance(random, 0.18)) addSelfRelationship(builder);
  decorateEntities(random, settings, builder.entities, builder.relationships);
  return { entities: builder.entities, relationships: builder.relationships, motifs: [...builder.motifs] };
}

function motifWeights(builder: Builder, remaining: number): [Motif, number][] {
  const parents = parentCandidates(builder).length;
  const pairOrReuse = remaining >= 2 || parents > 0;
  const threeOrReuse = remaining >= 3 || (remaining >= 2 && parents > 0);
  return [
    [addRoot, builder.entities.length === 0 ? 1 : 0.6],
    [addChild, parents > 0 ? 2.5 : 0],
    [addLiker, threeOrReuse ? 2.5 : 0],
    [addMessaging, pairOrReuse ? 1.5 : 0],
    [addLink, threeOrReuse || parents >= 2 ? 2 : 0],
    [addChain, threeOrReuse ? 2 : 0],
    [addOneToOne, pairOrReuse ? 1.3 : 0],
    [addManyToMany, pairOrReuse ? 1.1 : 0],
    [addOrderLine, pairOrReuse ? (builder.settings.compositeKeys ? 1.5 : 0.8) : 0],
  ];
}

/** Entities that may be a parent: one key attribute (a via holds one value). */
function parentCandidates(builder: Builder): DraftEntity[] {
  return builder.entities.filter((entity) => entity.key.length === 1);
}

function addRoot(builder: Builder): void {
  newEntity(builder, rootCount(builder));
}

function addChild(builder: Builder): void {
  const { random } = builder;
  const parent = pick(random, parentCandidates(builder));
  const child = newEntity(builder, childCount(builder, parent.count, 0.5, 12));
  attach(builder, parent, child, { sameName: chance(random, 0.55), owned: chance(random, 0.5) });
  // A second parent: another entity, or the same one under another role.
  if (chance(random, 0.3)) {
    const other = pick(
      random,
      parentCandidates(builder).filter((entity) => entity !== child),
    );
    attach(builder, other, child, { sameName: other !== parent && chance(random, 0.5), owned: false });
  }
}

/** A person, their content, and reactions to the content by persons under the same via name. */
function addLiker(builder: Builder, remaining: number): void {
  const { random } = builder;
  const person = existingOrNew(builder, remaining, 2, 0.4);
  const content = newEntity(builder, childCount(builder, person.count, 1, 10));
  const reaction = newEntity(builder, childCount(builder, content.count, 1, 8));
  const role = pick(random, VIA_ROLES);
  const personVia = chance(random, 0.6) ? (sameNameVia(person, [content, reaction]) ?? role) : role;
  const contentVia = chance(random, 0.65) ? (sameNameVia(content, [reaction]) ?? "targetId") : "targetId";
  const reactionOwned = chance(random, 0.6);
  addViaAttribute(builder, content, reaction, contentVia, reactionOwned);
  addViaAttribute(builder, person, reaction, personVia, false);
  if (builder.settings.compositeKeys && chance(random, 0.4))
    setCompositeKey(builder, reaction, [contentVia, personVia]);
  attach(builder, person, content, { via: personVia, owned: chance(random, 0.5) });
  attach(builder, content, reaction, { via: contentVia, owned: reactionOwned });
  attach(builder, person, reaction, { via: personVia, owned: false });
  builder.motifs.add("liker");
}

/** A message with two relationships to the same person entity. */
function addMessaging(builder: Builder, remaining: number): void {
  const { random } = builder;
  const person = existingOrNew(builder, remaining, 1, 0.6);
  const [first, second] = pick(random, ROLE_PAIRS);
  const message = newEntity(builder, childCount(builder, person.count, 1, 20));
  attach(builder, person, message, {
    via: chance(random, 0.25) ? (sameNameVia(person, [message]) ?? first) : first,
    owned: chance(random, 0.3),
  });
  attach(builder, person, message, { via: second, owned: false });
  builder.motifs.add("messaging");
}

/** A link entity (an enrollment of a student in a course), with its own key or a composite one. */
function addLink(builder: Builder, remaining: number): void {
  const { random } = builder;
  const before = builder.entities.length;
  const left = existingOrNew(builder, remaining, 2, 0.5);
  const right = existingOrNew(builder, remaining - (builder.entities.length - before), 1, 0.5, left);
  const link = newEntity(builder, childCount(builder, left.count, 1, 6));
  const [leftOwned, rightOwned] = [chance(random, 0.4), chance(random, 0.4)];
  const leftVia = viaNameFor(builder, left, link, chance(random, 0.7));
  addViaAttribute(builder, left, link, leftVia, leftOwned);
  const rightVia = viaNameFor(builder, right, link, chance(random, 0.7));
  addViaAttribute(builder, right, link, rightVia, rightOwned);
  if (builder.settings.compositeKeys && chance(random, 0.6))
    setCompositeKey(builder, link, [leftVia, rightVia]);
  attach(builder, left, link, { via: leftVia, owned: leftOwned });
  attach(builder, right, link, { via: rightVia, owned: rightOwned });
  builder.motifs.add("linkEntity");
}

/** A chain of 3 to 5 entities, each the child of the previous one. */
function addChain(builder: Builder, remaining: number): void {
  const { random } = builder;
  const parents = parentCandidates(builder);
  const reuse = parents.length > 0 && (remaining < 3 || chance(random, 0.4));
  const length = intBetween(random, 3, Math.min(5, remaining + (reuse ? 1 : 0)));
  let parent = reuse ? pick(random, parents) : newEntity(builder, rootCount(builder));
  for (let depth = 1; depth < length; depth += 1) {
    const child = newEntity(builder, childCount(builder, parent.count, 1, 6));
    attach(builder, parent, child, { sameName: chance(random, 0.7), owned: chance(random, 0.75) });
    parent = child;
  }
  builder.motifs.add("chain");
}

/** A one-to-one child (a profile), sometimes keyed by its parent's key itself. */
function addOneToOne(builder: Builder, remaining: number): void {
  const { random } = builder;
  const parent = existingOrNew(builder, remaining, 1, 0.6);
  const count = Math.max(1, Math.round(parent.count * between(random, 0.3, 1)));
  const parentKey = keyName(parent);
  const sharesKey = parentKey !== "id" && chance(random, 0.5);
  const child = newEntity(builder, count, sharesKey ? parentKey : undefined, keyType(parent));
  attach(builder, parent, child, {
    ...(sharesKey ? { via: parentKey } : { sameName: chance(random, 0.6) }),
    owned: chance(random, 0.5),
    kind: "one-to-one",
  });
  builder.motifs.add(sharesKey ? "oneToOneSharedKey" : "oneToOne");
}

function addManyToMany(builder: Builder, remaining: number): void {
  const { random } = builder;
  const parent = existingOrNew(builder, remaining, 1, 0.6);
  const child = newEntity(builder, rootCount(builder));
  const avg = roundSignificant(between(random, 1, 8), 2);
  builder.relationships.push({
    parent: parent.name,
    child: child.name,
    kind: "many-to-many",
    avg,
    ...(chance(random, 0.5) ? { max: Math.ceil(avg * between(random, 1, 4)) } : {}),
    owned: false,
  });
}

/** An order line: the child of an order, numbered within it (`[orderId, lineNo]` when composite). */
function addOrderLine(builder: Builder, remaining: number): void {
  const { random } = builder;
  const order = existingOrNew(builder, remaining, 1, 0.5);
  const line = newEntity(builder, childCount(builder, order.count, 1, 6));
  const via = viaNameFor(builder, order, line, chance(random, 0.8));
  addViaAttribute(builder, order, line, via, true);
  line.attributes.push({ name: "lineNo", type: "number", role: "data" });
  if (builder.settings.compositeKeys && chance(random, 0.7)) setCompositeKey(builder, line, [via, "lineNo"]);
  attach(builder, order, line, { via, owned: chance(random, 0.8) });
  builder.motifs.add("orderLine");
}

/** An entity that is its own parent (an employee's manager), never owned. */
function addSelfRelationship(builder: Builder): void {
  const { random } = builder;
  const candidates = parentCandidates(builder);
  if (candidates.length === 0) return;
  const entity = pick(random, candidates);
  const via = [...SELF_VIAS, `parent${entity.name}Id`].find((name) => !hasAttribute(entity, name));
  if (via === undefined) return;
  const presence = roundSignificant(between(random, 0.2, 0.9), 2);
  entity.attributes.push({ name: via, type: keyType(entity), role: "via", presence });
  builder.relationships.push({
    parent: entity.name,
    child: entity.name,
    kind: "one-to-many",
    via,
    avg: presence,
    ...(chance(random, 0.5) ? { max: intBetween(random, 2, 20) } : {}),
    owned: false,
  });
  builder.motifs.add("selfRelationship");
}

/** An existing parent candidate (other than `not`), or a new root when none fits or by chance. */
function existingOrNew(
  builder: Builder,
  remaining: number,
  stillNeeded: number,
  reuse: number,
  not?: DraftEntity,
): DraftEntity {
  const candidates = parentCandidates(builder).filter((entity) => entity !== not);
  const mustReuse = remaining <= stillNeeded;
  if (candidates.length > 0 && (mustReuse || chance(builder.random, reuse)))
    return pick(builder.random, candidates);
  return newEntity(builder, rootCount(builder));
}

function newEntity(builder: Builder, count: number, key?: string, type?: "string" | "number"): DraftEntity {
  const { random } = builder;
  const used = new Set(builder.entities.map((entity) => entity.name));
  const free = ENTITY_NAMES.filter((name) => !used.has(name));
  const name = free.length > 0 ? pick(random, free) : `Entity${builder.entities.length + 1}`;
  const draw = random.next();
  const keyAttribute =
    key ?? (draw < 0.05 ? "id" : draw < 0.12 ? `${lowerFirst(name)}No` : `${lowerFirst(name)}Id`);
  const keyAttributeType = type ?? (draw >= 0.05 && draw < 0.15 ? "number" : "string");
  const entity: DraftEntity = {
    name,
    key: [keyAttribute],
    count,
    avgBytes: 0, // sized by decorateEntities
    attributes: [{ name: keyAttribute, type: keyAttributeType, role: "key" }],
  };
  builder.entities.push(entity);
  return entity;
}

function rootCount(builder: Builder): number {
  const { min, max } = builder.settings.records;
  return Math.round(logBetween(builder.random, min, Math.max(min, Math.min(max, 400))));
}

function childCount(builder: Builder, parentCount: number, low: number, high: number): number {
  const { min, max } = builder.settings.records;
  const count = Math.round(parentCount * logBetween(builder.random, low, high));
  return Math.min(max, Math.max(min, count));
}

/** Adds the relationship and, when missing, the child's via attribute. */
function attach(builder: Builder, parent: DraftEntity, child: DraftEntity, how: Attachment): void {
  const { random } = builder;
  const kind = how.kind ?? "one-to-many";
  const via = how.via ?? viaNameFor(builder, parent, child, how.sameName ?? true);
  if (!hasAttribute(child, via)) addViaAttribute(builder, parent, child, via, how.owned);
  const index = child.attributes.findIndex((attribute) => attribute.name === via);
  const existing = child.attributes[index];
  if (how.owned && existing?.presence !== undefined) {
    // An owned child always has its parent: its via has presence 1.
    const { presence: _presence, ...rest } = existing;
    child.attributes[index] = rest;
  }
  const presence = child.attributes[index]?.presence ?? 1;
  const exact = (child.count * presence) / parent.count;
  const avg = Math.max(0.001, roundSignificant(kind === "one-to-one" ? Math.min(1, exact) : exact, 3));
  const bounded = chance(random, 0.55);
  const max =
    kind === "one-to-one"
      ? 1
      : chance(random, 0.15) && Number.isInteger(avg)
        ? avg
        : Math.ceil(avg * between(random, 1.2, 5));
  builder.relationships.push({
    parent: parent.name,
    child: child.name,
    kind,
    via,
    avg,
    ...(bounded ? { max } : {}),
    owned: how.owned,
  });
}

/** Adds the via attribute: the parent's key type; optional (presence < 1) only when not owned. */
function addViaAttribute(
  builder: Builder,
  parent: DraftEntity,
  child: DraftEntity,
  via: string,
  owned: boolean,
): void {
  const { random } = builder;
  if (hasAttribute(child, via)) return;
  child.attributes.push({
    name: via,
    type: keyType(parent),
    role: "via",
    ...(!owned && chance(random, 0.25) ? { presence: roundSignificant(between(random, 0.3, 0.95), 2) } : {}),
    ...(chance(random, 0.15) ? { distinct: parent.count } : {}),
    ...(chance(random, 0.15) ? { skew: roundSignificant(between(random, 0.4, 1.5), 2) } : {}),
  });
}

/** A via name for `parent` in `child`: the parent's key name (`sameName`) or a role. */
function viaNameFor(builder: Builder, parent: DraftEntity, child: DraftEntity, sameName: boolean): string {
  const parentKey = keyName(parent);
  if (sameName && parentKey !== "id" && !hasAttribute(child, parentKey)) return parentKey;
  const roles = [...shuffle(builder.random, VIA_ROLES), `${lowerFirst(parent.name)}Ref`];
  const role = roles.find((name) => !hasAttribute(child, name) && name !== parentKey);
  return role ?? `${lowerFirst(parent.name)}Id${child.attributes.length}`;
}

/** Makes `parts` (attributes of the entity) its key; its own key attribute goes. */
function setCompositeKey(builder: Builder, entity: DraftEntity, parts: readonly string[]): void {
  const own = entity.key;
  entity.key = parts;
  for (let index = entity.attributes.length - 1; index >= 0; index -= 1) {
    const attribute = entity.attributes[index];
    if (attribute !== undefined && own.includes(attribute.name)) entity.attributes.splice(index, 1);
  }
  for (const [index, attribute] of entity.attributes.entries()) {
    if (parts.includes(attribute.name)) {
      const { presence: _presence, ...rest } = attribute;
      entity.attributes[index] = rest;
    }
  }
  builder.motifs.add("compositeKey");
}

/** The parent's key name as a via, when it is not `id` and no child has an attribute of that name. */
function sameNameVia(parent: DraftEntity, children: readonly DraftEntity[]): string | undefined {
  const name = keyName(parent);
  return name === "id" || children.some((child) => hasAttribute(child, name)) ? undefined : name;
}

function hasAttribute(entity: DraftEntity, name: string): boolean {
  return entity.attributes.some((attribute) => attribute.name === name);
}

function keyName(entity: DraftEntity): string {
  return entity.key[0] ?? "id";
}

function keyType(entity: DraftEntity): "string" | "number" {
  const type = entity.attributes.find((attribute) => attribute.name === keyName(entity))?.type;
  return type === "number" ? "number" : "string";
}
