/**
 * The search queries follow the service's documented grammar (checked 2026-11-29):
 * - VectorDistance(<vector_expr_1>, <vector_expr_2>[, <bool_expr>[, <obj_expr>]]), ordered by
 *   `ORDER BY VectorDistance(...)` with the same arguments, and projected `AS` a score
 *   (query/vectordistance);
 * - FullTextScore(<property_path>, <string_expr1>, <string_expr2>, ...) "can only be used in an
 *   ORDER BY RANK clause" or RRF, never projected (query/fulltextscore);
 * - FullTextContainsAny(<property_path>, <string_expr1>, ...) in WHERE (query/fulltextcontainsany);
 * - ORDER BY RANK RRF(<score function>, <score function>) for hybrid search (gen-ai/hybrid-search);
 * - TOP with ORDER BY RANK and vector ordering, values as parameters.
 * And the runtime binds fewer terms than a query takes by leaving the others out.
 */
import { describe, expect, it } from "vitest";
import { buildQuery } from "./sql.js";
import { withSearchTerms } from "../runtime/search.js";

const base = {
  keys: [{ property: "type", source: { kind: "literal", value: "chunk" } as const }],
  predicates: [{ attribute: "tenantId", op: "eq" } as const],
  valuesFrom: "input" as const,
  orderBy: [],
  projection: ["id", "content"],
};

const PATH = String.raw`c(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\["[^"]+"\])`;
const PARAM = String.raw`@[A-Za-z0-9_]+`;
const VECTOR_DISTANCE = String.raw`VectorDistance\(${PATH}, ${PARAM}\)`;
const FULL_TEXT_SCORE = String.raw`FullTextScore\(${PATH}(?:, ${PARAM})+\)`;

describe("search queries in the documented grammar", () => {
  it("vector: TOP, the distance projected as a score, ORDER BY VectorDistance with the same arguments", () => {
    const { sql, parameters } = buildQuery({
      ...base,
      search: { k: 5, vector: "embedding", scoreProperty: "_score" },
    });
    const grammar = new RegExp(
      String.raw`^SELECT TOP @limit c\.id, c\.content, (${VECTOR_DISTANCE}) AS _score FROM c WHERE c\.type = @type AND c\.tenantId = @tenantId ORDER BY (${VECTOR_DISTANCE})$`,
    );
    const [, projected, ordered] = grammar.exec(sql) ?? [];
    expect(projected).toBe("VectorDistance(c.embedding, @embedding)");
    expect(ordered).toBe(projected);
    expect(parameters.find((p) => p.name === "@embedding")?.source).toEqual({
      kind: "input",
      attribute: "embedding",
    });
    expect(parameters.find((p) => p.name === "@limit")?.source).toEqual({ kind: "limit", value: 5 });
  });

  it("full text: FullTextContainsAny in WHERE, FullTextScore only in ORDER BY RANK", () => {
    const { sql } = buildQuery({
      ...base,
      search: { k: 10, text: { property: "content", terms: 3 }, scoreProperty: "_score" },
    });
    expect(sql).toMatch(
      new RegExp(
        String.raw`^SELECT TOP @limit c\.id, c\.content FROM c WHERE .* AND FullTextContainsAny\(c\.content, @term1, @term2, @term3\) ORDER BY RANK ${FULL_TEXT_SCORE}$`,
      ),
    );
    expect(sql.split("ORDER BY")[0]).not.toContain("FullTextScore");
  });

  it("hybrid: ORDER BY RANK RRF(VectorDistance, FullTextScore), the distance returned", () => {
    const { sql } = buildQuery({
      ...base,
      search: {
        k: 10,
        vector: "embedding",
        text: { property: "content", terms: 2 },
        scoreProperty: "_score",
      },
    });
    expect(sql).toMatch(new RegExp(String.raw`ORDER BY RANK RRF\(${VECTOR_DISTANCE}, ${FULL_TEXT_SCORE}\)$`));
    expect(sql).toMatch(/^SELECT TOP @limit /);
    expect(sql.split("ORDER BY")[0]).not.toContain("FullTextScore");
  });

  it("binds fewer terms than the query takes by leaving the others out", () => {
    const sql =
      "SELECT TOP @limit c.id FROM c WHERE FullTextContainsAny(c.t, @term1, @term2, @term3) ORDER BY RANK FullTextScore(c.t, @term1, @term2, @term3)";
    const streams = [
      {
        parameters: [
          { name: "@term1", value: null },
          { name: "@term2", value: null },
          { name: "@term3", value: null },
          { name: "@limit", value: 5 },
        ],
      },
    ];
    const [query, bound] = withSearchTerms(sql, streams, ["vector", "index"], 3);
    expect(query).toBe(
      "SELECT TOP @limit c.id FROM c WHERE FullTextContainsAny(c.t, @term1, @term2) ORDER BY RANK FullTextScore(c.t, @term1, @term2)",
    );
    expect(bound[0]?.parameters).toEqual([
      { name: "@term1", value: "vector" },
      { name: "@term2", value: "index" },
      { name: "@limit", value: 5 },
    ]);
    expect(() => withSearchTerms(sql, streams, [], 3)).toThrow(/1 to 3 terms/);
    expect(() => withSearchTerms(sql, streams, ["a", "b", "c", "d"], 3)).toThrow(/got 4/);
  });
});
