import { formatPath } from "../common/issues.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ITEM_OVERHEAD_BYTES, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { loadWorkload } from "./load-workload.js";
import { serializeWorkload } from "./serialize-workload.js";
import type { AccessPattern, Attribute, Entity, Relationship, Scale, Workload } from "./types.js";
import { EXAMPLE_WORKLOAD_NAMES, EXAMPLES_DIR } from "../test-support/model-examples.js";

const examples = EXAMPLE_WORKLOAD_NAMES.map((name) => {
  const result = loadWorkload(readFileSync(join(EXAMPLES_DIR, name, "workload.yaml"), "utf8"));
  if (!result.ok) throw new Error(`${name} does not load`);
  return result.value;
});

function roundTrip(workload: Workload): Workload {
  const text = serializeWorkload(workload);
  const result = loadWorkload(text);
  if (!result.ok)
    throw new Error(`${result.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join("\n")}\n${text}`);
  return result.value;
}

describe("serializeWorkload", () => {
  it.each(examples.map((workload) => [workload.name, workload] as const))(
    "%s loads back deep-equal",
    (_, workload) => {
      expect(roundTrip(workload)).toStrictEqual(workload);
    },
  );

  it("omits defaults and writes small mappings on one line", () => {
    const text = serializeWorkload(examples.find((w) => w.name === "Blogging platform") as Workload);
    expect(text).not.toContain("scale:"); // regions 1, session, horizon 12: all defaults
    expect(text).not.toContain("batch:");
    expect(text).not.toContain("standalone:");
    expect(text).toContain("username: { type: string, changes: rare }");
    expect(text).toContain("rps: { avg: 2, peak: 10 }");
    expect(text).toContain("with: [ User.username, count(Comment), count(Like) ]");
    expect(text).toContain("  - { parent: User, child: Post, via: userId, avg: 27.5, max: 50, owned: true }");
  });

  it("loads back deep-equal after random valid changes of every field", () => {
    fc.assert(
      fc.property(fc.constantFrom(...examples).chain(variantOf), (generated) => {
        // structuredClone: fast-check may build objects without a prototype; compare plain data.
        const workload = structuredClone(generated);
        expect(roundTrip(workload)).toStrictEqual(workload);
      }),
      { numRuns: 150 },
    );
  });
});

const text = fc.string({ unit: "grapheme", maxLength: 40 });
const positive = fc.double({ min: 1e-6, max: 1e15, noNaN: true });
const nonNegative = fc.double({ min: 0, max: 1e9, noNaN: true });
const count = fc.integer({ min: 1, max: 1_000_000 });
/**
 * Items of an entity: up to 1e12, so that with items of up to 500 KB and 120 months of growth
 * the data still fits one container (`workload.beyondServiceLimit` refuses more than 2 EB).
 */
const itemCount = fc.double({ min: 1e-6, max: 1e12, noNaN: true });

/** A workload like `workload` with every value that has no cross-reference changed at random. */
function variantOf(workload: Workload): fc.Arbitrary<Workload> {
  return fc.record(
    {
      version: fc.constant(1 as const),
      name: fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
      domain: text,
      description: text,
      scale: scaleVariant(),
      entities: fc.tuple(
        ...workload.entities.map((entity) =>
          entityVariant(
            entity,
            new Set([
              ...entity.key,
              ...workload.relationships.flatMap((r) => (r.child === entity.name && r.via ? r.via : [])),
            ]),
          ),
        ),
      ),
      relationships: fc.tuple(...workload.relationships.map(relationshipVariant)),
      accessPatterns: fc.tuple(...workload.accessPatterns.map(patternVariant)),
    },
    { requiredKeys: ["version", "name", "scale", "entities", "relationships", "accessPatterns"] },
  );
}

function scaleVariant(): fc.Arbitrary<Scale> {
  return fc.oneof(
    fc.record({
      regions: fc.integer({ min: 1, max: 9 }),
      multiRegionWrites: fc.boolean(),
      consistency: fc.constantFrom("bounded", "session", "consistent-prefix", "eventual" as const),
      horizonMonths: fc.integer({ min: 1, max: 120 }),
      targetUtilization: fc.constantFrom(0.8, 0.5, 1, 0.95),
    }),
    fc
      .uniqueArray(fc.constantFrom("westeurope", "northeurope", "eastus", "westus2"), { minLength: 1 })
      .chain((names) =>
        fc.record({
          regions: fc.constant(names.length),
          regionNames: fc.constant(names),
          multiRegionWrites: fc.constant(false),
          consistency: fc.constant("strong" as const),
          horizonMonths: fc.integer({ min: 1, max: 120 }),
          targetUtilization: fc.constant(0.8),
        }),
      ),
  );
}

/** `present`: attributes every record has (the key, relationships' via), kept at presence 1. */
function entityVariant(entity: Entity, present: ReadonlySet<string>): fc.Arbitrary<Entity> {
  return fc
    .record({
      count: itemCount,
      growthPerMonth: nonNegative,
      avgBytes: fc.double({ min: 1, max: 500_000, noNaN: true }),
      factor: fc.option(fc.double({ min: 1, max: 10, noNaN: true })),
      ttl: fc.option(fc.integer({ min: 1, max: 1e9 })),
      attributes: fc.tuple(...entity.attributes.map(attributeVariant)),
    })
    .map(({ count, growthPerMonth, avgBytes: drawn, factor, ttl, attributes }) => {
      // A record holds its vectors as JSON: its size is at least theirs.
      const vectors = entity.attributes.reduce(
        (sum, a) => sum + (a.vector === undefined ? 0 : (a.avgBytes ?? 0)),
        0,
      );
      const avgBytes = Math.max(drawn, vectors);
      return { count, growthPerMonth, avgBytes, factor, ttl, attributes };
    })
    .map(({ count, growthPerMonth, avgBytes, factor, ttl, attributes }) => ({
      name: entity.name,
      key: entity.key,
      count,
      growthPerMonth,
      avgBytes,
      maxBytes: Math.min(
        MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES,
        factor === null ? 4 * avgBytes : factor * avgBytes,
      ),
      ...(ttl === null ? {} : { ttlSeconds: ttl }),
      attributes: attributes.map((a) => (present.has(a.name) ? { ...a, presence: 1 } : a)),
    }));
}

function attributeVariant(attribute: Attribute): fc.Arbitrary<Attribute> {
  // A vector's type and size follow from its policy, a full-text attribute is a string: kept.
  if (attribute.vector !== undefined || attribute.fullText !== undefined) return fc.constant(attribute);
  return fc
    .record({
      type: fc.constantFrom("string", "number", "boolean", "datetime", "object", "array" as const),
      avgBytes: fc.option(fc.double({ min: 1e-6, max: MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES, noNaN: true })),
      distinct: fc.option(count),
      skew: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 3, noNaN: true })),
      unique: fc.boolean(),
      changes: fc.constantFrom("never", "rare", "frequent" as const),
      presence: fc.oneof(fc.constant(1), fc.double({ min: 0.001, max: 1, noNaN: true })),
    })
    .map(({ avgBytes, distinct, ...rest }) => ({
      name: attribute.name,
      ...rest,
      ...(avgBytes === null ? {} : { avgBytes }),
      ...(distinct === null ? {} : { distinct }),
    }));
}

function relationshipVariant(relationship: Relationship): fc.Arbitrary<Relationship> {
  return fc
    .record({ avg: positive, extra: fc.option(fc.integer({ min: 0, max: 1000 })), owned: fc.boolean() })
    .map(({ avg, extra, owned }) => ({
      ...withoutMax(relationship),
      avg: relationship.kind === "one-to-one" ? Math.min(avg, 1) : avg,
      ...(extra === null || relationship.kind === "one-to-one" ? {} : { max: Math.ceil(avg) + extra }),
      owned,
    }));
}

function withoutMax(relationship: Relationship): Omit<Relationship, "max"> {
  const { max: _max, ...rest } = relationship;
  return rest;
}

function patternVariant(pattern: AccessPattern): fc.Arbitrary<AccessPattern> {
  const common = fc.record({
    name: fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }),
    avg: nonNegative,
    extra: nonNegative,
    standalone: fc.boolean(),
    skew: fc.option(fc.double({ min: 0, max: 3, noNaN: true })),
  });
  if (pattern.type === "write") {
    const appends = pattern.operation !== "delete" && pattern.operation !== "replace";
    return fc
      .record({
        common,
        batch: fc.integer({ min: 1, max: 100 }),
        bufferedRecords: appends ? fc.integer({ min: 1, max: 100 }) : fc.constant(1),
      })
      .map(({ common: c, batch, bufferedRecords }) => {
        const { skew: _skew, ...rest } = pattern;
        return {
          ...rest,
          name: c.name,
          rps: { avg: c.avg, peak: c.avg + c.extra },
          standalone: c.standalone,
          ...(c.skew === null ? {} : { skew: c.skew }),
          batch,
          bufferedRecords,
        };
      });
  }
  return fc
    .record({
      common,
      limit: fc.option(fc.integer({ min: 1, max: 1000 })),
      latencyMs: fc.option(positive),
      consistency: fc.option(fc.constantFrom("strong", "eventual" as const)),
      maxStalenessSeconds: fc.option(fc.constantFrom(0, 5, 3600)),
    })
    .map(({ common: c, limit, latencyMs, consistency, maxStalenessSeconds }) => {
      const {
        limit: _limit,
        latencyMs: _latency,
        consistency: _consistency,
        maxStalenessSeconds: _staleness,
        skew: _skew,
        returns,
        ...rest
      } = pattern;
      const keepReturns = returns !== undefined && (limit === null || returns.avg <= limit);
      return {
        ...rest,
        name: c.name,
        rps: { avg: c.avg, peak: c.avg + c.extra },
        standalone: c.standalone,
        // a search's limit is its k (a limit of its own is refused)
        ...(limit === null || pattern.search !== undefined ? {} : { limit }),
        ...(keepReturns ? { returns } : {}),
        ...(latencyMs === null ? {} : { latencyMs }),
        ...(consistency === null ? {} : { consistency }),
        ...(maxStalenessSeconds === null ? {} : { maxStalenessSeconds }),
        ...(c.skew === null ? {} : { skew: c.skew }),
      };
    });
}
