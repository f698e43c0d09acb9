/**
 * The shape of a model file (docs/model-format.md) as a zod schema: field names, types and
 * ranges. Formats inside strings (templates, `Entity.attribute`, `container/type`, paths, windows)
 * and cross references are checked after this, in `normalize-model.ts` and `check-model.ts`.
 */
import { z } from "zod";
import { formatInteger } from "../common/format-number.js";
import { LIMIT_SOURCES, MAX_EXACT_NUMBER } from "../cosmos/limits.js";
import { DEDICATED_GATEWAY_SOURCES, GATEWAY_SIZES, MAX_GATEWAY_NODES } from "../cosmos/dedicated-gateway.js";
import {
  FULL_TEXT_LANGUAGES,
  VECTOR_DATA_TYPES,
  VECTOR_DISTANCE_FUNCTIONS,
  VECTOR_INDEX_TYPES,
} from "../cosmos/vector-search.js";

const name = z.string().min(1);
/**
 * Every number is at most the largest whole number Cosmos DB holds exactly; over it, no other
 * check runs (a whole number over 2^53 is too large, not "not whole": one issue says so).
 */
const number = z.number().max(MAX_EXACT_NUMBER, {
  error: `expected a number at most ${formatInteger(MAX_EXACT_NUMBER)} (2^53 - 1, the largest whole number Cosmos DB holds exactly: its numbers are IEEE 754 doubles, ${LIMIT_SOURCES.queryConstants})`,
  abort: true,
});
const positiveInteger = number.int().positive();
/** A string or a list of strings; a single string is read as a list of one. */
const stringList = z.preprocess(
  (value) => (typeof value === "string" ? [value] : value),
  z.array(z.string()),
);

export const throughputModes = ["manual", "autoscale", "serverless", "shared"] as const;

const throughputShape = {
  mode: z.enum(throughputModes),
  rus: positiveInteger.optional(),
  maxRus: positiveInteger.optional(),
};

const indexingPolicyShape = {
  included: z.array(z.string()).optional(),
  excluded: z.array(z.string()).optional(),
  composite: z.array(z.array(z.string())).optional(),
};

const embedShape = { entity: name, as: name, latest: positiveInteger.optional() };
const copyShape = { from: z.string(), as: name };
const counterShape = { of: name, as: name };
const ancestorsShape = { as: name };
const keepLatestShape = { count: number, by: name };
const bucketShape = { records: number.optional(), by: name.optional(), window: z.string().optional() };

const itemShape = {
  type: name,
  entity: name,
  id: z.string(),
  partitionKey: stringList,
  select: z.array(name).optional(),
  truncate: z.record(z.string(), positiveInteger).optional(),
  embeds: z.array(z.strictObject(embedShape)).optional(),
  copies: z.array(z.strictObject(copyShape)).optional(),
  counts: z.array(z.strictObject(counterShape)).optional(),
  ancestors: z.strictObject(ancestorsShape).optional(),
  source: z.string().optional(),
  keepLatest: z.strictObject(keepLatestShape).optional(),
  bucket: z.strictObject(bucketShape).optional(),
  shards: number.optional(),
  shardBy: name.optional(),
  ttl: number.int().optional(),
  replicas: number.optional(),
};

const vectorPathShape = {
  path: z.string(),
  dataType: z.enum(VECTOR_DATA_TYPES),
  dimensions: positiveInteger,
  distance: z.enum(VECTOR_DISTANCE_FUNCTIONS),
  index: z.enum([...VECTOR_INDEX_TYPES, "none"]),
  shardKey: stringList.optional(),
};
const fullTextPathShape = { path: z.string(), language: z.enum(FULL_TEXT_LANGUAGES) };
const searchShape = {
  vectors: z.array(z.strictObject(vectorPathShape)).optional(),
  fullText: z.array(z.strictObject(fullTextPathShape)).optional(),
};

const containerShape = {
  name,
  partitionKey: stringList,
  physicalPartitions: positiveInteger.optional(),
  throughput: z.strictObject(throughputShape).optional(),
  defaultTtl: number.int().optional(),
  uniqueKeys: z.array(stringList).optional(),
  indexing: z.union([z.literal("automatic"), z.strictObject(indexingPolicyShape)]).optional(),
  items: z.array(z.strictObject(itemShape)).min(1),
  search: z.strictObject(searchShape).optional(),
};

export const deleteModes = ["softDelete", "allVersionsAndDeletes"] as const;

const deletesShape = {
  mode: z.enum(deleteModes),
  property: name.optional(),
  ttl: z.union([z.string(), number]).optional(),
  retention: z.string().optional(),
};

const integratedCacheShape = {
  size: z.enum(GATEWAY_SIZES),
  nodes: positiveInteger.max(MAX_GATEWAY_NODES, {
    error: `expected at most ${MAX_GATEWAY_NODES} nodes (a dedicated gateway cluster's default maximum, ${DEDICATED_GATEWAY_SOURCES[0] ?? ""})`,
  }),
  patterns: z.array(name).min(1),
};

const modelShape = {
  version: z.literal(1),
  integratedCache: z.strictObject(integratedCacheShape).optional(),
  deletes: z.strictObject(deletesShape).optional(),
  leases: name.optional(),
  containers: z.array(z.strictObject(containerShape)).min(1),
};

/** The model file as written, before normalization. */
export const modelFileSchema = z.strictObject(modelShape);
export type ModelFile = z.infer<typeof modelFileSchema>;
export type ContainerFile = ModelFile["containers"][number];
export type ItemFile = ContainerFile["items"][number];
export type DeletesFile = NonNullable<ModelFile["deletes"]>;
export type IndexingPolicyFile = Exclude<ContainerFile["indexing"], "automatic" | undefined>;
