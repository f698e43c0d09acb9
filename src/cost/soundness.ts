/**
 * What a model must get right to work at all, whatever it costs (issue 24: "a model that evaluate
 * accepts is a model that works"). Each check is one that `verify` would otherwise refute on a
 * real account, found here from the model's structure alone:
 *
 * - **ids unique within a logical partition**: an item type that holds one item per record must
 *   render its id and partition key from attributes that identify the record (the entity's whole
 *   key, or an attribute the workload says is unique); `{studentId}-{courseId}` for enrollments
 *   keyed by `enrollmentId` collides when a student enrolls twice (409 on the second create);
 * - **TTL on where items expire**: an item written with a `ttl` (an item type's `ttl`, or the
 *   tombstone of a soft delete) lives forever in a container without `defaultTtl`.
 *
 * Pure; the findings are `EvaluationIssue`s of error severity.
 */
import type { EvaluationIssue } from "../common/issues.js";
import { deleteCarriersOf, deletePropagationOf } from "../model/deletes.js";
import { addressingAttributes } from "../model/key-changes.js";
import type { Container, ItemType, Model } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import { coversKey, formatKey, keyTemplate } from "../workload/keys.js";
import type { Entity, Workload } from "../workload/types.js";

/**
 * True when the attributes that address items of `item` identify one record: the entity's key
 * (or a `unique` attribute) is among them. A bucket holds many records under one id by design.
 */
export function identifiesRecord(entity: Entity, item: ItemType): boolean {
  if (item.bucket !== undefined) return true;
  const used = new Set(addressingAttributes(item));
  if (coversKey(entity, used)) return true;
  return entity.attributes.some((attribute) => attribute.unique === true && used.has(attribute.name));
}

/** Item types whose ids may collide within a logical partition (`evaluate.idNotUnique`). */
function idIssues(workload: Workload, model: Model): EvaluationIssue[] {
  const issues: EvaluationIssue[] = [];
  for (const container of model.containers) {
    for (const item of container.items) {
      const entity = workload.entities.find((e) => e.name === item.entity);
      if (entity === undefined || identifiesRecord(entity, item)) continue;
      const attributes = [...addressingAttributes(item)];
      issues.push({
        code: "evaluate.idNotUnique",
        container: container.name,
        itemType: item.type,
        entity: entity.name,
        attributes,
        severity: "error",
        path: ["containers", container.name, "items", item.type, "id"],
        message: `${container.name}/${item.type} items are addressed by ${attributes.length === 0 ? "constant templates" : attributes.join(", ")}, which do not identify one ${entity.name} (its key is ${formatKey(entity.key)}${uniqueNote(entity)}): two records with the same ${attributes.length === 0 ? "address" : "values"} get one id in one logical partition, and the second create is refused (409) or an upsert overwrites the first`,
        suggestion: `put ${entity.key.join(" and ")} in the id template (e.g. "${`${item.id}-${keyTemplate(entity.key.filter((name) => !item.id.includes(`{${name}}`)))}`}"), or, if ${attributes.join(" and ") || "they"} really identify a ${entity.name}, say so in the workload (a composite key, or unique: true)`,
      });
    }
  }
  return issues;
}

function uniqueNote(entity: Entity): string {
  const unique = entity.attributes.filter((a) => a.unique === true).map((a) => a.name);
  return unique.length === 0 ? "; no attribute is unique" : `; unique: ${unique.join(", ")}`;
}

/** Why items of `container` carry a `ttl`, if any do: an item type's own, or soft-delete tombstones. */
export function expiringItems(workload: Workload, model: Model, container: Container): string[] {
  const reasons: string[] = [];
  for (const item of container.items)
    if (item.ttl !== undefined) reasons.push(`${item.type} items set ttl ${item.ttl}`);
  const deletes = deletePropagationOf(model);
  if (deletes.mode === "softDelete") {
    for (const carrier of deleteCarriersOf(workload, model)) {
      if (carrier.container !== container.name) continue;
      reasons.push(
        `a delete of a ${carrier.itemType} leaves a tombstone with ttl ${deletes.ttlSeconds} (deletes: softDelete)`,
      );
    }
  }
  return reasons;
}

/** Containers whose items carry a `ttl` that Cosmos DB ignores: TTL is off (`evaluate.ttlOff`). */
function ttlIssues(workload: Workload, model: Model): EvaluationIssue[] {
  return model.containers.flatMap((container): EvaluationIssue[] => {
    if (container.defaultTtl !== undefined) return [];
    const reasons = expiringItems(workload, model, container);
    if (reasons.length === 0) return [];
    return [
      {
        code: "evaluate.ttlOff",
        container: container.name,
        reasons,
        severity: "error",
        path: ["containers", container.name],
        message: `${container.name} has no defaultTtl, so Cosmos DB ignores the ttl of its items and they never expire: ${reasons.join("; ")}`,
        suggestion: `set defaultTtl: -1 on ${container.name} (TTL on; items expire only by their own ttl)`,
      },
    ];
  });
}

/**
 * The containers whose change feed drives the maintenance of derived data (copies, counters,
 * propagation, trimming, replicas) in `plans`.
 */
export function changeFeedSources(plans: readonly Plan[]): readonly string[] {
  const sources = new Set<string>();
  for (const plan of plans)
    if (plan.type === "write") for (const step of plan.async) sources.add(step.from.container);
  return [...sources].sort();
}

/**
 * A model whose derived data is kept from the change feed names its lease container
 * (`evaluate.leaseContainerMissing`): the processors keep their continuation and ownership there,
 * and an account without key access cannot create it at run time.
 */
export function leaseIssues(model: Model, plans: readonly Plan[]): EvaluationIssue[] {
  const containers = changeFeedSources(plans);
  if (containers.length === 0 || model.leases !== undefined) return [];
  return [
    {
      code: "evaluate.leaseContainerMissing",
      containers,
      severity: "error",
      path: ["leases"],
      message: `derived data is kept from the change feed of ${containers.join(", ")}, but the model names no lease container: the change-feed processors have nowhere to keep their place, and the infrastructure does not create one`,
      suggestion:
        "add leases: leases to the model (a container partitioned by /id that the infrastructure creates)",
    },
  ];
}

/**
 * The structural findings of a model: ids that do not identify a record, expiring items in a
 * container without TTL.
 * @example soundnessIssues(workload, model).map((i) => i.code) // ["evaluate.idNotUnique"]
 */
export function soundnessIssues(workload: Workload, model: Model): EvaluationIssue[] {
  return [...idIssues(workload, model), ...ttlIssues(workload, model)];
}
