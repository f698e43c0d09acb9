/**
 * Writes a `Workload` back as YAML in the format of docs/workload-format.md: compact (small
 * mappings and lists in flow style, as people write them) and without fields that hold their
 * default, so that `loadWorkload(serializeWorkload(w))` gives `w` again.
 */
import { DEFAULT_TARGET_UTILIZATION } from "../cosmos/limits.js";
import { Document, isCollection } from "yaml";
import { defaultMaxBytes } from "./load-workload.js";
import type {
  AccessPattern,
  Attribute,
  Binning,
  Entity,
  Relationship,
  Scale,
  SearchSpec,
  Workload,
} from "./types.js";
import { formatWithItem } from "./with-items.js";

/** Fields of an access pattern written on one line (`rps: { avg: 2, peak: 10 }`). */
const FLOW_PATTERN_FIELDS = ["rps", "returns", "where", "orderBy", "truncate", "select", "with", "changes"];

/**
 * The YAML text of `workload`, defaults omitted.
 * @example serializeWorkload(loadedWorkload) // "version: 1\nname: Blogging platform\n..."
 */
export function serializeWorkload(workload: Workload): string {
  const scale = scaleFields(workload.scale);
  const data = {
    version: workload.version,
    name: workload.name,
    ...(workload.domain === undefined ? {} : { domain: workload.domain }),
    ...(workload.description === undefined ? {} : { description: workload.description }),
    ...(Object.keys(scale).length === 0 ? {} : { scale }),
    entities: Object.fromEntries(workload.entities.map((entity) => [entity.name, entityFields(entity)])),
    ...(workload.relationships.length === 0
      ? {}
      : { relationships: workload.relationships.map(relationshipFields) }),
    accessPatterns: workload.accessPatterns.map(patternFields),
  };
  const document = new Document(data);
  const flow = (path: readonly (string | number)[]): void => {
    const node = document.getIn(path, true);
    if (isCollection(node)) node.flow = true;
  };
  flow(["scale", "regions"]);
  for (const entity of workload.entities) {
    flow(["entities", entity.name, "key"]);
    for (const attribute of entity.attributes) flow(["entities", entity.name, "attributes", attribute.name]);
  }
  workload.relationships.forEach((_, index) => flow(["relationships", index]));
  workload.accessPatterns.forEach((_, index) => {
    for (const field of FLOW_PATTERN_FIELDS) flow(["accessPatterns", index, field]);
  });
  return document.toString({ lineWidth: 100 });
}

function scaleFields(scale: Scale): Record<string, unknown> {
  return {
    ...(scale.regionNames !== undefined
      ? { regions: [...scale.regionNames] }
      : scale.regions === 1
        ? {}
        : { regions: scale.regions }),
    ...(scale.multiRegionWrites ? { multiRegionWrites: true } : {}),
    ...(scale.consistency === "session" ? {} : { consistency: scale.consistency }),
    ...(scale.horizonMonths === 12 ? {} : { horizonMonths: scale.horizonMonths }),
    ...(scale.targetUtilization === DEFAULT_TARGET_UTILIZATION
      ? {}
      : { targetUtilization: scale.targetUtilization }),
    ...(scale.trafficProfile === undefined
      ? {}
      : {
          trafficProfile:
            scale.trafficProfile.kind === "hourly"
              ? { hourly: [...scale.trafficProfile.shares] }
              : { peakHoursPerDay: scale.trafficProfile.peakHoursPerDay },
        }),
  };
}

function entityFields(entity: Entity): Record<string, unknown> {
  return {
    key: entity.key.length === 1 ? entity.key[0] : [...entity.key],
    count: entity.count,
    ...(entity.growthPerMonth === 0 ? {} : { growthPerMonth: entity.growthPerMonth }),
    avgBytes: entity.avgBytes,
    ...(entity.maxBytes === defaultMaxBytes(entity.avgBytes) ? {} : { maxBytes: entity.maxBytes }),
    ...(entity.ttlSeconds === undefined ? {} : { ttlSeconds: entity.ttlSeconds }),
    ...(entity.binning === undefined ? {} : { binning: binningFields(entity.binning) }),
    ...(entity.attributes.length === 0
      ? {}
      : { attributes: Object.fromEntries(entity.attributes.map((a) => [a.name, attributeFields(a)])) }),
  };
}

function binningFields(binning: Binning): unknown {
  switch (binning.kind) {
    case "never":
      return false;
    case "window":
      return { windowSeconds: binning.seconds };
    case "records":
      return { recordsPerItem: binning.perItem };
    default:
      return binning satisfies never;
  }
}

function attributeFields(attribute: Attribute): unknown {
  const long = {
    ...(attribute.avgBytes === undefined ? {} : { avgBytes: attribute.avgBytes }),
    ...(attribute.distinct === undefined ? {} : { distinct: attribute.distinct }),
    ...(Object.is(attribute.skew, 0) ? {} : { skew: attribute.skew }),
    ...(attribute.unique ? { unique: true } : {}),
    ...(attribute.changes === "never" ? {} : { changes: attribute.changes }),
    ...(attribute.presence === 1 ? {} : { presence: attribute.presence }),
    ...(attribute.vector === undefined ? {} : { vector: { ...attribute.vector } }),
    ...(attribute.fullText === undefined ? {} : { fullText: { ...attribute.fullText } }),
  };
  // A vector's avgBytes is derived from its dimensions (the loader refuses one in the file).
  if (attribute.vector !== undefined) delete (long as { avgBytes?: number }).avgBytes;
  return Object.keys(long).length === 0 ? attribute.type : { type: attribute.type, ...long };
}

function searchFields(search: SearchSpec): Record<string, unknown> {
  switch (search.kind) {
    case "vector":
      return { nearest: search.vector, k: search.k, recall: search.recall };
    case "fullText":
      return { fullText: search.text, k: search.k, terms: search.terms };
    case "hybrid":
      return {
        nearest: search.vector,
        fullText: search.text,
        k: search.k,
        recall: search.recall,
        terms: search.terms,
      };
    default:
      return search satisfies never;
  }
}

function relationshipFields(relationship: Relationship): Record<string, unknown> {
  return {
    parent: relationship.parent,
    child: relationship.child,
    ...(relationship.kind === "one-to-many" ? {} : { kind: relationship.kind }),
    ...(relationship.via === undefined
      ? {}
      : { via: relationship.via.length === 1 ? relationship.via[0] : [...relationship.via] }),
    avg: relationship.avg,
    ...(relationship.max === undefined ? {} : { max: relationship.max }),
    ...(relationship.owned ? { owned: true } : {}),
  };
}

function patternFields(pattern: AccessPattern): Record<string, unknown> {
  const head = { id: pattern.id, name: pattern.name, type: pattern.type };
  const tail = {
    rps: { avg: pattern.rps.avg, peak: pattern.rps.peak },
    ...(pattern.standalone ? { standalone: true } : {}),
    ...(pattern.skew === undefined ? {} : { skew: pattern.skew }),
  };
  switch (pattern.type) {
    case "write":
      return {
        ...head,
        operation: pattern.operation,
        entity: pattern.entity,
        ...(pattern.changes === undefined ? {} : { changes: [...pattern.changes] }),
        ...(pattern.batch === 1 ? {} : { batch: pattern.batch }),
        ...(pattern.atomicWith.length === 0 ? {} : { atomicWith: [...pattern.atomicWith] }),
        ...(pattern.bufferedRecords === 1 ? {} : { bufferedRecords: pattern.bufferedRecords }),
        ...tail,
      };
    case "read":
      return {
        ...head,
        entity: pattern.entity,
        ...(pattern.where.length === 0
          ? {}
          : { where: Object.fromEntries(pattern.where.map((p) => [p.attribute, p.op])) }),
        ...(pattern.orderBy.length === 0
          ? {}
          : { orderBy: Object.fromEntries(pattern.orderBy.map((s) => [s.attribute, s.direction])) }),
        ...(pattern.limit === undefined ? {} : { limit: pattern.limit }),
        ...(pattern.returns === undefined ? {} : { returns: { avg: pattern.returns.avg } }),
        ...(pattern.select === undefined ? {} : { select: [...pattern.select] }),
        ...(pattern.truncate.length === 0
          ? {}
          : { truncate: Object.fromEntries(pattern.truncate.map((t) => [t.attribute, t.bytes])) }),
        ...(pattern.with.length === 0 ? {} : { with: pattern.with.map(formatWithItem) }),
        ...(pattern.consistency === undefined ? {} : { consistency: pattern.consistency }),
        ...(pattern.latencyMs === undefined ? {} : { latencyMs: pattern.latencyMs }),
        ...(pattern.maxStalenessSeconds === undefined
          ? {}
          : { maxStalenessSeconds: pattern.maxStalenessSeconds }),
        ...(pattern.search === undefined ? {} : { search: searchFields(pattern.search) }),
        ...tail,
      };
    default:
      return pattern satisfies never;
  }
}
