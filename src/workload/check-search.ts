/**
 * The checks of vector, full-text and hybrid search in a workload (docs/workload-format.md#search):
 * a `vector:` on an array attribute, a `fullText:` on a string attribute, records large enough
 * to hold their embeddings as JSON, and `search:` reads that name such attributes, with a `k`
 * and the recall a vector search needs, and no `orderBy` or `limit` of their own.
 */
import { formatInteger } from "../common/format-number.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import { vectorJsonBytes } from "../cosmos/vector-search.js";
import { didYouMean } from "../source/suggest.js";
import type { PatternPiece, WorkloadPieces } from "./load-workload.js";
import type { Attribute, Entity } from "./types.js";

/** What an attribute's `vector:` or `fullText:` needs of its type and its entity. */
export function checkSearchAttributes(
  entity: Entity,
  raw: Readonly<Record<string, unknown>>,
  sink: IssueSink,
): void {
  const at: IssuePath = ["entities", entity.name];
  let vectorBytes = 0;
  const vectors: string[] = [];
  for (const attribute of entity.attributes) {
    const path: IssuePath = [...at, "attributes", attribute.name];
    if (attribute.vector !== undefined) {
      const bytes = vectorJsonBytes(attribute.vector.dimensions, attribute.vector.dataType);
      if (attribute.type !== "array")
        sink.error(
          "workload.invalidValue",
          [...path, "type"],
          `a vector is a JSON array of numbers, so an attribute with vector: has type: array; got type: ${attribute.type}`,
          `write ${attribute.name}: { type: array, vector: { dimensions: ${attribute.vector.dimensions} } }`,
        );
      const rawAttribute = raw[attribute.name];
      if (typeof rawAttribute === "object" && rawAttribute !== null && "avgBytes" in rawAttribute)
        sink.error(
          "workload.invalidValue",
          [...path, "avgBytes"],
          `a vector's size follows from its dimensions and data type: ${formatInteger(attribute.vector.dimensions)} ${attribute.vector.dataType} elements are ${formatInteger(bytes)} bytes as JSON (cosmos/vector-search.ts)`,
          "remove avgBytes from the vector attribute",
        );
      vectorBytes += bytes;
      vectors.push(attribute.name);
    }
    if (attribute.fullText !== undefined && attribute.type !== "string")
      sink.error(
        "workload.invalidValue",
        [...path, "type"],
        `full-text search reads text, so an attribute with fullText: has type: string; got type: ${attribute.type}`,
      );
  }
  if (vectorBytes > entity.avgBytes)
    sink.error(
      "workload.invalidValue",
      [...at, "avgBytes"],
      `a ${entity.name} record holds ${vectors.join(", ")} (${formatInteger(vectorBytes)} bytes as JSON, the vector as the SDK sends and Cosmos DB stores it), more than its avgBytes of ${formatInteger(entity.avgBytes)}`,
      `give avgBytes as the whole record with its embeddings: at least ${formatInteger(vectorBytes)}`,
    );
  else if (vectorBytes > entity.maxBytes)
    sink.error(
      "workload.invalidValue",
      [...at, "maxBytes"],
      `a ${entity.name} record holds ${formatInteger(vectorBytes)} bytes of embeddings as JSON, more than its maxBytes of ${formatInteger(entity.maxBytes)}`,
    );
}

/** A read's `search:` names a vector and/or a full-text attribute of its entity. */
export function checkSearchPattern(piece: PatternPiece, pieces: WorkloadPieces, sink: IssueSink): void {
  const { index, pattern } = piece;
  if (pattern.type !== "read" || pattern.search === undefined) return;
  const at: IssuePath = ["accessPatterns", index, "search"];
  const search = pattern.search;
  if (pattern.orderBy.length > 0)
    sink.error(
      "workload.invalidValue",
      ["accessPatterns", index, "orderBy"],
      search.kind === "vector"
        ? "a vector search returns its results ordered by distance (ORDER BY VectorDistance), so it has no orderBy of its own"
        : "a full-text or hybrid search returns its results ordered by rank (ORDER BY RANK), so it has no orderBy of its own",
      "remove orderBy",
    );
  if (pattern.limit !== undefined)
    sink.error(
      "workload.invalidValue",
      ["accessPatterns", index, "limit"],
      `a search returns its k best results (TOP k); search.k is its limit (${search.k})`,
      "remove limit",
    );
  if (pattern.returns !== undefined && pattern.returns.avg > search.k)
    sink.error(
      "workload.invalidValue",
      ["accessPatterns", index, "returns", "avg"],
      `expected at most search.k (${search.k}) items returned, got ${pattern.returns.avg}`,
    );
  const entity = pieces.entities.get(pattern.entity);
  if (entity === undefined) return;
  if (search.kind !== "fullText")
    checkSearchedAttribute(entity, search.vector, [...at, "nearest"], "vector", sink);
  if (search.kind !== "vector")
    checkSearchedAttribute(entity, search.text, [...at, "fullText"], "fullText", sink);
}

function checkSearchedAttribute(
  entity: Entity,
  name: string,
  at: IssuePath,
  needs: "vector" | "fullText",
  sink: IssueSink,
): void {
  const attribute = entity.attributes.find((a) => a.name === name);
  const fitting = entity.attributes.filter((a) => has(a, needs)).map((a) => a.name);
  if (attribute === undefined) {
    sink.error(
      { code: "workload.unknownAttribute", entity: entity.name, attribute: name },
      at,
      `entity ${entity.name} has no attribute "${name}"`,
      didYouMean(name, fitting.length > 0 ? fitting : entity.attributes.map((a) => a.name)),
    );
    return;
  }
  if (has(attribute, needs)) return;
  sink.error(
    "workload.invalidValue",
    at,
    needs === "vector"
      ? `${entity.name}.${name} is not a vector: a nearest-neighbour search compares embeddings${fitting.length > 0 ? ` (${entity.name}'s vectors: ${fitting.join(", ")})` : ""}`
      : `${entity.name}.${name} is not searched by full text${fitting.length > 0 ? ` (${entity.name}'s full-text attributes: ${fitting.join(", ")})` : ""}`,
    needs === "vector"
      ? `declare it ${name}: { type: array, vector: { dimensions: 1536, dataType: float32, distance: cosine } }`
      : `declare it ${name}: { type: string, fullText: { language: en-US } }`,
  );
}

function has(attribute: Attribute, needs: "vector" | "fullText"): boolean {
  return needs === "vector" ? attribute.vector !== undefined : attribute.fullText !== undefined;
}
