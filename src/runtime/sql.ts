/**
 * Property references of the Cosmos DB NoSQL query language: `c.name` for a safe identifier,
 * `c["name"]` for anything else (a name with other characters, or a reserved word: `c.desc` is a
 * syntax error). One implementation: the planner's SQL, the generated code and the runtime's
 * patch conditions all quote names here.
 */

/**
 * Reserved words of the query language, lower case (the service compares them without case for
 * most; quoting a word that needs none is always valid, so the list errs on the side of more).
 *
 * Sources (checked 2026-11-24):
 * - the keyword tokens (`K_...`) of the query grammar in the Azure Cosmos DB .NET SDK,
 *   https://github.com/Azure/azure-cosmos-dotnet-v3/blob/master/Microsoft.Azure.Cosmos/src/Query/Core/Parser/sql.g4:
 *   all, and, array, as, asc, between, by, desc, distinct, escape, exists, false, first, from,
 *   group, in, join, last, left, like, limit, not, null, offset, or, order, rank, right, select,
 *   top, true, udf, undefined, value, where;
 * - https://learn.microsoft.com/azure/cosmos-db/nosql/query/keywords (BETWEEN, DISTINCT, LIKE, IN,
 *   TOP) and the clauses of https://learn.microsoft.com/azure/cosmos-db/nosql/query/ (GROUP BY,
 *   ORDER BY, OFFSET LIMIT, JOIN, EXISTS, ARRAY, VALUE);
 * - words the SQL family reserves that the service's parser may take as keywords in a later
 *   version (case, cast, cross, else, end, having, inner, into, is, on, outer, over, set, then,
 *   union, update, when, with): quoted too, at no cost.
 */
export const SQL_RESERVED_WORDS: ReadonlySet<string> = new Set([
  "all",
  "and",
  "array",
  "as",
  "asc",
  "between",
  "by",
  "desc",
  "distinct",
  "escape",
  "exists",
  "false",
  "first",
  "from",
  "group",
  "in",
  "join",
  "last",
  "left",
  "like",
  "limit",
  "not",
  "null",
  "offset",
  "or",
  "order",
  "rank",
  "right",
  "select",
  "top",
  "true",
  "udf",
  "undefined",
  "value",
  "where",
  // Reserved by the SQL family; quoted in case the service's parser takes them.
  "case",
  "cast",
  "cross",
  "else",
  "end",
  "having",
  "inner",
  "into",
  "is",
  "on",
  "outer",
  "over",
  "set",
  "then",
  "union",
  "update",
  "when",
  "with",
]);

/** An identifier of the grammar: a letter or `_`, then letters, digits and `_` (ASCII). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` can follow a dot (`c.name`): an identifier that is no reserved word. */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !SQL_RESERVED_WORDS.has(name.toLowerCase());
}

/**
 * A reference to a top-level property of `alias`: `c.userId`, or `c["desc"]`, `c["first name"]`
 * (a JSON string literal, so quotes and backslashes are escaped).
 * @example propertyRef("desc") // 'c["desc"]'
 */
export function propertyRef(name: string, alias = "c"): string {
  return isSafeIdentifier(name) ? `${alias}.${name}` : `${alias}[${JSON.stringify(name)}]`;
}

/**
 * The condition of a conditional patch: `FROM c  WHERE (predicate)`. The service reads any
 * whitespace; the two spaces keep the embedded test endpoint (@vercel/cosmosdb-server 1.0.1) from
 * lower-casing the predicate (it lower-cases conditions that start with "from c where", which
 * breaks every camelCase property name; measured 2026-11-24).
 * @example patchCondition("c.stock >= 2") // "FROM c  WHERE (c.stock >= 2)"
 */
export function patchCondition(predicate: string): string {
  return `FROM c  WHERE (${predicate})`;
}
