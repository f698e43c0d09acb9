/**
 * Bounded sets (`keepLatest: N by s`), with or without replicas, kept at the cost the plan states:
 * a replica is touched only when the item is in the set or enters it. For each change the handler
 * first reads the item in one replica (is it a member?): a member is rewritten in every replica;
 * otherwise the set's members (id and `s`, from one replica) are read once, and an item newer
 * than the oldest member (or any item while the set is not full) is written into every replica
 * and the oldest beyond N are deleted from every replica. An update the change feed reports as
 * an update (all-versions mode) of an item that is not a member skips the members when no write
 * changes `s` (it cannot enter); the latest-version feed the generated code reads by default
 * reports creates and updates alike, so the plan costs the members read for every change of an
 * item outside the set. A delete removes a member from every replica.
 * Costed with the share of records the set holds (`items kept / replicas / records`) for updates
 * and deletes, and as an entering item for creates (new items are the newest: an upper bound).
 *
 * A member that leaves (its source deleted, moved to another set by a change of the set's key, or
 * made older by a change of `by`) is replaced from the source: the handler reads the newest N of
 * the set's key from the source item type (`refillQuery`) and the set's members, writes the
 * members the set lacks into every replica and deletes those beyond N (`refillSteps`).
 */
import { addressingAttributes, keepLatestOrderChanges } from "../model/key-changes.js";
import { templateAttributes } from "../model/templates.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { isPathIndexed } from "./indexing.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import type { ChangeKind } from "./changes.js";
import type { PlanStep, PointReadStep, QueryStep, RefillObstacle, WriteFinding } from "./types.js";
import { anyChangeProbability, changeProbability } from "./changes.js";

/** Bytes of one member as the members query returns it (`{"id": ..., "<by>": ...}`). */
const MEMBER_BYTES = 80;

/** True when some write of the entity changes the attribute the set is ordered by. */
export function sortMayChange(env: PlanEnvironment, copy: Placement): boolean {
  const entity = env.context.entity(copy.item.entity);
  const writes = env.context.writesOf(entity.name).filter((p): p is WritePattern => p.type === "write");
  return keepLatestOrderChanges(entity, writes, copy.item);
}

/** The query reading a set's members (id and order value) in one logical partition (one replica). */
export function membersQuery(env: PlanEnvironment, copy: Placement, times: number): QueryStep {
  const { container, item } = copy;
  const keepLatest = item.keepLatest;
  if (keepLatest === undefined) throw new Error(`internal: ${item.type} is not a bounded set`);
  const routing = routeRequest(item, new Set());
  const query = buildQuery({
    keys: keyConditions(
      copy,
      { ...routing, scope: "single", knownLevels: item.partitionKey.length },
      "result",
      new Set(),
    ),
    predicates: [],
    valuesFrom: "result",
    orderBy: [{ attribute: keepLatest.by, direction: "desc" }],
    // The order value, and what renders each member's id in every replica.
    projection: [...new Set(["id", keepLatest.by, ...addressingAttributes(item)])],
    ...tombstoneFilter(env, copy),
  });
  const members = keepLatest.count;
  return {
    kind: "query",
    role: "boundedSet",
    container: container.name,
    itemType: item.type,
    sql: query.sql,
    parameters: query.parameters,
    partitionKey: item.partitionKey,
    scope: "single",
    partitions: 1,
    returned: members,
    orderServedByIndex: isPathIndexed(env.policy(container), `/${keepLatest.by}`),
    ...env.charge({
      op: "query",
      returned: members,
      returnedBytes: members * MEMBER_BYTES,
      partitions: 1,
    }),
    times,
    note: `read the ${members} members of the set (id, ${keepLatest.by}) from one replica`,
  };
}

/**
 * The steps of keeping the bounded set `copy` for `times` changes of `kind` of its source per
 * request; `share`: the share of records the set holds; `write` builds its writes.
 */
export function boundedSetSteps(
  env: PlanEnvironment,
  copy: Placement,
  kind: ChangeKind,
  times: number,
  share: number,
  write: (operation: "upsert" | "delete", times: number, note: string) => PlanStep,
): PlanStep[] {
  const { item } = copy;
  const keepLatest = item.keepLatest;
  if (keepLatest === undefined) return [];
  const replicas = item.replicas ?? 1;
  const every = replicas > 1 ? ` in each of the ${replicas} replicas` : "";
  const member: PointReadStep = {
    kind: "pointRead",
    role: "boundedSet",
    container: copy.container.name,
    itemType: item.type,
    id: item.id,
    partitionKey: item.partitionKey,
    ...env.charge({ op: "read", itemBytes: env.shape(copy).avgBytes }),
    times,
    note: `is the item in the set? one point read in one replica (only members are rewritten)`,
  };
  const outside = 1 - share;
  switch (kind) {
    case "create":
      return [
        {
          ...member,
          times,
          note: `is the item in the set? (the feed does not tell a create) one point read in one replica`,
        },
        membersQuery(env, copy, times),
        write("upsert", times * replicas, `write the new item${every}`),
        write("delete", times * replicas, `delete the oldest beyond the newest ${keepLatest.count}${every}`),
      ];
    case "update": {
      // An item outside the set enters only when `s` can change (then it evicts the oldest).
      const enters = sortMayChange(env, copy) ? outside : 0;
      return [
        member,
        write("upsert", times * replicas * (share + enters), `rewrite a member${every}`),
        membersQuery(env, copy, times * outside),
        ...(enters > 0
          ? [write("delete", times * replicas * enters, `delete the oldest when the item enters${every}`)]
          : []),
      ];
    }
    case "delete":
      return [member, write("delete", times * replicas * share, `delete a member${every}`)];
    default:
      return kind satisfies never;
  }
}

/** The attributes that pick a bounded set's logical partition (those of its key templates). */
export function setKeyAttributes(copy: Placement): readonly string[] {
  return [...new Set(copy.item.partitionKey.flatMap((template) => templateAttributes(template)))];
}

/**
 * The item type a bounded set is kept from, when it holds every record the set may need (not a
 * bounded set or a bucket itself) and sorts them by the set's order (`by` indexed): what the
 * refill query reads. Undefined when the set cannot be refilled.
 */
export function refillSource(env: PlanEnvironment, copy: Placement): Placement | undefined {
  const found = refillSourceOf(env, copy);
  return found.kind === "source" ? found.placement : undefined;
}

/** The item type a bounded set is refilled from, or why it cannot be (`refillSource`). */
function refillSourceOf(
  env: PlanEnvironment,
  copy: Placement,
):
  | { readonly kind: "source"; readonly placement: Placement }
  | { readonly kind: "obstacle"; readonly cause: RefillObstacle } {
  const { source, keepLatest } = copy.item;
  const placement = source === undefined ? undefined : env.context.placement(source.container, source.type);
  if (keepLatest === undefined || placement === undefined)
    return { kind: "obstacle", cause: "sourceIncomplete" };
  if (placement.item.keepLatest !== undefined || placement.item.bucket !== undefined)
    return { kind: "obstacle", cause: "sourceIncomplete" };
  if (!isPathIndexed(env.policy(placement.container), `/${keepLatest.by}`))
    return { kind: "obstacle", cause: "orderNotIndexed" };
  return { kind: "source", placement };
}

/**
 * The query reading what a bounded set should hold from its source: the newest N records of the
 * set's key (`SELECT TOP N * ... WHERE <key attributes> = ... ORDER BY by DESC`), whole (they are
 * written into the set as its normal insert writes them), in one logical partition when the
 * source is partitioned by the set's key, else across the source's partitions.
 */
export function refillQuery(
  env: PlanEnvironment,
  source: Placement,
  copy: Placement,
  times: number,
): QueryStep {
  const keepLatest = copy.item.keepLatest;
  if (keepLatest === undefined) throw new Error(`internal: ${copy.item.type} is not a bounded set`);
  const known = setKeyAttributes(copy);
  const routed = routeRequest(source.item, new Set(known));
  // Only a single logical partition is routed; a prefix or the write shards of the source are
  // read as a fan-out (the key attributes filter).
  const routing =
    routed.scope === "single"
      ? routed
      : { scope: "fanOut" as const, knownLevels: 0, idKnown: false, shardCount: 1 };
  const partitions = routing.scope === "single" ? 1 : env.partitions(source.container.name);
  const query = buildQuery({
    keys: keyConditions(source, routing, "result", new Set(known)),
    predicates: known.map((attribute) => ({ attribute, op: "eq" as const })),
    valuesFrom: "result",
    orderBy: [{ attribute: keepLatest.by, direction: "desc" }],
    top: keepLatest.count,
    ...tombstoneFilter(env, source),
  });
  const returned = keepLatest.count;
  return {
    kind: "query",
    role: "boundedSetRefill",
    container: source.container.name,
    itemType: source.item.type,
    sql: query.sql,
    parameters: query.parameters,
    ...(routing.scope === "single" ? { partitionKey: source.item.partitionKey } : {}),
    scope: routing.scope,
    partitions,
    returned,
    orderServedByIndex: isPathIndexed(env.policy(source.container), `/${keepLatest.by}`),
    ...env.charge({
      op: "query",
      returned,
      returnedBytes: returned * env.shape(source).avgBytes,
      partitions,
    }),
    times,
    note: `refill ${copy.container.name}/${copy.item.type} when a member leaves: read the newest ${returned} by ${keepLatest.by} of its key from ${source.container.name} (${routing.scope === "single" ? "single partition" : `fan-out over ${partitions} partitions`})`,
  };
}

/**
 * The steps of `times` refills per request of the bounded set `copy` from `source`: the newest N
 * from the source, the members of each of the set's partitions in one replica (every write shard),
 * the member that replaces the leaving one written into every replica, and (`redated`: a member
 * made older stays only while newer than the rest) the member that drops out deleted.
 */
export function refillSteps(
  env: PlanEnvironment,
  source: Placement,
  copy: Placement,
  times: number,
  redated: boolean,
  write: (operation: "upsert" | "delete", times: number, note: string) => PlanStep,
): PlanStep[] {
  if (times < 1e-6) return [];
  const replicas = copy.item.replicas ?? 1;
  const shards = copy.item.shards ?? 1;
  const every = replicas > 1 ? ` in each of the ${replicas} replicas` : "";
  return [
    refillQuery(env, source, copy, times),
    {
      ...membersQuery(env, copy, times * shards),
      note: `read the members of the set${shards > 1 ? ` (each of its ${shards} write shards)` : ""} to find those it lacks`,
    },
    write("upsert", times * replicas, `write the next newest member into the set${every}`),
    ...(redated
      ? [write("delete", times * replicas, `delete the member made older than the newest${every}`)]
      : []),
  ];
}

/**
 * Refills per change of the set's source for `times` changes of `kind` per request: the share of
 * changes that take a member out of the set (a delete of a member; an update of a member that
 * changes `by` or the set's key), `share` being the share of records the set holds.
 */
export function refillShares(
  env: PlanEnvironment,
  copy: Placement,
  kind: ChangeKind,
  share: number,
  pattern: WritePattern | undefined,
): { readonly redated: number; readonly moved: number } {
  const keepLatest = copy.item.keepLatest;
  if (keepLatest === undefined) return { redated: 0, moved: 0 };
  if (kind === "delete") return { redated: share, moved: 0 };
  if (pattern === undefined || pattern.entity !== copy.item.entity) return { redated: 0, moved: 0 };
  return {
    redated: share * changeProbability(env, pattern, keepLatest.by),
    moved: share * anyChangeProbability(env, pattern, setKeyAttributes(copy)),
  };
}

/**
 * The bounded sets of the written entity that the write can leave short and the handler cannot
 * refill: a set that holds fewer than all of its source's records (`items kept / replicas /
 * records` below 1) loses a member to a delete or to a change of its key, and a change of its
 * order attribute may make a member older than a record outside it; the handler refills it from
 * the source (`refillQuery`), unless the source does not hold every record (a bounded set or a
 * bucket) or does not index the order attribute (`refillSource`).
 */
export function boundedSetRefillFindings(env: PlanEnvironment, pattern: WritePattern): WriteFinding[] {
  const findings: WriteFinding[] = [];
  const entity = env.context.entity(pattern.entity);
  const changed = entity.attributes
    .map((attribute) => attribute.name)
    .filter((name) => changeProbability(env, pattern, name) > 0);
  for (const copy of env.context.placementsOf(pattern.entity)) {
    const { container, item } = copy;
    const keepLatest = item.keepLatest;
    if (keepLatest === undefined || item.source === undefined) continue;
    const refill = refillSourceOf(env, copy);
    if (refill.kind === "source") continue;
    const kept = env.itemCount(copy) / (item.replicas ?? 1);
    if (kept >= env.context.countAtHorizon(pattern.entity)) continue;
    const key = addressingAttributes(item).filter((name) => changed.includes(name));
    const finding =
      pattern.operation === "delete"
        ? { reason: "delete" as const, attributes: [] }
        : key.length > 0
          ? { reason: "key" as const, attributes: key }
          : changed.includes(keepLatest.by)
            ? { reason: "order" as const, attributes: [keepLatest.by] }
            : undefined;
    if (finding === undefined) continue;
    findings.push({
      kind: "boundedSetNotRefilled",
      container: container.name,
      itemType: item.type,
      entity: pattern.entity,
      ...finding,
      cause: refill.cause,
    });
  }
  return findings;
}
