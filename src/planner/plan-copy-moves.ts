/**
 * Copies (`source`) whose address moves. A copy keyed by an attribute that writes change
 * (complaints by `escalatedTo`) is upserted under its new key by the change feed; the copy under
 * the old key must go. The change feed gives only the new version of the source item, so the
 * handler finds the old copy: when the upsert created the copy (the address is new), a query for
 * the copies of the same record by the entity key, and a delete of each one at another address.
 * And when the source itself moves (a delete and a create in two logical partitions, seen in any
 * order), the delete must not remove a copy its create already rewrote: the handler reads the
 * copy first and deletes it only if it still holds the deleted version.
 */
import { keyAttributes } from "../workload/keys.js";
import { addressingAttributes, changingAddress } from "../model/key-changes.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { keyProperty, routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import type { PlanStep, PointReadStep, QueryStep } from "./types.js";
import { anyChangeProbability, type ChangeKind } from "./changes.js";

/** Write patterns of an entity. */
function writePatterns(env: PlanEnvironment, entity: string): WritePattern[] {
  return env.context.writesOf(entity).filter((p): p is WritePattern => p.type === "write");
}

/**
 * The source's address attributes that writes change and the copy's address does not hold: a
 * delete of the source may be half of a move that leaves the copy where it is.
 */
export function unguardedSourceMoves(env: PlanEnvironment, source: Placement, copy: Placement): string[] {
  const entity = env.context.entity(copy.item.entity);
  const copyAddress = new Set(addressingAttributes(copy.item));
  return changingAddress(entity, writePatterns(env, entity.name), source.item).filter(
    (name) => !copyAddress.has(name),
  );
}

/** The copy's address attributes that writes change (the copy moves when they do). */
export function movingCopyAddress(env: PlanEnvironment, copy: Placement): readonly string[] {
  const entity = env.context.entity(copy.item.entity);
  return changingAddress(entity, writePatterns(env, entity.name), copy.item);
}

/**
 * The extra steps of keeping `copy` where its source is, for `times` changes of `kind` per
 * request (`pattern`: the write that made them, for the share that moves the copy):
 * - delete: a point read of the copy before its delete, when the source can move without it;
 * - create / update: when the copy's address can change, a query for its copies at other
 *   addresses (every create, whose kind the latest-version change feed does not tell from an
 *   update; the updates that change the address) and a delete of each one found.
 */
export function copyMoveSteps(
  env: PlanEnvironment,
  source: Placement,
  copy: Placement,
  kind: ChangeKind,
  times: number,
  pattern: WritePattern | undefined,
  deleteStep: (times: number, note: string) => PlanStep,
): PlanStep[] {
  const replicas = copy.item.replicas ?? 1;
  if (kind === "delete") {
    if (unguardedSourceMoves(env, source, copy).length === 0) return [];
    const check: PointReadStep = {
      kind: "pointRead",
      role: "checkCopy",
      container: copy.container.name,
      itemType: copy.item.type,
      id: copy.item.id,
      partitionKey: copy.item.partitionKey,
      ...env.charge({ op: "read", itemBytes: env.shape(copy).avgBytes }),
      times: times * replicas,
      note: `read the copy first: delete it only if it still holds the deleted ${source.item.type} (its move may have rewritten it)`,
    };
    return [check];
  }
  const moving = movingCopyAddress(env, copy);
  if (moving.length === 0) return [];
  const moveShare =
    kind === "create" ? 0 : pattern === undefined ? 0 : anyChangeProbability(env, pattern, moving);
  // Every create is searched (the feed cannot tell it from an update); updates when they move it.
  const searched = kind === "create" ? 1 : moveShare;
  if (times * searched < 1e-4) return [];
  const key = keyAttributes(env.context.entity(copy.item.entity));
  const routing = routeRequest(copy.item, new Set(key));
  const partitions =
    routing.scope === "fanOut"
      ? env.partitions(copy.container.name)
      : routing.scope === "shards"
        ? Math.min(routing.shardCount, env.partitions(copy.container.name))
        : 1;
  const query = buildQuery({
    keys: keyConditions(copy, routing, "result", new Set(key)),
    predicates: key.map((attribute) => ({ attribute, op: "eq" as const })),
    valuesFrom: "result",
    orderBy: [],
    projection: [...new Set(["id", ...copy.container.partitionKey.map(keyProperty)])],
    ...tombstoneFilter(env, copy),
  });
  const find: QueryStep = {
    kind: "query",
    role: "staleCopies",
    container: copy.container.name,
    itemType: copy.item.type,
    sql: query.sql,
    parameters: query.parameters,
    ...(routing.scope === "fanOut" || routing.scope === "shards"
      ? {}
      : { partitionKey: copy.item.partitionKey.slice(0, routing.knownLevels) }),
    scope: routing.scope,
    partitions,
    returned: replicas,
    orderServedByIndex: true,
    ...env.charge({ op: "query", returned: replicas, returnedBytes: replicas * 80, partitions }),
    times: times * searched,
    note:
      kind === "create"
        ? `look for a copy of the record at an old ${moving.join(", ")} (the latest-version change feed does not tell a create from an update)`
        : `find the copies left under the old ${moving.join(", ")} by the ${key.join(", ")}`,
  };
  const removals = times * moveShare * replicas;
  return removals > 0
    ? [find, deleteStep(removals, `delete the copy left under the old ${moving.join(", ")}`)]
    : [find];
}
