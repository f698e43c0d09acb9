/**
 * Turns a model file that passed the schema into the normalized `Model`: parses the formats
 * inside strings (`Entity.attribute`, `container/type`, `1m`, `/path asc`) and applies defaults,
 * reporting every malformed value. When an issue is reported, the value returned in its place is
 * only a placeholder: the loader returns the model only when there is no error.
 */
import type {
  Bucket,
  CompositePath,
  Container,
  ContainerSearch,
  DeletePropagation,
  IndexingSpec,
  ItemType,
  Model,
  Throughput,
} from "./types.js";
import type { ContainerFile, DeletesFile, IndexingPolicyFile, ItemFile, ModelFile } from "./model-schema.js";
import { DEFAULT_TOMBSTONE_PROPERTY, DEFAULT_TOMBSTONE_TTL_SECONDS } from "./deletes.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import { describeValue } from "../source/schema-issues.js";
import {
  AUTOSCALE_MAX_RUS_STEP,
  AUTOSCALE_MIN_MAX_RUS,
  MANUAL_MIN_RUS,
  MANUAL_RUS_STEP,
  MAX_TTL_SECONDS,
} from "../cosmos/limits.js";

// Throughput settings follow the limits of src/cosmos/limits.ts (one place for Cosmos DB facts).
const MIN_MANUAL_RUS = MANUAL_MIN_RUS;
const MIN_AUTOSCALE_MAX_RUS = AUTOSCALE_MIN_MAX_RUS;

/** Seconds per unit of a bucket window (`30s`, `1m`, `1h`, `1d`). */
export const WINDOW_UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

const PARTITION_KEY_PATH = /^(\/[^/\s*?]+)+$/;

/** Normalizes a schema-valid model file, reporting malformed values into `issues`. */
export function normalizeModel(file: ModelFile, issues: IssueSink): Model {
  return {
    version: 1,
    ...(file.deletes === undefined ? {} : { deletes: normalizeDeletes(file.deletes, ["deletes"], issues) }),
    ...(file.leases === undefined ? {} : { leases: file.leases }),
    ...(file.integratedCache === undefined
      ? {}
      : {
          integratedCache: {
            size: file.integratedCache.size,
            nodes: file.integratedCache.nodes,
            patterns: file.integratedCache.patterns,
          },
        }),
    containers: file.containers.map((container, index) =>
      normalizeContainer(container, ["containers", index], issues),
    ),
  };
}

/**
 * `deletes`: soft delete (tombstone `property`, default `deleted`; `ttl` as seconds or a duration
 * such as `7d`, default 7 days) or all versions and deletes (`retention` 7d or 30d: the continuous
 * backup tier, default 7d).
 */
function normalizeDeletes(file: DeletesFile, path: IssuePath, issues: IssueSink): DeletePropagation {
  const misplaced = (field: "property" | "ttl" | "retention", valid: string): void => {
    issues.error(
      "model.invalidValue",
      [...path, field],
      `"${field}" does not apply to mode ${file.mode}; ${valid}`,
    );
  };
  switch (file.mode) {
    case "softDelete": {
      if (file.retention !== undefined) misplaced("retention", "soft delete takes `ttl` and `property`");
      const ttlSeconds =
        file.ttl === undefined
          ? DEFAULT_TOMBSTONE_TTL_SECONDS
          : typeof file.ttl === "number"
            ? file.ttl
            : parseWindow(file.ttl);
      if (
        ttlSeconds === undefined ||
        !Number.isInteger(ttlSeconds) ||
        ttlSeconds < 1 ||
        ttlSeconds > MAX_TTL_SECONDS
      ) {
        issues.error(
          "model.invalidValue",
          [...path, "ttl"],
          `how long a tombstone lives before it expires: 1 to ${MAX_TTL_SECONDS} seconds, or a duration such as "7d" or "12h", got ${describeValue(file.ttl)}`,
        );
      }
      return {
        mode: "softDelete",
        property: file.property ?? DEFAULT_TOMBSTONE_PROPERTY,
        ttlSeconds: ttlSeconds ?? 1,
      };
    }
    case "allVersionsAndDeletes": {
      if (file.property !== undefined) misplaced("property", "all versions and deletes takes `retention`");
      if (file.ttl !== undefined) misplaced("ttl", "all versions and deletes takes `retention`");
      const retention = file.retention === undefined ? 7 * 86_400 : parseWindow(file.retention);
      if (retention !== 7 * 86_400 && retention !== 30 * 86_400) {
        issues.error(
          "model.invalidValue",
          [...path, "retention"],
          `the continuous backup retention: "7d" or "30d" (the two tiers of continuous backup), got ${describeValue(file.retention)}`,
        );
      }
      return { mode: "allVersionsAndDeletes", retentionDays: retention === 30 * 86_400 ? 30 : 7 };
    }
    default:
      return file.mode satisfies never;
  }
}

function normalizeContainer(file: ContainerFile, path: IssuePath, issues: IssueSink): Container {
  checkPartitionKeyPaths(file.partitionKey, [...path, "partitionKey"], issues);
  const throughput =
    file.throughput === undefined
      ? undefined
      : normalizeThroughput(file.throughput, [...path, "throughput"], issues);
  if (file.defaultTtl !== undefined) checkTtl(file.defaultTtl, [...path, "defaultTtl"], issues);
  const uniqueKeys = file.uniqueKeys ?? [];
  uniqueKeys.forEach((paths, index) => {
    if (paths.length === 0)
      issues.error(
        "model.invalidValue",
        [...path, "uniqueKeys", index],
        "a unique key needs at least one path, e.g. [/email]",
      );
    paths.forEach((uniquePath, pathIndex) => {
      if (!PARTITION_KEY_PATH.test(uniquePath)) {
        issues.error(
          "model.invalidValue",
          [...path, "uniqueKeys", index, pathIndex],
          `expected a path such as "/email", got ${describeValue(uniquePath)}`,
        );
      }
    });
  });
  return {
    name: file.name,
    partitionKey: file.partitionKey,
    ...(file.physicalPartitions === undefined ? {} : { physicalPartitions: file.physicalPartitions }),
    ...(throughput === undefined ? {} : { throughput }),
    ...(file.defaultTtl === undefined ? {} : { defaultTtl: file.defaultTtl }),
    uniqueKeys,
    indexing: normalizeIndexing(file.indexing, [...path, "indexing"], issues),
    items: file.items.map((item, index) => normalizeItem(item, [...path, "items", index], issues)),
    ...(file.search === undefined
      ? {}
      : { search: normalizeSearch(file.search, [...path, "search"], issues) }),
  };
}

/** `search:` of a container: vector paths with their index, full-text paths (paths like `/embedding`). */
function normalizeSearch(
  file: NonNullable<ContainerFile["search"]>,
  path: IssuePath,
  issues: IssueSink,
): ContainerSearch {
  const vectors = (file.vectors ?? []).map((vector, index) => {
    if (!PARTITION_KEY_PATH.test(vector.path))
      issues.error(
        "model.invalidValue",
        [...path, "vectors", index, "path"],
        `expected a property path such as "/embedding", got ${describeValue(vector.path)}`,
      );
    return {
      path: vector.path,
      dataType: vector.dataType,
      dimensions: vector.dimensions,
      distance: vector.distance,
      index: vector.index,
      ...(vector.shardKey === undefined ? {} : { shardKey: vector.shardKey }),
    };
  });
  const fullText = (file.fullText ?? []).map((text, index) => {
    if (!PARTITION_KEY_PATH.test(text.path))
      issues.error(
        "model.invalidValue",
        [...path, "fullText", index, "path"],
        `expected a property path such as "/content", got ${describeValue(text.path)}`,
      );
    return { path: text.path, language: text.language };
  });
  return { vectors, fullText };
}

function checkPartitionKeyPaths(paths: readonly string[], path: IssuePath, issues: IssueSink): void {
  if (paths.length < 1 || paths.length > 3) {
    issues.error(
      "model.badPartitionKey",
      path,
      `a partition key has 1 to 3 paths (2-3 = hierarchical partition key), got ${paths.length}`,
    );
  }
  paths.forEach((keyPath, index) => {
    if (!PARTITION_KEY_PATH.test(keyPath)) {
      issues.error(
        "model.badPartitionKey",
        [...path, index],
        `expected a path starting with "/" such as "/userId" (no spaces, "*" or "?"), got ${describeValue(keyPath)}`,
      );
    } else if (paths.indexOf(keyPath) !== index) {
      issues.error(
        "model.badPartitionKey",
        [...path, index],
        `the path "${keyPath}" appears twice in the partition key`,
      );
    }
  });
}

function normalizeThroughput(
  file: NonNullable<ContainerFile["throughput"]>,
  path: IssuePath,
  issues: IssueSink,
): Throughput {
  const misplaced = (field: "rus" | "maxRus", valid: string): void => {
    issues.error(
      "model.invalidValue",
      [...path, field],
      `"${field}" does not apply to mode ${file.mode}; ${valid}`,
    );
  };
  switch (file.mode) {
    case "manual": {
      if (file.maxRus !== undefined) misplaced("maxRus", "manual throughput takes `rus`");
      if (file.rus !== undefined && (file.rus < MIN_MANUAL_RUS || file.rus % MANUAL_RUS_STEP !== 0)) {
        issues.error(
          "model.invalidValue",
          [...path, "rus"],
          `manual throughput is at least ${MIN_MANUAL_RUS} RU/s in steps of ${MANUAL_RUS_STEP}, got ${file.rus}`,
        );
      }
      return file.rus === undefined ? { mode: "manual" } : { mode: "manual", rus: file.rus };
    }
    case "autoscale": {
      if (file.rus !== undefined) misplaced("rus", "autoscale takes `maxRus`");
      if (
        file.maxRus !== undefined &&
        (file.maxRus < MIN_AUTOSCALE_MAX_RUS || file.maxRus % AUTOSCALE_MAX_RUS_STEP !== 0)
      ) {
        issues.error(
          "model.invalidValue",
          [...path, "maxRus"],
          `autoscale maxRus is at least ${MIN_AUTOSCALE_MAX_RUS} RU/s in steps of ${AUTOSCALE_MAX_RUS_STEP}, got ${file.maxRus}`,
        );
      }
      return file.maxRus === undefined ? { mode: "autoscale" } : { mode: "autoscale", maxRus: file.maxRus };
    }
    case "serverless":
    case "shared":
      if (file.rus !== undefined) misplaced("rus", "remove it");
      if (file.maxRus !== undefined) misplaced("maxRus", "remove it");
      return { mode: file.mode };
    default:
      return file.mode satisfies never;
  }
}

/** Checks a ttl or defaultTtl: -1 (never expires by default) or 1 to 2,147,483,647 seconds; 0 is invalid. */
export function checkTtl(ttl: number, path: IssuePath, issues: IssueSink): void {
  if (ttl === -1 || (ttl >= 1 && ttl <= MAX_TTL_SECONDS)) return;
  issues.error(
    "model.invalidValue",
    path,
    `expected -1 (no expiry) or 1 to ${MAX_TTL_SECONDS} seconds, got ${ttl}`,
  );
}

/**
 * `automatic` -> every path indexed; absent -> derived by the tool; a policy -> custom, where
 * `included` defaults to [/*] (Cosmos DB's default: index everything) unless `excluded` holds
 * the root path /*, and `excluded` defaults to []. Cosmos DB requires the root path /* in
 * exactly one of the two lists (https://learn.microsoft.com/en-us/azure/cosmos-db/index-policy,
 * checked 2026-11-22).
 */
function normalizeIndexing(
  file: ContainerFile["indexing"],
  path: IssuePath,
  issues: IssueSink,
): IndexingSpec {
  if (file === undefined) return { kind: "derived" };
  if (file === "automatic") return { kind: "automatic" };
  return normalizePolicy(file, path, issues);
}

function normalizePolicy(file: IndexingPolicyFile, path: IssuePath, issues: IssueSink): IndexingSpec {
  const excluded = file.excluded ?? [];
  const included = file.included ?? (excluded.includes("/*") ? [] : ["/*"]);
  for (const [list, field] of [
    [included, "included"],
    [excluded, "excluded"],
  ] as const) {
    list.forEach((indexPath, index) => {
      if (!indexPath.startsWith("/") || !(indexPath.endsWith("/?") || indexPath.endsWith("/*"))) {
        issues.error(
          "model.invalidValue",
          [...path, field, index],
          `an index path starts with "/" and ends with "/?" (one value) or "/*" (everything below), e.g. "/userId/?", got ${describeValue(indexPath)}`,
        );
      }
    });
  }
  const rootIncluded = included.includes("/*");
  if (rootIncluded === excluded.includes("/*")) {
    issues.error(
      "model.invalidValue",
      path,
      rootIncluded
        ? `the root path "/*" cannot be both included and excluded`
        : `the root path "/*" must be in "included" or in "excluded" (Cosmos DB requires it in one of them)`,
    );
  }
  const composite = (file.composite ?? []).map((paths, index) =>
    normalizeComposite(paths, [...path, "composite", index], issues),
  );
  return { kind: "custom", included, excluded, composite };
}

const ORDERS: Readonly<Record<string, CompositePath["order"]>> = {
  asc: "ascending",
  ascending: "ascending",
  desc: "descending",
  descending: "descending",
};

function normalizeComposite(paths: readonly string[], path: IssuePath, issues: IssueSink): CompositePath[] {
  // A composite index has at least two paths
  // (https://learn.microsoft.com/en-us/azure/cosmos-db/index-policy#composite-indexes, checked 2026-11-22).
  if (paths.length < 2) {
    issues.error(
      "model.invalidValue",
      path,
      `a composite index has at least 2 paths, e.g. [/userId asc, /creationDate desc], got ${paths.length}`,
    );
  }
  return paths.map((text, index) => {
    const [compositePath = "", orderText = "asc", ...rest] = text.trim().split(/\s+/);
    const order = ORDERS[orderText.toLowerCase()];
    if (!PARTITION_KEY_PATH.test(compositePath) || order === undefined || rest.length > 0) {
      issues.error(
        "model.invalidValue",
        [...path, index],
        `expected "<path> asc" or "<path> desc" such as "/creationDate desc", got ${describeValue(text)}`,
      );
    }
    return { path: compositePath, order: order ?? "ascending" };
  });
}

function normalizeItem(file: ItemFile, path: IssuePath, issues: IssueSink): ItemType {
  const source =
    file.source === undefined ? undefined : parseSource(file.source, [...path, "source"], issues);
  const bucket =
    file.bucket === undefined ? undefined : normalizeBucket(file.bucket, [...path, "bucket"], issues);
  const item: ItemType = {
    type: file.type,
    entity: file.entity,
    id: file.id,
    partitionKey: file.partitionKey,
    ...(file.select === undefined ? {} : { select: file.select }),
    truncate: Object.entries(file.truncate ?? {}).map(([attribute, bytes]) => ({ attribute, bytes })),
    embeds: (file.embeds ?? []).map((embed) => ({
      entity: embed.entity,
      as: embed.as,
      ...(embed.latest === undefined ? {} : { latest: embed.latest }),
    })),
    copies: (file.copies ?? []).map((copy, index) => ({
      from: parseCopyFrom(copy.from, [...path, "copies", index, "from"], issues),
      as: copy.as,
    })),
    counts: (file.counts ?? []).map((counter) => ({ of: counter.of, as: counter.as })),
    ...(file.ancestors === undefined ? {} : { ancestors: { as: file.ancestors.as } }),
    ...(source === undefined ? {} : { source }),
    ...(file.keepLatest === undefined
      ? {}
      : { keepLatest: { count: file.keepLatest.count, by: file.keepLatest.by } }),
    ...(bucket === undefined ? {} : { bucket }),
    ...(file.shards === undefined ? {} : { shards: file.shards }),
    ...(file.shardBy === undefined ? {} : { shardBy: file.shardBy }),
    ...(file.ttl === undefined ? {} : { ttl: file.ttl }),
    ...(file.replicas === undefined ? {} : { replicas: file.replicas }),
  };
  return item;
}

function parseCopyFrom(
  text: string,
  path: IssuePath,
  issues: IssueSink,
): { entity: string; attribute: string } {
  const match = /^([^.\s]+)\.([^.\s]+)$/.exec(text);
  if (match === null) {
    issues.error(
      "model.invalidValue",
      path,
      `expected "Entity.attribute" such as "User.username", got ${describeValue(text)}`,
    );
    return { entity: text, attribute: "" };
  }
  return { entity: match[1] ?? "", attribute: match[2] ?? "" };
}

function parseSource(text: string, path: IssuePath, issues: IssueSink): { container: string; type: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(text);
  if (match === null) {
    issues.error(
      "model.invalidValue",
      path,
      `expected "container/type" such as "posts/post", got ${describeValue(text)}`,
    );
    return { container: text, type: "" };
  }
  return { container: match[1] ?? "", type: match[2] ?? "" };
}

function normalizeBucket(file: NonNullable<ItemFile["bucket"]>, path: IssuePath, issues: IssueSink): Bucket {
  const valid = `use { records: N } (N entity records per item) or { by: attribute, window: 1m } (units s, m, h, d)`;
  if (file.records !== undefined) {
    if (file.by !== undefined || file.window !== undefined) {
      issues.error(
        "model.badBucket",
        path,
        `a bucket is either by record count or by time window, not both; ${valid}`,
      );
    }
    if (!Number.isInteger(file.records) || file.records < 1) {
      issues.error(
        "model.badBucket",
        [...path, "records"],
        `expected a positive integer, got ${describeValue(file.records)}`,
      );
    }
    return { kind: "records", records: file.records };
  }
  if (file.by === undefined || file.window === undefined) {
    issues.error("model.badBucket", path, `a bucket needs "records", or both "by" and "window"; ${valid}`);
    return { kind: "records", records: 1 };
  }
  const windowSeconds = parseWindow(file.window);
  if (windowSeconds === undefined) {
    issues.error(
      "model.badBucket",
      [...path, "window"],
      `expected a positive whole number and a unit s, m, h or d (e.g. "1m", "15m", "1h"), got ${describeValue(file.window)}`,
    );
  }
  return { kind: "window", by: file.by, windowSeconds: windowSeconds ?? 1 };
}

/** Parses a window such as `30s`, `1m`, `2h`, `1d` into seconds; undefined when malformed. */
export function parseWindow(text: string): number | undefined {
  const match = /^([1-9][0-9]*)\s*([smhd])$/.exec(text.trim());
  if (match === null) return undefined;
  return Number(match[1]) * WINDOW_UNIT_SECONDS[(match[2] ?? "s") as keyof typeof WINDOW_UNIT_SECONDS];
}

/** Formats seconds as a window in the largest unit that divides them: 60 -> `1m`, 90 -> `90s`. */
export function formatWindow(seconds: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    const size = WINDOW_UNIT_SECONDS[unit];
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
