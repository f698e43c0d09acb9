/**
 * Writes a normalized `Model` back in the model file format (docs/model-format.md), in the
 * style of the examples: block style for the model, containers and item types, flow style
 * (`[/postId]`, `{ content: 200 }`) for anything that fits on one short line.
 * `loadModel(serializeModel(model))` gives back `model`.
 */
import { Document, isMap, isPair, isScalar, isSeq, stringify, type Node } from "yaml";
import type {
  Bucket,
  Container,
  ContainerSearch,
  DeletePropagation,
  IndexingSpec,
  ItemType,
  Model,
  Throughput,
} from "./types.js";
import { formatWindow } from "./normalize-model.js";

/** Collections whose line (indentation, key and one-line form) is at most this long are written inline. */
const FLOW_WIDTH = 100;

/**
 * The model as YAML text in the file format.
 * @example serializeModel(model) // "version: 1\ncontainers:\n  - name: posts\n    partitionKey: [/postId]\n..."
 */
export function serializeModel(model: Model): string {
  const document = new Document(modelToFile(model));
  compactModel(document.contents);
  const text = document.toString({ lineWidth: 0, flowCollectionPadding: true });
  return text.split("\n").map(unpadFlowSequences).join("\n");
}

/**
 * `[ /postId ]` -> `[/postId]`, keeping `{ content: 200 }`: the style of the examples (and of
 * Prettier). Only the flow collection that starts a value is rewritten, and only outside quoted
 * strings: in a flow collection, a plain scalar cannot contain brackets, so every bracket outside
 * quotes is structural.
 */
function unpadFlowSequences(line: string): string {
  const start = /^\s*(?:- )?(?:[A-Za-z_$][\w$]*: )?/.exec(line)?.[0].length ?? 0;
  const value = line.slice(start);
  if (!value.startsWith("[") && !value.startsWith("{")) return line;
  let out = "";
  let quote: string | undefined;
  for (let index = 0; index < value.length; index++) {
    const char = value[index] ?? "";
    if (quote !== undefined) {
      out += char;
      if (char === "\\" && quote === '"') {
        out += value[index + 1] ?? "";
        index++;
      } else if (char === quote) {
        quote = undefined;
      }
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    if (char === "[" && value[index + 1] === " ") {
      out += "[";
      index++;
      continue;
    }
    if (char === " " && value[index + 1] === "]") continue;
    out += char;
  }
  return line.slice(0, start) + out;
}

/** The model as plain data in the file format (also the JSON form of `design --json`). */
export function modelToFile(model: Model): Record<string, unknown> {
  return {
    version: model.version,
    ...(model.deletes === undefined ? {} : { deletes: deletesToFile(model.deletes) }),
    ...(model.leases === undefined ? {} : { leases: model.leases }),
    ...(model.integratedCache === undefined
      ? {}
      : {
          integratedCache: {
            size: model.integratedCache.size,
            nodes: model.integratedCache.nodes,
            patterns: [...model.integratedCache.patterns],
          },
        }),
    containers: model.containers.map(containerToFile),
  };
}

function deletesToFile(deletes: DeletePropagation): Record<string, unknown> {
  switch (deletes.mode) {
    case "softDelete":
      return { mode: deletes.mode, property: deletes.property, ttl: formatWindow(deletes.ttlSeconds) };
    case "allVersionsAndDeletes":
      return { mode: deletes.mode, retention: `${deletes.retentionDays}d` };
    default:
      return deletes satisfies never;
  }
}

function containerToFile(container: Container): Record<string, unknown> {
  return {
    name: container.name,
    partitionKey: [...container.partitionKey],
    ...(container.physicalPartitions === undefined
      ? {}
      : { physicalPartitions: container.physicalPartitions }),
    ...(container.throughput === undefined ? {} : { throughput: throughputToFile(container.throughput) }),
    ...(container.defaultTtl === undefined ? {} : { defaultTtl: container.defaultTtl }),
    ...(container.uniqueKeys.length === 0
      ? {}
      : { uniqueKeys: container.uniqueKeys.map((paths) => [...paths]) }),
    ...indexingToFile(container.indexing),
    items: container.items.map(itemToFile),
    ...(container.search === undefined ? {} : { search: searchToFile(container.search) }),
  };
}

function searchToFile(search: ContainerSearch): Record<string, unknown> {
  return {
    ...(search.vectors.length === 0
      ? {}
      : {
          vectors: search.vectors.map((vector) => ({
            path: vector.path,
            dataType: vector.dataType,
            dimensions: vector.dimensions,
            distance: vector.distance,
            index: vector.index,
            ...(vector.shardKey === undefined ? {} : { shardKey: [...vector.shardKey] }),
          })),
        }),
    ...(search.fullText.length === 0
      ? {}
      : { fullText: search.fullText.map((text) => ({ path: text.path, language: text.language })) }),
  };
}

function throughputToFile(throughput: Throughput): Record<string, unknown> {
  switch (throughput.mode) {
    case "manual":
      return { mode: "manual", ...(throughput.rus === undefined ? {} : { rus: throughput.rus }) };
    case "autoscale":
      return { mode: "autoscale", ...(throughput.maxRus === undefined ? {} : { maxRus: throughput.maxRus }) };
    case "serverless":
    case "shared":
      return { mode: throughput.mode };
    default:
      return throughput satisfies never;
  }
}

function indexingToFile(indexing: IndexingSpec): Record<string, unknown> {
  switch (indexing.kind) {
    case "derived":
      return {};
    case "automatic":
      return { indexing: "automatic" };
    case "custom":
      return {
        indexing: {
          // Written out even when it is the default, so that the file says what is indexed.
          included: [...indexing.included],
          excluded: [...indexing.excluded],
          ...(indexing.composite.length === 0
            ? {}
            : {
                composite: indexing.composite.map((paths) =>
                  paths.map(({ path, order }) => `${path} ${order === "ascending" ? "asc" : "desc"}`),
                ),
              }),
        },
      };
    default:
      return indexing satisfies never;
  }
}

function itemToFile(item: ItemType): Record<string, unknown> {
  return {
    type: item.type,
    entity: item.entity,
    id: item.id,
    partitionKey: [...item.partitionKey],
    ...(item.select === undefined ? {} : { select: [...item.select] }),
    ...(item.truncate.length === 0
      ? {}
      : { truncate: Object.fromEntries(item.truncate.map(({ attribute, bytes }) => [attribute, bytes])) }),
    ...(item.embeds.length === 0
      ? {}
      : {
          embeds: item.embeds.map((embed) => ({
            entity: embed.entity,
            as: embed.as,
            ...(embed.latest === undefined ? {} : { latest: embed.latest }),
          })),
        }),
    ...(item.copies.length === 0
      ? {}
      : {
          copies: item.copies.map((copy) => ({
            from: `${copy.from.entity}.${copy.from.attribute}`,
            as: copy.as,
          })),
        }),
    ...(item.counts.length === 0
      ? {}
      : { counts: item.counts.map((counter) => ({ of: counter.of, as: counter.as })) }),
    ...(item.ancestors === undefined ? {} : { ancestors: { as: item.ancestors.as } }),
    ...(item.source === undefined ? {} : { source: `${item.source.container}/${item.source.type}` }),
    ...(item.keepLatest === undefined
      ? {}
      : { keepLatest: { count: item.keepLatest.count, by: item.keepLatest.by } }),
    ...(item.bucket === undefined ? {} : { bucket: bucketToFile(item.bucket) }),
    ...(item.shards === undefined ? {} : { shards: item.shards }),
    ...(item.shardBy === undefined ? {} : { shardBy: item.shardBy }),
    ...(item.ttl === undefined ? {} : { ttl: item.ttl }),
    ...(item.replicas === undefined ? {} : { replicas: item.replicas }),
  };
}

function bucketToFile(bucket: Bucket): Record<string, unknown> {
  switch (bucket.kind) {
    case "records":
      return { records: bucket.records };
    case "window":
      return { by: bucket.by, window: formatWindow(bucket.windowSeconds) };
    default:
      return bucket satisfies never;
  }
}

/**
 * Keeps the model, the container list, each container, each item list and indexing policies in
 * block style, and
 * writes every other collection on one line when it fits in FLOW_WIDTH at its indentation.
 */
function compactModel(root: unknown): void {
  if (!isMap(root)) return;
  compact(root.get("deletes", true), 0, "deletes: ".length);
  compact(root.get("integratedCache", true), 0, "integratedCache: ".length);
  const containers = root.get("containers", true);
  if (!isSeq(containers)) return;
  for (const container of containers.items) {
    if (!isMap(container)) continue;
    for (const pair of container.items) {
      if (!isPair(pair)) continue;
      if (isScalar(pair.key) && pair.key.value === "items" && isSeq(pair.value)) {
        for (const item of pair.value.items) compact(item, 6, 2);
      } else if (isScalar(pair.key) && pair.key.value === "indexing" && isMap(pair.value)) {
        // A policy reads best as one list per line, as in the examples.
        for (const entry of pair.value.items) {
          if (isPair(entry))
            compact(entry.value, 6, String(isScalar(entry.key) ? entry.key.value : "").length + 2);
        }
      } else {
        compact(pair.value, 4, String(isScalar(pair.key) ? pair.key.value : "").length + 2);
      }
    }
  }
}

function compact(node: unknown, indent: number, prefix = 2): void {
  if (!isMap(node) && !isSeq(node)) return;
  if (fitsOnOneLine(node, indent + prefix)) {
    node.flow = true;
    return;
  }
  for (const entry of node.items) {
    if (isPair(entry))
      compact(entry.value, indent + 2, String(isScalar(entry.key) ? entry.key.value : "").length + 2);
    else compact(entry, indent + 2, 2);
  }
}

function fitsOnOneLine(node: Node, column: number): boolean {
  const text = stringify(node.toJSON(), {
    collectionStyle: "flow",
    lineWidth: 0,
    flowCollectionPadding: true,
  }).trimEnd();
  return !text.includes("\n") && column + text.length <= FLOW_WIDTH;
}
