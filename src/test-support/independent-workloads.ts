/**
 * A second, independent random workload generator for the differential bench (design, evaluate,
 * verify): from a seed, a workload file with the shapes where data models break, written from
 * docs/workload-format.md and the examples only. Each workload says which shapes it holds
 * (`features`), and `independentWorkloadFigures` summarises a batch for the bench report.
 *
 * The steps, each in its own file: entities and relationships from motifs
 * (`independent-workloads-schema.ts`), their data attributes and sizes (`-attributes.ts`), the
 * scale and the document (`-document.ts`), reads (`-reads.ts`), writes (`-writes.ts`), the
 * features read back (`-features.ts`).
 */
import { drawScale, renderDocument, renderYaml } from "./independent-workloads-document.js";
import {
  INDEPENDENT_WORKLOAD_FEATURES,
  type IndependentWorkloadFeature,
} from "./independent-workloads-feature-list.js";
import { featuresOf } from "./independent-workloads-features.js";
import type { DraftPattern, GeneratorSettings, PatternContext } from "./independent-workloads-model.js";
import { createRandom, chance, pick, shuffle } from "./independent-workloads-random.js";
import { draftReads } from "./independent-workloads-reads.js";
import { draftSchema } from "./independent-workloads-schema.js";
import { draftWrites } from "./independent-workloads-writes.js";

export { INDEPENDENT_WORKLOAD_FEATURES, type IndependentWorkloadFeature };

/** A range of numbers, both ends included. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
}

/** What `generateIndependentWorkload` may draw; every field has a default for a small endpoint. */
export interface IndependentWorkloadOptions {
  /** Entities at most (default 4, at least 1). */
  readonly maxEntities?: number;
  /**
   * Draw keys made of several attributes (`key: [orderId, lineNo]`) for link entities, order
   * lines and reactions (default true; false keeps every key one attribute). An entity with such
   * a key is never a parent here (a via of several attributes is drawn by the other generator,
   * src/test-support/workload-arbitrary.ts).
   */
  readonly compositeKeys?: boolean;
  /** Records of one entity today (default 5 to 3,000). */
  readonly records?: NumberRange;
  /** Average item size in bytes (default 200 to 50,000); a few entities go above, to `largeItemBytes`. */
  readonly itemBytes?: NumberRange;
  /** The largest average item size of the occasional large entity (default 400,000; at most 2 MB). */
  readonly largeItemBytes?: number;
  /** Average requests per second of a read pattern (default 0.1 to 3,000). */
  readonly readRps?: NumberRange;
  /** Average requests per second of a write pattern (default 0.1 to 300). */
  readonly writeRps?: NumberRange;
}

/** One generated workload. */
export interface IndependentWorkload {
  readonly seed: number;
  /** The workload as plain data, as a file holds it. */
  readonly document: Record<string, unknown>;
  /** The document as YAML text (block, flow or mixed style). */
  readonly text: string;
  /** The shapes it uses, in the order of `INDEPENDENT_WORKLOAD_FEATURES`. */
  readonly features: readonly IndependentWorkloadFeature[];
}

/**
 * The workload of `seed`: the same seed and options give the same text.
 * @example loadWorkload(generateIndependentWorkload(7).text).ok // true
 */
export function generateIndependentWorkload(
  seed: number,
  options: IndependentWorkloadOptions = {},
): IndependentWorkload {
  const settings = settingsOf(options);
  const random = createRandom(seed);
  const schema = draftSchema(random, settings);
  const scale = drawScale(random);
  const uncreated = chance(random, 0.06) ? pick(random, schema.entities).name : undefined;
  const counters = { read: 0, write: 0 };
  const idStyle = pick(random, ["QW", "RC", "kebab"] as const);
  const context: PatternContext = {
    random,
    settings,
    schema,
    multiRegionWrites: scale?.multiRegionWrites === true,
    uncreated,
    nextId: (type) => {
      counters[type] += 1;
      const number = counters[type];
      if (idStyle === "kebab") return `${type}-${number}`;
      return `${idStyle[type === "read" ? 0 : 1] ?? "P"}${number}`;
    },
  };
  const reads = draftReads(context);
  const writes = draftWrites(context, reads);
  const order = pick(random, ["writes first", "reads first", "mixed"] as const);
  const patterns: DraftPattern[] =
    order === "writes first"
      ? [...writes, ...reads]
      : order === "reads first"
        ? [...reads, ...writes]
        : shuffle(random, [...writes, ...reads]);
  const document = renderDocument(random, seed, scale, schema, patterns);
  const flowShare = pick(random, [0, 0, 0.3, 0.7, 1]);
  const { text, flow } = renderYaml(random, document, flowShare);
  const features = featuresOf({ schema, scale, patterns, flowYaml: flow });
  return { seed, document, text, features };
}

function settingsOf(options: IndependentWorkloadOptions): GeneratorSettings {
  return {
    maxEntities: Math.max(1, Math.floor(options.maxEntities ?? 4)),
    compositeKeys: options.compositeKeys ?? true,
    records: options.records ?? { min: 5, max: 3000 },
    itemBytes: options.itemBytes ?? { min: 200, max: 50_000 },
    largeItemBytes: Math.min(2_097_152, options.largeItemBytes ?? 400_000),
    readRps: options.readRps ?? { min: 0.1, max: 3000 },
    writeRps: options.writeRps ?? { min: 0.1, max: 300 },
  };
}

/**
 * A short summary of a batch of workloads for a bench report: how many, entities, relationships
 * and access patterns (min / median / max), and how often each feature appears.
 * @example independentWorkloadFigures(seeds.map((seed) => generateIndependentWorkload(seed)))
 */
export function independentWorkloadFigures(workloads: readonly IndependentWorkload[]): string {
  const sizes = (field: string) =>
    spread(
      workloads.map((workload) => {
        const value = workload.document[field];
        if (Array.isArray(value)) return value.length;
        return typeof value === "object" && value !== null ? Object.keys(value).length : 0;
      }),
    );
  const lines = [
    `${workloads.length} independent workloads`,
    `entities ${sizes("entities")}, relationships ${sizes("relationships")}, access patterns ${sizes("accessPatterns")} (min/median/max)`,
  ];
  const counts = INDEPENDENT_WORKLOAD_FEATURES.map(
    (feature) =>
      [feature, workloads.filter((workload) => workload.features.includes(feature)).length] as const,
  );
  const share = (count: number) => `${Math.round((100 * count) / Math.max(1, workloads.length))}%`;
  const cells = counts.map(([feature, count]) => `${feature} ${share(count)}`);
  for (let index = 0; index < cells.length; index += 6)
    lines.push(`  ${cells.slice(index, index + 6).join(", ")}`);
  const absent = counts.filter(([, count]) => count === 0).map(([feature]) => feature);
  if (absent.length > 0) lines.push(`never drawn: ${absent.join(", ")}`);
  return lines.join("\n");
}

function spread(values: readonly number[]): string {
  if (values.length === 0) return "-";
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  return `${sorted[0] ?? 0}/${middle}/${sorted[sorted.length - 1] ?? 0}`;
}
