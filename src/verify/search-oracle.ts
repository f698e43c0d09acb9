/**
 * The oracle of search reads: the exact k nearest neighbours of a query vector by brute force
 * (every matching record's distance, in the pattern's distance function), the vectors left out of
 * the answer as the query's projection leaves them out. BM25 (full-text and hybrid search) is the
 * service's own tokenizer, stemmer and statistics: the oracle does not imitate it, and verify
 * says such patterns are not checkable where they cannot run against the service.
 */
import type { VectorDistanceFunction } from "../cosmos/vector-search.js";
import type { EntityRecord } from "../synthetic/generate-records.js";
import type { Rng } from "../synthetic/random.js";
import type { Entity, ReadPattern } from "../workload/types.js";

/**
 * The similarity score VectorDistance returns: cosine similarity (-1 to 1, higher is more
 * similar), the dot product (higher is more similar), the Euclidean distance (lower is more
 * similar). Source: query/vectordistance (checked 2026-11-29).
 */
export function vectorScore(
  a: readonly number[],
  b: readonly number[],
  distance: VectorDistanceFunction,
): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  let squared = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
    squared += (x - y) * (x - y);
  }
  switch (distance) {
    case "cosine":
      return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
    case "dotproduct":
      return dot;
    case "euclidean":
      return Math.sqrt(squared);
    default:
      return distance satisfies never;
  }
}

/** True when score `a` ranks before `b` (more similar) for the distance function. */
function moreSimilar(a: number, b: number, distance: VectorDistanceFunction): boolean {
  return distance === "euclidean" ? a < b : a > b;
}

/**
 * The k records nearest to `query` among `matches`, most similar first (ties by position),
 * each with its score: exact, as a flat index or a scan returns them.
 * @example nearestNeighbours(records, "embedding", [0.1, 0.2], "cosine", 5)
 */
export function nearestNeighbours(
  matches: readonly EntityRecord[],
  attribute: string,
  query: readonly number[],
  distance: VectorDistanceFunction,
  k: number,
): readonly { readonly record: EntityRecord; readonly score: number }[] {
  return matches
    .map((record, position) => {
      const vector = record[attribute];
      const score = Array.isArray(vector) ? vectorScore(vector as number[], query, distance) : Number.NaN;
      return { record, score, position };
    })
    .filter((entry) => !Number.isNaN(entry.score))
    .sort((a, b) =>
      a.score === b.score ? a.position - b.position : moreSimilar(a.score, b.score, distance) ? -1 : 1,
    )
    .slice(0, k)
    .map(({ record, score }) => ({ record, score }));
}

/**
 * A query vector for a search request: the anchor record's own vector with a little noise (a
 * question close to a stored chunk), so that its nearest neighbour is known and the others
 * are ranked by real distances.
 */
export function queryVectorNear(
  anchor: EntityRecord,
  attribute: string,
  rng: Rng,
): readonly number[] | undefined {
  const vector = anchor[attribute];
  if (!Array.isArray(vector)) return undefined;
  return (vector as number[]).map((x) => x + (rng() - 0.5) * 0.02 * (Math.abs(x) + 0.01));
}

/** Terms for a full-text request: the first words of the anchor's text, up to `terms`. */
export function termsFrom(anchor: EntityRecord, attribute: string, terms: number): readonly string[] {
  const text = anchor[attribute];
  if (typeof text !== "string") return [];
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length >= 3)
    .slice(0, terms);
}

/** The attributes a search answer leaves out: the entity's vectors the pattern does not select. */
export function omittedVectors(entity: Entity, pattern: ReadPattern): ReadonlySet<string> {
  return new Set(
    entity.attributes
      .filter((a) => a.vector !== undefined && pattern.select?.includes(a.name) !== true)
      .map((a) => a.name),
  );
}

/**
 * A vector search's answer against the oracle's exact k nearest neighbours: the share of them it
 * returned (its recall) must reach the pattern's `recall` (an approximate index may miss some,
 * as the pattern allows); a result that is not among the matching records fails it.
 * @example checkVectorAnswer(["a", "b"], ["a", "c"], 0.5) // undefined (recall 0.5)
 */
export function checkVectorAnswer(
  returned: readonly string[],
  expected: readonly string[],
  recall: number,
): string | undefined {
  if (expected.length === 0)
    return returned.length === 0
      ? undefined
      : `returned ${returned.length} results, the oracle finds no match`;
  const wanted = new Set(expected);
  const found = returned.filter((key) => wanted.has(key)).length;
  const share = found / expected.length;
  return share + 1e-9 >= recall
    ? undefined
    : `returned ${found} of the ${expected.length} nearest neighbours (recall ${share.toFixed(2)}), the pattern needs ${recall}`;
}
