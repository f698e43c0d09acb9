/**
 * The access-pattern shapes of an independent workload's features (`independent-workloads-features.ts`
 * reads the schema and scale): filters, orders, projections, every `with` form and what it
 * crosses, and the writes' operations, changes and transactions.
 */
import type { AddFeature } from "./independent-workloads-feature-list.js";
import {
  attributeOf,
  entityNamed,
  type DraftEntity,
  type DraftRead,
  type DraftSchema,
  type DraftWrite,
} from "./independent-workloads-model.js";

/** Records the features of the read patterns. */
export function readFeatures(
  schema: DraftSchema,
  reads: readonly DraftRead[],
  writes: readonly DraftWrite[],
  add: AddFeature,
): void {
  const { entities, relationships } = schema;
  for (const read of reads) {
    const entity = entityNamed(entities, read.entity);
    const vias = relationships
      .filter((r) => r.child === entity.name && r.via !== undefined)
      .map((r) => r.via);
    for (const [name, operator] of read.where) {
      const type = attributeOf(entity, name)?.type;
      if (operator === "range") add(type === "datetime" ? "where:rangeDatetime" : "where:rangeNumber", true);
      else add(`where:${operator}`, true);
    }
    add("where:none", read.where.length === 0);
    const filteredVias = read.where.filter(
      ([name, op]) => vias.includes(name) && (op === "eq" || op === "in"),
    );
    add("where:parentVia", filteredVias.length > 0);
    add("where:twoVias", filteredVias.length >= 2);
    add(
      "orderBy:asc",
      read.orderBy.some(([, direction]) => direction === "asc"),
    );
    add(
      "orderBy:desc",
      read.orderBy.some(([, direction]) => direction === "desc"),
    );
    add("orderBy:two", read.orderBy.length >= 2);
    add("limit", read.limit !== undefined);
    add("returns", read.returns !== undefined);
    add("select", read.select !== undefined);
    add("truncate", read.truncate !== undefined);
    add("consistency", read.consistency !== undefined);
    add("latencyMs", read.latencyMs !== undefined);
    add("maxStaleness:zero", read.maxStalenessSeconds === 0);
    add("maxStaleness:positive", (read.maxStalenessSeconds ?? 0) > 0);
    for (const entry of read.with) withFeatures(schema, entity, entry, add);
  }
  const keysByEntity = new Map<string, Set<string>>();
  for (const read of reads) {
    const keys = read.where.filter(([, op]) => op === "eq" || op === "in").map(([name]) => name);
    if (keys.length === 0) continue;
    const set = keysByEntity.get(read.entity) ?? new Set<string>();
    set.add(keys.sort().join(","));
    keysByEntity.set(read.entity, set);
  }
  add(
    "readsByDifferentKeys",
    [...keysByEntity.values()].some((set) => set.size >= 2),
  );
  const created = new Set(
    writes.filter((w) => w.operation === "create" || w.operation === "upsert").map((w) => w.entity),
  );
  add(
    "readWithoutCreate",
    reads.some((read) => !created.has(read.entity)),
  );
}

function withFeatures(schema: DraftSchema, entity: DraftEntity, entry: string, add: AddFeature): void {
  add("with:spaced", /\(\s|\s\)|,\S/.test(entry));
  const aggregate = /^(count|sum|min|max|latest|all)\(/.exec(entry)?.[1];
  if (aggregate !== undefined) {
    add(`with:${aggregate as "count" | "sum" | "min" | "max" | "latest" | "all"}`, true);
    return;
  }
  const [other = "", attribute = ""] = entry.split(".");
  const between = schema.relationships.filter(
    (r) => (r.parent === entity.name && r.child === other) || (r.child === entity.name && r.parent === other),
  );
  add("with:selfRelationship", other === entity.name);
  add(
    "with:manyToMany",
    between.some((r) => r.kind === "many-to-many"),
  );
  add(
    "with:parentAttribute",
    between.some((r) => r.kind !== "many-to-many" && r.child === entity.name && other !== entity.name),
  );
  add("with:ambiguousPair", between.filter((r) => r.kind !== "many-to-many").length >= 2);
  add("with:nameCollision", other !== entity.name && attributeOf(entity, attribute) !== undefined);
}

/** Records the features of the write patterns (and the attributes reads copy that they change). */
export function writeFeatures(
  schema: DraftSchema,
  reads: readonly DraftRead[],
  writes: readonly DraftWrite[],
  add: AddFeature,
): void {
  const copiedByOthers = new Set(
    reads.flatMap((read) =>
      read.with
        .map((entry) => /^(?:(?:sum|min|max)\(\s*)?(\w+)\.(\w+)/.exec(entry))
        .filter((match) => match !== null && match[1] !== read.entity)
        .map((match) => `${match?.[1] ?? ""}.${match?.[2] ?? ""}`),
    ),
  );
  for (const write of writes) {
    add(`write:${write.operation}`, true);
    add("write:upsertChanges", write.operation === "upsert" && write.changes !== undefined);
    add("batch", write.batch !== undefined);
    add("bufferedRecords", write.bufferedRecords !== undefined);
    add("atomicWith", write.atomicWith !== undefined);
    const vias = schema.relationships
      .filter((r) => r.child === write.entity && r.via !== undefined)
      .map((r) => r.via);
    add(
      "reparent",
      (write.changes ?? []).some((name) => vias.includes(name)),
    );
    add(
      "changeCopiedAttribute",
      (write.changes ?? []).some((name) => copiedByOthers.has(`${write.entity}.${name}`)),
    );
  }
}
