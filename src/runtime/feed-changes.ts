/**
 * The changes a change-feed page holds, as the handlers see them. Latest-version mode gives the
 * item as it is now: a create or an update ("upsert", not known which), or a delete when the item
 * is a soft-delete tombstone. All-versions-and-deletes mode tells creates, replaces and deletes
 * apart; a delete carries only the item's id and partition key, so it is offered to every item
 * type of the container whose id and key templates give back what its handlers need.
 */
import type { ContainerChange, Runtime } from "./context.js";
import type { ChangeFeedModeName } from "./feed-source.js";
import type { Journal } from "./journal.js";
import { isTombstone, keyPathSegments, setPath, type ItemTypeShape, type StoredItem } from "./items.js";
import { templateAttributes, unrenderTemplate } from "./templates.js";

function isObject(value: unknown): value is StoredItem {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a change was delivered, when the feed gives its sequence number (and the batch's journal). */
function feedOf(
  lsn: unknown,
  range: string | undefined,
  journal: Journal | undefined,
): { feed?: { lsn: number; range: string; journal?: Journal } } {
  return typeof lsn === "number" && range !== undefined
    ? { feed: { lsn, range, ...(journal === undefined ? {} : { journal }) } }
    : {};
}

/** A latest-version entry: an upsert, or a delete when it is a tombstone of its item type. */
function latestVersionChange(
  runtime: Runtime,
  container: string,
  entry: unknown,
  range: string | undefined,
  journal: Journal | undefined,
): ContainerChange | undefined {
  if (!isObject(entry) || typeof entry["type"] !== "string") return undefined;
  const shape = runtime.itemTypes(container).find((candidate) => candidate.type === entry["type"]);
  if (shape === undefined) return undefined;
  const kind = isTombstone(shape, entry) ? "delete" : "upsert";
  return { container, itemType: shape.type, kind, item: entry, ...feedOf(entry["_lsn"], range, journal) };
}

/**
 * The item a delete event stands for under the hypothesis that it is of `shape`: id, key
 * properties and `type`, with every attribute its id and key can be read back into
 * (`unrenderTemplate`); undefined when they do not match the item type's templates.
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
  const templates = [shape.id, ...shape.partitionKey];
  for (const [index, template] of templates.entries()) {
    const value = index === 0 ? id : keys[index - 1];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      return undefined;
    const read = unrenderTemplate(template, value);
    // A template with several attributes cannot be read back; one with one attribute must match.
    if (read === undefined && templateAttributes(template).length <= 1) return undefined;
    for (const [name, attribute] of Object.entries(read?.attributes ?? {})) given.set(name, attribute);
  }
  for (const [name, value] of given) item[name] ??= value;
  return item;
}

/** An all-versions-and-deletes entry: `{ current, metadata: { operationType, id, partitionKey } }`. */
function allVersionsChanges(
  runtime: Runtime,
  container: string,
  entry: unknown,
  range: string | undefined,
  journal: Journal | undefined,
): ContainerChange[] {
  if (!isObject(entry)) return [];
  const metadata = isObject(entry["metadata"]) ? entry["metadata"] : {};
  const operation = metadata["operationType"];
  const feed = feedOf(metadata["lsn"], range, journal);
  if (operation === "delete") {
    const id = metadata["id"];
    const partitionKey = isObject(metadata["partitionKey"]) ? metadata["partitionKey"] : {};
    if (typeof id !== "string") return [];
    return runtime.itemTypes(container).flatMap((shape): ContainerChange[] => {
      const item = itemOfDeleteEvent(shape, id, partitionKey);
      return item === undefined ? [] : [{ container, itemType: shape.type, kind: "delete", item, ...feed }];
    });
  }
  const current = entry["current"];
  if (!isObject(current) || typeof current["type"] !== "string") return [];
  const shape = runtime.itemTypes(container).find((candidate) => candidate.type === current["type"]);
  if (shape === undefined) return [];
  return [
    {
      container,
      itemType: shape.type,
      kind: operation === "create" ? "create" : "update",
      item: current,
      ...feed,
    },
  ];
}

/**
 * The changes of a page of `container`'s change feed (read from feed range `range`), in the feed's
 * order, with their sequence numbers; entries of no item type of the model are left out.
 * @example changesOfFeed(runtime, "posts", response.result, "latestVersion")
 */
export function changesOfFeed(
  runtime: Runtime,
  container: string,
  entries: readonly unknown[],
  mode: ChangeFeedModeName,
  range?: string,
  journal?: Journal,
): ContainerChange[] {
  return entries.flatMap((entry) => {
    if (mode === "allVersionsAndDeletes")
      return allVersionsChanges(runtime, container, entry, range, journal);
    const change = latestVersionChange(runtime, container, entry, range, journal);
    return change === undefined ? [] : [change];
  });
}
