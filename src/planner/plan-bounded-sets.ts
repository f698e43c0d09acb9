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
 */
import { addressingAttributes, keepLatestOrderChanges } from "../model/key-changes.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { isPathIndexed } from "./indexing.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import type { ChangeKind } from "./changes.js";
import type { PlanStep, PointReadStep, QueryStep, WriteFinding } from "./types.js";
import { changeProbability } from "./changes.js";

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
    ru: env.estimate({
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
    ru: env.estimate({ op: "read", itemBytes: env.shape(copy).avgBytes }),
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

/**
 * The bounded sets of the written entity that the write can leave short: a set that holds fewer
 * than all of its source's records (`items kept / replicas / records` below 1) loses a member to
 * a delete or to a change of its key, and a change of its order attribute may make a member older
 * than a record outside it; the handler removes or rewrites the member and never reads the next
 * newest from the source (`src/runtime/bounded-sets.ts`), so the set keeps fewer than the newest.
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
    });
  }
  return findings;
}
