/**
 * The structure of a workload file as written (docs/workload-format.md), as zod schemas.
 * Each schema carries the expectation text that issues print ("expected a positive number");
 * the loader appends what the file actually holds. The file is checked piece by piece (the
 * document, each entity, each relationship, each access pattern) so that one broken piece does
 * not hide the problems of the others.
 */
import { z } from "zod";
import { formatInteger } from "../common/format-number.js";
import { MAX_INTEGRATED_CACHE_STALENESS_SECONDS } from "../cosmos/dedicated-gateway.js";
import {
  LIMIT_SOURCES,
  MAX_ACCOUNT_REGIONS,
  MAX_EXACT_NUMBER,
  MAX_TTL_SECONDS,
  SYSTEM_PROPERTIES,
} from "../cosmos/limits.js";
import {
  FULL_TEXT_LANGUAGES,
  VECTOR_DATA_TYPES,
  VECTOR_DISTANCE_FUNCTIONS,
} from "../cosmos/vector-search.js";

export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "datetime", "object", "array"] as const;
export const CHANGE_FREQUENCIES = ["never", "rare", "frequent"] as const;
export const CONSISTENCY_LEVELS = ["strong", "bounded", "session", "consistent-prefix", "eventual"] as const;
export const RELATIONSHIP_KINDS = ["one-to-many", "one-to-one", "many-to-many"] as const;
export const PREDICATE_OPERATORS = ["eq", "range", "in", "contains", "prefix"] as const;
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export const WRITE_OPERATIONS = ["create", "replace", "upsert", "patch", "delete"] as const;
export const PATTERN_TYPES = ["read", "write"] as const;

/** Fields of an access pattern that only a read, or only a write, may have. */
export const READ_ONLY_FIELDS = [
  "where",
  "orderBy",
  "limit",
  "returns",
  "select",
  "truncate",
  "with",
  "consistency",
  "latencyMs",
  "maxStalenessSeconds",
  "search",
] as const;
export const WRITE_ONLY_FIELDS = ["operation", "changes", "batch", "atomicWith", "bufferedRecords"] as const;

/** Entity names appear inside `with` entries (`User.username`), so they are identifiers. */
export const ENTITY_NAME = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]*$/;
/** Attribute names become property paths in queries (`c.userId`), so they are identifiers. */
export const ATTRIBUTE_NAME = /^(?!__proto__$)[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Properties every stored item has, so no attribute can use their names: Cosmos DB's `ttl` and
 * system properties (`SYSTEM_PROPERTIES`), and `type`, where the model keeps each item's type.
 * (`id` is allowed only as the whole key, `key: id`: the record's id is then the item's id, `{id}`; toEntity.)
 */
export const ITEM_PROPERTY_NAMES: ReadonlySet<string> = new Set(["type", "ttl", ...SYSTEM_PROPERTIES]);

/**
 * True when no attribute may have this name: a property every item has (`ITEM_PROPERTY_NAMES`),
 * or a name starting with `_`, which Cosmos DB keeps for its system properties (a patch of such a
 * path is refused: "Can't patch system property"; partial document update FAQ, checked 2026-11-28).
 */
export function isItemPropertyName(name: string): boolean {
  return ITEM_PROPERTY_NAMES.has(name) || name.startsWith("_");
}

const expect = (text: string) => ({ error: text });
const oneOf = (values: readonly string[]) => `expected one of ${values.map((v) => `"${v}"`).join(", ")}`;

/** Numbers above this cannot be held exactly by Cosmos DB (see MAX_EXACT_NUMBER). */
const TOO_LARGE = expect(
  `expected a number at most ${formatInteger(MAX_EXACT_NUMBER)} (2^53 - 1, the largest whole number Cosmos DB holds exactly: its numbers are IEEE 754 doubles, ${LIMIT_SOURCES.queryConstants})`,
);
const positiveNumber = z
  .number(expect("expected a positive number"))
  .positive(expect("expected a positive number"))
  .max(MAX_EXACT_NUMBER, TOO_LARGE);
const nonNegativeNumber = z
  .number(expect("expected a number >= 0"))
  .nonnegative(expect("expected a number >= 0"))
  .max(MAX_EXACT_NUMBER, TOO_LARGE);
// The bound comes first and stops the checks: a whole number over 2^53 is not "not whole", it is
// too large, and one message says so.
const positiveInteger = z
  .number(expect("expected a positive whole number"))
  .max(MAX_EXACT_NUMBER, { ...TOO_LARGE, abort: true })
  .int(expect("expected a positive whole number"))
  .positive(expect("expected a positive whole number"));
const ttlSeconds = z
  .number(expect("expected a positive whole number"))
  .max(MAX_TTL_SECONDS, {
    ...expect(
      `expected at most ${formatInteger(MAX_TTL_SECONDS)} seconds (about 68 years), the largest time to live Cosmos DB accepts (${LIMIT_SOURCES.timeToLive})`,
    ),
    abort: true,
  })
  .int(expect("expected a positive whole number"))
  .positive(expect("expected a positive whole number"));
/** A share of an entity's records: more than 0, at most 1. */
const shareOfRecords = z
  .number(expect("expected a share of the records, more than 0 and at most 1 (e.g. 0.15)"))
  .gt(0, expect("expected a share of the records, more than 0 and at most 1 (e.g. 0.15)"))
  .max(1, expect("expected a share of the records, more than 0 and at most 1 (e.g. 0.15)"));
const nonEmptyString = z
  .string(expect("expected a non-empty string"))
  .min(1, expect("expected a non-empty string"));
const text = z.string(expect("expected text"));
/**
 * An entity's key or a relationship's via: one attribute name, or a list of them (a composite
 * key; the loader reports an empty list and repeated names with their own codes).
 */
const attributeNames = (example: string) =>
  z.union(
    [nonEmptyString, z.array(nonEmptyString, expect(`expected a list of attribute names`))],
    expect(`expected an attribute name or a list of attribute names (e.g. ${example})`),
  );
const boolean = z.boolean(expect("expected true or false"));
const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, expect(oneOf(values)));
const strict = <S extends z.core.$ZodLooseShape>(shape: S, what: string) =>
  z.strictObject(shape, expect(`expected a mapping (${what})`));

const attributeType = enumOf(ATTRIBUTE_TYPES);
/**
 * The most terms a full-text search pattern may send: each is one argument of FullTextScore and
 * FullTextContainsAny. A bound of this tool (the documentation sets none): the generated function
 * binds one parameter per term.
 */
export const MAX_SEARCH_TERMS = 16;
const consistency = enumOf(CONSISTENCY_LEVELS);

/** `vector:` of an attribute: an embedding (the container's vector embedding policy). */
export const rawVectorSchema = strict(
  {
    dimensions: positiveInteger,
    dataType: enumOf(VECTOR_DATA_TYPES).optional(),
    distance: enumOf(VECTOR_DISTANCE_FUNCTIONS).optional(),
  },
  "dimensions, dataType (float32 | int8 | uint8), distance (cosine | dotproduct | euclidean)",
);

/** `fullText:` of a string attribute: its text is searched by full text. */
export const rawFullTextSchema = strict(
  { language: enumOf(FULL_TEXT_LANGUAGES).optional() },
  `language (${FULL_TEXT_LANGUAGES.join(", ")})`,
);

/** A share of the true nearest neighbours: more than 0, at most 1. */
const RECALL_EXPECTED =
  "expected a share of the true nearest neighbours, more than 0 and at most 1 (e.g. 0.9; 1 = exact)";
const recall = z
  .number(expect(RECALL_EXPECTED))
  .gt(0, expect(RECALL_EXPECTED))
  .max(1, expect(RECALL_EXPECTED));

/**
 * `search:` of a read: `nearest` (a vector attribute), `fullText` (a text attribute), or both
 * (hybrid search, RRF); `k` results; the `recall` a vector search needs; the `terms` a full-text
 * search sends at most.
 */
export const rawSearchSchema = strict(
  {
    nearest: nonEmptyString.optional(),
    fullText: nonEmptyString.optional(),
    k: positiveInteger,
    recall: recall.optional(),
    terms: positiveInteger
      .max(MAX_SEARCH_TERMS, expect(`expected at most ${MAX_SEARCH_TERMS} terms (a bound of this tool)`))
      .optional(),
  },
  "nearest (a vector attribute), fullText (a text attribute), k, recall, terms",
);

export const rawAttributeSchema = z.union(
  [
    attributeType,
    strict(
      {
        type: attributeType,
        avgBytes: positiveNumber.optional(),
        distinct: positiveInteger.optional(),
        skew: nonNegativeNumber.optional(),
        unique: boolean.optional(),
        changes: enumOf(CHANGE_FREQUENCIES).optional(),
        presence: shareOfRecords.optional(),
        vector: rawVectorSchema.optional(),
        fullText: rawFullTextSchema.optional(),
      },
      "type, avgBytes, distinct, skew, unique, changes, presence, vector, fullText",
    ),
  ],
  expect(`${oneOf(ATTRIBUTE_TYPES)}, or a mapping such as { type: string, distinct: 3 }`),
);

export const rawEntitySchema = strict(
  {
    key: attributeNames("key: postId, or key: [filmId, actorId] for a composite key"),
    count: positiveNumber,
    growthPerMonth: nonNegativeNumber.optional(),
    avgBytes: positiveNumber,
    maxBytes: positiveNumber.optional(),
    ttlSeconds: ttlSeconds.optional(),
    binning: z
      .union(
        [
          z.literal(false),
          strict(
            { windowSeconds: positiveInteger, recordsPerItem: positiveInteger },
            "windowSeconds or recordsPerItem",
          ).partial(),
        ],
        expect("expected false (never bin) or { windowSeconds: N } or { recordsPerItem: N }"),
      )
      .optional(),
    attributes: z
      .record(z.string(), rawAttributeSchema, expect("expected a mapping of attribute name -> type"))
      .optional(),
  },
  "key, count, avgBytes, ...",
);

export const rawRelationshipSchema = strict(
  {
    parent: nonEmptyString,
    child: nonEmptyString,
    kind: enumOf(RELATIONSHIP_KINDS).optional(),
    via: attributeNames(
      "via: userId, or via: [filmId, actorId] for a parent with a composite key",
    ).optional(),
    avg: positiveNumber,
    max: positiveNumber.optional(),
    owned: boolean.optional(),
  },
  "parent, child, via, avg, ...",
);

const rate = strict({ avg: nonNegativeNumber, peak: nonNegativeNumber }, "{ avg, peak } requests per second");

/** One schema for reads and writes; the loader reports fields that do not fit the `type`. */
export const rawAccessPatternSchema = strict(
  {
    id: nonEmptyString,
    name: nonEmptyString,
    type: enumOf(PATTERN_TYPES),
    entity: nonEmptyString,
    rps: rate,
    standalone: boolean.optional(),
    skew: nonNegativeNumber.optional(),
    // reads
    where: z
      .record(z.string(), enumOf(PREDICATE_OPERATORS), expect("expected a mapping of attribute -> operator"))
      .optional(),
    orderBy: z
      .record(z.string(), enumOf(SORT_DIRECTIONS), expect("expected a mapping of attribute -> asc | desc"))
      .optional(),
    limit: positiveInteger.optional(),
    returns: strict({ avg: nonNegativeNumber }, "{ avg } items returned").optional(),
    select: z
      .array(nonEmptyString, expect("expected a list of attribute names"))
      .min(1, expect("expected a non-empty list of attribute names (omit select to return all)"))
      .optional(),
    truncate: z
      .record(z.string(), positiveInteger, expect("expected a mapping of attribute -> bytes"))
      .optional(),
    with: z
      .array(nonEmptyString, expect("expected a list such as [User.username, count(Comment)]"))
      .optional(),
    consistency: consistency.optional(),
    latencyMs: positiveNumber.optional(),
    // 0 = must be fresh; above 0 also the integrated cache's MaxIntegratedCacheStaleness, which
    // goes up to 10 years (cosmos/dedicated-gateway.ts).
    maxStalenessSeconds: z
      .number(expect("expected a number of seconds >= 0 (0 = the read must see every write)"))
      .nonnegative(expect("expected a number of seconds >= 0 (0 = the read must see every write)"))
      .max(
        MAX_INTEGRATED_CACHE_STALENESS_SECONDS,
        expect(
          `expected at most ${MAX_INTEGRATED_CACHE_STALENESS_SECONDS.toLocaleString("en-US")} seconds (10 years, the largest MaxIntegratedCacheStaleness of the integrated cache)`,
        ),
      )
      .optional(),
    search: rawSearchSchema.optional(),
    // writes
    operation: enumOf(WRITE_OPERATIONS).optional(),
    changes: z.array(nonEmptyString, expect("expected a list of attribute names")).optional(),
    batch: positiveInteger.optional(),
    atomicWith: z
      .array(nonEmptyString, expect("expected a list of write pattern ids, e.g. [W2]"))
      .min(1, expect("expected a non-empty list of write pattern ids (omit atomicWith for none)"))
      .optional(),
    bufferedRecords: positiveInteger.optional(),
  },
  "id, name, type, entity, rps, ...",
);

/**
 * The longest planning horizon: 1,200 months (100 years). Not a Cosmos DB limit (the service
 * keeps data as long as it is paid for) but this tool's: storage is projected linearly from
 * today's counts and growth, and prices, limits and the application change long before a
 * century is over. What the horizon implies is also checked against the service: an entity's
 * data at the horizon must fit one container (`workload.beyondServiceLimit`).
 */
export const MAX_HORIZON_MONTHS = 1_200;

const regionCount = positiveInteger.max(
  MAX_ACCOUNT_REGIONS,
  expect(
    `expected at most ${MAX_ACCOUNT_REGIONS} regions: an account spans at most every Azure region (Cosmos DB sets no lower limit; Azure lists more than 60 regions, ${LIMIT_SOURCES.azureRegions})`,
  ),
);

/** `scale.targetUtilization`: a share of a partition's limits, more than 0 and at most 1. */
const TARGET_UTILIZATION_EXPECTED =
  "expected a share of a partition's limits, more than 0 and at most 1 (e.g. 0.8 for 80%)";

/** A share of the peak rate: 0 (no traffic) to 1 (the peak). */
const shareOfPeak = z
  .number(expect("expected a share of the peak between 0 and 1"))
  .min(0, expect("expected a share of the peak between 0 and 1"))
  .max(1, expect("expected a share of the peak between 0 and 1"));

/**
 * `scale.trafficProfile`: how the traffic spreads over a day, for autoscale billing. Either
 * `hourly` (24 shares of the peak, the busiest moment of each hour, hour 0 first) or
 * `peakHoursPerDay` (that many hours at the peak, the others at the average rate).
 */
export const rawTrafficProfileSchema = strict(
  {
    hourly: z
      .array(shareOfPeak, expect("expected a list of 24 shares of the peak (0..1), one per hour"))
      .length(24, expect("expected exactly 24 shares of the peak, one per hour of the day")),
    peakHoursPerDay: z
      .number(expect("expected hours between 0 and 24"))
      .min(0, expect("expected hours between 0 and 24"))
      .max(24, expect("expected hours between 0 and 24")),
  },
  "hourly (24 shares of the peak) or peakHoursPerDay",
).partial();

export const rawScaleSchema = strict(
  {
    regions: z
      .union(
        [
          regionCount,
          z
            .array(nonEmptyString, expect("expected a list of region names"))
            .min(1, expect("expected a non-empty list of region names"))
            .max(
              MAX_ACCOUNT_REGIONS,
              expect(
                `expected at most ${MAX_ACCOUNT_REGIONS} region names: an account spans at most every Azure region (Azure lists more than 60, ${LIMIT_SOURCES.azureRegions})`,
              ),
            ),
        ],
        expect("expected a positive whole number of regions or a list of region names"),
      )
      .optional(),
    multiRegionWrites: boolean.optional(),
    consistency: consistency.optional(),
    horizonMonths: positiveInteger
      .max(
        MAX_HORIZON_MONTHS,
        expect(
          `expected at most ${formatInteger(MAX_HORIZON_MONTHS)} months (100 years), the longest horizon this tool projects storage and cost over (a bound of the tool, not of Cosmos DB)`,
        ),
      )
      .optional(),
    trafficProfile: rawTrafficProfileSchema.optional(),
    targetUtilization: z
      .number(expect(TARGET_UTILIZATION_EXPECTED))
      .gt(0, expect(TARGET_UTILIZATION_EXPECTED))
      .max(1, expect(TARGET_UTILIZATION_EXPECTED))
      .optional(),
  },
  "regions, multiRegionWrites, consistency, horizonMonths, trafficProfile, targetUtilization",
);

/** The document level; entities, relationships and access patterns are checked one by one. */
export const rawDocumentSchema = strict(
  {
    version: z.literal(1, expect("expected 1 (the only version of the workload format)")),
    name: nonEmptyString,
    domain: text.optional(),
    description: text.optional(),
    scale: rawScaleSchema.optional(),
    entities: z.record(z.string(), z.unknown(), expect("expected a mapping of entity name -> entity")),
    relationships: z.array(z.unknown(), expect("expected a list of relationships")).optional(),
    accessPatterns: z
      .array(z.unknown(), expect("expected a non-empty list of access patterns"))
      .min(1, expect("expected a non-empty list of access patterns")),
  },
  "version, name, entities, accessPatterns, ...",
);

export type RawAttribute = z.infer<typeof rawAttributeSchema>;
export type RawSearch = z.infer<typeof rawSearchSchema>;
export type RawEntity = z.infer<typeof rawEntitySchema>;
export type RawRelationship = z.infer<typeof rawRelationshipSchema>;
export type RawAccessPattern = z.infer<typeof rawAccessPatternSchema>;
export type RawScale = z.infer<typeof rawScaleSchema>;
export type RawTrafficProfile = z.infer<typeof rawTrafficProfileSchema>;
export type RawDocument = z.infer<typeof rawDocumentSchema>;
