/**
 * The documented limits of a container's search policies (docs/model-format.md#search), checked
 * without the workload: each vector index type's dimension limit (flat 505, quantizedFlat and
 * diskANN 4,096), at most one diskANN index per container, one entry per path, and the vector
 * index shard key on quantizedFlat and diskANN only (cosmos/vector-search.ts).
 */
import type { IssuePath, IssueSink } from "../common/issues.js";
import { DEFAULT_VECTOR_SEARCH_FACTS, VECTOR_SEARCH_SOURCES } from "../cosmos/vector-search.js";
import type { Container } from "./types.js";

export function checkSearchPolicies(container: Container, path: IssuePath, issues: IssueSink): void {
  const search = container.search;
  if (search === undefined) return;
  const facts = DEFAULT_VECTOR_SEARCH_FACTS;
  const seen = new Set<string>();
  let diskAnn = 0;
  search.vectors.forEach((vector, index) => {
    const at: IssuePath = [...path, "search", "vectors", index];
    if (seen.has(vector.path))
      issues.error("model.invalidValue", [...at, "path"], `${vector.path} has two vector embedding entries`);
    seen.add(vector.path);
    if (vector.index === "none") {
      if (vector.shardKey !== undefined)
        issues.error(
          "model.invalidValue",
          [...at, "shardKey"],
          "a shard key belongs to a vector index; this path has none",
        );
      return;
    }
    const limit = facts.indexes[vector.index].maxDimensions;
    if (vector.dimensions > limit)
      issues.error(
        "model.invalidValue",
        [...at, "index"],
        `a ${vector.index} index holds vectors of at most ${limit.toLocaleString("en-US")} dimensions, ${vector.path} has ${vector.dimensions.toLocaleString("en-US")} (${VECTOR_SEARCH_SOURCES.vectorIndexing})`,
        vector.dimensions <= facts.indexes.diskANN.maxDimensions
          ? "use quantizedFlat or diskANN (up to 4,096 dimensions)"
          : "no vector index holds them: index: none (VectorDistance scans), or fewer dimensions",
      );
    if (vector.index === "diskANN") diskAnn++;
    if (vector.shardKey !== undefined && vector.index === "flat")
      issues.error(
        "model.invalidValue",
        [...at, "shardKey"],
        "a vector index shard key applies to quantizedFlat and diskANN indexes only",
      );
  });
  if (diskAnn > facts.maxDiskAnnIndexesPerContainer)
    issues.error(
      "model.invalidValue",
      [...path, "search", "vectors"],
      `a container holds at most ${facts.maxDiskAnnIndexesPerContainer} diskANN index, ${container.name} has ${diskAnn} (${VECTOR_SEARCH_SOURCES.vectorIndexing})`,
    );
  const texts = new Set<string>();
  search.fullText.forEach((text, index) => {
    if (texts.has(text.path))
      issues.error(
        "model.invalidValue",
        [...path, "search", "fullText", index, "path"],
        `${text.path} is listed twice`,
      );
    texts.add(text.path);
  });
}
