/**
 * An item type as stored, with what it inherits from its `source` chain: the source's copies,
 * counters, embeds and ancestors come first, then its own; `select` is the intersection of the
 * projections; `truncate` keeps the smallest size per attribute.
 */
import { CosmosModelerError } from "../common/errors.js";
import type { ItemType, Model } from "./types.js";

/** The item type with what it inherits from its `source` chain; without `source`, the item type. */
export function effectiveItemType(itemType: ItemType, model?: Model): ItemType {
  if (itemType.source === undefined) return itemType;
  if (model === undefined) {
    throw new CosmosModelerError(
      "model.missingRelatedData",
      `item type "${itemType.type}" is a copy of ${itemType.source.container}/${itemType.source.type}: pass the model in related.model`,
    );
  }
  const { container, type } = itemType.source;
  const source = model.containers
    .find((candidate) => candidate.name === container)
    ?.items.find((candidate) => candidate.type === type);
  if (source === undefined || source === itemType) {
    throw new CosmosModelerError("model.unknownSource", `no item type ${container}/${type} in the model`);
  }
  const inherited = effectiveItemType(source, model);
  const select =
    inherited.select === undefined
      ? itemType.select
      : itemType.select === undefined
        ? inherited.select
        : itemType.select.filter((name) => inherited.select?.includes(name));
  const truncate = new Map<string, number>();
  for (const { attribute, bytes } of [...inherited.truncate, ...itemType.truncate]) {
    truncate.set(attribute, Math.min(bytes, truncate.get(attribute) ?? bytes));
  }
  const ancestors = itemType.ancestors ?? inherited.ancestors;
  return {
    ...itemType,
    ...(select === undefined ? {} : { select }),
    truncate: [...truncate].map(([attribute, bytes]) => ({ attribute, bytes })),
    embeds: [...inherited.embeds, ...itemType.embeds],
    copies: [...inherited.copies, ...itemType.copies],
    counts: [...inherited.counts, ...itemType.counts],
    ...(ancestors === undefined ? {} : { ancestors }),
  };
}
