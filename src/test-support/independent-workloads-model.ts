/**
 * The draft a workload of the independent generator (`independent-workloads.ts`) is built in
 * before it becomes plain document data: entities, relationships and access patterns with what
 * each attribute is for (key, via, data), so later steps can choose filters, copies and changes
 * that make sense. The drafts are built up step by step inside one generation and never shared.
 */
import type { Random } from "./independent-workloads-random.js";

/** The attribute types of the workload format. */
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "datetime", "object", "array"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export type AttributeChanges = "never" | "rare" | "frequent";
export type Consistency = "strong" | "bounded" | "session" | "consistent-prefix" | "eventual";
export const CONSISTENCIES: readonly Consistency[] = [
  "strong",
  "bounded",
  "session",
  "consistent-prefix",
  "eventual",
];

/** One attribute of a draft entity. */
export interface DraftAttribute {
  readonly name: string;
  readonly type: AttributeType;
  /** Why it exists: part of the key, the via of a relationship, or plain data. */
  readonly role: "key" | "via" | "data";
  /** A small set of values (a status): a filter on it alone matches many records. */
  readonly categorical?: boolean;
  /** A long text that takes most of the item (a body): a candidate for `truncate`. */
  readonly long?: boolean;
  distinct?: number;
  skew?: number;
  unique?: boolean;
  changes?: AttributeChanges;
  presence?: number;
  avgBytes?: number;
}

export type DraftBinning = false | { readonly windowSeconds: number } | { readonly recordsPerItem: number };

/** One entity of a draft. */
export interface DraftEntity {
  readonly name: string;
  /** One attribute name, or several for a composite key (only with `compositeKeys`). */
  key: readonly string[];
  count: number;
  avgBytes: number;
  maxBytes?: number;
  growthPerMonth?: number;
  ttlSeconds?: number;
  binning?: DraftBinning;
  readonly attributes: DraftAttribute[];
}

export type RelationshipKind = "one-to-many" | "one-to-one" | "many-to-many";

/** One relationship of a draft. */
export interface DraftRelationship {
  readonly parent: string;
  readonly child: string;
  readonly kind: RelationshipKind;
  /** The child's attribute holding the parent's key (absent for many-to-many). */
  readonly via?: string;
  readonly avg: number;
  readonly max?: number;
  readonly owned: boolean;
}

/** Entities and relationships, with the motifs (shapes) the builder placed on purpose. */
export interface DraftSchema {
  readonly entities: readonly DraftEntity[];
  readonly relationships: readonly DraftRelationship[];
  readonly motifs: readonly string[];
}

export type WhereOperator = "eq" | "in" | "range" | "contains" | "prefix";

export interface DraftRate {
  readonly avg: number;
  readonly peak: number;
}

/** A read pattern of a draft. */
export interface DraftRead {
  readonly type: "read";
  readonly id: string;
  readonly name: string;
  readonly entity: string;
  readonly rps: DraftRate;
  readonly where: readonly (readonly [string, WhereOperator])[];
  readonly orderBy: readonly (readonly [string, "asc" | "desc"])[];
  readonly limit?: number;
  readonly returns?: number;
  readonly select?: readonly string[];
  readonly truncate?: readonly (readonly [string, number])[];
  readonly with: readonly string[];
  readonly consistency?: Consistency;
  readonly latencyMs?: number;
  readonly maxStalenessSeconds?: number;
  readonly skew?: number;
  readonly standalone?: boolean;
}

export type WriteOperation = "create" | "upsert" | "replace" | "patch" | "delete";

/** A write pattern of a draft. */
export interface DraftWrite {
  readonly type: "write";
  readonly id: string;
  readonly name: string;
  readonly entity: string;
  rps: DraftRate;
  readonly operation: WriteOperation;
  readonly changes?: readonly string[];
  readonly batch?: number;
  readonly bufferedRecords?: number;
  atomicWith?: readonly string[];
  readonly skew?: number;
  standalone?: boolean;
}

export type DraftPattern = DraftRead | DraftWrite;

/** The attribute of `entity` named `name`, if any. */
export function attributeOf(entity: DraftEntity, name: string): DraftAttribute | undefined {
  return entity.attributes.find((attribute) => attribute.name === name);
}

/** The entity named `name` (it must exist). */
export function entityNamed(entities: readonly DraftEntity[], name: string): DraftEntity {
  const entity = entities.find((candidate) => candidate.name === name);
  if (entity === undefined) throw new Error(`no entity ${name} in the draft`);
  return entity;
}

/** `Order` -> `order`. */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** True when the entity's records are grouped into bucket items (so append-only). */
export function isBinned(entity: DraftEntity): boolean {
  return entity.binning !== undefined && entity.binning !== false;
}

/** The generator's options with every default applied (see `IndependentWorkloadOptions`). */
export interface GeneratorSettings {
  readonly maxEntities: number;
  readonly compositeKeys: boolean;
  /** Records of one entity today. */
  readonly records: { readonly min: number; readonly max: number };
  /** Average item size of an entity, bytes (a few entities go above, up to `largeItemBytes`). */
  readonly itemBytes: { readonly min: number; readonly max: number };
  readonly largeItemBytes: number;
  /** Average requests per second of a read / of a write pattern. */
  readonly readRps: { readonly min: number; readonly max: number };
  readonly writeRps: { readonly min: number; readonly max: number };
}

/** What the access pattern steps share: the schema and the workload-wide choices. */
export interface PatternContext {
  readonly random: Random;
  readonly settings: GeneratorSettings;
  readonly schema: DraftSchema;
  /** Strong consistency is not drawn for a pattern when every region accepts writes. */
  readonly multiRegionWrites: boolean;
  /** The entity no write creates (its reads are warned about, or `standalone`), if any. */
  readonly uncreated: string | undefined;
  /** The next unused pattern id. */
  readonly nextId: (type: "read" | "write") => string;
}
