/**
 * The workload while the interview builds it: the shape of the workload file
 * (`docs/workload-format.md`) with every number optional, because a number the user has not given
 * yet is unknown, never guessed. `draftToDocument` turns it into the file's structure (for
 * `workload.yaml`); `parseDraftDocument` reads such a file back, also when it is incomplete.
 */
import { z } from "zod";
import {
  ATTRIBUTE_NAME,
  ENTITY_NAME,
  isItemPropertyName,
  rawFullTextSchema,
  rawSearchSchema,
  rawVectorSchema,
} from "../workload/raw-schema.js";
import { createIssueSink, type Result } from "../common/issues.js";
import { parseWithSchema, type SchemaCheckOptions } from "../source/schema-issues.js";
import type {
  AttributeType,
  ChangeFrequency,
  Consistency,
  PredicateOperator,
  RelationshipKind,
  WriteOperation,
} from "../workload/types.js";
import { numberIn, RANGES } from "./value-ranges.js";

/** A read's `search:` while the interview builds it: the file's form with `k` not asked yet allowed. */
export const draftSearchSchema = rawSearchSchema.partial({ k: true });
export type DraftSearch = z.infer<typeof draftSearchSchema>;

export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "datetime", "object", "array"] as const;
export const CONSISTENCY_LEVELS = ["strong", "bounded", "session", "consistent-prefix", "eventual"] as const;
export const PREDICATE_OPERATORS = ["eq", "range", "in", "contains", "prefix"] as const;
export const WRITE_OPERATIONS = ["create", "replace", "upsert", "patch", "delete"] as const;
export const RELATIONSHIP_KINDS = ["one-to-many", "one-to-one", "many-to-many"] as const;
export const CHANGE_FREQUENCIES = ["never", "rare", "frequent"] as const;

export interface DraftAttribute {
  readonly name: string;
  readonly type: AttributeType;
  readonly avgBytes?: number;
  readonly distinct?: number;
  readonly skew?: number;
  readonly unique?: boolean;
  readonly changes?: ChangeFrequency;
  /** Share of the records that have a value (sparse attribute); absent = every record (1). */
  readonly presence?: number;
  /** An embedding (`vector:` of the file): kept as given, the interview does not ask it. */
  readonly vector?: z.infer<typeof rawVectorSchema>;
  /** Text searched by full text (`fullText:` of the file): kept as given. */
  readonly fullText?: z.infer<typeof rawFullTextSchema>;
}

/**
 * How records may be grouped into bucket items (`binning:` of the workload file): `false` =
 * never, or one of a time window and a number of records per item.
 */
export type DraftBinning =
  | false
  | { readonly windowSeconds: number; readonly recordsPerItem?: undefined }
  | { readonly recordsPerItem: number; readonly windowSeconds?: undefined };

export interface DraftEntity {
  readonly name: string;
  /** The key attributes (one, or several for a composite key such as `[filmId, actorId]`). */
  readonly key?: readonly string[];
  readonly count?: number;
  readonly growthPerMonth?: number;
  readonly avgBytes?: number;
  readonly maxBytes?: number;
  readonly ttlSeconds?: number;
  readonly binning?: DraftBinning;
  readonly attributes: readonly DraftAttribute[];
}

export interface DraftRelationship {
  readonly parent: string;
  readonly child: string;
  readonly kind?: RelationshipKind;
  /** The child's attributes holding the parent's key, one per parent key attribute. */
  readonly via?: readonly string[];
  readonly avg?: number;
  /** Children per parent at most; `null` = the user said it is unbounded; absent = not asked yet. */
  readonly max?: number | null;
  readonly owned?: boolean;
}

export interface DraftRate {
  readonly avg?: number;
  readonly peak?: number;
}

export interface DraftAccessPattern {
  readonly id: string;
  readonly name: string;
  readonly type: "read" | "write";
  readonly entity: string;
  readonly rps?: DraftRate;
  readonly standalone?: boolean;
  /** Zipf exponent of how the requests spread over the values that locate them. */
  readonly skew?: number;
  // writes
  readonly operation?: WriteOperation;
  readonly changes?: readonly string[];
  readonly batch?: number;
  /** Write patterns that commit in the same transaction as this one. */
  readonly atomicWith?: readonly string[];
  /** Records of one key the writer sends in one request. */
  readonly bufferedRecords?: number;
  // reads
  readonly where?: Readonly<Record<string, PredicateOperator>>;
  readonly orderBy?: Readonly<Record<string, "asc" | "desc">>;
  readonly limit?: number;
  readonly returns?: { readonly avg: number };
  readonly select?: readonly string[];
  readonly truncate?: Readonly<Record<string, number>>;
  readonly with?: readonly string[];
  readonly consistency?: Consistency;
  readonly latencyMs?: number;
  /** How old the related data a read returns may be, in seconds. */
  readonly maxStalenessSeconds?: number;
  /**
   * A vector, full-text or hybrid search (`search:` of the file); `k` may be missing while the
   * interview has not asked it yet.
   */
  readonly search?: DraftSearch;
}

export interface DraftScale {
  readonly regions?: number;
  readonly regionNames?: readonly string[];
  readonly multiRegionWrites?: boolean;
  readonly consistency?: Consistency;
  readonly horizonMonths?: number;
}

export interface DraftWorkload {
  readonly version: 1;
  readonly name?: string;
  readonly domain?: string;
  readonly description?: string;
  readonly scale: DraftScale;
  readonly entities: readonly DraftEntity[];
  readonly relationships: readonly DraftRelationship[];
  readonly accessPatterns: readonly DraftAccessPattern[];
}

/** An empty workload: the start of a new interview. */
export const EMPTY_DRAFT: DraftWorkload = {
  version: 1,
  scale: {},
  entities: [],
  relationships: [],
  accessPatterns: [],
};

/** Names that would be unsafe as object keys. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** True when `name` can name an entity or an attribute (the loader's identifier rules, at most 64). */
export function isValidName(name: string): boolean {
  return (
    ATTRIBUTE_NAME.test(name) && name.length <= 64 && !RESERVED_NAMES.has(name) && !isItemPropertyName(name)
  );
}

/** True when `name` can name an entity (no `$`, which `with` entries could not spell). */
export function isValidEntityName(name: string): boolean {
  return ENTITY_NAME.test(name) && isValidName(name);
}

const nameSchema = z.string().refine(isValidName, {
  message: "expected a name of letters, digits, _ and $ that does not start with a digit (at most 64)",
});
const entityNameSchema = z.string().refine(isValidEntityName, {
  message: "expected a name of letters, digits and _ that does not start with a digit (at most 64)",
});
const positive = numberIn(RANGES.positive);
const positiveInteger = numberIn(RANGES.positiveInteger);
const nonNegative = numberIn(RANGES.nonNegative);
const share = numberIn(RANGES.share);
const ttlSeconds = numberIn(RANGES.ttlSeconds);

/** `binning:` as the workload file writes it: false, { windowSeconds } or { recordsPerItem }. */
export const binningSchema = z.union([
  z.literal(false),
  z.strictObject({ windowSeconds: positiveInteger }),
  z.strictObject({ recordsPerItem: positiveInteger }),
]);

const fileAttributeSchema = z.union([
  z.enum(ATTRIBUTE_TYPES),
  z.object({
    type: z.enum(ATTRIBUTE_TYPES),
    avgBytes: positive.optional(),
    distinct: positiveInteger.optional(),
    skew: nonNegative.optional(),
    unique: z.boolean().optional(),
    changes: z.enum(CHANGE_FREQUENCIES).optional(),
    presence: share.optional(),
    vector: rawVectorSchema.optional(),
    fullText: rawFullTextSchema.optional(),
  }),
]);

/** A key or a via: one attribute name, or a list of them (a composite key). */
const namesSchema = z.union([nameSchema, z.array(nameSchema).min(1)]);

/** A key or via as the draft keeps it: always a list. */
export function nameList(value: string | readonly string[] | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : typeof value === "string" ? [value] : [...value];
}

/** A key or via as the file writes it: one name alone, several as a list. */
export function nameForm(value: readonly string[] | undefined): string | readonly string[] | undefined {
  return value === undefined ? undefined : value.length === 1 ? value[0] : [...value];
}

const fileEntitySchema = z.object({
  key: namesSchema.optional(),
  count: positive.optional(),
  growthPerMonth: nonNegative.optional(),
  avgBytes: positive.optional(),
  maxBytes: positive.optional(),
  ttlSeconds: ttlSeconds.optional(),
  binning: binningSchema.optional(),
  attributes: z.record(nameSchema, fileAttributeSchema).optional(),
});

const fileRelationshipSchema = z.object({
  parent: entityNameSchema,
  child: entityNameSchema,
  kind: z.enum(RELATIONSHIP_KINDS).optional(),
  via: namesSchema.optional(),
  avg: positive.optional(),
  max: positive.nullable().optional(),
  owned: z.boolean().optional(),
});

const fileRateSchema = z.object({ avg: nonNegative.optional(), peak: nonNegative.optional() });

const filePatternSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1),
  type: z.enum(["read", "write"]),
  entity: entityNameSchema,
  rps: fileRateSchema.optional(),
  standalone: z.boolean().optional(),
  skew: nonNegative.optional(),
  operation: z.enum(WRITE_OPERATIONS).optional(),
  changes: z.array(nameSchema).optional(),
  batch: positiveInteger.optional(),
  atomicWith: z.array(z.string().min(1).max(64)).optional(),
  bufferedRecords: positiveInteger.optional(),
  where: z.record(nameSchema, z.enum(PREDICATE_OPERATORS)).optional(),
  orderBy: z.record(nameSchema, z.enum(["asc", "desc"])).optional(),
  limit: positiveInteger.optional(),
  returns: z.object({ avg: nonNegative }).optional(),
  select: z.array(nameSchema).optional(),
  truncate: z.record(nameSchema, positiveInteger).optional(),
  with: z.array(z.string().min(1)).optional(),
  consistency: z.enum(CONSISTENCY_LEVELS).optional(),
  latencyMs: positive.optional(),
  maxStalenessSeconds: nonNegative.optional(),
  search: draftSearchSchema.optional(),
});

/** The workload file's structure with every number optional (an interview in progress). */
export const draftDocumentSchema = z.object({
  version: z.literal(1),
  name: z.string().optional(),
  domain: z.string().optional(),
  description: z.string().optional(),
  scale: z
    .object({
      regions: z.union([z.number().int().positive(), z.array(z.string().min(1)).min(1)]).optional(),
      multiRegionWrites: z.boolean().optional(),
      consistency: z.enum(CONSISTENCY_LEVELS).optional(),
      horizonMonths: positiveInteger.optional(),
    })
    .optional(),
  entities: z.record(entityNameSchema, fileEntitySchema).optional(),
  relationships: z.array(fileRelationshipSchema).optional(),
  accessPatterns: z.array(filePatternSchema).optional(),
});

type DraftDocument = z.infer<typeof draftDocumentSchema>;

/** How a document's omissions are read. */
export interface DraftReadOptions {
  /**
   * false (default): a workload file as people write it, where a relationship with `avg` but
   * no `max` is unbounded and without `owned` is not owned. true: the session's own record,
   * where an absent value is a question not answered yet (and `max: null` means unbounded).
   */
  readonly exact?: boolean;
}

/** A draft's schema problems, all under one code (the draft is re-checked as a workload later). */
const DRAFT_SCHEMA: SchemaCheckOptions = {
  codes: {
    unknownField: "session.invalidWorkload",
    missingField: "session.invalidWorkload",
    invalidValue: "session.invalidWorkload",
  },
};

/**
 * Reads a workload document (already parsed from YAML or JSON) that may be incomplete.
 * Every structural problem is reported as an issue with its path.
 */
export function parseDraftDocument(
  value: unknown,
  file?: string,
  options: DraftReadOptions = {},
): Result<DraftWorkload> {
  const sink = createIssueSink(file === undefined ? {} : { file });
  const parsed = parseWithSchema(draftDocumentSchema, value, [], sink, DRAFT_SCHEMA);
  if (parsed === undefined) return { ok: false, issues: sink.issues() };
  return { ok: true, value: fromDocument(parsed, options.exact === true), issues: [] };
}

function fromDocument(document: DraftDocument, exact: boolean): DraftWorkload {
  const scale = document.scale ?? {};
  const regions = scale.regions;
  return compact({
    version: 1 as const,
    name: document.name,
    domain: document.domain,
    description: document.description,
    scale: compact({
      regions: Array.isArray(regions) ? regions.length : regions,
      regionNames: Array.isArray(regions) ? regions : undefined,
      multiRegionWrites: scale.multiRegionWrites,
      consistency: scale.consistency,
      horizonMonths: scale.horizonMonths,
    }),
    entities: Object.entries(document.entities ?? {}).map(([name, entity]) =>
      compact({
        name,
        key: nameList(entity.key),
        count: entity.count,
        growthPerMonth: entity.growthPerMonth,
        avgBytes: entity.avgBytes,
        maxBytes: entity.maxBytes,
        ttlSeconds: entity.ttlSeconds,
        binning: entity.binning,
        attributes: Object.entries(entity.attributes ?? {}).map(([attributeName, attribute]) =>
          typeof attribute === "string"
            ? { name: attributeName, type: attribute }
            : compact({ name: attributeName, ...attribute }),
        ),
      }),
    ),
    relationships: (document.relationships ?? []).map((relationship) =>
      compact(
        exact || relationship.avg === undefined
          ? { ...relationship, via: nameList(relationship.via) }
          : {
              ...relationship,
              via: nameList(relationship.via),
              max: relationship.max ?? null,
              owned: relationship.owned ?? false,
            },
      ),
    ),
    accessPatterns: (document.accessPatterns ?? []).map((pattern) =>
      compact({ ...pattern, rps: pattern.rps === undefined ? undefined : compact({ ...pattern.rps }) }),
    ),
  });
}

/**
 * The draft in the workload file's structure (entities and attributes as maps, short attribute
 * form where only the type is known), ready for YAML. Unknown values are left out; with
 * `exact`, an unbounded relationship keeps `max: null` (for the session file).
 */
export function draftToDocument(
  draft: DraftWorkload,
  options: DraftReadOptions = {},
): Record<string, unknown> {
  const regions =
    draft.scale.regionNames !== undefined && draft.scale.regionNames.length > 0
      ? [...draft.scale.regionNames]
      : draft.scale.regions;
  const scale = compact({
    regions,
    multiRegionWrites: draft.scale.multiRegionWrites,
    consistency: draft.scale.consistency,
    horizonMonths: draft.scale.horizonMonths,
  });
  return compact({
    version: 1,
    name: draft.name,
    domain: draft.domain,
    description: draft.description,
    scale: Object.keys(scale).length === 0 ? undefined : scale,
    entities: Object.fromEntries(
      draft.entities.map((entity) => [
        entity.name,
        compact({
          key: nameForm(entity.key),
          count: entity.count,
          growthPerMonth: entity.growthPerMonth,
          avgBytes: entity.avgBytes,
          maxBytes: entity.maxBytes,
          ttlSeconds: entity.ttlSeconds,
          binning: entity.binning,
          attributes:
            entity.attributes.length === 0
              ? undefined
              : Object.fromEntries(
                  entity.attributes.map((attribute) => [attribute.name, attributeForm(attribute)]),
                ),
        }),
      ]),
    ),
    relationships:
      draft.relationships.length === 0
        ? undefined
        : draft.relationships.map((relationship) =>
            compact({
              ...relationship,
              via: nameForm(relationship.via),
              max: relationship.max === null && options.exact !== true ? undefined : relationship.max,
            }),
          ),
    accessPatterns: draft.accessPatterns.map((pattern) =>
      compact({
        id: pattern.id,
        name: pattern.name,
        type: pattern.type,
        operation: pattern.operation,
        entity: pattern.entity,
        where: pattern.where,
        orderBy: pattern.orderBy,
        limit: pattern.limit,
        returns: pattern.returns,
        select: pattern.select,
        truncate: pattern.truncate,
        with: pattern.with,
        changes: pattern.changes,
        batch: pattern.batch,
        atomicWith: pattern.atomicWith,
        bufferedRecords: pattern.bufferedRecords,
        rps: pattern.rps,
        skew: pattern.skew,
        consistency: pattern.consistency,
        latencyMs: pattern.latencyMs,
        maxStalenessSeconds: pattern.maxStalenessSeconds,
        search: pattern.search,
        standalone: pattern.standalone,
      }),
    ),
  });
}

function attributeForm(attribute: DraftAttribute): unknown {
  const { name: _name, type, ...rest } = attribute;
  const details = compact(rest);
  return Object.keys(details).length === 0 ? type : { type, ...details };
}

/** `T` with the properties that may be `undefined` made optional instead. */
export type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops properties whose value is `undefined` (exactOptionalPropertyTypes-friendly objects). */
export function compact<T extends object>(value: T): Compact<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Compact<T>;
}
