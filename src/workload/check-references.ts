/**
 * The rules of docs/workload-format.md that span pieces of the file: names that must exist
 * (entities, attributes, relationships), ids that must be unique, rates and sizes that must be
 * consistent. Runs on every structurally valid piece, so they are reported together with the
 * structural problems of the others.
 */
import { didYouMean } from "../source/suggest.js";
import { ITEM_OVERHEAD_BYTES, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import type { PatternPiece, WorkloadPieces } from "./load-workload.js";
import type { Entity, Relationship, WithItem } from "./types.js";
import { formatKey } from "./keys.js";
import { formatWithItem } from "./with-items.js";
import { recencyAttribute } from "./recency.js";
import { checkSearchPattern } from "./check-search.js";

/** Reports every broken reference and inconsistent number among `pieces`. */
export function checkReferences(pieces: WorkloadPieces, sink: IssueSink): void {
  for (const entity of pieces.entities.values()) checkEntity(entity, pieces, sink);
  checkRelationships(pieces, sink);
  checkPatternIds(pieces, sink);
  for (const piece of pieces.patterns) checkPattern(piece, pieces, sink);
}

function checkEntity(entity: Entity, pieces: WorkloadPieces, sink: IssueSink): void {
  const at: IssuePath = ["entities", entity.name];
  checkKey(entity, pieces, sink);
  const limit = `an item can be at most ${formatBytes(MAX_ITEM_BYTES)} bytes (${MAX_ITEM_BYTES / 1024 / 1024} MB) in Azure Cosmos DB`;
  const properties =
    "the id and type properties, and the system properties _rid, _self, _etag, _attachments and _ts";
  const added = `every item adds ${ITEM_OVERHEAD_BYTES} bytes to its record (${properties})`;
  const largest = MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES;
  const split =
    "split large attributes (lists, long text, history) into items of their own, or keep large binary content in Azure Blob Storage and store a reference";
  for (const attribute of entity.attributes) {
    if (attribute.avgBytes === undefined || attribute.avgBytes <= largest) continue;
    sink.error(
      { code: "workload.itemTooLarge", entity: entity.name, bytes: attribute.avgBytes + ITEM_OVERHEAD_BYTES },
      [...at, "attributes", attribute.name, "avgBytes"],
      `${limit} and ${added}, so no item can hold ${attribute.name}; got an average of ${formatBytes(attribute.avgBytes)}`,
      `keep ${attribute.name} under ${formatBytes(largest)} bytes: ${split}`,
    );
  }
  if (entity.avgBytes > largest) {
    sink.error(
      { code: "workload.itemTooLarge", entity: entity.name, bytes: entity.avgBytes + ITEM_OVERHEAD_BYTES },
      [...at, "avgBytes"],
      `${limit} and ${added}, so no item holds an average ${entity.name} of ${formatBytes(entity.avgBytes)} bytes`,
      `keep records under ${formatBytes(largest)} bytes: ${split}`,
    );
  } else if (entity.maxBytes > largest) {
    // Without maxBytes the largest record is min(4 x avgBytes, the item limit) (defaultMaxBytes).
    const defaulted = !pieces.maxBytesGiven.has(entity.name);
    const stored = entity.maxBytes + ITEM_OVERHEAD_BYTES;
    sink.error(
      { code: "workload.itemTooLarge", entity: entity.name, bytes: stored },
      [...at, defaulted ? "avgBytes" : "maxBytes"],
      defaulted
        ? `${limit}; without maxBytes the largest ${entity.name} is taken as min(4 x avgBytes, 2 MB) = ${formatBytes(entity.maxBytes)} bytes, and ${added}: ${formatBytes(stored)} bytes`
        : `${limit}; the largest ${entity.name} (maxBytes ${formatBytes(entity.maxBytes)}) plus the ${ITEM_OVERHEAD_BYTES} bytes every item adds (${properties}) is ${formatBytes(stored)} bytes`,
      defaulted
        ? `give maxBytes, the largest record, at most ${formatBytes(largest)}; or lower avgBytes to at most ${formatBytes(Math.floor(largest / 4))} (the default maximum is 4 x avgBytes); or ${split}`
        : `lower maxBytes to at most ${formatBytes(largest)}; or ${split}`,
    );
  } else if (entity.maxBytes < entity.avgBytes) {
    sink.error(
      "workload.invalidValue",
      [...at, "maxBytes"],
      `expected a maximum at least as large as avgBytes (${entity.avgBytes}), got ${entity.maxBytes}`,
    );
  }
}

/**
 * The key: listed attributes (a composite key needs the attribute list, which types its values),
 * each once, each present on every record.
 */
function checkKey(entity: Entity, pieces: WorkloadPieces, sink: IssueSink): void {
  const at: IssuePath = ["entities", entity.name];
  const keyPath = (position: number): IssuePath =>
    entity.key.length === 1 ? [...at, "key"] : [...at, "key", position];
  if (entity.key.length > 1 && pieces.attributeNames.get(entity.name) === undefined) {
    sink.error(
      "workload.missingField",
      [...at, "attributes"],
      `${entity.name} has a composite key ${formatKey(entity.key)} but lists no attributes; a composite key names attributes the entity lists`,
      `list them, e.g. attributes: { ${entity.key.map((name) => `${name}: string`).join(", ")} }`,
    );
  }
  entity.key.forEach((name, position) => checkAttribute(pieces, entity.name, name, keyPath(position), sink));
  checkDuplicates(entity.key, [...at, "key"], sink);
  for (const name of new Set(entity.key)) {
    const key = entity.attributes.find((attribute) => attribute.name === name);
    if (key === undefined || key.presence >= 1) continue;
    sink.error(
      "workload.invalidValue",
      [...at, "attributes", key.name, "presence"],
      entity.key.length === 1
        ? `the key ${key.name} identifies every ${entity.name} record, so every record has it; got presence ${key.presence}`
        : `${key.name} is part of the key ${formatKey(entity.key)}, which identifies every ${entity.name} record, so every record has it; got presence ${key.presence}`,
      "remove presence from the key (the default is 1)",
    );
  }
}

/**
 * A via names one child attribute per attribute of the parent's key, in the parent's key order,
 * each once.
 */
function checkVia(
  relationship: Relationship,
  via: readonly string[],
  pieces: WorkloadPieces,
  at: IssuePath,
  sink: IssueSink,
): void {
  const viaPath = (position: number): IssuePath =>
    via.length === 1 ? [...at, "via"] : [...at, "via", position];
  via.forEach((name, position) => checkAttribute(pieces, relationship.child, name, viaPath(position), sink));
  checkDuplicates(via, [...at, "via"], sink);
  const parent = pieces.entities.get(relationship.parent);
  if (parent === undefined || parent.key.length === via.length) return;
  const example =
    parent.key.length === 1
      ? `via: ${parent.key[0] ?? ""}`
      : `via: [${parent.key.join(", ")}] (or the ${relationship.child} attributes that hold them)`;
  sink.error(
    "workload.invalidValue",
    [...at, "via"],
    parent.key.length === 1
      ? `${relationship.parent} has the key ${formatKey(parent.key)}, one attribute, so via names one attribute of ${relationship.child}; got ${via.length}`
      : `${relationship.parent} has the composite key ${formatKey(parent.key)}, so via lists ${parent.key.length} attributes of ${relationship.child} that hold them, in that order; got ${via.length}`,
    `for example ${example}`,
  );
}

function checkRelationships(pieces: WorkloadPieces, sink: IssueSink): void {
  for (const { index, relationship } of pieces.relationships) {
    const at: IssuePath = ["relationships", index];
    checkEntityName(relationship.parent, pieces, [...at, "parent"], sink);
    checkEntityName(relationship.child, pieces, [...at, "child"], sink);
    if (relationship.via === undefined) {
      if (relationship.kind !== "many-to-many") {
        sink.error(
          "workload.missingField",
          [...at, "via"],
          `required field is missing for a ${relationship.kind} relationship (expected the attribute of ${relationship.child} that holds the ${relationship.parent}'s key)`,
        );
      }
    } else {
      checkVia(relationship, relationship.via, pieces, at, sink);
    }
    const holders = new Set(relationship.via ?? []);
    const vias = (pieces.entities.get(relationship.child)?.attributes ?? []).filter((a) =>
      holders.has(a.name),
    );
    for (const via of vias) {
      if (!relationship.owned || via.presence >= 1) continue;
      sink.error(
        "workload.invalidValue",
        ["entities", relationship.child, "attributes", via.name, "presence"],
        `${relationship.child} is owned by ${relationship.parent} (relationships[${index}]), so every ${relationship.child} has a ${via.name}; got presence ${via.presence}`,
        "remove presence from the attribute, or owned: true from the relationship",
      );
    }
    if (relationship.max !== undefined && relationship.max < relationship.avg) {
      sink.error(
        "workload.invalidValue",
        [...at, "max"],
        `expected a maximum at least as large as avg (${relationship.avg}), got ${relationship.max}`,
      );
    }
    if (relationship.kind === "one-to-one" && (relationship.avg > 1 || (relationship.max ?? 1) > 1)) {
      sink.error(
        "workload.invalidValue",
        [...at, relationship.avg > 1 ? "avg" : "max"],
        "a one-to-one relationship has at most 1 child per parent",
        "use kind: one-to-many, or avg and max of at most 1",
      );
    }
  }
}

function checkPatternIds(pieces: WorkloadPieces, sink: IssueSink): void {
  const first = new Map<string, number>();
  for (const { index, id } of pieces.patternIds) {
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, index);
    else
      sink.error(
        "workload.duplicateId",
        ["accessPatterns", index, "id"],
        `id "${id}" is already used by accessPatterns[${earlier}]; every access pattern needs its own id`,
      );
  }
}

function checkPattern(piece: PatternPiece, pieces: WorkloadPieces, sink: IssueSink): void {
  const { index, pattern } = piece;
  const at: IssuePath = ["accessPatterns", index];
  if (pattern.rps.peak < pattern.rps.avg) {
    sink.error(
      {
        code: "workload.peakBelowAverage",
        pattern: pattern.id,
        avg: pattern.rps.avg,
        peak: pattern.rps.peak,
      },
      [...at, "rps", "peak"],
      `expected a peak at least as high as the average (${pattern.rps.avg} requests/s), got ${pattern.rps.peak}`,
    );
  }
  checkEntityName(pattern.entity, pieces, [...at, "entity"], sink);
  const entity = pattern.entity;
  if (pattern.type === "write") {
    pattern.changes?.forEach((name, position) =>
      checkAttribute(pieces, entity, name, [...at, "changes", position], sink),
    );
    checkDuplicates(pattern.changes ?? [], [...at, "changes"], sink);
    checkAtomicWith(piece, pieces, sink);
    if (pattern.bufferedRecords > 1 && (pattern.operation === "delete" || pattern.operation === "replace")) {
      sink.error(
        "workload.invalidValue",
        [...at, "bufferedRecords"],
        `bufferedRecords applies to writes that add records (create, upsert, patch); this pattern is a ${pattern.operation}`,
        "remove bufferedRecords, or use operation: create",
      );
    }
    return;
  }
  checkDuplicates(pattern.select ?? [], [...at, "select"], sink);
  checkDuplicates(pattern.with.map(formatWithItem), [...at, "with"], sink, piece.withPositions);
  for (const { attribute } of pattern.where)
    checkAttribute(pieces, entity, attribute, [...at, "where", attribute], sink);
  for (const { attribute } of pattern.orderBy)
    checkAttribute(pieces, entity, attribute, [...at, "orderBy", attribute], sink);
  pattern.select?.forEach((name, position) =>
    checkAttribute(pieces, entity, name, [...at, "select", position], sink),
  );
  for (const { attribute } of pattern.truncate) {
    checkAttribute(pieces, entity, attribute, [...at, "truncate", attribute], sink);
  }
  if (pattern.limit !== undefined && pattern.returns !== undefined && pattern.returns.avg > pattern.limit) {
    sink.error(
      "workload.invalidValue",
      [...at, "returns", "avg"],
      `expected at most limit (${pattern.limit}) items returned, got ${pattern.returns.avg}`,
    );
  }
  pattern.with.forEach((item, position) =>
    checkWithItem(item, pattern, pieces, [...at, "with", piece.withPositions[position] ?? position], sink),
  );
  checkSearchPattern(piece, pieces, sink);
}

/** `atomicWith` names other write patterns of the file, each once. */
function checkAtomicWith(piece: PatternPiece, pieces: WorkloadPieces, sink: IssueSink): void {
  const { index, pattern } = piece;
  if (pattern.type !== "write") return;
  const at: IssuePath = ["accessPatterns", index, "atomicWith"];
  checkDuplicates(pattern.atomicWith, at, sink);
  const ids = pieces.patternIds.map(({ id }) => id);
  pattern.atomicWith.forEach((id, position) => {
    if (id === pattern.id) {
      sink.error(
        "workload.invalidValue",
        [...at, position],
        `${pattern.id} names itself; atomicWith lists the other writes that commit with it`,
      );
      return;
    }
    if (!ids.includes(id)) {
      sink.error(
        { code: "workload.unknownPattern", pattern: id },
        [...at, position],
        `there is no access pattern with id "${id}"`,
        didYouMean(id, ids),
      );
      return;
    }
    const other = pieces.patterns.find((candidate) => candidate.pattern.id === id)?.pattern;
    if (other !== undefined && other.type !== "write") {
      sink.error(
        "workload.invalidValue",
        [...at, position],
        `${id} is a read; atomicWith lists write patterns that commit in the same transaction`,
      );
    }
  });
}

function checkWithItem(
  item: WithItem,
  pattern: { readonly id: string; readonly entity: string; readonly maxStalenessSeconds?: number },
  pieces: WorkloadPieces,
  at: IssuePath,
  sink: IssueSink,
): void {
  if (!checkEntityName(item.entity, pieces, at, sink)) return;
  const from = pattern.entity;
  const text = formatWithItem(item);
  if (item.kind === "attribute") {
    // The attribute of the one related record: a parent (the pattern's entity holds its key), or
    // the records linked many-to-many (an array of their values). A child is one of many: which
    // child's value is meant is not said (and even a one-to-one child may be missing).
    const toParent = pieces.links.some((link) => link.parent === item.entity && link.child === from);
    const manyToMany = pieces.relationships.some(
      ({ relationship }) =>
        relationship.kind === "many-to-many" &&
        ((relationship.parent === from && relationship.child === item.entity) ||
          (relationship.parent === item.entity && relationship.child === from)),
    );
    const toChild = pieces.links.some((link) => link.parent === from && link.child === item.entity);
    if (!toParent && !manyToMany) {
      sink.error(
        "workload.badWith",
        at,
        toChild
          ? `${text} asks for an attribute of ${from}'s ${item.entity}, but ${item.entity} is a child of ${from}: a ${from} has any number of them, so no one value is meant`
          : `${text} needs ${item.entity} to be a parent of ${from} (or linked to it many-to-many)`,
        toChild
          ? `ask for latest(${item.entity}, 1) (the newest), all(${item.entity}), or an aggregate such as max(${item.entity}.${item.attribute})`
          : `add a relationship such as { parent: ${item.entity}, child: ${from}, via: ... }`,
      );
    }
    if (manyToMany && !toParent && pattern.maxStalenessSeconds === 0) {
      // Across a many-to-many relationship no attribute names the linked records at read time:
      // only an array of their values kept in the record's items answers, and the change feed
      // keeps it (a record linked or changed later reaches it after a delay).
      sink.error(
        "workload.badWith",
        at,
        `${text} follows the many-to-many relationship between ${from} and ${item.entity}, which only a copy kept from the change feed answers, but ${pattern.id} must see every write (maxStalenessSeconds: 0)`,
        `allow a delay (maxStalenessSeconds above 0, or leave it out), or make the link an entity with a relationship to each side`,
      );
    }
    checkAttribute(pieces, item.entity, item.attribute, at, sink);
    return;
  }
  const isChild = pieces.links.some((link) => link.parent === from && link.child === item.entity);
  if (!isChild) {
    sink.error(
      "workload.badWith",
      at,
      `${text} needs ${item.entity} to be a child of ${from}, but no relationship has parent: ${from}, child: ${item.entity}`,
      `add a relationship { parent: ${from}, child: ${item.entity}, via: ... }`,
    );
  }
  if (item.kind === "latest") checkLatestTime(item.entity, pattern.id, text, pieces, at, sink);
  if (item.kind === "aggregate") {
    checkAttribute(pieces, item.entity, item.attribute, at, sink);
    const type = pieces.entities
      .get(item.entity)
      ?.attributes.find((attribute) => attribute.name === item.attribute)?.type;
    if (item.fn === "sum" && type !== undefined && type !== "number") {
      sink.error(
        "workload.badWith",
        at,
        `${text} needs a number attribute; ${item.entity}.${item.attribute} is a ${type}`,
      );
    }
  }
}

/**
 * `latest(X, N)` needs a time in X's records: the newest are those with the latest value of X's
 * first datetime attribute (`recency.ts`), never the order records were written or listed in.
 */
function checkLatestTime(
  entity: string,
  pattern: string,
  text: string,
  pieces: WorkloadPieces,
  at: IssuePath,
  sink: IssueSink,
): void {
  const child = pieces.entities.get(entity);
  if (child === undefined || recencyAttribute(child) !== undefined) return;
  sink.error(
    { code: "workload.latestWithoutTime", pattern, entity },
    at,
    `${text} needs a time to tell the newest ${entity} records, but ${entity} has no datetime attribute`,
    `add a datetime attribute to ${entity}, e.g. createdAt: datetime (the newest are ordered by its first datetime attribute), or ask for all(${entity})`,
  );
}

/** Reports entries listed twice (`positions` maps an entry to its place in the file's list). */
function checkDuplicates(
  entries: readonly string[],
  at: IssuePath,
  sink: IssueSink,
  positions: readonly number[] = [],
): void {
  entries.forEach((entry, index) => {
    const first = entries.indexOf(entry);
    if (first === index) return;
    sink.error(
      "workload.duplicateEntry",
      [...at, positions[index] ?? index],
      `${entry} is listed twice (also at ${positions[first] ?? first}); list each entry once`,
    );
  });
}

/** Reports a name that is not an entity of the file; returns whether it is one. */
function checkEntityName(name: string, pieces: WorkloadPieces, at: IssuePath, sink: IssueSink): boolean {
  if (pieces.entityNames.includes(name)) return true;
  sink.error(
    { code: "workload.unknownEntity", entity: name },
    at,
    `there is no entity "${name}" in entities`,
    didYouMean(name, pieces.entityNames),
  );
  return false;
}

/** Reports an attribute the entity does not list (only when the entity lists its attributes). */
function checkAttribute(
  pieces: WorkloadPieces,
  entity: string,
  name: string,
  at: IssuePath,
  sink: IssueSink,
): void {
  const names = pieces.attributeNames.get(entity);
  if (names === undefined || names.includes(name)) return;
  sink.error(
    { code: "workload.unknownAttribute", entity, attribute: name },
    at,
    // The path names the attribute when it ends with it (where.userID): not again in the message.
    at.at(-1) === name
      ? `entity ${entity} has no such attribute`
      : `entity ${entity} has no attribute "${name}"`,
    didYouMean(name, names),
  );
}

function formatBytes(bytes: number): string {
  return bytes.toLocaleString("en-US");
}
