/**
 * Synthetic workloads for the design speed bench and tests: `entities` entities in chains of four
 * (a root, its child, grandchild and great-grandchild, each one-to-many), with 2.5 access patterns
 * per entity on average (a point read, a list by parent, a create); more patterns on request (a
 * patch of the title, then a delete, entity by entity).
 */
import type { AccessPattern, Entity, Relationship, Workload } from "../workload/types.js";

const CHAIN = 4;

/**
 * A deterministic workload of `count` entities; with `patterns` beyond the 2.5 per entity, title
 * patches then deletes are added entity by entity until there are that many (at most 5 per entity).
 */
export function generateWorkload(count: number, options: { readonly patterns?: number } = {}): Workload {
  const entities: Entity[] = [];
  const relationships: Relationship[] = [];
  const patterns: AccessPattern[] = [];
  for (let index = 0; index < count; index++) {
    const name = `Entity${index}`;
    const key = `entity${index}Id`;
    const depth = index % CHAIN;
    const parent = depth === 0 ? undefined : `Entity${index - 1}`;
    const via = parent === undefined ? undefined : `entity${index - 1}Id`;
    entities.push(chainEntity(name, key, via, 10_000 * 10 ** depth));
    if (parent !== undefined && via !== undefined) {
      relationships.push({
        parent,
        child: name,
        kind: "one-to-many",
        via: [via],
        avg: 10,
        max: 100,
        owned: true,
      });
    }
    const rate = 10 + (index % 7) * 15;
    const base = { entity: name, standalone: false, truncate: [], with: [], orderBy: [] } as const;
    // The deepest entity of a chain is only listed by its parent: 2.5 patterns per entity on average.
    if (depth < CHAIN - 1) {
      patterns.push({
        ...base,
        id: `Q${index}a`,
        name: `get ${name}`,
        type: "read",
        where: [{ attribute: key, op: "eq" }],
        rps: { avg: rate, peak: rate * 4 },
      });
    }
    if (via !== undefined) {
      patterns.push({
        ...base,
        id: `Q${index}b`,
        name: `list ${name} of a parent`,
        type: "read",
        where: [{ attribute: via, op: "eq" }],
        orderBy: [{ attribute: "createdAt", direction: "desc" }],
        limit: 20,
        rps: { avg: rate / 2, peak: rate * 2 },
      });
    }
    patterns.push({
      entity: name,
      standalone: false,
      id: `C${index}`,
      name: `create ${name}`,
      type: "write",
      operation: "create",
      batch: 1,
      atomicWith: [],
      bufferedRecords: 1,
      rps: { avg: rate / 10, peak: rate / 2 },
    });
  }
  const extra: readonly { readonly operation: "patch" | "delete"; readonly prefix: string }[] = [
    { operation: "patch", prefix: "P" },
    { operation: "delete", prefix: "D" },
  ];
  for (const { operation, prefix } of extra) {
    for (let index = 0; index < count && patterns.length < (options.patterns ?? 0); index++) {
      const rate = 5 + (index % 5) * 5;
      patterns.push({
        entity: `Entity${index}`,
        standalone: false,
        id: `${prefix}${index}`,
        name: `${operation} Entity${index}`,
        type: "write",
        operation,
        ...(operation === "patch" ? { changes: ["title"] } : {}),
        batch: 1,
        atomicWith: [],
        bufferedRecords: 1,
        rps: { avg: rate, peak: rate * 3 },
      });
    }
  }
  return {
    version: 1,
    name: `Generated workload of ${count} entities`,
    scale: {
      regions: 1,
      multiRegionWrites: false,
      consistency: "session",
      horizonMonths: 12,
      targetUtilization: 0.8,
    },
    entities,
    relationships,
    accessPatterns: patterns,
  };
}

/** An entity of a chain: its key, its parent's key (`via`), a title that changes rarely, a creation date. */
function chainEntity(name: string, key: string, via: string | undefined, population: number): Entity {
  const attribute = (attributeName: string, type: "string" | "datetime", changes: "never" | "rare") =>
    ({ name: attributeName, type, skew: 0, unique: false, changes, presence: 1 }) as const;
  return {
    name,
    key: [key],
    count: population,
    growthPerMonth: population / 100,
    avgBytes: 600,
    maxBytes: 2400,
    attributes: [
      attribute(key, "string", "never"),
      ...(via === undefined ? [] : [attribute(via, "string", "never")]),
      attribute("title", "string", "rare"),
      attribute("createdAt", "datetime", "never"),
    ],
  };
}
