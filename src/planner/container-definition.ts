/**
 * The Cosmos DB container definition of a model container, as plain JSON data (the body of the
 * REST "Create a collection" request, which `@azure/cosmos` `containers.create` accepts as is).
 * Pure: used by `deploy.ts` and usable by any renderer.
 *
 * Sources (checked 2026-11-22):
 * - Hierarchical keys: kind MultiHash, version 2, 2 to 3 paths —
 *   https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys
 * - Indexing policy shape and the mandatory root path (`/*` included or excluded) —
 *   https://learn.microsoft.com/azure/cosmos-db/index-policy
 * - Unique key policy — https://learn.microsoft.com/azure/cosmos-db/unique-keys
 * - Vector embedding policy, vector indexes (`vectorIndexShardKey`), vector paths excluded from
 *   the range index, full-text policy and indexes (checked 2026-11-29) —
 *   https://learn.microsoft.com/azure/cosmos-db/nosql/vector-search,
 *   https://learn.microsoft.com/azure/cosmos-db/gen-ai/full-text-search
 */
import type { PartitionKeyHashing } from "../cosmos/partition-key-hash.js";
import type { Container, ContainerSearch, IndexingSpec } from "../model/types.js";

export interface IndexingPolicyDefinition {
  readonly indexingMode: "consistent" | "none";
  readonly automatic: boolean;
  readonly includedPaths: readonly { readonly path: string }[];
  readonly excludedPaths: readonly { readonly path: string }[];
  readonly compositeIndexes?: readonly (readonly {
    readonly path: string;
    readonly order: "ascending" | "descending";
  }[])[];
  readonly vectorIndexes?: readonly {
    readonly path: string;
    readonly type: string;
    readonly vectorIndexShardKey?: readonly string[];
  }[];
  readonly fullTextIndexes?: readonly { readonly path: string }[];
}

/** The container's vector embedding policy (`vectorEmbeddings`). */
export interface VectorEmbeddingPolicyDefinition {
  readonly vectorEmbeddings: readonly {
    readonly path: string;
    readonly dataType: string;
    readonly dimensions: number;
    readonly distanceFunction: string;
  }[];
}

/** The container's full-text policy. */
export interface FullTextPolicyDefinition {
  readonly defaultLanguage: string;
  readonly fullTextPaths: readonly { readonly path: string; readonly language: string }[];
}

export interface ContainerDefinitionData {
  readonly id: string;
  readonly partitionKey: {
    readonly paths: readonly string[];
    readonly kind: "Hash" | "MultiHash";
    readonly version: 2;
  };
  readonly indexingPolicy: IndexingPolicyDefinition;
  readonly vectorEmbeddingPolicy?: VectorEmbeddingPolicyDefinition;
  readonly fullTextPolicy?: FullTextPolicyDefinition;
  readonly defaultTtl?: number;
  readonly uniqueKeyPolicy?: { readonly uniqueKeys: readonly { readonly paths: readonly string[] }[] };
}

/** Cosmos DB's default policy: every path indexed, range indexes, consistent mode. */
export const AUTOMATIC_INDEXING_POLICY: IndexingPolicyDefinition = {
  indexingMode: "consistent",
  automatic: true,
  includedPaths: [{ path: "/*" }],
  excludedPaths: [{ path: '/"_etag"/?' }],
};

/**
 * How a model container's partition key is hashed: kind MultiHash for a hierarchical key, Hash
 * otherwise, always version 2 (what the artifacts create; placement hashes with the same).
 */
export function partitionKeyHashingOf(container: Pick<Container, "partitionKey">): PartitionKeyHashing & {
  readonly version: 2;
} {
  return { kind: container.partitionKey.length > 1 ? "MultiHash" : "Hash", version: 2 };
}

/**
 * The container definition of a model container. `derivedPolicy` is used when the model's
 * indexing is `derived` (the tool derives it from the access patterns); without it a derived
 * policy falls back to the automatic one.
 * @example containerDefinitionOf({ name: "posts", partitionKey: ["/userId", "/postId"], ... })
 *   // { id: "posts", partitionKey: { paths: ["/userId", "/postId"], kind: "MultiHash", version: 2 }, ... }
 */
export function containerDefinitionOf(
  container: Container,
  derivedPolicy?: IndexingPolicyDefinition,
): ContainerDefinitionData {
  const uniqueKeys = container.uniqueKeys.filter((paths) => paths.length > 0);
  const search = container.search;
  return {
    id: container.name,
    partitionKey: {
      paths: [...container.partitionKey],
      ...partitionKeyHashingOf(container),
    },
    indexingPolicy: withSearchIndexes(indexingPolicyOf(container.indexing, derivedPolicy), search),
    ...(search === undefined || search.vectors.length === 0
      ? {}
      : {
          vectorEmbeddingPolicy: {
            vectorEmbeddings: search.vectors.map((vector) => ({
              path: vector.path,
              dataType: vector.dataType,
              dimensions: vector.dimensions,
              distanceFunction: vector.distance,
            })),
          },
        }),
    ...(search === undefined || search.fullText.length === 0
      ? {}
      : {
          fullTextPolicy: {
            defaultLanguage: search.fullText[0]?.language ?? "en-US",
            fullTextPaths: search.fullText.map((text) => ({ path: text.path, language: text.language })),
          },
        }),
    ...(container.defaultTtl === undefined ? {} : { defaultTtl: container.defaultTtl }),
    ...(uniqueKeys.length === 0
      ? {}
      : { uniqueKeyPolicy: { uniqueKeys: uniqueKeys.map((paths) => ({ paths: [...paths] })) } }),
  };
}

/**
 * A policy with the container's vector indexes and full-text indexes, and its vector paths
 * excluded from the range index (`/embedding/*`: a vector's elements are never filtered or sorted
 * on, and indexing each of them would make every write dearer; the documentation's examples
 * exclude them).
 */
export function withSearchIndexes(
  policy: IndexingPolicyDefinition,
  search: ContainerSearch | undefined,
): IndexingPolicyDefinition {
  if (search === undefined || (search.vectors.length === 0 && search.fullText.length === 0)) return policy;
  const excluded = [...policy.excludedPaths];
  for (const vector of search.vectors)
    if (!excluded.some((p) => p.path === `${vector.path}/*`)) excluded.push({ path: `${vector.path}/*` });
  const indexed = search.vectors.filter((vector) => vector.index !== "none");
  return {
    ...policy,
    excludedPaths: excluded,
    ...(indexed.length === 0
      ? {}
      : {
          vectorIndexes: indexed.map((vector) => ({
            path: vector.path,
            type: vector.index,
            ...(vector.shardKey === undefined ? {} : { vectorIndexShardKey: [...vector.shardKey] }),
          })),
        }),
    ...(search.fullText.length === 0
      ? {}
      : { fullTextIndexes: search.fullText.map((text) => ({ path: text.path })) }),
  };
}

/**
 * The indexing policy of an indexing spec. A custom policy that names neither `/*` nor `/` gets
 * `/*` excluded, because Cosmos DB rejects a policy without the root path.
 */
export function indexingPolicyOf(
  indexing: IndexingSpec,
  derivedPolicy?: IndexingPolicyDefinition,
): IndexingPolicyDefinition {
  switch (indexing.kind) {
    case "automatic":
      return AUTOMATIC_INDEXING_POLICY;
    case "derived":
      return derivedPolicy ?? AUTOMATIC_INDEXING_POLICY;
    case "custom": {
      const isRoot = (path: string): boolean => path === "/*" || path === "/";
      const hasRoot = indexing.included.some(isRoot) || indexing.excluded.some(isRoot);
      const excluded = hasRoot ? indexing.excluded : [...indexing.excluded, "/*"];
      return {
        indexingMode: "consistent",
        automatic: true,
        includedPaths: indexing.included.map((path) => ({ path })),
        excludedPaths: excluded.map((path) => ({ path })),
        ...(indexing.composite.length === 0
          ? {}
          : {
              compositeIndexes: indexing.composite.map((paths) =>
                paths.map((entry) => ({ path: entry.path, order: entry.order })),
              ),
            }),
      };
    }
    default:
      return indexing satisfies never;
  }
}
