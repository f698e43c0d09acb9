/**
 * Facts about vector, full-text and hybrid search in Azure Cosmos DB for NoSQL: index types and
 * their limits, the policies a container declares, the account capabilities, and what the
 * documentation says (and does not say) about their request charges. One table, each entry with
 * its source and the date it was checked; `withVectorSearchFacts` overrides any of them (a
 * figure measured on your own account, a limit Microsoft raised).
 *
 * Where Microsoft publishes no figure, the entry says "not documented" and carries this tool's
 * assumption with a wide range: the documents print the range and the word "assumption".
 */

/** Date on which the entries below were checked against their sources. */
export const VECTOR_SEARCH_FACTS_CHECKED = "2026-11-29";

/** Microsoft's pages the entries come from. */
export const VECTOR_SEARCH_SOURCES = {
  /** Vector indexing policies, the 505 / 4,096 dimension limits, the 1,000-vector minimum. */
  vectorIndexing: "https://learn.microsoft.com/azure/cosmos-db/nosql/vector-search",
  /** Indexing policy reference: vector indexes, exclusion of vector paths, quantizedFlat guidance. */
  indexPolicy: "https://learn.microsoft.com/azure/cosmos-db/index-policy#vector-indexes",
  /** The JavaScript SDK's VectorIndex: quantizationByteSize 1..min(dimensions, 512), indexingSearchListSize 25..500, vectorIndexShardKey. */
  sdkVectorIndex: "https://learn.microsoft.com/javascript/api/@azure/cosmos/vectorindex",
  /** VectorDistance: signature, distance functions, brute-force option. */
  vectorDistance: "https://learn.microsoft.com/azure/cosmos-db/nosql/query/vectordistance",
  /** Full-text policy and index, FullTextContains, FullTextScore, ORDER BY RANK. */
  fullText: "https://learn.microsoft.com/azure/cosmos-db/gen-ai/full-text-search",
  /** FullTextScore: only in ORDER BY RANK or RRF, one string argument per term. */
  fullTextScore: "https://learn.microsoft.com/azure/cosmos-db/nosql/query/fulltextscore",
  /** Hybrid search: RRF over VectorDistance and FullTextScore. */
  hybrid: "https://learn.microsoft.com/azure/cosmos-db/gen-ai/hybrid-search",
  /** Enabling the features: `az cosmosdb update --capabilities EnableNoSQLVectorSearch`. */
  enableVectorSearch:
    "https://learn.microsoft.com/azure/cosmos-db/nosql/how-to-javascript-vector-index-query",
  /** DiskANN at scale: "query latency of under 100 milliseconds with > 90% recall" (devblog, 2025-04-21). */
  diskAnnRecall:
    "https://devblogs.microsoft.com/cosmosdb/azure-cosmos-db-with-diskann-part-2-scaling-to-1-billion-vectors-with/",
  /** Item size: 2 MB of JSON, which a vector counts toward like any array. */
  itemSize: "https://learn.microsoft.com/azure/cosmos-db/concepts-limits",
} as const;

export const VECTOR_INDEX_TYPES = ["flat", "quantizedFlat", "diskANN"] as const;
export type VectorIndexType = (typeof VECTOR_INDEX_TYPES)[number];

export const VECTOR_DATA_TYPES = ["float32", "int8", "uint8"] as const;
export type VectorDataType = (typeof VECTOR_DATA_TYPES)[number];

export const VECTOR_DISTANCE_FUNCTIONS = ["cosine", "dotproduct", "euclidean"] as const;
export type VectorDistanceFunction = (typeof VECTOR_DISTANCE_FUNCTIONS)[number];

/**
 * Languages a full-text path may declare: `en-US` (generally available) and the languages of the
 * multi-language preview. Source: full-text-search, checked 2026-11-29.
 */
export const FULL_TEXT_LANGUAGES = ["en-US", "de-DE", "es-ES", "fr-FR", "it-IT", "pt-BR", "pt-PT"] as const;
export type FullTextLanguage = (typeof FULL_TEXT_LANGUAGES)[number];

/** A figure Microsoft does not publish: this tool's assumption, with the range it is printed with. */
export interface AssumedFigure {
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** Why this figure, in one sentence; always says it is not documented. */
  readonly basis: string;
}

/** Recall (share of the true k nearest neighbours returned) an index type gives. */
export interface RecallFigure {
  /** The lowest recall to count on: what the design compares with a pattern's `recall`. */
  readonly low: number;
  readonly high: number;
  readonly documented: boolean;
  readonly basis: string;
}

export interface VectorIndexFacts {
  /** Most dimensions a vector indexed with this type may have. */
  readonly maxDimensions: number;
  /**
   * Vectors the index needs before it is used; below it, a query scans every vector in scope
   * (a full scan, "higher RU charges"). 0 = none.
   */
  readonly minVectors: number;
  /** Most vectors in scope the documentation advises for this type; absent = any scale. */
  readonly advisedMaxVectors?: number;
  /** Compares the query vector with every vector in scope (flat, quantizedFlat) or not (diskANN). */
  readonly bruteForce: boolean;
  readonly recall: RecallFigure;
  /**
   * RU per vector in scope a query compares (brute-force types), or per vector the graph search
   * visits (diskANN): not documented, an assumption with its range.
   */
  readonly ruPerVectorCompared: AssumedFigure;
  /** Extra RU of a write per vector this index holds (its maintenance): not documented. */
  readonly ruPerVectorWritten: AssumedFigure;
}

export interface VectorSearchFacts {
  readonly checked: string;
  readonly indexes: Readonly<Record<VectorIndexType, VectorIndexFacts>>;
  /**
   * Vectors a query compares without any vector index (VectorDistance over every vector in scope,
   * exact): RU per vector per dimension, not documented.
   */
  readonly fullScanRuPerVectorDimension: AssumedFigure;
  /**
   * Nodes a diskANN query visits: about `indexingSearchListSize` (default 100) times the log2 of
   * the vectors in scope / 10 ... an assumption: the visits grow with the logarithm of the index.
   */
  readonly diskAnnVisitsPerLog2Vector: AssumedFigure;
  /** Average bytes of one element of a vector in JSON, comma included, per data type. */
  readonly jsonBytesPerElement: Readonly<Record<VectorDataType, number>>;
  /** RU per term per 1,000 items in scope of a BM25 scoring (FullTextScore): not documented. */
  readonly fullTextRuPerTermPerThousandItems: AssumedFigure;
  /** Extra RU of a write per 100 bytes of text in a full-text indexed path: not documented. */
  readonly fullTextRuPerHundredBytesWritten: AssumedFigure;
  /** Account capability vector search needs (`EnableNoSQLVectorSearch`). */
  readonly vectorCapability: string;
  /** Account capability full-text and hybrid search need (`EnableNoSQLFullTextSearch`). */
  readonly fullTextCapability: string;
  /** Vector indexes of type diskANN a container may have. */
  readonly maxDiskAnnIndexesPerContainer: number;
  /** quantizationByteSize range: 1 to min(dimensions, this). */
  readonly maxQuantizationByteSize: number;
  /** Whether containers in a shared-throughput database can use vector search. */
  readonly sharedThroughputSupported: boolean;
}

/**
 * The average characters of an integer drawn evenly from `min..max` written in JSON, plus the
 * comma between elements.
 */
export function averageIntegerJsonBytes(min: number, max: number): number {
  let total = 0;
  for (let value = min; value <= max; value++) total += String(value).length;
  return total / (max - min + 1) + 1;
}

/**
 * A float32 element as JavaScript writes it: `JSON.stringify` prints the shortest decimal of the
 * double the float32 widens to (about 17 significant digits, e.g. -0.012345678471028805), so an
 * element of a unit-length embedding takes 21.3 characters with its comma on average (measured on
 * normalised 1,536-dimension Gaussian vectors, `vector-search.test.ts` measures it again); a
 * client that rounds to 9 significant digits sends about 13.7 (override `jsonBytesPerElement`).
 */
const FLOAT32_JSON_BYTES = 21.3;

const NOT_DOCUMENTED = "not documented by Microsoft (no RU formula for vector queries is published)";

/** The facts as checked on `VECTOR_SEARCH_FACTS_CHECKED`. */
export const DEFAULT_VECTOR_SEARCH_FACTS: VectorSearchFacts = {
  checked: VECTOR_SEARCH_FACTS_CHECKED,
  indexes: {
    flat: {
      // "Vectors indexed with the flat index type can be at most 505 dimensions" (vector-search,
      // Current limits); "brute-force searches and produce 100% accuracy or recall" (index-policy).
      maxDimensions: 505,
      minVectors: 0,
      bruteForce: true,
      recall: {
        low: 1,
        high: 1,
        documented: true,
        basis: "exact (brute force): 100% recall, documented (index-policy)",
      },
      ruPerVectorCompared: {
        estimate: 0.002,
        low: 0.001,
        high: 0.004,
        basis: `${NOT_DOCUMENTED}; the docs rank flat's RU cost "High" of the three: an assumption per full vector compared`,
      },
      ruPerVectorWritten: {
        estimate: 0.5,
        low: 0.25,
        high: 1,
        basis: `${NOT_DOCUMENTED}; the vector is stored in the ordinary index: an assumption per vector written`,
      },
    },
    quantizedFlat: {
      // Up to 4,096 dimensions; needs at least 1,000 vectors ("If there are fewer than 1,000
      // vectors, a full scan is executed instead"); "should be used when there are at least 1,000
      // vectors and fewer than 100,000 vectors" (index-policy, checked 2026-11-29).
      maxDimensions: 4096,
      minVectors: 1000,
      advisedMaxVectors: 100_000,
      bruteForce: true,
      recall: {
        low: 0.95,
        high: 0.999,
        documented: false,
        basis:
          'documented as "slightly less than 100%" (quantized vectors, brute force); the 0.95 floor is an assumption of this tool',
      },
      ruPerVectorCompared: {
        estimate: 0.0005,
        low: 0.00025,
        high: 0.001,
        basis: `${NOT_DOCUMENTED}; documented as lower RU than flat ("Medium"): an assumption per quantized vector compared`,
      },
      ruPerVectorWritten: {
        estimate: 1,
        low: 0.5,
        high: 2,
        basis: `${NOT_DOCUMENTED}; quantization on write: an assumption per vector written`,
      },
    },
    diskANN: {
      // Up to 4,096 dimensions, at least 1,000 vectors, "any scale"; at most one per container
      // (vector-search Current limits). Recall "> 90%" at 1 billion vectors (devblog part 2).
      maxDimensions: 4096,
      minVectors: 1000,
      bruteForce: false,
      recall: {
        low: 0.9,
        high: 0.99,
        documented: true,
        basis: 'approximate; "> 90% recall" in Microsoft\'s DiskANN benchmark (devblog part 2, 2025-04-21)',
      },
      ruPerVectorCompared: {
        estimate: 0.01,
        low: 0.005,
        high: 0.02,
        basis: `${NOT_DOCUMENTED}; documented as the "Lowest" RU of the three at scale: an assumption per graph node visited`,
      },
      ruPerVectorWritten: {
        estimate: 2,
        low: 1,
        high: 4,
        basis: `${NOT_DOCUMENTED}; graph insertion on write: an assumption per vector written`,
      },
    },
  },
  fullScanRuPerVectorDimension: {
    estimate: 0.000005,
    low: 0.0000025,
    high: 0.00001,
    basis: `${NOT_DOCUMENTED}; without a vector index VectorDistance reads every vector in scope (a full scan, "higher RU charges"): an assumption per vector per dimension`,
  },
  diskAnnVisitsPerLog2Vector: {
    estimate: 100,
    low: 50,
    high: 200,
    basis:
      "not documented; a graph search visits about its search list (indexingSearchListSize, default 100) per level: an assumption of this tool",
  },
  jsonBytesPerElement: {
    float32: FLOAT32_JSON_BYTES,
    int8: averageIntegerJsonBytes(-128, 127),
    uint8: averageIntegerJsonBytes(0, 255),
  },
  fullTextRuPerTermPerThousandItems: {
    estimate: 1,
    low: 0.5,
    high: 2,
    basis:
      "not documented by Microsoft (no RU formula for FullTextScore is published; BM25 statistics span the container unless scoped): an assumption per term per 1,000 items in scope",
  },
  fullTextRuPerHundredBytesWritten: {
    estimate: 0.1,
    low: 0.05,
    high: 0.2,
    basis: "not documented by Microsoft: an assumption per 100 bytes of full-text indexed text written",
  },
  // `az cosmosdb update --capabilities EnableNoSQLVectorSearch` (how-to-javascript-vector-index-query);
  // EnableNoSQLFullTextSearch for full-text and hybrid search (full-text-search).
  vectorCapability: "EnableNoSQLVectorSearch",
  fullTextCapability: "EnableNoSQLFullTextSearch",
  // "You can specify, at most, one DiskANN index type per container" (vector-search).
  maxDiskAnnIndexesPerContainer: 1,
  // "between 1 and min(Dimensions, 512)" (sdkVectorIndex).
  maxQuantizationByteSize: 512,
  // "Shared throughput databases can't use the vector search preview feature" (vector-search).
  sharedThroughputSupported: false,
};

/** Overrides of the facts: any entry, e.g. a coefficient measured on your own account. */
export type VectorSearchFactOverrides = Partial<Omit<VectorSearchFacts, "indexes">> & {
  readonly indexes?: Partial<Record<VectorIndexType, Partial<VectorIndexFacts>>>;
};

/**
 * The default facts with `overrides` applied.
 * @example withVectorSearchFacts({ indexes: { flat: { maxDimensions: 1024 } } })
 */
export function withVectorSearchFacts(overrides: VectorSearchFactOverrides): VectorSearchFacts {
  const base = DEFAULT_VECTOR_SEARCH_FACTS;
  const indexes = Object.fromEntries(
    VECTOR_INDEX_TYPES.map((type) => [type, { ...base.indexes[type], ...overrides.indexes?.[type] }]),
  ) as Record<VectorIndexType, VectorIndexFacts>;
  return { ...base, ...overrides, indexes };
}

/**
 * JSON size of one vector as sent and stored: `[`, `]` and each element with its comma.
 * @example vectorJsonBytes(1536, "float32") // 32,718
 */
export function vectorJsonBytes(
  dimensions: number,
  dataType: VectorDataType,
  facts: VectorSearchFacts = DEFAULT_VECTOR_SEARCH_FACTS,
): number {
  return Math.ceil(2 + dimensions * facts.jsonBytesPerElement[dataType] - 1);
}
