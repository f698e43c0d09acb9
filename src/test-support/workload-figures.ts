/**
 * What a sample of generated workloads covers, in figures: the sizes of the workloads, how many
 * use each filter kind, `with` entry, write operation and relationship kind, and the ranges of
 * item sizes, request rates and skews. The design-property bench prints them for the workloads it
 * designs, so a report says what "hundreds of random workloads" were (issue 11). Pure.
 */
import type { Workload } from "../workload/types.js";

export interface WorkloadFigures {
  readonly workloads: number;
  readonly entities: Spread;
  readonly patterns: Spread;
  readonly relationships: Spread;
  /** Workloads using each kind at least once (filter ops, `with` kinds, write operations, ...). */
  readonly using: Readonly<Record<string, number>>;
  /** Smallest and largest over every entity / pattern / attribute of the sample. */
  readonly avgBytes: Range;
  readonly maxBytes: Range;
  readonly peakRps: Range;
  readonly skew: Range;
  readonly presence: Range;
}

/** Minimum, median and maximum of one count per workload. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export interface Range {
  readonly min: number;
  readonly max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? 0,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
  };
}

function range(values: Iterable<number>): Range {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return min > max ? { min: 0, max: 0 } : { min, max };
}

/** The features one workload uses, each named once (e.g. `filter eq`, `with latest`, `ttl`). */
export function featuresOf(workload: Workload): ReadonlySet<string> {
  const features = new Set<string>();
  for (const entity of workload.entities) {
    if (entity.ttlSeconds !== undefined) features.add("ttl");
    if (entity.binning !== undefined) features.add(`binning ${entity.binning.kind}`);
    for (const attribute of entity.attributes) {
      if (attribute.presence < 1) features.add("sparse attribute (presence < 1)");
      if (attribute.skew > 0) features.add("skewed attribute");
      if (attribute.unique && !entity.key.includes(attribute.name)) features.add("unique attribute");
      if (attribute.changes !== "never") features.add(`attribute changes ${attribute.changes}`);
    }
  }
  for (const relationship of workload.relationships) features.add(`relationship ${relationship.kind}`);
  for (const pattern of workload.accessPatterns) {
    if (pattern.skew !== undefined) features.add("pattern skew");
    if (pattern.type === "write") {
      features.add(`write ${pattern.operation}`);
      if (pattern.atomicWith.length > 0) features.add("atomicWith");
      if (pattern.bufferedRecords > 1) features.add("bufferedRecords > 1");
      if (pattern.batch > 1) features.add("batch > 1");
      continue;
    }
    if (pattern.where.length === 0) features.add("read without filter");
    for (const predicate of pattern.where) features.add(`filter ${predicate.op}`);
    for (const entry of pattern.with) features.add(`with ${entry.kind}`);
    if (pattern.orderBy.length > 0) features.add("orderBy");
    if (pattern.select !== undefined) features.add("select");
    if (pattern.truncate.length > 0) features.add("truncate");
    if (pattern.maxStalenessSeconds !== undefined) features.add("maxStalenessSeconds");
  }
  return features;
}

/** The figures of a sample of workloads. */
export function workloadFigures(workloads: readonly Workload[]): WorkloadFigures {
  const using: Record<string, number> = {};
  for (const workload of workloads) {
    for (const feature of featuresOf(workload)) using[feature] = (using[feature] ?? 0) + 1;
  }
  const entities = workloads.flatMap((w) => w.entities);
  const attributes = entities.flatMap((e) => e.attributes);
  const patterns = workloads.flatMap((w) => w.accessPatterns);
  return {
    workloads: workloads.length,
    entities: spread(workloads.map((w) => w.entities.length)),
    patterns: spread(workloads.map((w) => w.accessPatterns.length)),
    relationships: spread(workloads.map((w) => w.relationships.length)),
    using: Object.fromEntries(Object.entries(using).sort(([a], [b]) => a.localeCompare(b))),
    avgBytes: range(entities.map((e) => e.avgBytes)),
    maxBytes: range(entities.map((e) => e.maxBytes)),
    peakRps: range(patterns.map((p) => p.rps.peak)),
    skew: range([
      ...attributes.map((a) => a.skew),
      ...patterns.flatMap((p) => (p.skew === undefined ? [] : [p.skew])),
    ]),
    presence: range(attributes.map((a) => a.presence)),
  };
}

/** The figures as report lines. */
export function describeFigures(figures: WorkloadFigures): string[] {
  const s = (x: Spread): string => `${x.min}-${x.max} (median ${x.median})`;
  const r = (x: Range): string => `${x.min}-${x.max}`;
  return [
    `generator: ${figures.workloads} workloads; entities ${s(figures.entities)}, access patterns ${s(figures.patterns)}, relationships ${s(figures.relationships)}`,
    `  item avgBytes ${r(figures.avgBytes)}, maxBytes ${r(figures.maxBytes)}; peak requests/s ${r(figures.peakRps)}; skew ${r(figures.skew)}; presence ${r(figures.presence)}`,
    `  workloads using: ${Object.entries(figures.using)
      .map(([feature, count]) => `${feature} ${count}`)
      .join(", ")}`,
  ];
}
