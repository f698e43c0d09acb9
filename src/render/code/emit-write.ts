/**
 * The data a generated module needs to run writes: the synchronous tasks of each write access
 * pattern (item writes, re-keyed projections, embedded children, transactional batches with
 * counters) and the change-feed tasks of each source item type (copies with replicas and
 * trimming, propagation of copied attributes, counters), all taken from the plans.
 */
import { buildQuery } from "../../planner/sql.js";
import { keyConditions } from "../../planner/key-conditions.js";
import { routeRequest } from "../../planner/routing.js";
import type { ChangeFeedStep, QueryParameter, WritePlan } from "../../planner/types.js";
import type { Model } from "../../model/types.js";
import type { Workload, WritePattern } from "../../workload/types.js";
import {
  entityNamed,
  relationshipOf,
  rewriteTemplate,
  shapeKey,
  type ItemTypeShapeData,
} from "./model-data.js";
import { changeKind } from "../../planner/plan-write.js";
import type { ItemRef, MaintenanceTask, ParameterSource, WriteTask } from "../../runtime/tasks.js";

/** A write task of the generated module (the runtime's `WriteTask`). */
export type WriteTaskData = WriteTask;

/** A maintenance task of the generated module (the runtime's `MaintenanceTask`). */
export type MaintenanceTaskData = MaintenanceTask;

/** The kind of change a write pattern makes: the planner's own rule. */
export const changeKindOf = changeKind;

/** Templates of a parent item type rewritten to render from a child record (`{postId}` of a comment). */
function parentTemplates(
  workload: Workload,
  parentEntity: string,
  childEntity: string,
  templates: readonly string[],
): readonly string[] {
  const key = entityNamed(workload, parentEntity)?.key;
  const via = relationshipOf(workload, parentEntity, childEntity)?.via;
  if (key === undefined || via === undefined) return templates;
  return templates.map((t) => rewriteTemplate(t, key, via));
}

/** The complete item type of an entity (no projection, bucket or replicas), to read a previous record. */
function completeRef(shapes: ReadonlyMap<string, ItemTypeShapeData>, entity: string): ItemRef | undefined {
  for (const shape of shapes.values()) {
    if (shape.entity !== entity || shape.source !== undefined || shape.select !== undefined) continue;
    if (shape.bucket !== undefined || shape.replicas !== undefined) continue;
    return { container: shape.container, itemType: shape.type };
  }
  return undefined;
}

function shapeOrFail(shapes: ReadonlyMap<string, ItemTypeShapeData>, ref: ItemRef): ItemTypeShapeData {
  const shape = shapes.get(shapeKey(ref.container, ref.itemType));
  if (shape === undefined)
    throw new RangeError(`the plan names ${ref.container}/${ref.itemType}, not in the model`);
  return shape;
}

/** The synchronous tasks of a write pattern, from its plan. */
export function writeTasksOf(
  workload: Workload,
  pattern: WritePattern,
  plan: WritePlan,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): WriteTaskData[] {
  const tasks: WriteTaskData[] = [];
  const rekeyed = new Set<string>();
  const change = changeKindOf(pattern);
  for (const step of plan.operations) {
    if (step.kind === "batch") {
      const [primary, ...increments] = step.operations;
      if (primary === undefined) continue;
      const operation =
        change === "delete" ? "delete" : primary.operation === "patch" ? "upsert" : primary.operation;
      tasks.push({
        kind: "batch",
        container: step.container,
        itemType: step.itemType,
        operation,
        increments: increments.flatMap((inc) => {
          const holder = shapeOrFail(shapes, inc);
          const counter = inc.increments?.[0];
          if (counter === undefined) return [];
          const [id = inc.id, ...partitionKey] = parentTemplates(workload, holder.entity, pattern.entity, [
            inc.id,
            ...inc.partitionKey,
          ]);
          return [
            {
              container: inc.container,
              itemType: inc.itemType,
              id,
              partitionKey,
              property: counter.property,
              by: counter.by,
            },
          ];
        }),
      });
      continue;
    }
    if (step.kind !== "write") continue;
    const shape = shapeOrFail(shapes, step);
    const key = shapeKey(step.container, step.itemType);
    if (shape.entity === pattern.entity) {
      if (step.operation === "create" && change === "update") {
        // A projection whose id changes: created under the new id, the old one deleted.
        rekeyed.add(key);
        const previousFrom = completeRef(shapes, pattern.entity);
        tasks.push({
          kind: "rekey",
          container: step.container,
          itemType: step.itemType,
          ...(previousFrom === undefined ? {} : { previousFrom }),
        });
      } else if (!(step.operation === "delete" && rekeyed.has(key))) {
        tasks.push({
          kind: "item",
          container: step.container,
          itemType: step.itemType,
          // A soft delete is planned as a patch; the runtime removes by the item type's softDelete.
          operation: change === "delete" ? "delete" : step.operation,
        });
      }
      continue;
    }
    const embed = shape.embeds.find((e) => e.entity === pattern.entity);
    const relationship = relationshipOf(workload, shape.entity, pattern.entity);
    const childKey = entityNamed(workload, pattern.entity)?.key;
    if (embed === undefined || childKey === undefined) continue;
    const [id = step.id, ...partitionKey] = parentTemplates(workload, shape.entity, pattern.entity, [
      step.id,
      ...step.partitionKey,
    ]);
    tasks.push({
      kind: "embed",
      container: step.container,
      itemType: step.itemType,
      id,
      partitionKey,
      as: embed.as,
      ...(embed.latest === undefined ? {} : { latest: embed.latest }),
      childKey,
      many: relationship?.kind !== "one-to-one",
    });
  }
  return tasks;
}

function parameterSources(parameters: readonly QueryParameter[]): {
  readonly name: string;
  readonly source: ParameterSource;
}[] {
  return parameters.map(({ name, source }) => {
    switch (source.kind) {
      case "literal":
        return { name, source: { kind: "literal", value: source.value } };
      case "fromResult":
        return { name, source: { kind: "fromResult", attribute: source.attribute } };
      case "template":
        return { name, source: { kind: "template", template: source.template } };
      case "limit":
        return { name, source: { kind: "limit" } };
      case "input":
        return { name, source: { kind: "fromResult", attribute: source.attribute } };
      case "random":
      case "item":
        return { name, source: { kind: "literal", value: "" } };
      default:
        return source satisfies never;
    }
  });
}

/** `SELECT VALUE COUNT(1)` over the partition a trim query visits (same conditions, same parameters). */
function countQuery(model: Model, ref: ItemRef): string | undefined {
  const container = model.containers.find((c) => c.name === ref.container);
  const item = container?.items.find((i) => i.type === ref.itemType);
  if (container === undefined || item === undefined) return undefined;
  const routing = routeRequest(item, new Set());
  return buildQuery({
    keys: keyConditions(
      { container, item },
      { ...routing, scope: "single", knownLevels: item.partitionKey.length },
      "result",
      new Set(),
    ),
    predicates: [],
    valuesFrom: "result",
    orderBy: [],
    aggregate: { fn: "count" },
  }).sql;
}

function maintenanceTask(
  workload: Workload,
  model: Model,
  step: ChangeFeedStep,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): { readonly key: string; readonly task: MaintenanceTaskData } | undefined {
  const target: ItemRef = { container: step.container, itemType: step.itemType };
  const targetKey = shapeKey(step.container, step.itemType);
  switch (step.reason) {
    case "copy":
    case "replica":
    case "trim": {
      const trim = step.steps.find((s) => s.kind === "query");
      const countSql = trim === undefined ? undefined : countQuery(model, target);
      return {
        key: `copy:${targetKey}`,
        task:
          trim?.kind === "query" && countSql !== undefined
            ? {
                kind: "copy",
                target,
                trim: { countSql, oldestSql: trim.sql, parameters: parameterSources(trim.parameters) },
              }
            : { kind: "copy", target },
      };
    }
    case "propagate": {
      const [find, update] = step.steps;
      const property = update?.kind === "write" ? update.sets?.[0] : undefined;
      const holder = shapeOrFail(shapes, target);
      const attribute = holder.copies.find((c) => c.as === property)?.from.attribute;
      if (find?.kind !== "query" || property === undefined || attribute === undefined) return undefined;
      return {
        key: `propagate:${targetKey}:${property}`,
        task: {
          kind: "propagate",
          holder: target,
          sql: find.sql,
          parameters: parameterSources(find.parameters),
          property,
          attribute,
        },
      };
    }
    case "counter": {
      const increment = step.steps.find((inner) => inner.kind === "write" && inner.increments !== undefined);
      const property = increment?.kind === "write" ? increment.increments?.[0]?.property : undefined;
      if (increment?.kind !== "write" || property === undefined) return undefined;
      const holder = shapeOrFail(shapes, target);
      const child = shapeOrFail(shapes, { container: step.from.container, itemType: step.from.itemType });
      const [id = increment.id, ...partitionKey] = parentTemplates(workload, holder.entity, child.entity, [
        increment.id,
        ...increment.partitionKey,
      ]);
      const childKey = entityNamed(workload, child.entity)?.key ?? "id";
      return {
        key: `counter:${targetKey}:${property}`,
        task: { kind: "counter", holder: target, id, partitionKey, property, childKey },
      };
    }
    default:
      return step.reason satisfies never;
  }
}

/**
 * The change-feed tasks of every source item type, by `container/type`, from the `async` steps
 * of every write plan (the same copy planned by several patterns is kept once, with its trim).
 */
export function maintenanceTasksOf(
  workload: Workload,
  model: Model,
  plans: readonly WritePlan[],
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): ReadonlyMap<string, readonly MaintenanceTaskData[]> {
  const bySource = new Map<string, Map<string, MaintenanceTaskData>>();
  for (const plan of plans) {
    for (const step of plan.async) {
      const made = maintenanceTask(workload, model, step, shapes);
      if (made === undefined) continue;
      const source = shapeKey(step.from.container, step.from.itemType);
      const tasks = bySource.get(source) ?? new Map<string, MaintenanceTaskData>();
      const existing = tasks.get(made.key);
      const keepExisting = existing?.kind === "copy" && existing.trim !== undefined;
      if (!keepExisting) tasks.set(made.key, made.task);
      bySource.set(source, tasks);
    }
  }
  return new Map([...bySource].map(([source, tasks]) => [source, [...tasks.values()]]));
}
