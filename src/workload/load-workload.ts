/**
 * Loads a workload file (docs/workload-format.md) into the normalized `Workload`: checks its
 * structure piece by piece, applies every default, checks every reference between the pieces,
 * and reports every problem at once with its file, line and field path.
 */
import { hasErrors, type Issue, type Result } from "../common/issues.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { withSuggestionBudget } from "../source/suggest.js";
import { checkReferences } from "./check-references.js";
import { checkServiceLimits } from "./check-service-limits.js";
import { checkWarnings } from "./check-warnings.js";
import { DEFAULT_TARGET_UTILIZATION, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { createIssueSink, type IssuePath, type IssueSink } from "../common/issues.js";
import {
  ATTRIBUTE_NAME,
  isItemPropertyName,
  ENTITY_NAME,
  READ_ONLY_FIELDS,
  WRITE_ONLY_FIELDS,
  rawAccessPatternSchema,
  rawDocumentSchema,
  rawEntitySchema,
  rawRelationshipSchema,
  type RawAccessPattern,
  type RawAttribute,
  type RawEntity,
  type RawRelationship,
  type RawScale,
  type RawSearch,
  type RawTrafficProfile,
} from "./raw-schema.js";
import { describeValue, parseWithSchema, type SchemaCheckOptions } from "../source/schema-issues.js";
import type {
  AccessPattern,
  Attribute,
  Binning,
  Entity,
  Relationship,
  Scale,
  SearchSpec,
  TrafficProfile,
  WithItem,
  Workload,
} from "./types.js";
import { parseWithItem } from "./with-items.js";
import { checkSearchAttributes } from "./check-search.js";
import { vectorJsonBytes } from "../cosmos/vector-search.js";

/** The codes a workload's structural problems are reported under. */
const WORKLOAD_SCHEMA: SchemaCheckOptions = {
  codes: {
    unknownField: "workload.unknownField",
    missingField: "workload.missingField",
    invalidValue: "workload.invalidValue",
  },
};

export interface LoadWorkloadOptions {
  /** The file name that issues name (e.g. `blogging/workload.yaml`). */
  readonly file?: string;
}

export interface PatternPiece {
  /** Position in the file's accessPatterns list. */
  readonly index: number;
  readonly pattern: AccessPattern;
  /** For each of `pattern.with`, its position in the file's `with` list. */
  readonly withPositions: readonly number[];
}

/** The pieces of a workload that are structurally valid, with where each came from. */
export interface WorkloadPieces {
  /** Every entity name the file lists, valid or not (so references to them are not "unknown"). */
  readonly entityNames: readonly string[];
  readonly entities: ReadonlyMap<string, Entity>;
  /** The attribute names each entity lists (valid entity or not); absent when it lists none. */
  readonly attributeNames: ReadonlyMap<string, readonly string[]>;
  /** The entities that give `maxBytes` (the others have its default, `defaultMaxBytes`). */
  readonly maxBytesGiven: ReadonlySet<string>;
  readonly relationships: readonly { readonly index: number; readonly relationship: Relationship }[];
  readonly patterns: readonly PatternPiece[];
  /** Every parent/child pair the relationships name, valid relationship or not. */
  readonly links: readonly { readonly parent: string; readonly child: string }[];
  /** Every access pattern id the file lists, valid pattern or not. */
  readonly patternIds: readonly { readonly index: number; readonly id: string }[];
  /** True when every relationship and access pattern is structurally valid. */
  readonly complete: boolean;
}

/**
 * Loads a workload from YAML or JSON text. Never throws: every problem is an issue.
 * @example loadWorkload(readFileSync("workload.yaml", "utf8"), { file: "workload.yaml" })
 */
export function loadWorkload(text: string, options: LoadWorkloadOptions = {}): Result<Workload> {
  // One "did you mean" budget for the whole document (source/suggest.ts).
  return withSuggestionBudget(() => loadWorkloadText(text, options));
}

function loadWorkloadText(text: string, options: LoadWorkloadOptions): Result<Workload> {
  const parsed = parseSourceDocument(text, options.file);
  if (!parsed.ok) return { ok: false, issues: [...parsed.issues, ...recoveredIssues(parsed, text, options)] };
  const { document } = parsed;
  const sink = createIssueSink({
    lineOf: (path) => document.keyLineOf(path) ?? document.lineOf(path),
    ...(options.file === undefined ? {} : { file: options.file }),
  });
  const workload = buildWorkload(document.value, sink);
  const issues = sink.issues();
  return workload === undefined || hasErrors(issues)
    ? { ok: false, issues }
    : { ok: true, value: workload, issues };
}

/**
 * Codes of problems a field has on its own, whatever the rest of the document holds: reported
 * above a syntax error in the same pass. Problems that depend on other parts (a name another
 * entry defines, a missing field, a relationship) could be caused by what the error swallowed,
 * so they wait for the document to parse.
 */
const LOCAL_CODES: ReadonlySet<string> = new Set([
  "workload.invalidValue",
  "workload.unknownField",
  "workload.fieldNotAllowed",
  "workload.invalidName",
  "workload.peakBelowAverage",
  "workload.itemTooLarge",
]);

/** Codes of a reference to a name another entry must define (an entity, an attribute, a pattern). */
const REFERENCE_CODES: ReadonlySet<string> = new Set([
  "workload.unknownEntity",
  "workload.unknownAttribute",
  "workload.unknownPattern",
]);

/**
 * The problems of a document that does not parse that its syntax error cannot have caused, so
 * that one `check` shows them with the syntax error instead of one round later (issue 29):
 * field-local problems above the first syntax error (and the line above it), and in entries
 * (an entity, a relationship, an access pattern) that begin below it (the YAML library resumes
 * at the next entry); and references to a name that appears nowhere in the file (a misspelling,
 * not a definition the error swallowed).
 */
function recoveredIssues(
  parsed: Extract<ReturnType<typeof parseSourceDocument>, { ok: false }>,
  text: string,
  options: LoadWorkloadOptions,
): Issue[] {
  const recovered = parsed.recovered;
  if (recovered === undefined) return [];
  const { document, firstErrorLine } = recovered;
  const lineOf = (path: readonly (string | number)[]): number | undefined =>
    document.keyLineOf(path) ?? document.lineOf(path);
  const sink = createIssueSink({ lineOf, ...(options.file === undefined ? {} : { file: options.file }) });
  buildWorkload(document.value, sink);
  // A name is defined as a mapping key (an entity, an attribute) or as a pattern's id; a reference
  // to a name defined nowhere in the text is wrong whatever the syntax error swallowed.
  const defined = (name: string): boolean => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[\\s{,])["']?${escaped}["']?\\s*:|\\bid\\s*:\\s*["']?${escaped}\\b`, "m").test(
      text,
    );
  };
  const nowhere = (issue: Issue): boolean => {
    const name =
      "entity" in issue && issue.code === "workload.unknownEntity"
        ? issue.entity
        : "attribute" in issue && issue.code === "workload.unknownAttribute"
          ? issue.attribute
          : "pattern" in issue && issue.code === "workload.unknownPattern"
            ? issue.pattern
            : undefined;
    return typeof name === "string" && !defined(name);
  };
  return sink.issues().filter((issue) => {
    if (issue.path.length < 2 || issue.line === undefined) return false;
    const entryLine = lineOf(issue.path.slice(0, 2));
    const below = entryLine !== undefined && entryLine > firstErrorLine;
    // the line above the error may start the construct it breaks (`title: [string`)
    const above = issue.line < firstErrorLine - 1;
    if (LOCAL_CODES.has(issue.code)) return above || below;
    return REFERENCE_CODES.has(issue.code) && (above || below) && nowhere(issue);
  });
}

function buildWorkload(value: unknown, sink: IssueSink): Workload | undefined {
  if (!isRecord(value)) {
    sink.error(
      "workload.invalidValue",
      [],
      `expected a mapping with version, name, entities and accessPatterns, got ${describeValue(value)}`,
    );
    return undefined;
  }
  const document = parseWithSchema(rawDocumentSchema, value, [], sink, WORKLOAD_SCHEMA);
  const pieces = readPieces(value, sink);
  checkReferences(pieces, sink);
  if (pieces.complete) checkWarnings(pieces, sink);
  const scale = document === undefined ? undefined : toScale(document.scale ?? {});
  if (scale !== undefined) checkServiceLimits(pieces, scale, sink);
  if (scale?.multiRegionWrites === true && scale.consistency === "strong") {
    // https://learn.microsoft.com/azure/cosmos-db/consistency-levels (checked 2026-11-22):
    // accounts with multiple write regions cannot use strong consistency.
    sink.error(
      "workload.invalidValue",
      ["scale", "consistency"],
      "strong consistency is not available with multi-region writes in Azure Cosmos DB",
      "use bounded staleness or session, or multiRegionWrites: false",
    );
  }
  const trafficProfile =
    document?.scale?.trafficProfile === undefined
      ? undefined
      : toTrafficProfile(document.scale.trafficProfile, sink);
  if (trafficProfile !== undefined && pieces.complete) checkTrafficProfile(trafficProfile, pieces, sink);
  if (document === undefined || scale === undefined || sink.hasErrors()) return undefined;
  return {
    version: 1,
    name: document.name,
    ...(document.domain === undefined ? {} : { domain: document.domain }),
    ...(document.description === undefined ? {} : { description: document.description }),
    scale: trafficProfile === undefined ? scale : { ...scale, trafficProfile },
    entities: [...pieces.entities.values()],
    relationships: pieces.relationships.map(({ relationship }) => relationship),
    accessPatterns: pieces.patterns.map(({ pattern }) => pattern),
  };
}

function readPieces(document: Record<string, unknown>, sink: IssueSink): WorkloadPieces {
  const entities = new Map<string, Entity>();
  const entityNames: string[] = [];
  const attributeNames = new Map<string, readonly string[]>();
  const maxBytesGiven = new Set<string>();
  if (isRecord(document.entities)) {
    for (const [name, raw] of Object.entries(document.entities)) {
      entityNames.push(name);
      if (isRecord(raw) && raw.maxBytes !== undefined) maxBytesGiven.add(name);
      if (isRecord(raw) && isRecord(raw.attributes) && Object.keys(raw.attributes).length > 0) {
        attributeNames.set(name, Object.keys(raw.attributes));
        for (const attribute of Object.keys(raw.attributes)) {
          if (ATTRIBUTE_NAME.test(attribute) && !isItemPropertyName(attribute)) continue;
          sink.error(
            "workload.invalidName",
            ["entities", name, "attributes", attribute],
            isItemPropertyName(attribute)
              ? `attribute name ${JSON.stringify(attribute)} is a property every stored item has, or a name Cosmos DB keeps for its system properties (ttl, names starting with _, and type, where the model keeps the item type): the record's value would be lost or could not be patched`
              : `attribute name ${JSON.stringify(attribute)} is not valid; use letters, digits, _ and $, starting with a letter (e.g. creationDate)`,
            isItemPropertyName(attribute)
              ? `rename it (e.g. ${attribute.replace(/^_/, "")}Value, or kind for a type)`
              : undefined,
          );
        }
      }
      if (!ENTITY_NAME.test(name)) {
        sink.error(
          "workload.invalidName",
          ["entities", name],
          `entity name ${JSON.stringify(name)} is not valid; use letters, digits and _ starting with a letter (e.g. OrderLine)`,
        );
      }
      const entity = parseWithSchema(rawEntitySchema, raw, ["entities", name], sink, WORKLOAD_SCHEMA);
      const built = entity === undefined ? undefined : toEntity(name, entity, sink);
      if (built !== undefined) entities.set(name, built);
    }
    if (entityNames.length === 0) {
      sink.error("workload.missingField", ["entities"], "expected at least one entity, got an empty mapping");
    }
  }
  let complete = true;
  const relationships: { index: number; relationship: Relationship }[] = [];
  const rawRelationships = Array.isArray(document.relationships) ? document.relationships : [];
  const links: { parent: string; child: string }[] = [];
  rawRelationships.forEach((raw, index) => {
    if (isRecord(raw) && typeof raw.parent === "string" && typeof raw.child === "string") {
      links.push({ parent: raw.parent, child: raw.child });
    }
    const relationship = parseWithSchema(
      rawRelationshipSchema,
      raw,
      ["relationships", index],
      sink,
      WORKLOAD_SCHEMA,
    );
    if (relationship === undefined) complete = false;
    else relationships.push({ index, relationship: toRelationship(relationship) });
  });
  const patterns: PatternPiece[] = [];
  const patternIds: { index: number; id: string }[] = [];
  const rawPatterns = Array.isArray(document.accessPatterns) ? document.accessPatterns : [];
  rawPatterns.forEach((raw, index) => {
    if (isRecord(raw) && typeof raw.id === "string") patternIds.push({ index, id: raw.id });
    const parsed = parseWithSchema(
      rawAccessPatternSchema,
      raw,
      ["accessPatterns", index],
      sink,
      WORKLOAD_SCHEMA,
    );
    const piece = parsed === undefined ? undefined : toAccessPattern(parsed, index, sink);
    if (piece === undefined) complete = false;
    else patterns.push(piece);
  });
  return {
    entityNames,
    entities,
    attributeNames,
    maxBytesGiven,
    relationships,
    links,
    patterns,
    patternIds,
    complete,
  };
}

/**
 * The default of `maxBytes`: 4 x `avgBytes`, but never above the item size limit. From an
 * `avgBytes` of 524,288 (a quarter of the limit) the default is the limit itself, which no item
 * holds with the properties every item adds: `check` then asks for a `maxBytes`
 * (`workload.itemTooLarge`).
 */
export function defaultMaxBytes(avgBytes: number): number {
  return Math.min(4 * avgBytes, MAX_ITEM_BYTES);
}

function toEntity(name: string, raw: RawEntity, sink: IssueSink): Entity | undefined {
  const key = typeof raw.key === "string" ? [raw.key] : raw.key;
  if (key.length === 0) {
    sink.error(
      "workload.invalidValue",
      ["entities", name, "key"],
      "expected the attribute that identifies a record, or a list of the attributes that together do; got an empty list",
      "for example key: orderId, or key: [orderId, productId] for a composite key",
    );
    return undefined;
  }
  const attributes = Object.entries(raw.attributes ?? {}).map(([attribute, value]) =>
    toAttribute(attribute, value),
  );
  if (attributes.some((a) => a.name === "id") && !(key.length === 1 && key[0] === "id")) {
    // Every item's id property is its identity in the logical partition: a record attribute of
    // that name that is not the record's key would be replaced by the rendered id (or make ids
    // collide when it is not unique), so it is only allowed as the whole key.
    sink.error(
      "workload.invalidName",
      ["entities", name, "attributes", "id"],
      `attribute "id" is the stored item's id property, so it can only be the entity's whole key (key: id); ${name}'s key is ${key.join(", ")}, and the item id must be made from that key`,
      `rename the attribute (e.g. externalId), or make it the key (key: id)`,
    );
  }
  const binning = raw.binning === undefined ? undefined : toBinning(raw.binning, ["entities", name], sink);
  const entity: Entity = {
    name,
    key,
    count: raw.count,
    growthPerMonth: raw.growthPerMonth ?? 0,
    avgBytes: raw.avgBytes,
    maxBytes: raw.maxBytes ?? defaultMaxBytes(raw.avgBytes),
    ...(raw.ttlSeconds === undefined ? {} : { ttlSeconds: raw.ttlSeconds }),
    ...(binning === undefined ? {} : { binning }),
    attributes,
  };
  checkSearchAttributes(entity, raw.attributes ?? {}, sink);
  return entity;
}

/** `binning:`: false, or exactly one of windowSeconds and recordsPerItem. */
function toBinning(
  raw: NonNullable<RawEntity["binning"]>,
  at: IssuePath,
  sink: IssueSink,
): Binning | undefined {
  if (raw === false) return { kind: "never" };
  if ((raw.windowSeconds === undefined) === (raw.recordsPerItem === undefined)) {
    sink.error(
      "workload.invalidValue",
      [...at, "binning"],
      "expected either windowSeconds or recordsPerItem, not both or neither",
      "for example binning: { windowSeconds: 3600 } (one bucket item per key and hour), binning: { recordsPerItem: 100 }, or binning: false",
    );
    return undefined;
  }
  return raw.windowSeconds !== undefined
    ? { kind: "window", seconds: raw.windowSeconds }
    : { kind: "records", perItem: raw.recordsPerItem ?? 1 };
}

function toAttribute(name: string, raw: RawAttribute): Attribute {
  if (typeof raw === "string")
    return { name, type: raw, skew: 0, unique: false, changes: "never", presence: 1 };
  // Defaults of the vector embedding policy: float32 and cosine (vector-search, checked 2026-11-29).
  const vector =
    raw.vector === undefined
      ? undefined
      : {
          dimensions: raw.vector.dimensions,
          dataType: raw.vector.dataType ?? "float32",
          distance: raw.vector.distance ?? "cosine",
        };
  // A vector's size is its JSON: the embedding as sent and stored (cosmos/vector-search.ts).
  const avgBytes = vector === undefined ? raw.avgBytes : vectorJsonBytes(vector.dimensions, vector.dataType);
  return {
    name,
    type: raw.type,
    ...(avgBytes === undefined ? {} : { avgBytes }),
    ...(vector === undefined ? {} : { vector }),
    ...(raw.fullText === undefined ? {} : { fullText: { language: raw.fullText.language ?? "en-US" } }),
    ...(raw.distinct === undefined ? {} : { distinct: raw.distinct }),
    skew: raw.skew ?? 0,
    unique: raw.unique ?? false,
    changes: raw.changes ?? "never",
    presence: raw.presence ?? 1,
  };
}

function toRelationship(raw: RawRelationship): Relationship {
  return {
    parent: raw.parent,
    child: raw.child,
    kind: raw.kind ?? "one-to-many",
    ...(raw.via === undefined ? {} : { via: typeof raw.via === "string" ? [raw.via] : raw.via }),
    avg: raw.avg,
    ...(raw.max === undefined ? {} : { max: raw.max }),
    owned: raw.owned ?? false,
  };
}

function toAccessPattern(raw: RawAccessPattern, index: number, sink: IssueSink): PatternPiece | undefined {
  const misplaced = (raw.type === "read" ? WRITE_ONLY_FIELDS : READ_ONLY_FIELDS).filter(
    (field) => raw[field] !== undefined,
  );
  for (const field of misplaced) {
    sink.error(
      "workload.fieldNotAllowed",
      ["accessPatterns", index, field],
      `"${field}" applies to ${raw.type === "read" ? "write" : "read"} patterns only; this pattern has type: ${raw.type}`,
      raw.type === "read" && field === "operation" ? 'a write pattern needs "type: write"' : undefined,
    );
  }
  const base = {
    id: raw.id,
    name: raw.name,
    entity: raw.entity,
    rps: { avg: raw.rps.avg, peak: raw.rps.peak },
    standalone: raw.standalone ?? false,
    ...(raw.skew === undefined ? {} : { skew: raw.skew }),
  };
  if (raw.type === "write") {
    if (raw.operation === undefined) {
      sink.error(
        "workload.missingField",
        ["accessPatterns", index, "operation"],
        'required field is missing for a write (expected one of "create", "replace", "upsert", "patch", "delete")',
      );
      return undefined;
    }
    if (misplaced.length > 0) return undefined;
    const pattern: AccessPattern = {
      ...base,
      type: "write",
      operation: raw.operation,
      ...(raw.changes === undefined ? {} : { changes: raw.changes }),
      batch: raw.batch ?? 1,
      atomicWith: raw.atomicWith ?? [],
      bufferedRecords: raw.bufferedRecords ?? 1,
    };
    return { index, pattern, withPositions: [] };
  }
  if (misplaced.length > 0) return undefined;
  const search = raw.search === undefined ? undefined : toSearch(raw.search, index, sink);
  if (raw.search !== undefined && search === undefined) return undefined;
  const withItems = readWithItems(raw.with ?? [], index, sink);
  const pattern: AccessPattern = {
    ...base,
    type: "read",
    where: Object.entries(raw.where ?? {}).map(([attribute, op]) => ({ attribute, op })),
    orderBy: Object.entries(raw.orderBy ?? {}).map(([attribute, direction]) => ({ attribute, direction })),
    ...(raw.limit === undefined ? {} : { limit: raw.limit }),
    ...(raw.returns === undefined ? {} : { returns: { avg: raw.returns.avg } }),
    ...(raw.select === undefined ? {} : { select: raw.select }),
    truncate: Object.entries(raw.truncate ?? {}).map(([attribute, bytes]) => ({ attribute, bytes })),
    with: withItems.map(({ item }) => item),
    ...(raw.consistency === undefined ? {} : { consistency: raw.consistency }),
    ...(raw.latencyMs === undefined ? {} : { latencyMs: raw.latencyMs }),
    ...(raw.maxStalenessSeconds === undefined ? {} : { maxStalenessSeconds: raw.maxStalenessSeconds }),
    ...(search === undefined ? {} : { search }),
  };
  return { index, pattern, withPositions: withItems.map(({ position }) => position) };
}

/** Terms a full-text search sends when the file does not say: a short query of a few words. */
export const DEFAULT_SEARCH_TERMS = 3;

/** `search:`: nearest (vector), fullText, or both (hybrid); a vector search says its recall. */
function toSearch(raw: RawSearch, index: number, sink: IssueSink): SearchSpec | undefined {
  const at: IssuePath = ["accessPatterns", index, "search"];
  if (raw.nearest === undefined && raw.fullText === undefined) {
    sink.error(
      "workload.missingField",
      at,
      "a search names what it searches: nearest (a vector attribute), fullText (a text attribute), or both (hybrid search)",
      "for example search: { nearest: embedding, k: 5, recall: 0.9 }",
    );
    return undefined;
  }
  const terms = raw.terms ?? DEFAULT_SEARCH_TERMS;
  if (raw.nearest === undefined) {
    if (raw.recall !== undefined)
      sink.error(
        "workload.invalidValue",
        [...at, "recall"],
        "recall is the share of the true nearest neighbours a vector search returns; a full-text search has none",
        "remove recall, or add nearest: <vector attribute> for a hybrid search",
      );
    // (after an error the pattern is still checked, so that every problem shows at once)
    return raw.fullText === undefined ? undefined : { kind: "fullText", text: raw.fullText, k: raw.k, terms };
  }
  if (raw.recall === undefined) {
    sink.error(
      "workload.missingField",
      [...at, "recall"],
      "required for a vector search: the share of the true k nearest neighbours the application needs (1 = exact, e.g. 0.9); it decides which vector index can serve the search",
    );
    return undefined;
  }
  if (raw.terms !== undefined && raw.fullText === undefined) {
    sink.error(
      "workload.invalidValue",
      [...at, "terms"],
      "terms are the words a full-text search sends; a vector search has none",
      "remove terms, or add fullText: <text attribute> for a hybrid search",
    );
  }
  return raw.fullText === undefined
    ? { kind: "vector", vector: raw.nearest, k: raw.k, recall: raw.recall }
    : { kind: "hybrid", vector: raw.nearest, text: raw.fullText, k: raw.k, recall: raw.recall, terms };
}

function readWithItems(
  entries: readonly string[],
  index: number,
  sink: IssueSink,
): { item: WithItem; position: number }[] {
  return entries.flatMap((entry, position) => {
    const parsed = parseWithItem(entry);
    if ("item" in parsed) return [{ item: parsed.item, position }];
    sink.error("workload.badWith", ["accessPatterns", index, "with", position], parsed.problem);
    return [];
  });
}

function toScale(raw: RawScale): Scale {
  const regions = raw.regions ?? 1;
  return {
    ...(typeof regions === "number" ? { regions } : { regions: regions.length, regionNames: regions }),
    multiRegionWrites: raw.multiRegionWrites ?? false,
    consistency: raw.consistency ?? "session",
    horizonMonths: raw.horizonMonths ?? 12,
    targetUtilization: raw.targetUtilization ?? DEFAULT_TARGET_UTILIZATION,
  };
}

const PROFILE_PATH = ["scale", "trafficProfile"] as const;

/** `scale.trafficProfile` as the cost model reads it: exactly one form, reaching the peak. */
function toTrafficProfile(raw: RawTrafficProfile, sink: IssueSink): TrafficProfile | undefined {
  if ((raw.hourly === undefined) === (raw.peakHoursPerDay === undefined)) {
    sink.error(
      "workload.invalidValue",
      [...PROFILE_PATH],
      "expected either hourly (24 shares of the peak) or peakHoursPerDay, not both or neither",
      "for example { peakHoursPerDay: 4 } or { hourly: [0.2, 0.1, ..., 1, ...] }",
    );
    return undefined;
  }
  if (raw.hourly !== undefined) {
    if (Math.max(...raw.hourly) !== 1) {
      sink.error(
        "workload.invalidValue",
        [...PROFILE_PATH, "hourly"],
        `expected at least one hour at the peak (share 1), got a highest share of ${Math.max(...raw.hourly)}`,
        "the shares are of the peak request rates given in accessPatterns[].rps.peak",
      );
      return undefined;
    }
    return { kind: "hourly", shares: raw.hourly };
  }
  return { kind: "peakHours", peakHoursPerDay: raw.peakHoursPerDay ?? 0 };
}

/**
 * The hours of an hourly profile are each hour's busiest moment, so their mean cannot be below
 * the share of the peak the average rates are (sum of rps.avg / sum of rps.peak).
 */
function checkTrafficProfile(profile: TrafficProfile, pieces: WorkloadPieces, sink: IssueSink): void {
  if (profile.kind !== "hourly") return;
  const patterns = pieces.patterns.map(({ pattern }) => pattern);
  const peak = patterns.reduce((sum, p) => sum + p.rps.peak, 0);
  const average = peak > 0 ? patterns.reduce((sum, p) => sum + p.rps.avg, 0) / peak : 0;
  const mean = profile.shares.reduce((sum, share) => sum + share, 0) / profile.shares.length;
  if (mean + 0.005 < average) {
    sink.warning(
      "workload.inconsistentTrafficProfile",
      [...PROFILE_PATH, "hourly"],
      `the hours average ${(mean * 100).toFixed(0)}% of the peak, but the access patterns' average rates are ${(average * 100).toFixed(0)}% of their peaks; each hour's share is its busiest moment, so it is at least its average`,
      "raise the shares, or lower the average rates",
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
