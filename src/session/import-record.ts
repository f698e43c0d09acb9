/**
 * What an import from a relational database (`cosmos-modeler import`) brought into a session:
 * where each imported number came from, and what the import could not map (triggers, stored
 * procedures, statements that touch many tables...), listed for the user rather than dropped.
 * Kept in the session file beside the workload; the requirements document shows it, and marks
 * a number the user has changed since.
 */
import { z } from "zod";
import type { DraftWorkload } from "./draft.js";

/**
 * Where a value sits in the workload: `["entities", "Order", "count"]`,
 * `["entities", "Order", "attributes", "status", "distinct"]`,
 * `["relationships", "Customer", "Order", "customerId", "avg"]` (parent, child, via or "" for a
 * many-to-many without one; the via attributes joined by "," for a composite key),
 * `["accessPatterns", "Q1", "rps", "avg"]`. An entity's `key` is its attributes joined by ", ".
 */
export type FieldPath = readonly string[];

/** One imported value and its origin (catalog view, statistic, statement and formula). */
export interface ImportedFact {
  readonly path: FieldPath;
  readonly value: number | string | boolean;
  readonly source: string;
}

export const UNMAPPED_KINDS = [
  "trigger",
  "function",
  "procedure",
  "view",
  "materialized-view",
  "sequence",
  "statement",
  "table",
  "constraint",
  "other",
] as const;

/** Something in the source database the workload cannot express; the user decides what it becomes. */
export interface UnmappedItem {
  readonly kind: (typeof UNMAPPED_KINDS)[number];
  readonly name: string;
  readonly detail: string;
  readonly reason: string;
}

export interface ImportRecord {
  /** The source in words, without any password. */
  readonly source: string;
  readonly importedAt: string;
  readonly facts: readonly ImportedFact[];
  readonly unmapped: readonly UnmappedItem[];
  /** Remarks on the import as a whole (the statistics window, missing privileges, ...). */
  readonly notes: readonly string[];
}

export const importRecordSchema = z.object({
  source: z.string(),
  importedAt: z.string(),
  facts: z.array(
    z.object({
      path: z.array(z.string()),
      value: z.union([z.number(), z.string(), z.boolean()]),
      source: z.string(),
    }),
  ),
  unmapped: z.array(
    z.object({ kind: z.enum(UNMAPPED_KINDS), name: z.string(), detail: z.string(), reason: z.string() }),
  ),
  notes: z.array(z.string()),
});

/** The path of a fact as people read it: `Order.count`, `Customer -> Order.avg`, `Q1.rps.avg`. */
export function formatFieldPath(path: FieldPath): string {
  const [section, ...rest] = path;
  switch (section) {
    case "entities": {
      const [entity = "", ...field] = rest;
      return [entity, ...field.filter((part) => part !== "attributes")].join(".");
    }
    case "relationships": {
      const [parent = "", child = "", via = "", ...field] = rest;
      return `${parent} -> ${child}${via === "" ? "" : ` via ${via.split(",").join(", ")}`}: ${field.join(".")}`;
    }
    case "accessPatterns":
      return rest.join(".");
    default:
      return path.join(".");
  }
}

/** The value at `path` in the draft now (undefined when it is no longer there). */
export function currentValue(draft: DraftWorkload, path: FieldPath): unknown {
  const [section, ...rest] = path;
  switch (section) {
    case "entities": {
      const [name, ...field] = rest;
      const entity = draft.entities.find((e) => e.name === name);
      if (entity === undefined) return undefined;
      if (field[0] === "attributes") {
        const attribute = entity.attributes.find((a) => a.name === field[1]);
        return attribute === undefined ? undefined : pick(attribute, field.slice(2));
      }
      // A key is recorded as its attributes joined by ", " (one, or a composite key's).
      if (field.length === 1 && field[0] === "key") return entity.key?.join(", ");
      return pick(entity, field);
    }
    case "relationships": {
      const [parent, child, via, ...field] = rest;
      const relationship = draft.relationships.find(
        (r) => r.parent === parent && r.child === child && (r.via ?? []).join(",") === via,
      );
      return relationship === undefined ? undefined : pick(relationship, field);
    }
    case "accessPatterns": {
      const [id, ...field] = rest;
      const pattern = draft.accessPatterns.find((p) => p.id === id);
      return pattern === undefined ? undefined : pick(pattern, field);
    }
    default:
      return undefined;
  }
}

function pick(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
