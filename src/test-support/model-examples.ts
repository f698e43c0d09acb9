/**
 * Test support for the model tests: reads the shared example workloads. Uses a minimal reader of
 * the workload format (entities, attributes, relationships, access pattern entities), enough for
 * the model's reference checks, so the model tests do not depend on the workload loader's state.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { Attribute, Entity, Relationship, Workload } from "../workload/types.js";

/** The shared examples directory. */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../../shared/examples/", import.meta.url));

/** The example workloads that have an expert model. */
export const EXAMPLE_NAMES = [
  "accounts-sessions",
  "blogging",
  "ecommerce",
  "iot-telemetry",
  "multitenant-saas",
  "social-reactions",
] as const;

/** Text of a file under the shared examples directory. */
export function readExample(relativePath: string): string {
  return readFileSync(`${EXAMPLES_DIR}${relativePath}`, "utf8");
}

interface RawWorkload {
  name: string;
  entities: Record<
    string,
    { key: string; count: number; avgBytes: number; attributes?: Record<string, unknown> }
  >;
  relationships?: {
    parent: string;
    child: string;
    via?: string;
    avg: number;
    kind?: Relationship["kind"];
    owned?: boolean;
  }[];
  accessPatterns: { id: string; name: string; type: "read" | "write"; entity: string }[];
}

/** Reads an example workload (`blogging`) with the minimal reader. */
export function readExampleWorkload(name: string): Workload {
  const raw = parse(readExample(`${name}/workload.yaml`)) as RawWorkload;
  const entities: Entity[] = Object.entries(raw.entities).map(([entityName, entity]) => ({
    name: entityName,
    key: entity.key,
    count: entity.count,
    growthPerMonth: 0,
    avgBytes: entity.avgBytes,
    maxBytes: entity.avgBytes * 4,
    attributes: Object.entries(entity.attributes ?? {}).map(([attributeName, spec]): Attribute => ({
      name: attributeName,
      type: (typeof spec === "string" ? spec : (spec as { type: string }).type) as Attribute["type"],
      skew: 0,
      unique: false,
      changes: "never",
    })),
  }));
  return {
    version: 1,
    name: raw.name,
    scale: { regions: 1, multiRegionWrites: false, consistency: "session", horizonMonths: 12 },
    entities,
    relationships: (raw.relationships ?? []).map((relationship) => ({
      parent: relationship.parent,
      child: relationship.child,
      kind: relationship.kind ?? "one-to-many",
      ...(relationship.via === undefined ? {} : { via: relationship.via }),
      avg: relationship.avg,
      owned: relationship.owned ?? false,
    })),
    accessPatterns: raw.accessPatterns.map((pattern) =>
      pattern.type === "read"
        ? {
            id: pattern.id,
            name: pattern.name,
            entity: pattern.entity,
            rps: { avg: 1, peak: 1 },
            standalone: false,
            type: "read" as const,
            where: [],
            orderBy: [],
            truncate: [],
            with: [],
          }
        : {
            id: pattern.id,
            name: pattern.name,
            entity: pattern.entity,
            rps: { avg: 1, peak: 1 },
            standalone: false,
            type: "write" as const,
            operation: "create" as const,
            batch: 1,
          },
    ),
  };
}

/** Every shared model file: [label, example, path under the examples directory]. */
export const SHARED_MODELS: readonly (readonly [string, string])[] = [
  ...EXAMPLE_NAMES.map((name) => [name, `${name}/expert-model.yaml`] as const),
  ["blogging", "blogging/model-v1.yaml"],
  ["blogging", "blogging/model-v2.yaml"],
  ["blogging", "blogging/model-v3.yaml"],
];
