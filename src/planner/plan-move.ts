/**
 * Moves: a write that changes an attribute of an item's id or partition key cannot patch the
 * item in place (Cosmos DB cannot change a partition key value, and an id change is a new item).
 * It finds the current item, creates the record under its new id and key, and deletes the old
 * item: two requests in two logical partitions, so no transactional batch can hold them (the
 * create comes first: a failure between the two leaves a duplicate to clean up, never a lost
 * record). When the attribute keeps its value, the write stays in place.
 */
import { keyAttributes } from "../workload/keys.js";
import { addressingAttributes, attributesChangedBy } from "../model/key-changes.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import type { PlannedMove, PlanStep, PointReadStep, QueryStep } from "./types.js";

/** A move: its steps per request (finding the item, in place, create, delete) and its data. */
export interface MoveSteps {
  readonly steps: readonly PlanStep[];
  readonly move: PlannedMove;
  readonly note: string;
}

/** A write step of the moving item type (built by the caller: it knows the item's charges). */
export type MoveWrite = (
  operation: "create" | "delete" | "replace" | "upsert" | "patch",
  times: number,
  note: string,
) => PlanStep;

/**
 * Attributes whose values a write of `pattern` knows and that stay as they are: the entity key,
 * and for a replace or an upsert (whole records) every attribute the pattern never changes.
 */
function knownAttributes(env: PlanEnvironment, pattern: WritePattern): Set<string> {
  const entity = env.context.entity(pattern.entity);
  const known = new Set(keyAttributes(entity));
  if (pattern.operation === "patch") return known;
  const changed = attributesChangedBy(entity, pattern);
  for (const attribute of entity.attributes) if (!changed.has(attribute.name)) known.add(attribute.name);
  return known;
}

/**
 * True when the moving item can be derived from the helper's record instead of read: the helper
 * is written by the write itself (not a copy that may lag), holds every attribute the moving item
 * stores, and the moving item holds nothing others maintain (counters, embeds, copies, ancestors).
 */
function derivable(helper: Placement, moving: Placement): boolean {
  const { item } = moving;
  if (helper.item.source !== undefined) return false;
  if (item.counts.length > 0 || item.embeds.length > 0 || item.copies.length > 0) return false;
  if (item.ancestors !== undefined || item.replicas !== undefined) return false;
  const held = helper.item.select;
  return (
    held === undefined || (item.select !== undefined && item.select.every((name) => held.includes(name)))
  );
}

/** A point read of another item type that the known attributes address and that says where the item lives. */
function helperRead(
  env: PlanEnvironment,
  moving: Placement,
  known: ReadonlySet<string>,
  times: number,
): (PointReadStep & { readonly derives: boolean }) | undefined {
  const needed = addressingAttributes(moving.item);
  let best: (PointReadStep & { readonly derives: boolean }) | undefined;
  for (const candidate of env.context.placementsOf(moving.item.entity)) {
    const { item } = candidate;
    if (candidate.container.name === moving.container.name && item.type === moving.item.type) continue;
    if (item.bucket !== undefined || item.keepLatest !== undefined) continue;
    if (item.select !== undefined && needed.some((name) => !item.select?.includes(name))) continue;
    const routing = routeRequest(item, known);
    if (routing.scope !== "single" || !routing.idKnown) continue;
    const derives = derivable(candidate, moving);
    const step = {
      kind: "pointRead" as const,
      container: candidate.container.name,
      itemType: item.type,
      id: item.id,
      partitionKey: item.partitionKey,
      ...env.charge({ op: "read", itemBytes: env.shape(candidate).avgBytes }),
      times,
      note: derives
        ? `read the ${item.type} in ${candidate.container.name}: the current ${moving.item.type} follows from it`
        : `read the ${item.type} in ${candidate.container.name} for where the ${moving.item.type} lives now`,
      derives,
    };
    // A helper the item follows from saves the second read: prefer it, then the cheaper.
    const better =
      best === undefined ||
      (derives && !best.derives) ||
      (derives === best.derives && step.ru.estimate < best.ru.estimate);
    if (better) best = step;
  }
  return best;
}

/** The plan step of a helper read (without the flag). */
function toStep(helper: PointReadStep & { readonly derives: boolean }): PointReadStep {
  const { derives: _derives, ...step } = helper;
  return step;
}

/** The query that finds the current item by the entity key (routed by what the write knows). */
function locateQuery(
  env: PlanEnvironment,
  pattern: WritePattern,
  moving: Placement,
  known: ReadonlySet<string>,
  times: number,
): QueryStep {
  const key = keyAttributes(env.context.entity(pattern.entity));
  const routing = routeRequest(moving.item, known);
  const partitions =
    routing.scope === "fanOut"
      ? env.partitions(moving.container.name)
      : routing.scope === "shards"
        ? Math.min(routing.shardCount, env.partitions(moving.container.name))
        : 1;
  const query = buildQuery({
    keys: keyConditions(moving, routing, "result", new Set(key)),
    predicates: key.map((attribute) => ({ attribute, op: "eq" as const })),
    valuesFrom: "result",
    orderBy: [],
    ...tombstoneFilter(env, moving),
  });
  return {
    kind: "query",
    container: moving.container.name,
    itemType: moving.item.type,
    sql: query.sql,
    parameters: query.parameters,
    ...(routing.scope === "fanOut" || routing.scope === "shards"
      ? {}
      : { partitionKey: moving.item.partitionKey.slice(0, routing.knownLevels) }),
    scope: routing.scope,
    partitions,
    returned: 1,
    orderServedByIndex: true,
    ...env.charge({ op: "query", returned: 1, returnedBytes: env.shape(moving).avgBytes, partitions }),
    times,
    note: `find the current ${moving.item.type} by its ${key.join(", ")} (${routing.scope === "fanOut" ? `fan-out over ${partitions} physical partition(s)` : `${routing.scope} query`})`,
  };
}

/**
 * The steps of a write that may move `moving` (its id or key uses `attributes`, changed with
 * probability `share` per record): find the current item (a point read of a helper item type then
 * of the item, or a query by the entity key, whichever costs less), then in place for the
 * records that keep their address and create + delete for those that move. `inPlace` is the share
 * of records written in place (1 - share for a complete item; less for a projection that only a
 * change of its attributes rewrites).
 */
export function planMove(
  env: PlanEnvironment,
  pattern: WritePattern,
  moving: Placement,
  attributes: readonly string[],
  share: number,
  inPlace: number,
  write: MoveWrite,
): MoveSteps {
  const known = knownAttributes(env, pattern);
  const times = pattern.batch;
  const helper = helperRead(env, moving, known, times);
  const query = locateQuery(env, pattern, moving, known, times);
  const second: PointReadStep | undefined =
    helper === undefined || helper.derives
      ? undefined
      : {
          kind: "pointRead",
          container: moving.container.name,
          itemType: moving.item.type,
          id: moving.item.id,
          partitionKey: moving.item.partitionKey,
          ...env.charge({ op: "read", itemBytes: env.shape(moving).avgBytes }),
          times,
          note: `read the current ${moving.item.type} at the id and key the ${helper.itemType} names (the query when that copy lags)`,
        };
  const helperSteps: PointReadStep[] =
    helper === undefined ? [] : [toStep(helper), ...(second === undefined ? [] : [second])];
  const helperCost = helperSteps.reduce((sum, step) => sum + step.ru.estimate, 0);
  const cheaper: PlanStep[] = helper !== undefined && helperCost <= query.ru.estimate ? helperSteps : [query];
  const type = moving.item.type;
  const percent = `${Math.round(share * 1000) / 10}%`;
  const steps: PlanStep[] = [
    ...cheaper,
    ...(inPlace > 0
      ? [write(pattern.operation, inPlace * times, `${pattern.operation} the ${type} in place`)]
      : []),
    write("create", share * times, `create the ${type} under its new id and key`),
    write(
      "delete",
      share * times,
      `delete the old ${type} (another logical partition: no transactional batch)`,
    ),
  ];
  const useHelper = helper !== undefined && cheaper[0] !== query;
  return {
    steps,
    move: {
      container: moving.container.name,
      itemType: type,
      attributes,
      share,
      ...(useHelper
        ? {
            helper: {
              container: helper.container,
              itemType: helper.itemType,
              id: helper.id,
              partitionKey: helper.partitionKey,
              derives: helper.derives,
            },
          }
        : {}),
      query: {
        sql: query.sql,
        parameters: query.parameters,
        ...(query.partitionKey === undefined ? {} : { partitionKey: query.partitionKey }),
      },
    },
    note: `${type} in ${moving.container.name}: a change of ${attributes.join(", ")} (${percent} of records) moves it: create under the new id and key, then delete the old item, two requests in two logical partitions (no transactional batch); the current item is ${useHelper ? `${helper.derives ? "derived from" : "found through"} a point read of ${helper.itemType} in ${helper.container}` : "found by a query by the key"}, unless the caller passes related.previous`,
  };
}
