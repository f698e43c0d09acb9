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
