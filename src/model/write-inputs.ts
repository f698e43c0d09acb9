/**
 * What a write function of the generated code takes. A create, an upsert or a replace writes the
 * whole record, so it takes it. A patch takes the record's key, the attributes that place its item
 * (its partition key, when the key does not give it) and the attributes it changes; a delete takes
 * the key and the item's address only. What the write's synchronous maintenance needs besides
 * (another item type of the entity under other attributes, the parent item that embeds the record,
 * a counter in the same logical partition) is not demanded of the caller: the generated code
 * reads the record's current item first (`readsCurrent`), and the plan costs that read. Pure.
 */
import { isKeyAttribute } from "../workload/keys.js";
import type { Workload, WritePattern } from "../workload/types.js";
import { addressingAttributes, attributesChangedBy, movedBy } from "./key-changes.js";
import { counterInBatch, parentAddressBinding } from "./provenance.js";
import type { Container, ItemType, Model } from "./types.js";

/** What a write function takes. */
export type WriteInput =
  /** The whole record (create, upsert, replace). */
  | { readonly kind: "record" }
  /**
   * The key and address (`required`), the attributes a patch may change (`optional`), and the
   * item type read first when the maintenance needs attributes the input does not give.
   */
  | {
      readonly kind: "partial";
      readonly required: readonly string[];
      readonly optional: readonly string[];
      readonly readsCurrent?: { readonly container: string; readonly itemType: string };
    };

interface Placed {
  readonly container: Container;
  readonly item: ItemType;
}

/** The item types that store `entity` as their own (not copies kept from the change feed). */
function ownItems(model: Model, entity: string): Placed[] {
  return model.containers.flatMap((container) =>
    container.items
      .filter((item) => item.entity === entity && item.source === undefined)
      .map((item) => ({ container, item })),
  );
}

/** The addressing attributes of `item` that the key does not give. */
function beyondKey(key: readonly string[], item: ItemType): string[] {
  return addressingAttributes(item).filter((name) => !key.includes(name));
}

/**
 * The input of a write pattern's function on `model`.
 * @example writeInputOf(workload, model, stockUpdate) // { kind: "partial", required: ["productId"], optional: ["stock"] }
 */
export function writeInputOf(workload: Workload, model: Model, pattern: WritePattern): WriteInput {
  if (pattern.operation !== "patch" && pattern.operation !== "delete") return { kind: "record" };
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  if (entity === undefined) return { kind: "record" };
  const changed = pattern.operation === "patch" ? attributesChangedBy(entity, pattern) : new Set<string>();
  const key = entity.key;
  // Items a write moves (it changes their address) are found by their key: nothing to demand.
  const own = ownItems(model, entity.name);
  const inPlace = own.filter(({ item }) => movedBy(entity, item, pattern).length === 0);
  // The item the input addresses: the one whose address needs the fewest attributes besides the
  // key (a whole record rather than a projection on a tie).
  const main = [...inPlace].sort(
    (a, b) =>
      beyondKey(key, a.item).length - beyondKey(key, b.item).length ||
      Number(a.item.select !== undefined) - Number(b.item.select !== undefined),
  )[0];
  const required = new Set<string>(key);
  if (main !== undefined) for (const name of beyondKey(key, main.item)) required.add(name);
  // What the synchronous steps render besides: the other items' addresses, the parents that
  // embed the record, the counters batched with its item.
  const needed = new Set<string>();
  for (const { item } of inPlace) for (const name of addressingAttributes(item)) needed.add(name);
  for (const container of model.containers) {
    for (const item of container.items) {
      const embeds = item.embeds.some((embed) => embed.entity === entity.name);
      const batched =
        pattern.operation === "delete" &&
        item.counts.some((counter) => counter.of === entity.name) &&
        own.some((child) => counterInBatch(workload, { container, item }, child));
      if (!embeds && !batched) continue;
      for (const property of Object.values(parentAddressBinding(workload, item, entity.name)))
        needed.add(property);
    }
  }
  const missing = [...needed].filter((name) => !required.has(name) && !changed.has(name));
  if (main === undefined) {
    // No item of its own (a child embedded in its parent): the record gives the parent's key.
    for (const name of missing) required.add(name);
  }
  const attributes = entity.attributes.map((a) => a.name);
  const optional =
    pattern.operation === "delete"
      ? []
      : (pattern.changes ?? attributes).filter(
          (name) => !required.has(name) && !isKeyAttribute(entity, name),
        );
  return {
    kind: "partial",
    required: [...required],
    optional: [...new Set(optional)],
    ...(main !== undefined && missing.length > 0
      ? { readsCurrent: { container: main.container.name, itemType: main.item.type } }
      : {}),
  };
}
