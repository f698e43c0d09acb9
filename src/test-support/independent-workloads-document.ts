/**
 * The independent generator's draft as a workload document (plain data in the field order of
 * docs/workload-format.md) and as YAML text, in block style, flow style (`{ avg: 2, peak: 10 }`)
 * or a mix, as people write it. Also the workload's `scale`, drawn before the patterns (a pattern
 * never asks for strong consistency when every region accepts writes).
 */
import { Document, isPair, isScalar, visit } from "yaml";
import {
  CONSISTENCIES,
  type Consistency,
  type DraftAttribute,
  type DraftEntity,
  type DraftPattern,
  type DraftRelationship,
  type DraftSchema,
} from "./independent-workloads-model.js";
import {
  between,
  chance,
  intBetween,
  pick,
  roundSignificant,
  sample,
  type Random,
} from "./independent-workloads-random.js";

/** The `scale` of a draft (every field optional, as in the format). */
export interface DraftScale {
  readonly regions?: number | readonly string[];
  readonly multiRegionWrites?: boolean;
  readonly consistency?: Consistency;
  readonly horizonMonths?: number;
  readonly trafficProfile?: { readonly peakHoursPerDay: number } | { readonly hourly: readonly number[] };
}

const REGION_NAMES = ["westeurope", "northeurope", "eastus", "westus2", "japaneast", "australiaeast"];

/** Draws a scale, or none (half the workloads use every default). */
export function drawScale(random: Random): DraftScale | undefined {
  if (chance(random, 0.45)) return undefined;
  const regionCount = chance(random, 0.3) ? intBetween(random, 2, 3) : 1;
  const regions: number | readonly string[] | undefined = chance(random, 0.25)
    ? sample(random, REGION_NAMES, regionCount)
    : regionCount > 1 || chance(random, 0.3)
      ? regionCount
      : undefined;
  const multiRegionWrites = regionCount > 1 && chance(random, 0.55);
  const consistencies = CONSISTENCIES.filter((level) => !multiRegionWrites || level !== "strong");
  const hourly = (): number[] => {
    const shares = Array.from({ length: 24 }, () => roundSignificant(between(random, 0.4, 1), 2));
    shares[intBetween(random, 0, 23)] = 1;
    return shares;
  };
  return {
    ...(regions === undefined ? {} : { regions }),
    ...(multiRegionWrites ? { multiRegionWrites } : chance(random, 0.1) ? { multiRegionWrites: false } : {}),
    ...(chance(random, 0.45) ? { consistency: pick(random, consistencies) } : {}),
    ...(chance(random, 0.25) ? { horizonMonths: pick(random, [1, 6, 12, 24, 36, 60]) } : {}),
    ...(chance(random, 0.3)
      ? {
          trafficProfile: chance(random, 0.5)
            ? { peakHoursPerDay: intBetween(random, 0, 24) }
            : { hourly: hourly() },
        }
      : {}),
  };
}

/** The workload document of a draft, plain data as a file holds it. */
export function renderDocument(
  random: Random,
  seed: number,
  scale: DraftScale | undefined,
  schema: DraftSchema,
  patterns: readonly DraftPattern[],
): Record<string, unknown> {
  return {
    version: 1,
    name: `Independent workload ${seed}`,
    ...(chance(random, 0.4)
      ? { domain: pick(random, ["social media", "retail", "IoT", "education", "SaaS"]) }
      : {}),
    ...(chance(random, 0.3)
      ? { description: `Generated from seed ${seed}: ${schema.motifs.join(", ") || "plain"}.` }
      : {}),
    ...(scale === undefined ? {} : { scale }),
    entities: Object.fromEntries(
      schema.entities.map((entity) => [entity.name, renderEntity(random, entity)]),
    ),
    ...(schema.relationships.length > 0 || chance(random, 0.3)
      ? {
          relationships: schema.relationships.map((relationship) => renderRelationship(random, relationship)),
        }
      : {}),
    accessPatterns: patterns.map(renderPattern),
  };
}

function renderEntity(random: Random, entity: DraftEntity): Record<string, unknown> {
  return {
    key: entity.key.length === 1 ? entity.key[0] : [...entity.key],
    count: entity.count,
    ...(entity.growthPerMonth === undefined ? {} : { growthPerMonth: entity.growthPerMonth }),
    avgBytes: entity.avgBytes,
    ...(entity.maxBytes === undefined ? {} : { maxBytes: entity.maxBytes }),
    ...(entity.ttlSeconds === undefined ? {} : { ttlSeconds: entity.ttlSeconds }),
    ...(entity.binning === undefined ? {} : { binning: entity.binning }),
    attributes: Object.fromEntries(
      entity.attributes.map((attribute) => [attribute.name, renderAttribute(random, attribute)]),
    ),
  };
}

function renderAttribute(random: Random, attribute: DraftAttribute): unknown {
  const fields = {
    ...(attribute.avgBytes === undefined ? {} : { avgBytes: attribute.avgBytes }),
    ...(attribute.distinct === undefined ? {} : { distinct: attribute.distinct }),
    ...(attribute.skew === undefined ? {} : { skew: attribute.skew }),
    ...(attribute.unique === undefined ? {} : { unique: attribute.unique }),
    ...(attribute.changes === undefined ? {} : { changes: attribute.changes }),
    ...(attribute.presence === undefined ? {} : { presence: attribute.presence }),
  };
  if (Object.keys(fields).length === 0 && chance(random, 0.8)) return attribute.type;
  return { type: attribute.type, ...fields };
}

function renderRelationship(random: Random, relationship: DraftRelationship): Record<string, unknown> {
  return {
    parent: relationship.parent,
    child: relationship.child,
    ...(relationship.kind !== "one-to-many" || chance(random, 0.15) ? { kind: relationship.kind } : {}),
    ...(relationship.via === undefined ? {} : { via: relationship.via }),
    avg: relationship.avg,
    ...(relationship.max === undefined ? {} : { max: relationship.max }),
    ...(relationship.owned ? { owned: true } : chance(random, 0.1) ? { owned: false } : {}),
  };
}

function renderPattern(pattern: DraftPattern): Record<string, unknown> {
  const common = { id: pattern.id, name: pattern.name, type: pattern.type, entity: pattern.entity };
  const tail = {
    ...(pattern.skew === undefined ? {} : { skew: pattern.skew }),
    ...(pattern.standalone === true ? { standalone: true } : {}),
  };
  if (pattern.type === "write") {
    return {
      ...common,
      operation: pattern.operation,
      rps: { ...pattern.rps },
      ...(pattern.changes === undefined ? {} : { changes: [...pattern.changes] }),
      ...(pattern.batch === undefined ? {} : { batch: pattern.batch }),
      ...(pattern.bufferedRecords === undefined ? {} : { bufferedRecords: pattern.bufferedRecords }),
      ...(pattern.atomicWith === undefined ? {} : { atomicWith: [...pattern.atomicWith] }),
      ...tail,
    };
  }
  return {
    ...common,
    rps: { ...pattern.rps },
    ...(pattern.where.length === 0 ? {} : { where: Object.fromEntries(pattern.where) }),
    ...(pattern.orderBy.length === 0 ? {} : { orderBy: Object.fromEntries(pattern.orderBy) }),
    ...(pattern.limit === undefined ? {} : { limit: pattern.limit }),
    ...(pattern.returns === undefined ? {} : { returns: { avg: pattern.returns } }),
    ...(pattern.select === undefined ? {} : { select: [...pattern.select] }),
    ...(pattern.truncate === undefined ? {} : { truncate: Object.fromEntries(pattern.truncate) }),
    ...(pattern.with.length === 0 ? {} : { with: [...pattern.with] }),
    ...(pattern.consistency === undefined ? {} : { consistency: pattern.consistency }),
    ...(pattern.latencyMs === undefined ? {} : { latencyMs: pattern.latencyMs }),
    ...(pattern.maxStalenessSeconds === undefined
      ? {}
      : { maxStalenessSeconds: pattern.maxStalenessSeconds }),
    ...tail,
  };
}

/** Fields whose value people often write in flow style (`rps: { avg: 2, peak: 10 }`). */
const FLOW_FIELDS = new Set([
  "rps",
  "returns",
  "where",
  "orderBy",
  "binning",
  "truncate",
  "with",
  "select",
  "changes",
  "atomicWith",
  "regions",
]);

/**
 * The document as YAML text, and whether any collection is in flow style: `flowShare` of the
 * small collections (and of the relationships and attributes) are; 0 is all block style.
 */
export function renderYaml(
  random: Random,
  document: Record<string, unknown>,
  flowShare: number,
): { readonly text: string; readonly flow: boolean } {
  const yaml = new Document(document);
  if (flowShare <= 0) return { text: yaml.toString({ lineWidth: 0 }), flow: false };
  let flow = false;
  visit(yaml, {
    Map: (_key, node, path) => {
      const parent = path[path.length - 1];
      const field = isPair(parent) && isScalar(parent.key) ? String(parent.key.value) : undefined;
      // A list item's path ends [..., Pair(field), Seq]; an attribute's [..., Pair(attributes), Map, Pair(name)].
      const listPair = isPair(parent) ? undefined : path[path.length - 2];
      const listField = isPair(listPair) && isScalar(listPair.key) ? String(listPair.key.value) : undefined;
      const attributesPair = path[path.length - 3];
      const attributeField =
        isPair(attributesPair) && isScalar(attributesPair.key) && attributesPair.key.value === "attributes";
      const small =
        (field !== undefined && FLOW_FIELDS.has(field)) || listField === "relationships" || attributeField;
      if (small && chance(random, flowShare)) node.flow = flow = true;
    },
    Seq: (_key, node, path) => {
      const parent = path[path.length - 1];
      const field = isPair(parent) && isScalar(parent.key) ? String(parent.key.value) : undefined;
      if (field !== undefined && FLOW_FIELDS.has(field) && chance(random, flowShare)) node.flow = flow = true;
    },
  });
  return { text: yaml.toString({ lineWidth: 0 }), flow };
}
