/**
 * The request charge of vector, full-text and hybrid search, on top of the ordinary query
 * charge of reading the k results (the calibrated estimator): what comparing vectors, walking a
 * DiskANN graph and scoring BM25 add, and what a write of a vectorised or full-text indexed item
 * adds for its index. Microsoft publishes none of these as figures: each term comes from
 * `cosmos/vector-search.ts`, where it is labelled an assumption with its range, so a charge
 * built here always carries the words that say so (`SearchChargeTerm.basis`).
 */
import type { AssumedFigure, VectorIndexType, VectorSearchFacts } from "../cosmos/vector-search.js";
import type { RuEstimate } from "./operation.js";

/** One term of a search charge: its RU and the figure it comes from. */
export interface SearchChargeTerm {
  readonly ru: RuEstimate;
  /** How it is computed, in words, with the facts' basis ("not documented ..."). */
  readonly basis: string;
}

/** What a vector query compares: its index and the vectors in its scope. */
export interface VectorQueryScope {
  readonly index: VectorIndexType | "none";
  readonly dimensions: number;
  /** Vectors matching the query's filters, over every partition it visits. */
  readonly vectorsMatched: number;
  /** Vectors in each index the query searches (a physical partition's, or a shard key value's). */
  readonly vectorsPerIndex: number;
  /** Indexes the query searches (physical partitions visited, or 1 with a matching shard key). */
  readonly indexesSearched: number;
}

const times = (figure: AssumedFigure, factor: number): RuEstimate => ({
  estimate: figure.estimate * factor,
  low: figure.low * factor,
  high: figure.high * factor,
});

/** The charge of a VectorDistance scan of every matching vector (no index, or too few vectors). */
function fullScan(scope: VectorQueryScope, facts: VectorSearchFacts, why: string): SearchChargeTerm {
  return {
    ru: times(facts.fullScanRuPerVectorDimension, scope.vectorsMatched * scope.dimensions),
    basis: `${why}: ${fmt(scope.vectorsMatched)} vectors x ${scope.dimensions} dimensions x ${facts.fullScanRuPerVectorDimension.estimate} RU (${facts.fullScanRuPerVectorDimension.basis})`,
  };
}

/**
 * What ordering by VectorDistance adds to a query: a scan of every matching vector without an
 * index (or below the index's documented 1,000-vector minimum, "a full scan is executed
 * instead"); per matching vector compared with flat and quantizedFlat (brute force); per node
 * visited with diskANN, about its search list times log2 of the vectors in the index, in each
 * index searched.
 */
export function vectorSearchTerm(scope: VectorQueryScope, facts: VectorSearchFacts): SearchChargeTerm {
  if (scope.index === "none")
    return fullScan(scope, facts, "no vector index: VectorDistance reads every vector in scope");
  const index = facts.indexes[scope.index];
  if (scope.vectorsPerIndex < index.minVectors)
    return fullScan(
      scope,
      facts,
      `${scope.index} needs at least ${fmt(index.minVectors)} vectors (documented); with ${fmt(scope.vectorsPerIndex)} per index a full scan runs instead`,
    );
  if (index.bruteForce)
    return {
      ru: times(index.ruPerVectorCompared, scope.vectorsMatched),
      basis: `${scope.index} compares every matching vector: ${fmt(scope.vectorsMatched)} x ${index.ruPerVectorCompared.estimate} RU (${index.ruPerVectorCompared.basis})`,
    };
  const levels = Math.max(1, Math.log2(scope.vectorsPerIndex));
  const visits = facts.diskAnnVisitsPerLog2Vector.estimate * levels * scope.indexesSearched;
  const ru = times(
    index.ruPerVectorCompared,
    facts.diskAnnVisitsPerLog2Vector.estimate * levels * scope.indexesSearched,
  );
  return {
    ru: {
      estimate: ru.estimate,
      low:
        index.ruPerVectorCompared.low * facts.diskAnnVisitsPerLog2Vector.low * levels * scope.indexesSearched,
      high:
        index.ruPerVectorCompared.high *
        facts.diskAnnVisitsPerLog2Vector.high *
        levels *
        scope.indexesSearched,
    },
    basis: `diskANN visits about ${facts.diskAnnVisitsPerLog2Vector.estimate} x log2(${fmt(scope.vectorsPerIndex)} vectors per index) x ${scope.indexesSearched} index(es) = ${fmt(visits)} nodes x ${index.ruPerVectorCompared.estimate} RU (${index.ruPerVectorCompared.basis}; ${facts.diskAnnVisitsPerLog2Vector.basis})`,
  };
}

/** What BM25 scoring (FullTextScore, FullTextContainsAny) adds: per term per 1,000 items in scope. */
export function fullTextSearchTerm(
  terms: number,
  itemsInScope: number,
  facts: VectorSearchFacts,
): SearchChargeTerm {
  const figure = facts.fullTextRuPerTermPerThousandItems;
  return {
    ru: times(figure, (terms * itemsInScope) / 1000),
    basis: `${terms} term(s) x ${fmt(itemsInScope)} items in scope / 1,000 x ${figure.estimate} RU (${figure.basis})`,
  };
}

/** What writing one item adds for the vector indexes and full-text paths it holds. */
export function searchWriteTerm(
  vectorIndexes: readonly (VectorIndexType | "none")[],
  fullTextBytes: number,
  facts: VectorSearchFacts,
): SearchChargeTerm {
  const zero: RuEstimate = { estimate: 0, low: 0, high: 0 };
  const parts: string[] = [];
  let ru = zero;
  for (const index of vectorIndexes) {
    if (index === "none") continue;
    const figure = facts.indexes[index].ruPerVectorWritten;
    ru = add(ru, times(figure, 1));
    parts.push(`${index} ${figure.estimate} RU per vector (${figure.basis})`);
  }
  if (fullTextBytes > 0) {
    const figure = facts.fullTextRuPerHundredBytesWritten;
    ru = add(ru, times(figure, fullTextBytes / 100));
    parts.push(
      `${fmt(fullTextBytes)} bytes of full-text indexed text x ${figure.estimate} RU per 100 bytes (${figure.basis})`,
    );
  }
  return { ru, basis: parts.join("; ") };
}

/** Adds two estimates. */
export function add(a: RuEstimate, b: RuEstimate): RuEstimate {
  return { estimate: a.estimate + b.estimate, low: a.low + b.low, high: a.high + b.high };
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
