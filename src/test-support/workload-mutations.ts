/**
 * The mutations of model-mutations.ts that change the workload file: a relationship's `via`
 * moved or the relationship removed, and an attribute renamed on one entity (in the workload
 * alone, or in the workload and that entity's item types). Each edits a deep copy of the
 * workload document (and of the model document) and writes them back.
 */
import { parseWithItem, formatWithItem } from "../workload/with-items.js";
import type { WithItem } from "../workload/types.js";
import type { Mutation, MutationKind, MutationSubject } from "./model-mutations.js";
import {
  documentText,
  entityNamed,
  isMapping,
  listAt,
  mappingAt,
  parseMapping,
  renamePlaceholder,
  type Mapping,
} from "./mutation-documents.js";

/** A deep copy of the subject's workload document. */
function workloadCopy(subject: MutationSubject): Mapping {
  return structuredClone(subject.workloadDocument);
}

/**
 * `relationship.swapVia`: each relationship's `via` moved to each other attribute of the child
 * of the same type (not its key, not another relationship's via); `relationship.remove`: each
 * relationship removed.
 */
export function relationshipMutations(
  subject: MutationSubject,
  kind: "relationship.swapVia" | "relationship.remove",
): Mutation[] {
  const relationships = subject.workload.relationships;
  return relationships.flatMap((relationship, index): Mutation[] => {
    const name = `${relationship.parent} -> ${relationship.child}${relationship.via === undefined ? "" : ` via ${relationship.via.join(", ")}`}`;
    if (kind === "relationship.remove") {
      const workload = workloadCopy(subject);
      workload["relationships"] = listAt(workload, "relationships").filter((_, i) => i !== index);
      if (listAt(workload, "relationships").length === 0) delete workload["relationships"];
      return [
        {
          kind,
          description: `relationship ${name} removed`,
          modelText: subject.modelText,
          workloadText: documentText(workload),
        },
      ];
    }
    // A single-attribute via is replaced by another attribute of its type (a composite via would
    // need as many).
    const via = relationship.via?.length === 1 ? relationship.via[0] : undefined;
    if (via === undefined) return [];
    const child = entityNamed(subject.workload, relationship.child);
    const type = child.attributes.find((a) => a.name === via)?.type;
    const vias = new Set(relationships.filter((r) => r.child === child.name).flatMap((r) => r.via ?? []));
    return child.attributes
      .filter((a) => a.type === type && !child.key.includes(a.name) && !vias.has(a.name))
      .map((attribute) => {
        const workload = workloadCopy(subject);
        const relationshipDocument = mappingAt(listAt(workload, "relationships"), index);
        relationshipDocument["via"] = attribute.name;
        return {
          kind,
          description: `relationship ${name}: via ${attribute.name} instead`,
          modelText: subject.modelText,
          workloadText: documentText(workload),
        };
      });
  });
}

/**
 * Renames of an attribute that another entity also has, on one entity: `attribute.renameInWorkload`
 * (the workload alone) and `attribute.renameConsistently` (the workload and, in the model, that
 * entity's templates, select, truncate, keepLatest, shardBy, bucket, the copies of it, and the
 * indexes of the containers storing it).
 */
export function renameMutations(
  subject: MutationSubject,
  kind: "attribute.renameInWorkload" | "attribute.renameConsistently",
): Mutation[] {
  const entities = subject.workload.entities;
  return entities.flatMap((entity) =>
    entity.attributes
      .filter((a) =>
        entities.some((other) => other !== entity && other.attributes.some((b) => b.name === a.name)),
      )
      .map((attribute) => {
        const renamed = `${attribute.name}Of${entity.name}`;
        const workload = renameInWorkload(subject, entity.name, attribute.name, renamed);
        const model =
          kind === "attribute.renameConsistently"
            ? renameInModel(subject, entity.name, attribute.name, renamed)
            : subject.modelText;
        const others = entities
          .filter((other) => other !== entity && other.attributes.some((b) => b.name === attribute.name))
          .map((other) => other.name);
        return {
          kind: kind satisfies MutationKind,
          description: `${entity.name}.${attribute.name} renamed ${renamed} (${others.join(", ")} keep ${attribute.name})${kind === "attribute.renameConsistently" ? " in the workload and the model: an equivalent pair" : " in the workload only"}`,
          modelText: model,
          workloadText: workload,
        };
      }),
  );
}

function renameInWorkload(subject: MutationSubject, entity: string, from: string, to: string): string {
  const workload = workloadCopy(subject);
  const entityDocument = mappingAt(mappingAt(workload, "entities"), entity);
  if (entityDocument["key"] === from) entityDocument["key"] = to;
  if (isMapping(entityDocument["attributes"])) {
    entityDocument["attributes"] = renameKey(entityDocument["attributes"], from, to);
  }
  for (const relationship of listAt(workload, "relationships")) {
    if (isMapping(relationship) && relationship["child"] === entity && relationship["via"] === from) {
      relationship["via"] = to;
    }
  }
  for (const pattern of listAt(workload, "accessPatterns")) {
    if (!isMapping(pattern)) continue;
    if (pattern["entity"] === entity) {
      for (const field of ["where", "orderBy", "truncate"]) {
        const value = pattern[field];
        if (isMapping(value)) pattern[field] = renameKey(value, from, to);
      }
      for (const field of ["select", "changes"]) {
        if (Array.isArray(pattern[field]))
          pattern[field] = listAt(pattern, field).map((a) => (a === from ? to : a));
      }
    }
    if (Array.isArray(pattern["with"])) {
      pattern["with"] = listAt(pattern, "with").map((entry) => renameWith(entry, entity, from, to));
    }
  }
  return documentText(workload);
}

/** A `with` entry naming `entity.from` written with `to`; any other entry as it was. */
function renameWith(entry: unknown, entity: string, from: string, to: string): unknown {
  if (typeof entry !== "string") return entry;
  const parsed = parseWithItem(entry);
  if (!("item" in parsed)) return entry;
  const item: WithItem = parsed.item;
  if (
    (item.kind === "attribute" || item.kind === "aggregate") &&
    item.entity === entity &&
    item.attribute === from
  )
    return formatWithItem({ ...item, attribute: to });
  return entry;
}

function renameInModel(subject: MutationSubject, entity: string, from: string, to: string): string {
  const model = parseMapping(subject.modelText);
  const stored = entityNamed(subject.workload, entity);
  listAt(model, "containers").forEach((containerDocument, containerIndex) => {
    const container = subject.model.containers[containerIndex];
    if (!isMapping(containerDocument) || container === undefined) return;
    let storesIt = false;
    listAt(containerDocument, "items").forEach((itemDocument) => {
      if (!isMapping(itemDocument)) return;
      for (const copy of listAt(itemDocument, "copies")) {
        if (isMapping(copy) && copy["from"] === `${entity}.${from}`) copy["from"] = `${entity}.${to}`;
      }
      if (itemDocument["entity"] !== entity) return;
      storesIt = true;
      renameInItem(itemDocument, from, to);
    });
    if (storesIt && stored.attributes.some((a) => a.name === from))
      renameInIndexing(containerDocument, from, to);
  });
  return documentText(model);
}

function renameInItem(item: Mapping, from: string, to: string): void {
  if (typeof item["id"] === "string") item["id"] = renamePlaceholder(item["id"], from, to);
  item["partitionKey"] = listAt(item, "partitionKey").map((t) =>
    typeof t === "string" ? renamePlaceholder(t, from, to) : t,
  );
  if (Array.isArray(item["select"]))
    item["select"] = listAt(item, "select").map((a) => (a === from ? to : a));
  if (isMapping(item["truncate"])) item["truncate"] = renameKey(item["truncate"], from, to);
  if (item["shardBy"] === from) item["shardBy"] = to;
  for (const field of ["keepLatest", "bucket"]) {
    const value = item[field];
    if (isMapping(value) && value["by"] === from) item[field] = { ...value, by: to };
  }
}

/** Indexes of `/from` kept, and the same indexes of `/to` added (other entities keep `from`). */
function renameInIndexing(container: Mapping, from: string, to: string): void {
  const indexing = container["indexing"];
  if (!isMapping(indexing)) return;
  const rename = (path: string): string =>
    path === `/${from}` || path.startsWith(`/${from}/`) || path.startsWith(`/${from} `)
      ? `/${to}${path.slice(from.length + 1)}`
      : path;
  for (const field of ["included", "excluded"]) {
    const paths = listAt(indexing, field).filter((p): p is string => typeof p === "string");
    if (paths.length === 0) continue;
    indexing[field] = [...new Set([...paths, ...paths.map(rename)])];
  }
  const composites = listAt(indexing, "composite").filter(Array.isArray);
  if (composites.length > 0) {
    const added = composites
      .map((paths) => paths.map((p) => (typeof p === "string" ? rename(p) : p)))
      .filter((paths, i) => JSON.stringify(paths) !== JSON.stringify(composites[i]));
    indexing["composite"] = [...composites, ...added];
  }
}

/** `mapping` with the key `from` written `to`, in the same place. */
function renameKey(mapping: Mapping, from: string, to: string): Mapping {
  return Object.fromEntries(Object.entries(mapping).map(([key, value]) => [key === from ? to : key, value]));
}
