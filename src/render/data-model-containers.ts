/**
 * The container sections of the data model document: 5-10 sample items per container (built by
 * the same materialization verify loads), purpose, aggregate boundary, partition key with its
 * numbers, item types, attributes, patterns served, throughput, consistency, and the indexing
 * policy as Cosmos DB JSON with the patterns it serves and its RU impact.
 */
import { isKeyAttribute } from "../workload/keys.js";
import { AUTOSCALE_MIN_FRACTION_OF_MAX } from "../cosmos/limits.js";
import type { ContainerEvaluation, PatternEvaluation } from "../cost/evaluation-types.js";
import type { PlanStep } from "../planner/types.js";
import { effectiveItemType } from "../model/materialize-item.js";
import { templateAttributes } from "../model/templates.js";
import type { Container, ItemType } from "../model/types.js";
import {
  AUTOMATIC_POLICY,
  countIndexedValues,
  effectiveIndexingPolicy,
  referencedIn,
} from "../planner/indexing.js";
import { sampleItems } from "../synthetic/sample-items.js";
import { containerDefinitionOf } from "../planner/container-definition.js";
import { searchPolicyOf } from "../planner/search-policy.js";
import { manyToManyLink } from "../planner/many-to-many.js";
import {
  bulletList,
  codeFence,
  escapeMarkdownText as e,
  formatBytes,
  formatNumber,
  table,
} from "./markdown.js";
import {
  type Context,
  ruRange,
  rus,
  usd,
  gb,
  code,
  list,
  unique,
  patternOf,
  containerEvaluation,
  syncSteps,
  asyncSteps,
  limitText,
  CONSISTENCY_WHY,
} from "./data-model-context.js";

/** Sample items shown per container: at least this many when the data has them, at most `MAX`. */
export const MIN_SAMPLE_ITEMS = 5;
export const MAX_SAMPLE_ITEMS = 10;
/** Strings in sample items are shortened past this many characters, arrays past this many entries. */
const SAMPLE_STRING_CHARS = 60;
const SAMPLE_ARRAY_ENTRIES = 3;

// ---------------------------------------------------------------------------------------------
// Containers

/**
 * Records per entity of the dataset the sample items come from: 200 (enough for every parent to
 * have children) up to 20 entities, then fewer so the dataset stays near 4,000 records, never
 * under 20 (a 200-entity workload's 40,000 records took 1.1 s for five samples per item type).
 * @example sampleRecordsPerEntity(200) // 20
 */
export function sampleRecordsPerEntity(entities: number): number {
  return Math.max(20, Math.min(200, Math.floor(4_000 / Math.max(1, entities))));
}

export function renderContainers(context: Context): string {
  let samples: ReturnType<typeof sampleItems> = [];
  let failure: string | undefined;
  try {
    samples = sampleItems(context.workload, context.model, {
      seed: context.seed,
      perItemType: MAX_SAMPLE_ITEMS,
      maxItemsPerEntity: sampleRecordsPerEntity(context.workload.entities.length),
      abbreviateStrings: SAMPLE_STRING_CHARS,
    });
  } catch (error) {
    // The rest of the document does not depend on the samples: say why they are missing.
    failure = error instanceof Error ? error.message : String(error);
  }
  const out = [
    "## Container Designs",
    ...(failure === undefined ? [] : [`> Sample items could not be generated: ${e(failure)}`]),
    `Sample items are built from synthetic data shaped like the workload, through the same materialization \`verify\` loads; strings longer than ${SAMPLE_STRING_CHARS} characters are shortened (…) and arrays show at most ${SAMPLE_ARRAY_ENTRIES} entries. System properties (\`_rid\`, \`_etag\`, \`_ts\`) are left out.`,
  ];
  for (const container of context.model.containers) {
    const chosen = pickSamples(
      container,
      samples.filter((s) => s.container === container.name).map((s) => s.items.map((entry) => entry.item)),
    );
    out.push(renderContainer(context, container, chosen));
  }
  return out.join("\n\n");
}

/**
 * Sample items of one container: round-robin over its item types, so every type shows, up to
 * 5-10 items in all (fewer only when the data has fewer).
 */
export function pickSamples(
  container: Container,
  byType: readonly (readonly Readonly<Record<string, unknown>>[])[],
): Readonly<Record<string, unknown>>[] {
  const target = Math.min(MAX_SAMPLE_ITEMS, Math.max(MIN_SAMPLE_ITEMS + 1, container.items.length));
  const picked: Readonly<Record<string, unknown>>[] = [];
  for (let round = 0; picked.length < target; round++) {
    let added = false;
    for (const items of byType) {
      const item = items[round];
      if (item !== undefined && picked.length < target) {
        picked.push(item);
        added = true;
      }
    }
    if (!added) break;
  }
  return picked.map((item) => shortenArrays(item) as Readonly<Record<string, unknown>>);
}

function shortenArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, SAMPLE_ARRAY_ENTRIES).map(shortenArrays);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, shortenArrays(entry)]));
  }
  return value;
}

function renderContainer(
  context: Context,
  container: Container,
  samples: readonly Readonly<Record<string, unknown>>[],
): string {
  const evaluated = containerEvaluation(context, container.name);
  const served = servedBy(context, container.name);
  const out = [
    `### ${e(container.name)} Container`,
    "",
    samples.length === 0
      ? "No sample items: the synthetic data produced none for this container."
      : codeFence(JSON.stringify(samples, null, 2), "json"),
    "",
    bulletList([
      `**Purpose**: ${purposeOf(context, container)}`,
      `**Aggregate Boundary**: ${boundaryOf(context, container)}`,
      `**Partition Key**: ${partitionKeyOf(context, container, evaluated)}`,
      `**Document Types**: ${container.items.map((item) => `${code(item.type)} (${e(item.entity)}${item.source === undefined ? "" : `, copy of ${code(item.source.container)}/${code(item.source.type)}`})`).join(", ")}`,
      "**Attributes**: see the table below.",
      `**Access Patterns Served**: ${list(served.sync.map(e))}${served.async.length === 0 ? "" : `; kept in step by the change feed for ${list(served.async.map(e))}`}`,
      `**Throughput Planning**: ${throughputOf(evaluated)}`,
      `**Consistency Level**: ${consistencyOf(context, served.sync)}`,
    ]),
    "",
    table(["Item type", "Property", "Type", "Notes"], attributeRows(context, container)),
    "",
    renderIndexing(context, container, evaluated),
  ];
  return out.join("\n");
}

/** Patterns whose synchronous steps touch the container, and those whose change-feed work does. */
function servedBy(context: Context, name: string): { sync: string[]; async: string[] } {
  const sync: string[] = [];
  const async: string[] = [];
  for (const pattern of context.evaluation.patterns) {
    if (syncSteps(pattern).some((s) => s.container === name)) sync.push(pattern.id);
    else if (asyncSteps(pattern).some((s) => s.container === name)) async.push(pattern.id);
  }
  return { sync, async };
}

function purposeOf(context: Context, container: Container): string {
  const entities = unique(container.items.map((i) => i.entity));
  const own = container.items.filter((i) => i.source === undefined);
  const copies = container.items.filter((i) => i.source !== undefined);
  const parts = [`stores ${list(entities.map(e))} items`];
  if (own.length > 0) parts.push(`the home of ${list(own.map((i) => code(i.type)))}`);
  if (copies.length > 0) {
    parts.push(
      `holds change-feed copies (${list(copies.map((i) => `${code(i.type)} from ${code(i.source?.container ?? "")}`))}) partitioned for the reads that need another key`,
    );
  }
  const answers = context.evaluation.patterns.filter(
    (p) => p.plan.type === "read" && p.plan.container === container.name,
  );
  if (answers.length > 0) {
    parts.push(
      `answers ${list(answers.map((p) => `${e(p.id)} (${e(patternOf(context, p.id)?.name ?? "")})`))}`,
    );
  }
  return `${parts.join("; ")}.`;
}

function boundaryOf(context: Context, container: Container): string {
  const groups = new Map<string, ItemType[]>();
  for (const item of container.items) {
    const key = item.partitionKey.join(" / ");
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const parts = [...groups.entries()].map(([key, items]) => {
    const shared = items.length > 1 ? "share" : "has";
    return `${list(items.map((i) => code(i.type)))} ${shared} the key value ${code(key)}`;
  });
  const embeds = container.items.flatMap((i) =>
    i.embeds.map(
      (x) =>
        `${code(i.type)} embeds ${e(x.entity)} as ${code(x.as)}${x.latest === undefined ? "" : ` (newest ${x.latest})`}`,
    ),
  );
  const sharedGroups = [...groups.values()].filter((items) => items.length > 1);
  const why =
    sharedGroups.length > 0
      ? "items with the same key value form one logical partition, read together by one single-partition query and writable together in one transactional batch"
      : "one logical partition per key value";
  return `${[...parts, ...embeds].join("; ")}: ${why}.`;
}

function partitionKeyOf(
  context: Context,
  container: Container,
  evaluated: ContainerEvaluation | undefined,
): string {
  const paths = container.partitionKey.map(code).join(", ");
  const kind = container.partitionKey.length > 1 ? "hierarchical (MultiHash v2)" : "single path";
  const perType = container.items.map((item) => {
    const figures = evaluated?.itemTypes.find((i) => i.type === item.type);
    // The relationship the item is keyed by, classified once (the aggregate analysis).
    const keyedBy = context.pairs.find(
      (pair) =>
        pair.child === item.entity &&
        pair.relationship.via !== undefined &&
        pair.relationship.via.every((via) =>
          item.partitionKey.some((t) => templateAttributes(t).includes(via)),
        ),
    );
    const via = (keyedBy?.relationship.via ?? []).join(", ");
    const keyedText =
      keyedBy === undefined
        ? ""
        : keyedBy.identifying.useIdentifyingRelationship
          ? ` (identifying relationship: ${e(keyedBy.child)} cannot exist without its ${e(keyedBy.parent)} and is always read by ${code(via)}, so it is partitioned by ${code(via)})`
          : ` (partitioned by ${code(via)}, the key of its ${e(keyedBy.parent)}: not an identifying relationship)`;
    return (
      (figures === undefined
        ? `${code(item.type)}: not evaluated`
        : `${code(item.type)}: ${formatNumber(figures.keyValues, 0)} distinct key values for ${formatNumber(figures.items, 0)} items`) +
      keyedText
    );
  });
  const numbers =
    evaluated === undefined
      ? ""
      : `; ${formatNumber(evaluated.physicalPartitions, 0)} physical partition(s) for ${gb(evaluated.storageGB)} at the horizon; ` +
        `hottest logical partition ${code(evaluated.hottestLogicalPartition.key)} at ${limitText(evaluated.limits.hottestLogicalPartitionRus, rus)} at peak; ` +
        `largest logical partition ${limitText(evaluated.limits.largestLogicalPartitionGB, gb)} at the horizon`;
  const decision = context.decisions.find(
    (d) => d.subject.kind === "partitionKey" && d.subject.container === container.name,
  );
  const why = decision === undefined ? "" : ` Decision: ${e(decision.chosen)}, because ${e(decision.why)}.`;
  return `${paths}, ${kind}; ${perType.join("; ")}${numbers}.${why}`;
}

function throughputOf(evaluated: ContainerEvaluation | undefined): string {
  if (evaluated === undefined) return "not evaluated.";
  const t = evaluated.throughput;
  const amount =
    t.mode === "manual"
      ? `${formatNumber(t.provisionedRus, 0)} RU/s provisioned`
      : t.mode === "autoscale"
        ? `up to ${formatNumber(t.provisionedRus, 0)} RU/s, never billed below ${formatNumber(t.provisionedRus * AUTOSCALE_MIN_FRACTION_OF_MAX, 0)}`
        : t.mode === "serverless"
          ? "serverless (billed per RU consumed)"
          : "shares the database throughput";
  return (
    `${t.mode}: ${amount}; the load is ${rus(evaluated.rus.avg)} on average and ${rus(evaluated.rus.peak)} at peak; ` +
    `${e(t.reason)}; ${usd(evaluated.monthlyCostUSD)} per month.`
  );
}

function consistencyOf(context: Context, patternIds: readonly string[]): string {
  const level = context.workload.scale.consistency;
  const overrides = patternIds.flatMap((id) => {
    const pattern = patternOf(context, id);
    return pattern?.type === "read" && pattern.consistency !== undefined && pattern.consistency !== level
      ? [`${e(id)} reads with ${pattern.consistency}`]
      : [];
  });
  return `${level} (the account default): ${CONSISTENCY_WHY[level]}${overrides.length === 0 ? "" : `; per request: ${overrides.join(", ")}`}.`;
}

function attributeRows(context: Context, container: Container): string[][] {
  const rows: string[][] = [];
  const planning = context.env.context;
  for (const stored of container.items) {
    const item = effectiveItemType(stored, context.model);
    const entity = context.workload.entities.find((x) => x.name === item.entity);
    const t = code(item.type);
    rows.push([t, code("id"), "string", `template ${code(stored.id)}`]);
    container.partitionKey.forEach((path, index) => {
      rows.push([
        t,
        code(path.slice(1).replace(/\//g, ".")),
        "string",
        `partition key, template ${code(stored.partitionKey[index] ?? "")}`,
      ]);
    });
    rows.push([t, code("type"), "string", `always ${code(item.type)}`]);
    const attributes = (entity?.attributes ?? []).filter(
      (a) => item.select === undefined || item.select.includes(a.name),
    );
    const keyProps = new Set(container.partitionKey.map((p) => p.slice(1)));
    const prefix = stored.bucket === undefined ? "" : "records[].";
    for (const attribute of attributes) {
      if (stored.bucket === undefined && (attribute.name === "id" || keyProps.has(attribute.name))) continue;
      const truncated = item.truncate.find((x) => x.attribute === attribute.name);
      const notes = [
        entity === undefined || !isKeyAttribute(entity, attribute.name)
          ? ""
          : entity.key.length === 1
            ? "entity key"
            : `part of the entity key (${entity.key.join(", ")})`,
        attribute.unique ? "unique" : "",
        truncated === undefined ? "" : `truncated to ${formatNumber(truncated.bytes, 0)} bytes`,
        attribute.changes === "never" ? "" : `changes ${attribute.changes}ly`,
      ].filter((x) => x !== "");
      rows.push([t, code(`${prefix}${attribute.name}`), attribute.type, notes.map(e).join("; ")]);
    }
    if (stored.bucket !== undefined) {
      rows.push([
        t,
        code("records"),
        "array",
        `the bucket's ${e(item.entity)} records (${stored.bucket.kind === "records" ? `${formatNumber(stored.bucket.records, 0)} per item` : `window of ${formatNumber(stored.bucket.windowSeconds, 0)} s by ${code(stored.bucket.by)}`})`,
      ]);
    }
    for (const copy of item.copies) {
      const source = context.workload.entities
        .find((x) => x.name === copy.from.entity)
        ?.attributes.find((a) => a.name === copy.from.attribute);
      const manyToMany = manyToManyLink(planning, item.entity, copy.from.entity);
      const key = (context.workload.entities.find((x) => x.name === copy.from.entity)?.key ?? []).join(", ");
      rows.push([
        t,
        code(copy.as),
        manyToMany === undefined ? (source?.type ?? "string") : "array",
        manyToMany === undefined
          ? `copy of ${e(copy.from.entity)}.${e(copy.from.attribute)}`
          : `copy of ${e(copy.from.entity)}.${e(copy.from.attribute)} of each linked ${e(copy.from.entity)} (many-to-many): ${code(`{ ${key}, ${copy.from.attribute} }`)} per link, ${formatNumber(manyToMany.linksPerHolder.avg, 1)} on average`,
      ]);
    }
    for (const counter of item.counts)
      rows.push([t, code(counter.as), "number", `count of ${e(counter.of)}`]);
    for (const embed of item.embeds) {
      const one = context.workload.relationships.some(
        (r) => r.child === embed.entity && r.parent === item.entity && r.kind === "one-to-one",
      );
      rows.push([
        t,
        code(embed.as),
        one ? "object" : "array",
        `embedded ${e(embed.entity)}${embed.latest === undefined ? "" : ` (newest ${formatNumber(embed.latest, 0)})`}`,
      ]);
      const child = context.workload.entities.find((x) => x.name === embed.entity);
      for (const attribute of child?.attributes ?? []) {
        rows.push([
          t,
          code(`${embed.as}${one ? "" : "[]"}.${attribute.name}`),
          attribute.type,
          `of the embedded ${e(embed.entity)}`,
        ]);
      }
    }
    if (item.ancestors !== undefined)
      rows.push([t, code(item.ancestors.as), "array", "ancestor keys, root first"]);
    if (stored.ttl !== undefined)
      rows.push([t, code("ttl"), "number", `${formatNumber(stored.ttl, 0)} s after the last write`]);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Indexing

/** Whole-item writes per second at peak of each item type of `container` (creates, replaces, upserts). */
function itemWritesAtPeak(context: Context, container: string): ReadonlyMap<string, number> {
  let all = writesAtPeak.get(context);
  if (all === undefined) {
    all = allItemWritesAtPeak(context);
    writesAtPeak.set(context, all);
  }
  return all.get(container) ?? new Map<string, number>();
}

/** `itemWritesAtPeak` of every container of a document's context, walked once (not per container). */
const writesAtPeak = new WeakMap<Context, Map<string, Map<string, number>>>();

function allItemWritesAtPeak(context: Context): Map<string, Map<string, number>> {
  const byContainer = new Map<string, Map<string, number>>();
  const peaks = new Map(context.workload.accessPatterns.map((p) => [p.id, p.rps.peak]));
  const walk = (steps: readonly PlanStep[], rate: number): void => {
    for (const step of steps) {
      const times = rate * step.times;
      if (step.kind === "batch") walk(step.operations, times);
      else if (step.kind === "changeFeed") walk(step.steps, times);
      else if (step.kind === "write" && step.operation !== "patch" && step.operation !== "delete") {
        const rates = byContainer.get(step.container) ?? new Map<string, number>();
        byContainer.set(step.container, rates);
        rates.set(step.itemType, (rates.get(step.itemType) ?? 0) + times);
      }
    }
  };
  for (const evaluated of context.evaluation.patterns) {
    if (evaluated.plan.type !== "write") continue;
    const rate = peaks.get(evaluated.id) ?? 0;
    walk(evaluated.plan.operations, rate);
    walk(evaluated.plan.async, rate);
  }
  return byContainer;
}

/** The attribute an included path indexes (`/a/?` -> `a`, `/copies/[]/k/?` -> `copies`). */
function pathAttribute(path: string): string {
  return path.split("/").filter((part) => part !== "")[0] ?? "";
}

/**
 * One row per included path: the patterns whose queries on this container name it (or the
 * container's upkeep), the indexed values it adds to one write of each item type, and the RU/s
 * those add to the whole-item writes at peak (the estimator's create charge with and without them).
 */
function indexedPathRows(
  context: Context,
  container: Container,
  policy: ReturnType<typeof effectiveIndexingPolicy>,
  queries: readonly PatternEvaluation[],
): string[][] {
  if (policy.excluded.length === 0 || !policy.excluded.includes("/*")) return [];
  const { env } = context;
  const writes = itemWritesAtPeak(context, container.name);
  return policy.included.map((path) => {
    const attribute = pathAttribute(path);
    const without = { ...policy, included: policy.included.filter((p) => p !== path) };
    const users = queries
      .filter((p) =>
        syncSteps(p).some(
          (s) => s.kind === "query" && s.container === container.name && referencedIn(s.sql, attribute),
        ),
      )
      .map((p) => p.id);
    let rusAtPeak = 0;
    const added = container.items.flatMap((item) => {
      const placement = env.context.placement(container.name, item.type);
      if (placement === undefined) return [];
      const shape = env.shape(placement);
      const indexed = countIndexedValues(policy, shape);
      const less = countIndexedValues(without, shape);
      if (indexed === less) return [];
      const bytes = Math.round(shape.avgBytes);
      const extra =
        env.estimate({ op: "create", itemBytes: bytes, indexedValues: indexed }).estimate -
        env.estimate({ op: "create", itemBytes: bytes, indexedValues: less }).estimate;
      rusAtPeak += extra * (writes.get(item.type) ?? 0);
      return [`${code(item.type)}: ${formatNumber(indexed - less, 0)}`];
    });
    return [
      code(path),
      users.length > 0
        ? list(users.map(e))
        : path === "/type/?"
          ? "every query"
          : "the container's upkeep (copies, sets, deletes)",
      added.length === 0 ? "none (no item type stores it)" : added.join(", "),
      rus(rusAtPeak),
    ];
  });
}

/** The container's vector embedding policy, vector indexes and full-text policy, when it has them. */
function searchPolicyLines(context: Context, container: Container): string[] {
  const search = searchPolicyOf(context.env, container);
  if (search === undefined) return [];
  const vectors = search.vectors.map(
    (v) =>
      `${code(v.path)}: ${formatNumber(v.dimensions, 0)} ${v.dataType} dimensions, ${v.distance} distance, ` +
      `index ${v.index === "none" ? "none (VectorDistance scans the vectors in scope)" : code(v.index)}` +
      `${v.shardKey === undefined ? "" : `, one index per ${list(v.shardKey.map(code))} value (vectorIndexShardKey)`}; excluded from the range index (${code(`${v.path}/*`)})`,
  );
  return [
    ...(vectors.length === 0
      ? []
      : [`**Vector Embedding Policy and Vector Indexes**: ${vectors.join("; ")}`]),
    ...(search.fullText.length === 0
      ? []
      : [
          `**Full-Text Policy and Indexes**: ${search.fullText.map((t) => `${code(t.path)} (${t.language})`).join(", ")}`,
        ]),
    `**Account Capabilities**: ${[
      ...(search.vectors.length === 0 ? [] : [code("EnableNoSQLVectorSearch")]),
      ...(search.fullText.length === 0 ? [] : [code("EnableNoSQLFullTextSearch")]),
    ].join(", ")} (the policies are fixed when the container is created)`,
  ];
}

function renderIndexing(
  context: Context,
  container: Container,
  evaluated: ContainerEvaluation | undefined,
): string {
  const { env } = context;
  const policy = effectiveIndexingPolicy(env.context, container);
  const definition = containerDefinitionOf(container, {
    indexingMode: "consistent",
    automatic: true,
    includedPaths: policy.included.map((path) => ({ path })),
    excludedPaths: policy.excluded.map((path) => ({ path })),
    ...(policy.composite.length === 0
      ? {}
      : {
          compositeIndexes: policy.composite.map((paths) =>
            paths.map((p) => ({ path: p.path, order: p.order })),
          ),
        }),
  });
  const kind =
    container.indexing.kind === "automatic"
      ? "Automatic (every path indexed): simplest, costs the most per write"
      : container.indexing.kind === "derived"
        ? "Derived from the access patterns: only the paths the reads filter or sort on, everything else excluded"
        : "Custom: only the listed paths, everything else excluded";
  const queries = context.evaluation.patterns.filter((p) =>
    syncSteps(p).some((s) => s.container === container.name && s.kind === "query"),
  );
  const impact = container.items.flatMap((item) => {
    const placement = env.context.placement(container.name, item.type);
    if (placement === undefined) return [];
    const shape = env.shape(placement);
    const indexed = countIndexedValues(policy, shape);
    const all = countIndexedValues(AUTOMATIC_POLICY, shape);
    const bytes = Math.round(shape.avgBytes);
    const write = env.estimate({ op: "create", itemBytes: bytes, indexedValues: indexed });
    const writeAll = env.estimate({ op: "create", itemBytes: bytes, indexedValues: all });
    return [
      `${code(item.type)} (${formatBytes(bytes)}): ${formatNumber(indexed, 0)} indexed values per item ` +
        `(${formatNumber(all, 0)} with every path indexed); a create costs ${ruRange(write)}` +
        (indexed === all ? "" : ` instead of ${ruRange(writeAll)}`),
    ];
  });
  const pathRows = indexedPathRows(context, container, policy, queries);
  const lines = [
    `#### Indexing Strategy of ${e(container.name)}`,
    "",
    bulletList([
      `**Indexing Policy**: ${kind}.`,
      `**Included Paths**: ${list(policy.included.map(code))}`,
      `**Excluded Paths**: ${list(policy.excluded.map(code))}`,
      `**Composite Indexes**: ${policy.composite.length === 0 ? "none" : policy.composite.map((paths) => paths.map((p) => `${code(p.path)} ${p.order}`).join(" + ")).join("; ")}`,
      ...searchPolicyLines(context, container),
      `**Access Patterns Served**: ${list(
        queries.map((p) => e(p.id)),
        "none (no queries: point reads and writes only)",
      )}`,
      `**RU Impact**: ${impact.length === 0 ? "no item types" : impact.join("; ")}.${evaluated === undefined ? "" : ""}`,
    ]),
    "",
    ...(pathRows.length === 0
      ? []
      : [
          "What each included path is for and what it adds to the writes of whole items (create, replace, upsert) at peak; `/type/?` filters every query by item type:",
          "",
          table(
            ["Included path", "Needed by", "Indexed values it adds per write", "RU/s it adds at peak"],
            pathRows,
          ),
          "",
        ]),
    "Indexing policy (Cosmos DB JSON):",
    "",
    codeFence(JSON.stringify(definition.indexingPolicy, null, 2), "json"),
  ];
  return lines.join("\n");
}
