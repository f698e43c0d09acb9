/**
 * The query of a search read (`search:` of the pattern): `TOP k` ordered by VectorDistance, by
 * RANK FullTextScore, or by RANK RRF of both, with the pattern's filters, routed like any query
 * (a tenant's search in one logical partition when the tenant is the partition key). Its charge
 * is the calibrated charge of reading the k results plus what the search itself costs
 * (`estimator/search-charge.ts`), with the container's vector index (`search-policy.ts`).
 */
import { DEFAULT_VECTOR_SEARCH_FACTS, type VectorSearchFacts } from "../cosmos/vector-search.js";
import { add, fullTextSearchTerm, vectorSearchTerm } from "../estimator/search-charge.js";
import type { ReadPattern, SearchSpec } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { queryAddress, type Routing } from "./routing.js";
import { searchPolicyOf, searchScopeMatches, vectorQueryScope } from "./search-policy.js";
import { buildQuery } from "./sql.js";
import type { QueryStep, SearchStepInfo } from "./types.js";

/**
 * The property each result's VectorDistance is returned in. Attribute names cannot start with
 * `_` (docs/workload-format.md#attributes), so it never hides one of the record's.
 */
export const SEARCH_SCORE_PROPERTY = "_score";

/**
 * What a search returns of each item: the projection without the vectors the pattern does not
 * `select` (an embedding is tens of kilobytes the caller does not need back).
 */
export function searchProjection(
  env: PlanEnvironment,
  pattern: ReadPattern,
  projection: readonly string[],
): readonly string[] {
  const entity = env.context.entity(pattern.entity);
  const vectors = new Set(entity.attributes.filter((a) => a.vector !== undefined).map((a) => a.name));
  return projection.filter((name) => !vectors.has(name) || pattern.select?.includes(name) === true);
}

/** The query step of a search read on `placement`. */
export function searchQueryStep(
  env: PlanEnvironment,
  pattern: ReadPattern,
  search: SearchSpec,
  placement: Placement,
  routing: Routing,
  input: {
    readonly physical: number;
    readonly projection: readonly string[];
    readonly bytesEach: number;
    readonly truncate?: Readonly<Record<string, number>>;
  },
  facts: VectorSearchFacts = DEFAULT_VECTOR_SEARCH_FACTS,
): QueryStep {
  const { container, item } = placement;
  const consistency = pattern.consistency ?? env.context.workload.scale.consistency;
  const matched = searchScopeMatches(env, pattern);
  const returned = Math.min(search.k, matched);
  // A fan-out asks every partition for its k best; the SDK merges them and keeps k.
  const scanned = Math.max(0, Math.min(search.k, matched / input.physical) * input.physical - returned);
  const base = env.charge({
    op: "query",
    returned,
    returnedBytes: returned * input.bytesEach,
    scannedNotReturned: scanned,
    scannedBytes: scanned * input.bytesEach,
    partitions: input.physical,
    consistency,
  });
  const policy = searchPolicyOf(env, container);
  const basis: string[] = [];
  let charge = { estimate: 0, low: 0, high: 0 };
  let vector: SearchStepInfo["vector"];
  if (search.kind !== "fullText") {
    const path = policy?.vectors.find((v) => v.path === `/${search.vector}`);
    const attribute = env.context.attribute(pattern.entity, search.vector);
    const dimensions = path?.dimensions ?? attribute?.vector?.dimensions ?? 1;
    const index = path?.index ?? "none";
    const scope = vectorQueryScope(env, pattern, placement, index, dimensions, path?.shardKey);
    const term = vectorSearchTerm(scope, facts);
    charge = add(charge, term.ru);
    basis.push(term.basis);
    vector = {
      attribute: search.vector,
      index,
      distance: path?.distance ?? attribute?.vector?.distance ?? "cosine",
      dimensions,
      vectorsMatched: scope.vectorsMatched,
      vectorsPerIndex: scope.vectorsPerIndex,
    };
  }
  if (search.kind !== "vector") {
    const term = fullTextSearchTerm(search.terms, matched, facts);
    charge = add(charge, term.ru);
    basis.push(term.basis);
  }
  const query = buildQuery({
    keys: keyConditions(placement, routing, "input", new Set(pattern.where.map((p) => p.attribute))),
    predicates: pattern.where,
    valuesFrom: "input",
    orderBy: [],
    projection: input.projection,
    ...(input.truncate === undefined ? {} : { truncate: input.truncate }),
    ...tombstoneFilter(env, placement),
    search: {
      k: search.k,
      ...(search.kind === "fullText" ? {} : { vector: search.vector }),
      ...(search.kind === "vector" ? {} : { text: { property: search.text, terms: search.terms } }),
      scoreProperty: SEARCH_SCORE_PROPERTY,
    },
  });
  const info: SearchStepInfo = {
    kind: search.kind,
    k: search.k,
    ...(vector === undefined ? {} : { vector, scoreProperty: SEARCH_SCORE_PROPERTY }),
    ...(search.kind === "vector" ? {} : { text: { attribute: search.text, terms: search.terms } }),
    charge,
    basis,
  };
  return {
    ...queryAddress(container, item, query, routing, input.physical),
    returned,
    // Ordered by the search, not by a range index: nothing for the index to serve.
    orderServedByIndex: true,
    // No `estimatedFrom`: the charge is not the estimator's alone, so no measured charge of
    // it may calibrate the estimator (verify --record-charges skips it).
    ru: add(base.ru, charge),
    times: 1,
    note: `${search.kind === "vector" ? "vector" : search.kind === "fullText" ? "full-text" : "hybrid (RRF)"} search, TOP ${search.k}${vector === undefined ? "" : `, ${vector.index === "none" ? "no vector index" : `${vector.index} index`}`}`,
    search: info,
  };
}
