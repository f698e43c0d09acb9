/**
 * Identity by provenance, never by name (STYLE.md rule 20). An attribute name means something only
 * within its entity: `Post.userId` (the author) and `Like.userId` (the liker) are unrelated values
 * that happen to share a name. A value of one entity's attribute is known on a record of another
 * entity only through a relationship: the child's `via` holds the parent's key, and the child's
 * item may hold a copy of a parent attribute (`copies: [{ from: Post.userId, as: postUserId }]`)
 * that no write changes.
 *
 * A **binding** maps each attribute of a target entity that a source record gives to the source
 * property holding it. Every place that addresses one entity's item from another entity's record
 * (a counter's holder from the counted child, a parent's item patched by a child write, the record
 * a copy is read from, a transactional batch with the parent's counter) renders the target's own
 * templates from the bound values, and refuses what the binding does not give. Pure.
 */
import { isKeyAttribute, keyViaPairs } from "../workload/keys.js";
import type { Entity, Relationship, Workload } from "../workload/types.js";
import { addressingAttributes } from "./key-changes.js";
import { parseTemplate } from "./templates.js";
import type { Copy, ItemType } from "./types.js";

/** Target attribute -> the source property that holds its value. */
export type Binding = Readonly<Record<string, string>>;

/** What places an item: its templates, write shards and bucket. */
export type AddressedItem = Pick<ItemType, "id" | "partitionKey" | "shards" | "shardBy" | "bucket">;

/**
 * True when no write of `entity` changes `attribute` (a copy of it can never be stale).
 * @example immutableAttribute(workload, post, "userId") // true when no write changes the author
 */
export function immutableAttribute(workload: Workload, entity: Entity, attribute: string): boolean {
  if (isKeyAttribute(entity, attribute)) return true;
  const declared = entity.attributes.find((a) => a.name === attribute);
  return !workload.accessPatterns.some((pattern) => {
    if (pattern.type !== "write" || pattern.entity !== entity.name) return false;
    if (pattern.operation === "create" || pattern.operation === "delete") return false;
    if (pattern.changes !== undefined) return pattern.changes.includes(attribute);
    // Without a list, a write changes every attribute whose `changes` says it does (a whole
    // record replaced: an undeclared attribute may change too).
    return declared === undefined || declared.changes !== "never" || pattern.operation === "replace";
  });
}

/**
 * The attributes of `relationship.parent` that a record of its child gives: the parent's key
 * attributes, each held by the relationship's `via` at its position, and each parent attribute the child's item keeps as a copy
 * through this relationship that no write changes. Empty for a relationship without a via.
 * @example parentBinding(workload, { parent: "Post", child: "Like", via: "postId", ... }) // { postId: "postId" }
 */
export function parentBinding(
  workload: Workload,
  relationship: Relationship,
  childItem?: { readonly copies: readonly Copy[] },
): Binding {
  const parent = workload.entities.find((e) => e.name === relationship.parent);
  if (relationship.via === undefined || parent === undefined) return {};
  const binding: Record<string, string> = Object.fromEntries(keyViaPairs(parent, relationship));
  for (const copy of childItem?.copies ?? []) {
    if (copy.from.entity !== parent.name || binding[copy.from.attribute] !== undefined) continue;
    if (relationshipOf(workload, parent.name, relationship.child) !== relationship) continue;
    if (immutableAttribute(workload, parent, copy.from.attribute)) binding[copy.from.attribute] = copy.as;
  }
  return binding;
}

/**
 * The attributes of `relationship.child` that a record of its parent gives: the via, held by the
 * parent's key (children are found by it).
 * @example childBinding(workload, { parent: "User", child: "Post", via: "authorId", ... }) // { authorId: "userId" }
 */
export function childBinding(workload: Workload, relationship: Relationship): Binding {
  const parent = workload.entities.find((e) => e.name === relationship.parent);
  if (relationship.via === undefined || parent === undefined) return {};
  return Object.fromEntries(keyViaPairs(parent, relationship).map(([key, via]) => [via, key]));
}

/** Every attribute of `entity` bound to itself: a record of the entity read by its own templates. */
export function identityBinding(entity: Entity): Binding {
  const binding: Record<string, string> = Object.fromEntries(entity.key.map((name) => [name, name]));
  for (const attribute of entity.attributes) binding[attribute.name] = attribute.name;
  return binding;
}

/** The first one-to-many or one-to-one relationship from `parent` to `child` (with its via). */
export function relationshipOf(workload: Workload, parent: string, child: string): Relationship | undefined {
  return workload.relationships.find(
    (r) => r.parent === parent && r.child === child && r.kind !== "many-to-many" && r.via !== undefined,
  );
}

/**
 * The attributes that place an item of `item` (id, partition key, shard, window) which `binding`
 * does not give: a source record bound so cannot address the item.
 * @example unboundAddress(postKeyedByAuthor, { postId: "postId" }) // ["userId"]
 */
export function unboundAddress(item: AddressedItem, binding: Binding): readonly string[] {
  return addressingAttributes(item).filter((name) => binding[name] === undefined);
}

/**
 * The binding narrowed to the attributes that place `item` (what generated code carries), in a
 * stable order. Attributes it does not give are left out: `unboundAddress` names them.
 */
export function addressBinding(item: AddressedItem, binding: Binding): Binding {
  const out: Record<string, string> = {};
  for (const name of [...addressingAttributes(item)].sort()) {
    const property = binding[name];
    if (property !== undefined) out[name] = property;
  }
  return out;
}

/**
 * The child's properties that address an item of its parent: the relationship's via for the
 * parent's key, and the copies the child's item keeps of parent attributes no write changes
 * (only what the child gives: `unboundAddress` of the parent binding names the rest).
 * @example parentAddressBinding(workload, postKeyedByAuthor, "Like") // { postId: "postId" }: no userId
 */
export function parentAddressBinding(
  workload: Workload,
  parent: AddressedItem & { readonly entity: string },
  childEntity: string,
  childItem?: { readonly copies: readonly Copy[] },
): Binding {
  const relationship = relationshipOf(workload, parent.entity, childEntity);
  if (relationship === undefined) return {};
  return addressBinding(parent, parentBinding(workload, relationship, childItem));
}

/**
 * True when every item of `parent` lands in the logical partition of its children's items of
 * `child` (the same container, the parent's partition key templates rendered from the child
 * through the relationship are the child's own, write shards picked alike), so one transactional
 * batch can write both. A template that merely looks the same is not enough: a post keyed
 * `{userId}` (its author) and a like keyed `{userId}` (the liker) share nothing.
 */
export function sharesLogicalPartition(
  workload: Workload,
  parent: { readonly container: { readonly name: string }; readonly item: ItemType },
  child: { readonly container: { readonly name: string }; readonly item: ItemType },
): boolean {
  if (parent.container.name !== child.container.name) return false;
  const relationship = relationshipOf(workload, parent.item.entity, child.item.entity);
  if (relationship === undefined) return false;
  const binding = parentBinding(workload, relationship);
  const same = parent.item.partitionKey.every(
    (template, index) => bindTemplate(template, binding) === child.item.partitionKey[index],
  );
  if (!same) return false;
  const placeholders = parent.item.partitionKey.flatMap((t) => parseTemplate(t)).map((part) => part.kind);
  if (placeholders.includes("replica") || placeholders.includes("bucket")) return false;
  if (!placeholders.includes("shard")) return true;
  // The same shard for both: the same count, picked by the same value.
  const by = parent.item.shardBy;
  return (
    parent.item.shards === child.item.shards &&
    by !== undefined &&
    binding[by] !== undefined &&
    binding[by] === child.item.shardBy
  );
}

/**
 * True when some write of the relationship's child may move a child to another parent: it may
 * change an attribute of the `via` (`immutableAttribute`: a replace without `changes` may change
 * any). The old and the new parent then both count differently.
 * @example reparentable(workload, { parent: "Bin", child: "StockItem", via: ["binId"], ... }) // true when a write moves stock between bins
 */
export function reparentable(workload: Workload, relationship: Relationship): boolean {
  const child = workload.entities.find((e) => e.name === relationship.child);
  if (child === undefined || relationship.via === undefined) return false;
  return relationship.via.some((attribute) => !immutableAttribute(workload, child, attribute));
}

/**
 * True when a parent's counter of `child`'s entity is kept in the transactional batch of each
 * child write: the holder shares the child item's logical partition (`sharesLogicalPartition`)
 * and no write moves a child to another parent. A re-parented child changes two holders, and a
 * move is a create and a delete in two requests, neither batched with a counter: such a counter
 * is kept from the change feed, whose handler counts the move exactly once (-1 to the old holder,
 * +1 to the new one, `src/runtime/counters.ts`). Every place that tells a batched counter from one
 * kept from the change feed asks this (the plans, the delete carriers, the counted flags, the
 * write inputs), so the generated code maintains each counter one way only.
 */
export function counterInBatch(
  workload: Workload,
  holder: { readonly container: { readonly name: string }; readonly item: ItemType },
  child: { readonly container: { readonly name: string }; readonly item: ItemType },
): boolean {
  if (!sharesLogicalPartition(workload, holder, child)) return false;
  const relationship = relationshipOf(workload, holder.item.entity, child.item.entity);
  return relationship !== undefined && !reparentable(workload, relationship);
}

/**
 * A template of the target rendered in the source's names: each `{attribute}` replaced by
 * `{property}` (`{shard}`, `{replica}` and `{bucket}` kept); undefined when an attribute is not bound.
 * @example bindTemplate("post-{postId}", { postId: "likedPostId" }) // "post-{likedPostId}"
 */
export function bindTemplate(template: string, binding: Binding): string | undefined {
  let out = "";
  for (const part of parseTemplate(template)) {
    if (part.kind === "literal") out += part.text;
    else if (part.kind !== "attribute") out += `{${part.kind}}`;
    else {
      const property = binding[part.name];
      if (property === undefined) return undefined;
      out += `{${property}}`;
    }
  }
  return out;
}
