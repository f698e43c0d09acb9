/**
 * How a request reaches the items of an item type: which partition key values are known from the
 * attributes the caller supplies, and so whether it is a point read, a single-partition query, a
 * query on a hierarchical-key prefix, a query over the write shards, or a fan-out.
 */
import { parseTemplate, templateAttributes, templateUses } from "../model/templates.js";
import type { Container, ItemType } from "../model/types.js";
import type { QueryStep } from "./types.js";

export type Scope = "single" | "prefix" | "shards" | "fanOut";

export interface Routing {
  readonly scope: Scope;
  /** Key paths (from the first) whose values are known; equals the path count when `single`. */
  readonly knownLevels: number;
  /** True when the id template can be rendered too, so a point read is possible. */
  readonly idKnown: boolean;
  /** Logical partitions a `shards` query must visit. */
  readonly shardCount: number;
}

/** Whether a template's value is known when the attributes in `known` are. */
function templateKnown(
  template: string,
  item: ItemType,
  known: ReadonlySet<string>,
): "known" | "shards" | "unknown" {
  let needsShards = false;
  for (const part of parseTemplate(template)) {
    switch (part.kind) {
      case "literal":
      case "replica": // the reader picks a replica at random
        break;
      case "attribute":
        if (!known.has(part.name)) return "unknown";
        break;
      case "shard":
        if (item.shardBy === undefined || !known.has(item.shardBy)) needsShards = true;
        break;
      case "bucket":
        if (item.bucket?.kind !== "window" || !known.has(item.bucket.by)) return "unknown";
        break;
      default:
        return part satisfies never;
    }
  }
  return needsShards ? "shards" : "known";
}

/**
 * Routes a request that knows the values of `known` attributes (equality predicates) to `item`.
 * @example routeRequest(postInPostsContainer, new Set(["postId"])).scope // "single"
 */
export function routeRequest(item: ItemType, known: ReadonlySet<string>): Routing {
  let knownLevels = 0;
  let shards = false;
  for (const template of item.partitionKey) {
    const state = templateKnown(template, item, known);
    if (state === "unknown") break;
    if (state === "shards") shards = true;
    knownLevels++;
    if (shards) break;
  }
  const levels = item.partitionKey.length;
  const idKnown = templateKnown(item.id, item, known) === "known";
  const shardCount = item.shards ?? 1;
  if (knownLevels === levels && !shards) return { scope: "single", knownLevels, idKnown, shardCount };
  if (shards && knownLevels === levels) return { scope: "shards", knownLevels, idKnown, shardCount };
  if (knownLevels > 0 && !shards) return { scope: "prefix", knownLevels, idKnown, shardCount };
  return { scope: "fanOut", knownLevels: 0, idKnown, shardCount };
}

/**
 * Whether a query routed so reads every replica of a replicated item type (`replicas: N`), and so
 * returns each record N times: it names no replica unless every partition key level holding
 * `{replica}` is known (the reader then picks one). A fan-out, a key prefix above the replica, or
 * replicas told apart by their id alone all read every replica (independent seeds 61, 92:
 * `accountId in [...]` over account replicas keyed `{accountId}-{replica}` returned 4 of each).
 * @example readsEveryReplica(accountReplicas, { scope: "fanOut", knownLevels: 0, ... }) // true
 */
export function readsEveryReplica(item: ItemType, routing: Routing): boolean {
  if ((item.replicas ?? 1) <= 1) return false;
  const levels = item.partitionKey.flatMap((template, level) =>
    templateUses(template, "replica") ? [level] : [],
  );
  return (
    routing.scope === "fanOut" || levels.length === 0 || levels.some((level) => level >= routing.knownLevels)
  );
}

/** Attributes the partition key templates of an item type use (without shard/replica/bucket). */
export function partitionKeyAttributes(item: ItemType): readonly string[] {
  return [...new Set(item.partitionKey.flatMap((template) => templateAttributes(template)))];
}

/**
 * The property name that holds partition key path `path` (`/userId` -> `userId`; nested paths
 * keep their first segment, which is where the value lives).
 */
export function keyProperty(path: string): string {
  return path.replace(/^\//, "").split("/")[0] ?? path;
}

/** True when `template` is exactly one attribute placeholder (`{userId}`), and which. */
export function singleAttribute(template: string): string | undefined {
  const parts = parseTemplate(template);
  return parts.length === 1 && parts[0]?.kind === "attribute" ? parts[0].name : undefined;
}

/**
 * Where a query step goes and what it sends: the container, the item type, the SQL with its
 * parameters, the key prefix it targets (none for a fan-out), its scope and the physical
 * partitions it visits. Shared by the query plans of reads and of searches.
 */
export function queryAddress(
  container: Container,
  item: ItemType,
  query: Pick<QueryStep, "sql" | "parameters">,
  routing: Routing,
  partitions: number,
): Pick<
  QueryStep,
  "kind" | "container" | "itemType" | "sql" | "parameters" | "partitionKey" | "scope" | "partitions"
> {
  return {
    kind: "query",
    container: container.name,
    itemType: item.type,
    sql: query.sql,
    parameters: query.parameters,
    ...(routing.scope === "fanOut" ? {} : { partitionKey: item.partitionKey.slice(0, routing.knownLevels) }),
    scope: routing.scope,
    partitions,
  };
}
