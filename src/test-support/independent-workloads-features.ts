/**
 * The shapes an independent workload uses (`IndependentWorkload.features`), read back from its
 * draft rather than recorded while drawing, so the list says what the workload holds. The schema
 * and scale are read here, the access patterns in `independent-workloads-pattern-features.ts`.
 */
import type { DraftScale } from "./independent-workloads-document.js";
import {
  INDEPENDENT_WORKLOAD_FEATURES,
  type AddFeature,
  type IndependentWorkloadFeature,
} from "./independent-workloads-feature-list.js";
import {
  attributeOf,
  entityNamed,
  type DraftEntity,
  type DraftPattern,
  type DraftRead,
  type DraftRelationship,
  type DraftSchema,
  type DraftWrite,
} from "./independent-workloads-model.js";
import { readFeatures, writeFeatures } from "./independent-workloads-pattern-features.js";

/** Reserved words of the Cosmos DB NoSQL query language (learn.microsoft.com/azure/cosmos-db/nosql/query/keywords, 2025). */
const SQL_KEYWORDS = new Set(
  (
    "AND ARRAY AS ASC BETWEEN BY CASE CAST CONVERT CROSS DESC DISTINCT ELSE END ESCAPE EXISTS FALSE FOR " +
    "FROM GROUP HAVING IN INNER INSERT INTO IS JOIN LEFT LIKE LIMIT NOT NULL OFFSET ON OR ORDER OUTER OVER " +
    "RIGHT SELECT SET THEN TOP TRUE UDF UNDEFINED UPDATE VALUE WHEN WHERE WITH"
  ).split(" "),
);

/** Properties Cosmos DB or a model may set on an item itself (`id` only when it is not the key). */
const SYSTEM_LIKE_NAMES = new Set(["id", "ttl", "type", "pk", "partitionKey", "$type", "_type"]);

/** What `featuresOf` reads. */
export interface FeatureSources {
  readonly schema: DraftSchema;
  readonly scale: DraftScale | undefined;
  readonly patterns: readonly DraftPattern[];
  readonly flowYaml: boolean;
}

/** The features a drafted workload uses, in the order of `INDEPENDENT_WORKLOAD_FEATURES`. */
export function featuresOf(sources: FeatureSources): IndependentWorkloadFeature[] {
  const found = new Set<IndependentWorkloadFeature>();
  const add = (feature: IndependentWorkloadFeature, when: boolean): void => {
    if (when) found.add(feature);
  };
  schemaFeatures(sources.schema, add);
  scaleFeatures(sources.scale, add);
  const reads = sources.patterns.filter((pattern): pattern is DraftRead => pattern.type === "read");
  const writes = sources.patterns.filter((pattern): pattern is DraftWrite => pattern.type === "write");
  readFeatures(sources.schema, reads, writes, add);
  writeFeatures(sources.schema, reads, writes, add);
  add(
    "zeroAverageRate",
    sources.patterns.some((pattern) => pattern.rps.avg === 0),
  );
  add(
    "patternSkew",
    sources.patterns.some((pattern) => pattern.skew !== undefined),
  );
  add(
    "standalone",
    sources.patterns.some((pattern) => pattern.standalone === true),
  );
  add("flowYaml", sources.flowYaml);
  return INDEPENDENT_WORKLOAD_FEATURES.filter((feature) => found.has(feature));
}

function schemaFeatures(schema: DraftSchema, add: AddFeature): void {
  const { entities, relationships } = schema;
  const linked = relationships.filter((relationship) => relationship.via !== undefined);
  const viaNamed = (entity: DraftEntity, name: string) =>
    linked.filter((relationship) => relationship.child === entity.name && relationship.via === name);
  // A via name meaning another parent or role elsewhere, or plain data elsewhere.
  add(
    "sameNameDifferentMeaning",
    linked.some((first) =>
      entities.some((other) => {
        if (other.name === first.child) return false;
        const same = viaNamed(other, first.via ?? "");
        const attribute = attributeOf(other, first.via ?? "");
        return (
          (attribute?.role === "data" && !other.key.includes(attribute.name)) ||
          same.some((second) => second.parent !== first.parent) ||
          (same.length > 0 && sameViaTwoPaths(relationships, first))
        );
      }),
    ),
  );
  add(
    "sameViaTwoPaths",
    linked.some((relationship) => sameViaTwoPaths(relationships, relationship)),
  );
  const dataNames = entities.flatMap((entity) =>
    entity.attributes.filter((a) => a.role === "data" && a.name !== "createdAt").map((a) => a.name),
  );
  add("sharedDataAttribute", new Set(dataNames).size < dataNames.length);
  add(
    "createdAtEverywhere",
    entities.length >= 2 && entities.every((entity) => attributeOf(entity, "createdAt") !== undefined),
  );
  const parentKey = (relationship: DraftRelationship) => entityNamed(entities, relationship.parent).key[0];
  add(
    "viaSameName",
    linked.some((relationship) => relationship.via === parentKey(relationship)),
  );
  add(
    "viaRenamed",
    linked.some((relationship) => relationship.via !== parentKey(relationship)),
  );
  add(
    "parentKeyNameUnrelated",
    linked.some((relationship) => {
      const key = parentKey(relationship);
      const attribute =
        key === undefined ? undefined : attributeOf(entityNamed(entities, relationship.child), key);
      return relationship.via !== key && attribute?.role === "data";
    }),
  );
  add(
    "twoRelationshipsSamePair",
    linked.some((first) =>
      linked.some(
        (second) => second !== first && second.parent === first.parent && second.child === first.child,
      ),
    ),
  );
  add(
    "multiParentChild",
    entities.some(
      (entity) => new Set(linked.filter((r) => r.child === entity.name).map((r) => r.parent)).size >= 2,
    ),
  );
  add("linkEntity", schema.motifs.includes("linkEntity"));
  add("orderLine", schema.motifs.includes("orderLine"));
  const oneToOne = relationships.filter((relationship) => relationship.kind === "one-to-one");
  add("oneToOne", oneToOne.length > 0);
  add(
    "oneToOneSharedKey",
    oneToOne.some((relationship) =>
      entityNamed(entities, relationship.child).key.includes(relationship.via ?? ""),
    ),
  );
  add(
    "manyToMany",
    relationships.some((relationship) => relationship.kind === "many-to-many"),
  );
  add(
    "ownedChild",
    relationships.some((relationship) => relationship.owned),
  );
  const depth = longestChain(schema);
  add("chain3", depth >= 3);
  add("chain4", depth >= 4);
  add(
    "boundedRelationship",
    linked.some((relationship) => relationship.max !== undefined),
  );
  add(
    "unboundedRelationship",
    linked.some((relationship) => relationship.max === undefined),
  );
  add(
    "selfRelationship",
    relationships.some((relationship) => relationship.parent === relationship.child),
  );
  add(
    "optionalParent",
    linked.some((r) => (attributeOf(entityNamed(entities, r.child), r.via ?? "")?.presence ?? 1) < 1),
  );
  const attributes = entities.flatMap((entity) => entity.attributes);
  const keyAttributes = entities.flatMap((entity) =>
    entity.attributes.filter((a) => entity.key.includes(a.name)),
  );
  add(
    "numberKey",
    entities.some(
      (entity) => entity.key.length === 1 && attributeOf(entity, entity.key[0] ?? "")?.type === "number",
    ),
  );
  add(
    "keyNamedId",
    keyAttributes.some((attribute) => attribute.name === "id"),
  );
  add(
    "compositeKey",
    entities.some((entity) => entity.key.length > 1),
  );
  add(
    "sqlKeywordName",
    attributes.some((attribute) => SQL_KEYWORDS.has(attribute.name.toUpperCase())),
  );
  add(
    "systemLikeName",
    entities.some((entity) =>
      entity.attributes.some(
        (attribute) =>
          SYSTEM_LIKE_NAMES.has(attribute.name) && !(attribute.name === "id" && entity.key.includes("id")),
      ),
    ),
  );
  for (const type of ["string", "number", "boolean", "datetime", "object", "array"] as const) {
    add(
      `type:${type}`,
      attributes.some((attribute) => attribute.type === type),
    );
  }
  add(
    "distinct",
    attributes.some((attribute) => attribute.distinct !== undefined),
  );
  add(
    "attributeSkew",
    attributes.some((attribute) => attribute.skew !== undefined),
  );
  add(
    "unique",
    attributes.some((attribute) => attribute.unique === true),
  );
  add(
    "changes:rare",
    attributes.some((attribute) => attribute.changes === "rare"),
  );
  add(
    "changes:frequent",
    attributes.some((attribute) => attribute.changes === "frequent"),
  );
  add(
    "presence",
    attributes.some((attribute) => attribute.presence !== undefined),
  );
  add(
    "attributeAvgBytes",
    attributes.some((attribute) => attribute.avgBytes !== undefined),
  );
  add(
    "ttlSeconds",
    entities.some((entity) => entity.ttlSeconds !== undefined),
  );
  add(
    "binning:window",
    entities.some(
      (entity) =>
        entity.binning !== undefined && entity.binning !== false && "windowSeconds" in entity.binning,
    ),
  );
  add(
    "binning:records",
    entities.some(
      (entity) =>
        entity.binning !== undefined && entity.binning !== false && "recordsPerItem" in entity.binning,
    ),
  );
  add(
    "binning:false",
    entities.some((entity) => entity.binning === false),
  );
  add(
    "growthPerMonth",
    entities.some((entity) => entity.growthPerMonth !== undefined),
  );
  add(
    "maxBytes",
    entities.some((entity) => entity.maxBytes !== undefined),
  );
  add(
    "largeItem",
    entities.some((entity) => entity.avgBytes >= 100_000),
  );
}

/** The Like shape: the child reaches the via's parent directly and through another parent, under one name. */
function sameViaTwoPaths(relationships: readonly DraftRelationship[], direct: DraftRelationship): boolean {
  return relationships.some(
    (throughParent) =>
      throughParent.child === direct.child &&
      throughParent.parent !== direct.parent &&
      throughParent.parent !== direct.child &&
      relationships.some(
        (upper) =>
          upper.child === throughParent.parent && upper.parent === direct.parent && upper.via === direct.via,
      ),
  );
}

/** Entities in the longest parent-to-child path (self relationships and many-to-many left out). */
function longestChain(schema: DraftSchema): number {
  const edges = schema.relationships.filter(
    (relationship) => relationship.kind !== "many-to-many" && relationship.parent !== relationship.child,
  );
  const depth = (name: string, seen: ReadonlySet<string>): number => {
    const below = edges
      .filter((relationship) => relationship.parent === name && !seen.has(relationship.child))
      .map((relationship) => depth(relationship.child, new Set([...seen, relationship.child])));
    return 1 + Math.max(0, ...below);
  };
  return Math.max(0, ...schema.entities.map((entity) => depth(entity.name, new Set([entity.name]))));
}

function scaleFeatures(scale: DraftScale | undefined, add: AddFeature): void {
  add("scale:regions", typeof scale?.regions === "number");
  add("scale:regionList", Array.isArray(scale?.regions));
  add("scale:multiRegionWrites", scale?.multiRegionWrites === true);
  add("scale:consistency", scale?.consistency !== undefined);
  add("scale:horizonMonths", scale?.horizonMonths !== undefined);
  add("traffic:peakHours", scale?.trafficProfile !== undefined && "peakHoursPerDay" in scale.trafficProfile);
  add("traffic:hourly", scale?.trafficProfile !== undefined && "hourly" in scale.trafficProfile);
}
