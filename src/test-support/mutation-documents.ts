/**
 * Plain-data access to parsed model and workload files for the mutations (model-mutations.ts):
 * the documents are what `yaml.parse` gives (mappings and lists), edited on a deep copy and
 * written back with `yaml.stringify`. Also the facts a mutation needs of the loaded workload and
 * model (which attributes reads use, which templates name which attributes).
 */
import { parse, stringify } from "yaml";
import type { ItemType } from "../model/types.js";
import type { Attribute, Entity, ReadPattern, Workload } from "../workload/types.js";

/** A mapping of a parsed YAML document. */
export type Mapping = Record<string, unknown>;

/** The reserved placeholders of key templates: never an attribute. */
const RESERVED = new Set(["shard", "replica", "bucket"]);
const PLACEHOLDER = /\{([A-Za-z_$][A-Za-z0-9_$]*)\}/g;

/** A deep copy of the mapping `text` parses to (throws when it is not one). */
export function parseMapping(text: string): Mapping {
  const value: unknown = parse(text);
  if (!isMapping(value)) throw new Error("expected a YAML mapping");
  return value;
}

/** The YAML text of a document. */
export function documentText(document: Mapping): string {
  return stringify(document, { lineWidth: 0 });
}

export function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The mapping at `key` of `parent` (throws when absent: the documents come from loaded files). */
export function mappingAt(parent: unknown, key: string | number): Mapping {
  const value = valueAt(parent, key);
  if (!isMapping(value)) throw new Error(`expected a mapping at ${String(key)}`);
  return value;
}

/** The list at `key` of `parent`, or an empty list when absent. */
export function listAt(parent: unknown, key: string): unknown[] {
  const value = valueAt(parent, key);
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function valueAt(parent: unknown, key: string | number): unknown {
  if (Array.isArray(parent) && typeof key === "number") return parent[key];
  if (isMapping(parent) && typeof key === "string") return parent[key];
  return undefined;
}

/** The item type `itemIndex` of container `containerIndex` in a model document. */
export function itemDocument(model: Mapping, containerIndex: number, itemIndex: number): Mapping {
  return mappingAt(listAt(mappingAt(listAt(model, "containers"), containerIndex), "items"), itemIndex);
}

/** The attribute names of a template, without the reserved placeholders. */
export function templateAttributes(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? "")
    .filter((name) => name !== "" && !RESERVED.has(name));
}

/** The reserved placeholders a template uses (`{shard}`, `{replica}`, `{bucket}`). */
export function reservedPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? "")
    .filter((name) => RESERVED.has(name));
}

/** `template` with every `{from}` written `{to}`. */
export function renamePlaceholder(template: string, from: string, to: string): string {
  return template.split(`{${from}}`).join(`{${to}}`);
}

/** The attributes an item type's addressing uses: templates, shardBy, keepLatest.by, bucket.by. */
export function addressingAttributes(item: ItemType): Set<string> {
  return new Set([
    ...templateAttributes(item.id),
    ...item.partitionKey.flatMap(templateAttributes),
    ...(item.shardBy === undefined ? [] : [item.shardBy]),
    ...(item.keepLatest === undefined ? [] : [item.keepLatest.by]),
    ...(item.bucket?.kind === "window" ? [item.bucket.by] : []),
  ]);
}

/** The entity of a loaded workload (throws when absent: the model loaded against it). */
export function entityNamed(workload: Workload, name: string): Entity {
  const entity = workload.entities.find((e) => e.name === name);
  if (entity === undefined) throw new Error(`no entity ${name}`);
  return entity;
}

/** Attributes a key template can hold: strings, numbers and date-times. */
export function scalarAttributes(entity: Entity): Attribute[] {
  return entity.attributes.filter((a) => a.type === "string" || a.type === "number" || a.type === "datetime");
}

/** The read patterns of an entity. */
export function readsOf(workload: Workload, entity: string): ReadPattern[] {
  return workload.accessPatterns.flatMap((p) => (p.type === "read" && p.entity === entity ? [p] : []));
}

/**
 * The attributes reads of `entity` filter, sort or select on, each with the first read that does
 * (in the workload's order).
 */
export function readAttributes(workload: Workload, entity: string): Map<string, string> {
  const used = new Map<string, string>();
  for (const read of readsOf(workload, entity)) {
    const names = [
      ...read.where.map((p) => p.attribute),
      ...read.orderBy.map((s) => s.attribute),
      ...(read.select ?? []),
    ];
    for (const name of names) if (!used.has(name)) used.set(name, read.id);
  }
  return used;
}
