/**
 * Issue 28: LIKE and ILIKE filters keep what they search for: `'%term%'` is a search inside the
 * text (contains), `'ab%'` from its start (prefix); a pattern pg_stat_statements hides behind a
 * parameter is read as prefix and said so, never silently.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { analyzePostgresStatement, loadPostgresParser } from "./postgres-parser.js";
import type { SelectShape } from "./statement-shape.js";

beforeAll(() => loadPostgresParser());

function select(sql: string): SelectShape {
  const shape = analyzePostgresStatement(sql);
  if ("error" in shape || shape.kind !== "select") throw new Error(`not a select: ${JSON.stringify(shape)}`);
  return shape;
}

describe("LIKE filters", () => {
  it.each([
    ["SELECT * FROM film WHERE title ILIKE '%love%'", "contains"],
    ["SELECT * FROM film WHERE title LIKE '%' || $1 || '%'", "contains"],
    ["SELECT * FROM film WHERE title LIKE '_ove%'", "contains"],
    ["SELECT * FROM film WHERE title LIKE 'Lov%'", "prefix"],
    ["SELECT * FROM film WHERE title LIKE $1 || '%'", "prefix"],
    ["SELECT * FROM film WHERE title LIKE 'Love'", "eq"],
  ])("%s: %s, with nothing assumed", (sql, operator) => {
    const shape = select(sql);
    expect(shape.filters.map((f) => f.operator)).toEqual([operator]);
    expect(shape.notes).toEqual([]);
  });

  it("reads a pattern hidden behind a parameter as prefix, and says so", () => {
    const shape = select("SELECT * FROM film WHERE title ILIKE $1");
    expect(shape.filters.map((f) => f.operator)).toEqual(["prefix"]);
    expect(shape.notes.join()).toMatch(
      /title ILIKE \$n: the pattern is a parameter.*change the filter to contains/,
    );
  });

  it("keeps NOT LIKE out of the pattern, in words", () => {
    const shape = select("SELECT * FROM film WHERE title NOT ILIKE '%x%' AND film_id = $1");
    expect(shape.filters.map((f) => f.operator)).toEqual(["eq"]);
    expect(shape.residual).toEqual(["a NOT ILIKE condition"]);
  });
});

describe("full-text matches and rankings (issue 31)", () => {
  it("reads document @@ query with the query on either side, and its text search function", () => {
    const shape = select(
      "SELECT id FROM notes WHERE websearch_to_tsquery('english', $1) @@ to_tsvector('english', n.body || ' ' || n.title) AND owner_id = $2",
    );
    expect(shape.textMatches).toEqual([
      {
        document: {
          kind: "toTsvector",
          columns: [
            { alias: "n", column: "body" },
            { alias: "n", column: "title" },
          ],
          config: "english",
        },
        query: "websearch_to_tsquery",
      },
    ]);
    expect(shape.filters.map((f) => f.column.column)).toEqual(["owner_id"]);
    expect(shape.residual).toEqual([]);
  });

  it("reads a tsquery parameter, keeps @@ between two columns out, and resolves ORDER BY a SELECT name", () => {
    const shape = select(
      "SELECT id, ts_rank_cd(doc, $1::tsquery) AS score FROM notes WHERE doc @@ $1::tsquery AND a @@ b ORDER BY score DESC LIMIT 3",
    );
    expect(shape.textMatches).toEqual([
      { document: { kind: "tsvectorColumn", column: { column: "doc" } }, query: "a tsquery value" },
    ]);
    expect(shape.residual).toEqual(["a @@ condition that is not a text search"]);
    expect(shape.rankedBy).toBe("ts_rank_cd");
    // the rank is computed, not a column returned or an order of columns
    expect(shape.selected).toEqual([{ column: "id" }]);
    expect(shape.orderBy).toEqual([]);
    expect(shape.limitValue).toBe(3);
  });

  it("resolves ORDER BY a SELECT name only to a column, a rank or a distance", () => {
    expect(select("SELECT f.title AS t FROM film f ORDER BY t").orderBy).toEqual([
      { column: { alias: "f", column: "title" }, direction: "asc" },
    ]);
    // another expression keeps the order as written
    expect(select("SELECT upper(title) AS title FROM film ORDER BY title DESC").orderBy).toEqual([
      { column: { column: "title" }, direction: "desc" },
    ]);
  });

  it("resolves ORDER BY a distance's SELECT name to the nearest-neighbour search, and does not return the vector", () => {
    const shape = select("SELECT id, embedding <=> $1 AS distance FROM items ORDER BY distance LIMIT 4");
    expect(shape.nearest).toEqual({ column: { column: "embedding" }, operator: "<=>" });
    expect(shape.selected).toEqual([{ column: "id" }]);
  });
});
