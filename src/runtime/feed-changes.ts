/**
 * The changes a change-feed page holds, as the handlers see them. Latest-version mode gives the
 * item as it is now: a create or an update ("upsert", not known which), or a delete when the item
 * is a soft-delete tombstone. All-versions-and-deletes mode tells creates, replaces and deletes
 * apart; a delete carries only the item's id and partition key, so it is offered to every item
 * type of the container whose id and key templates give back what its handlers need.
 */
import type { ContainerChange, Runtime } from "./context.js";
import type { ChangeFeedModeName } from "./feed-source.js";
import { isTombstone, keyPathSegments, setPath, type ItemTypeShape, type StoredItem } from "./items.js";
import { parseTemplate, templateAttributes } from "./templates.js";

function isObject(value: unknown): value is StoredItem {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A latest-version entry: an upsert, or a delete when it is a tombstone of its item type. */
function latestVersionChange(
  runtime: Runtime,
  container: string,
  entry: unknown,
): ContainerChange | undefined {
  if (!isObject(entry) || typeof entry["type"] !== "string") return undefined;
  const shape = runtime.itemTypes(container).find((candidate) => candidate.type === entry["type"]);
  if (shape === undefined) return undefined;
  const kind = isTombstone(shape, entry) ? "delete" : "upsert";
  return { container, itemType: shape.type, kind, item: entry };
}

/**
 * The item a delete event stands for under the hypothesis that it is of `shape`: id, key
 * properties and `type`, with every attribute that is a whole template of the id or a key; undefined
 * when the templates need an attribute the event does not give.
 */
export function itemOfDeleteEvent(
  shape: ItemTypeShape,
  id: string,
  partitionKey: Readonly<Record<string, unknown>>,
): StoredItem | undefined {
  const item: StoredItem = { id, type: shape.type };
  const keys = shape.keyPaths.map((path) => {
    const segments = keyPathSegments(path);
    let value: unknown = partitionKey[path.slice(1)] ?? partitionKey[segments[0] ?? ""];
    if (isObject(value))
      value = segments.slice(1).reduce<unknown>((v, s) => (isObject(v) ? v[s] : undefined), value);
    setPath(item, segments, value);
    return value;
  });
  const given = new Map<string, unknown>();
  [shape.id, ...shape.partitionKey].forEach((template, index) => {
    const parts = parseTemplate(template);
    const only = parts.length === 1 ? parts[0] : undefined;
    const value = index === 0 ? id : keys[index - 1];
    if (only?.kind === "attribute" && value !== undefined) given.set(only.name, value);
  });
  for (const template of [shape.id, ...shape.partitionKey]) {
    for (const name of templateAttributes(template)) if (!given.has(name)) return undefined;
  }
  for (const [name, value] of given) item[name] ??= value;
  return item;
}

/** An all-versions-and-deletes entry: `{ current, metadata: { operationType, id, partitionKey } }`. */
function allVersionsChanges(runtime: Runtime, container: string, entry: unknown): ContainerChange[] {
  if (!isObject(entry)) return [];
  const metadata = isObject(entry["metadata"]) ? entry["metadata"] : {};
  const operation = metadata["operationType"];
  if (operation === "delete") {
    const id = metadata["id"];
    const partitionKey = isObject(metadata["partitionKey"]) ? metadata["partitionKey"] : {};
    if (typeof id !== "string") return [];
    return runtime.itemTypes(container).flatMap((shape): ContainerChange[] => {
      const item = itemOfDeleteEvent(shape, id, partitionKey);
      return item === undefined ? [] : [{ container, itemType: shape.type, kind: "delete", item }];
    });
  }
  const current = entry["current"];
  if (!isObject(current) || typeof current["type"] !== "string") return [];
  const shape = runtime.itemTypes(container).find((candidate) => candidate.type === current["type"]);
  if (shape === undefined) return [];
  return [
    { container, itemType: shape.type, kind: operation === "create" ? "create" : "update", item: current },
  ];
}

/**
 * The changes of a page of `container`'s change feed, in the feed's order; entries of no item type
 * of the model (leases, counter markers) are left out.
 * @example changesOfFeed(runtime, "posts", response.result, "latestVersion")
 */
export function changesOfFeed(
  runtime: Runtime,
  container: string,
  entries: readonly unknown[],
  mode: ChangeFeedModeName,
): ContainerChange[] {
  return entries.flatMap((entry) => {
    if (mode === "allVersionsAndDeletes") return allVersionsChanges(runtime, container, entry);
    const change = latestVersionChange(runtime, container, entry);
    return change === undefined ? [] : [change];
  });
}
