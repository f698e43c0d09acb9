import fc from "fast-check";
import { recordIdentity } from "../workload/keys.js";
import { describe, expect, it } from "vitest";
import type { Attribute, AttributeType, Entity, Relationship, Workload } from "../workload/types.js";
import { generateDataset, maxChildren } from "./generate-records.js";

const types: readonly AttributeType[] = ["string", "number", "boolean", "datetime", "object", "array"];

const attributeArbitrary = (name: string): fc.Arbitrary<Attribute> =>
  fc
    .record({
      name: fc.constant(name),
      type: fc.constantFrom(...types),
      skew: fc.constantFrom(0, 0.5, 1.2),
      unique: fc.boolean(),
      changes: fc.constant("never" as const),
      presence: fc.constant(1),
      distinct: fc.option(fc.integer({ min: 1, max: 1_000_000_000 }), { nil: undefined }),
      avgBytes: fc.option(fc.integer({ min: 2, max: 3000 }), { nil: undefined }),
    })
    .map((attribute) => {
      const { distinct, avgBytes, ...rest } = attribute;
      return {
        ...rest,
        ...(distinct === undefined ? {} : { distinct }),
        ...(avgBytes === undefined ? {} : { avgBytes }),
      };
    });

/** Small random workloads: a chain of entities E0 <- E1 <- E2 linked by `parentId`-like keys. */
const workloadArbitrary: fc.Arbitrary<Workload> = fc
  .tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 3, maxLength: 3 }),
    fc.array(
      fc.tuple(
        fc.double({ min: 0.001, max: 5000, noNaN: true }),
        fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
      ),
      { minLength: 2, maxLength: 2 },
    ),
    fc.array(attributeArbitrary("extra"), { minLength: 3, maxLength: 3 }),
  )
  .map(([size, counts, links, extras]) => {
    const entities: Entity[] = Array.from({ length: size }, (_, index) => ({
      name: `E${index}`,
      key: [`e${index}Id`],
      count: counts[index] ?? 1,
      growthPerMonth: 0,
      avgBytes: 300,
      maxBytes: 1200,
      attributes: [
        { name: `e${index}Id`, type: "string", skew: 0, unique: true, changes: "never", presence: 1 },
        ...(index > 0
          ? [
              {
                name: `e${index - 1}Id`,
                type: "string" as const,
                skew: 0,
                unique: false,
                changes: "never" as const,
                presence: 1,
              },
            ]
          : []),
        { ...(extras[index] as Attribute), name: `extra${index}` },
      ],
    }));
    const relationships: Relationship[] = entities.slice(1).map((entity, index) => {
      const [avg, max] = links[index] ?? [1, undefined];
      return {
        parent: `E${index}`,
        child: entity.name,
        kind: "one-to-many",
        via: [`e${index}Id`],
        avg,
        ...(max === undefined ? {} : { max }),
        owned: true,
      };
    });
    return {
      version: 1,
      name: "random",
      scale: {
        regions: 1,
        multiRegionWrites: false,
        consistency: "session",
        horizonMonths: 12,
        targetUtilization: 0.8,
      },
      entities,
      relationships,
      accessPatterns: [],
    };
  });

describe("generateDataset on random workloads", () => {
  it("never throws, stays under the cap, keeps keys unique and never exceeds max children", () => {
    fc.assert(
      fc.property(workloadArbitrary, fc.integer({ min: 0, max: 2 ** 31 }), (workload, seed) => {
        const dataset = generateDataset(workload, { seed, maxItemsPerEntity: 150 });
        for (const entity of workload.entities) {
          const records = dataset.entities[entity.name] ?? [];
          expect(records.length).toBeGreaterThan(0);
          expect(records.length).toBeLessThanOrEqual(150);
          expect(new Set(records.map((record) => recordIdentity(entity, record))).size).toBe(records.length);
          const unique = entity.attributes.filter(
            (attribute) => attribute.unique && attribute.type === "string",
          );
          for (const attribute of unique) {
            expect(new Set(records.map((record) => record[attribute.name])).size).toBe(records.length);
          }
        }
        for (const relationship of workload.relationships) {
          const perParent = new Map<unknown, number>();
          for (const child of dataset.entities[relationship.child] ?? []) {
            const key = child[relationship.via?.[0] ?? ""];
            perParent.set(key, (perParent.get(key) ?? 0) + 1);
          }
          const parents = new Set(
            (dataset.entities[relationship.parent] ?? []).map(
              (record) => record[`${relationship.parent.toLowerCase()}Id`],
            ),
          );
          for (const [key, count] of perParent) {
            expect(count).toBeLessThanOrEqual(maxChildren(relationship));
            expect(parents.has(key)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
