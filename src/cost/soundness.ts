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
 *   tombstone of a soft delete) lives forever in a container without `defaultTtl`;
 * - **keys Cosmos DB can store**: an id is at most 1,023 bytes and a partition key value at most
 *   2,048; a template rendered from attributes the workload says are longer (`avgBytes`) is
 *   refused on every write (`keyLengthIssues`).
 *
 * Pure; the findings are `EvaluationIssue`s of error severity.
 */
import { formatInteger } from "../common/format-number.js";
import type { EvaluationIssue } from "../common/issues.js";
import { MAX_ID_BYTES, MAX_PARTITION_KEY_VALUE_BYTES, MAX_PHYSICAL_PARTITIONS } from "../cosmos/limits.js";
import { deleteCarriersOf, deletePropagationOf } from "../model/deletes.js";
import { addressingAttributes } from "../model/key-changes.js";
import { parseTemplate } from "../model/templates.js";
import type { Container, ItemType, Model } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import { coversKey, formatKey, keyTemplate } from "../workload/keys.js";
import type { Attribute, Entity, Workload } from "../workload/types.js";

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
 * How much longer than its average the longest value of an attribute is assumed to be, when keys
 * are checked against the service's limits: the workload gives averages only (`avgBytes`), and
 * `verify`'s synthetic data spreads sized values over 0.8-1.2 times their average
 * (`synthetic/values.ts`), as the check assumes.
 */
export const KEY_VALUE_SPREAD = 1.2;

/**
 * Characters a placeholder of a key renders to at most, by what bounds it: a number (`String` of
 * a double is at most 24 characters), a boolean, an ISO 8601 datetime (24), a shard or replica
 * number (the digits of the most physical partitions a container can have: there are never more
 * shards or replicas, `model.badShards`), a bucket's start (a datetime).
 */
const BOUNDED_VALUE_CHARS = {
  number: 24,
  boolean: 5,
  datetime: 24,
  counter: String(MAX_PHYSICAL_PARTITIONS).length,
} as const;

/**
 * The longest value a key template renders to, in bytes, from what the workload says of its
 * attributes; undefined when an attribute's size is not given (a string whose size the workload
 * leaves open is taken to be an identifier of ordinary length, as the synthetic data makes it).
 * @example longestKeyBytes(entity, "post-{postId}") // 5 + 1.2 x (postId's avgBytes - 2)
 */
export function longestKeyBytes(entity: Entity, template: string): number | undefined {
  let bytes = 0;
  let sized = false;
  for (const part of parseTemplate(template)) {
    if (part.kind === "literal") bytes += Buffer.byteLength(part.text, "utf8");
    else if (part.kind === "shard" || part.kind === "replica") bytes += BOUNDED_VALUE_CHARS.counter;
    else if (part.kind === "bucket") bytes += BOUNDED_VALUE_CHARS.datetime;
    else {
      const attribute = entity.attributes.find((candidate) => candidate.name === part.name);
      const value = attribute === undefined ? undefined : longestValueBytes(attribute);
      if (value === undefined) continue;
      sized ||= attribute?.avgBytes !== undefined;
      bytes += value;
    }
  }
  return sized ? Math.ceil(bytes) : undefined;
}

function longestValueBytes(attribute: Attribute): number | undefined {
  if (attribute.type === "number" || attribute.type === "boolean" || attribute.type === "datetime") {
    return attribute.avgBytes === undefined
      ? BOUNDED_VALUE_CHARS[attribute.type]
      : Math.min(BOUNDED_VALUE_CHARS[attribute.type], attribute.avgBytes * KEY_VALUE_SPREAD);
  }
  if (attribute.avgBytes === undefined) return undefined;
  // `avgBytes` is the value's JSON: a string's two quotes are not in the key.
  return (
    (attribute.type === "string" ? Math.max(0, attribute.avgBytes - 2) : attribute.avgBytes) *
    KEY_VALUE_SPREAD
  );
}

/** Item types whose id or partition key values are longer than Cosmos DB stores (`evaluate.keyTooLong`). */
function keyLengthIssues(workload: Workload, model: Model): EvaluationIssue[] {
  const issues: EvaluationIssue[] = [];
  for (const container of model.containers) {
    for (const item of container.items) {
      const entity = workload.entities.find((e) => e.name === item.entity);
      if (entity === undefined) continue;
      const keys: { field: "id" | "partitionKey"; template: string; limit: number; index?: number }[] = [
        { field: "id", template: item.id, limit: MAX_ID_BYTES },
        ...item.partitionKey.map((template, index) => ({
          field: "partitionKey" as const,
          template,
          limit: MAX_PARTITION_KEY_VALUE_BYTES,
          index,
        })),
      ];
      for (const key of keys) {
        const bytes = longestKeyBytes(entity, key.template);
        if (bytes === undefined || bytes <= key.limit) continue;
        const what = key.field === "id" ? "an id" : "a partition key value";
        issues.push({
          code: "evaluate.keyTooLong",
          container: container.name,
          itemType: item.type,
          field: key.field,
          template: key.template,
          bytes,
          limit: key.limit,
          severity: "error",
          path: [
            "containers",
            container.name,
            "items",
            item.type,
            key.field,
            ...(key.index === undefined ? [] : [key.index]),
          ],
          message: `${container.name}/${item.type} ${key.field === "id" ? "ids" : "partition key values"} "${key.template}" reach about ${formatInteger(bytes)} bytes (the attributes' avgBytes, their longest values taken as ${KEY_VALUE_SPREAD} times the average), over the ${formatInteger(key.limit)} bytes Cosmos DB allows in ${what}: writes of such items are refused`,
          suggestion: `address ${item.type} items by shorter attributes (the entity's key, or a short unique attribute), and filter on the long one in a query`,
        });
      }
    }
  }
  return issues;
}

/**
 * The structural findings of a model: ids that do not identify a record, expiring items in a
 * container without TTL, keys longer than the service stores.
 * @example soundnessIssues(workload, model).map((i) => i.code) // ["evaluate.idNotUnique"]
 */
export function soundnessIssues(workload: Workload, model: Model): EvaluationIssue[] {
  return [...idIssues(workload, model), ...ttlIssues(workload, model), ...keyLengthIssues(workload, model)];
}
