/**
 * The vector and full-text searches PostgreSQL declares, read from its parser's tree: a pgvector
 * index (hnsw, ivfflat) with its operator class, a text search index (GIN, GiST) on
 * `to_tsvector(config, text)`, a generated `tsvector` column. One code path for both imports: a
 * DDL file hands its parsed statements, a live server the index definitions and generation
 * expressions it prints (`pg_get_indexdef`, `pg_get_expr`), parsed here by the same parser.
 */
import type { SearchDeclaration } from "../snapshot/snapshot.js";
import { list, strings, unwrap, type Tree } from "./parse-tree.js";
import { parsePostgres } from "./postgres-parser.js";

/** A string constant, also cast (`'english'::regconfig`). */
function stringConstant(value: unknown): string | undefined {
  const node = unwrap(value);
  if (node?.[0] === "TypeCast") return stringConstant(node[1].arg);
  const sval = node?.[0] === "A_Const" ? (node[1].sval as Tree | undefined)?.sval : undefined;
  return typeof sval === "string" ? sval : undefined;
}

/** Every column an expression names. */
function columnsNamed(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) columnsNamed(item, found);
  else if (typeof value === "object" && value !== null) {
    const node = unwrap(value);
    if (node?.[0] === "ColumnRef") {
      const name = strings(node[1].fields).at(-1);
      if (name !== undefined && !found.includes(name)) found.push(name);
    } else for (const child of Object.values(value)) columnsNamed(child, found);
  }
  return found;
}

/**
 * The text search an expression computes: the first `to_tsvector([config,] text)` in it (also
 * inside `setweight(...)` or `||`), with its configuration and the columns of its text.
 */
export function textSearchOf(value: unknown): { config?: string; columns: string[] } | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = textSearchOf(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const node = unwrap(value);
  if (node?.[0] === "FuncCall" && strings(node[1].funcname).at(-1)?.toLowerCase() === "to_tsvector") {
    const args = list(node[1].args);
    const config = args.length >= 2 ? stringConstant(args[0]) : undefined;
    return { ...(config === undefined ? {} : { config }), columns: columnsNamed(args.at(-1)) };
  }
  for (const child of Object.values(value)) {
    const found = textSearchOf(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** pgvector's index methods. */
const VECTOR_METHODS = new Set(["hnsw", "ivfflat"]);

/**
 * The searches a CREATE INDEX declares: a pgvector index (hnsw, ivfflat) on a column with its
 * operator class, or a text search index (gin, gist) on `to_tsvector(...)`.
 */
export function indexSearches(body: Tree, sql: string): SearchDeclaration[] {
  const method = typeof body.accessMethod === "string" ? body.accessMethod.toLowerCase() : "btree";
  const name = typeof body.idxname === "string" ? body.idxname : "";
  const source = `index ${name === "" ? "" : `${name} `}${sql.trim().replace(/\s+/g, " ").replace(/;$/, "").slice(0, 200)}`;
  const found: SearchDeclaration[] = [];
  for (const param of list(body.indexParams)) {
    const element = unwrap(param)?.[1];
    if (element === undefined) continue;
    if (VECTOR_METHODS.has(method) && typeof element.name === "string") {
      const operatorClass = strings(element.opclass).at(-1);
      found.push({
        kind: "vector",
        column: element.name,
        method,
        ...(operatorClass === undefined ? {} : { operatorClass }),
        source,
      });
    } else if ((method === "gin" || method === "gist") && element.expr !== undefined) {
      const text = textSearchOf(element.expr);
      if (text !== undefined && text.columns.length > 0)
        found.push({
          kind: "fullText",
          columns: text.columns,
          ...(text.config === undefined ? {} : { config: text.config }),
          source,
        });
    }
  }
  return found;
}

/**
 * The full-text search a generated column computes (`search tsvector GENERATED ALWAYS AS
 * (to_tsvector('english', body)) STORED`: body is searched), from its expression's tree.
 */
export function generatedColumnSearch(
  table: string,
  column: string,
  sqlType: string,
  expression: unknown,
): SearchDeclaration | undefined {
  const text = textSearchOf(expression);
  if (text === undefined || text.columns.length === 0) return undefined;
  return {
    kind: "fullText",
    columns: text.columns,
    ...(text.config === undefined ? {} : { config: text.config }),
    generatedColumn: column,
    source: `generated column ${column} ${sqlType} of ${table}`,
  };
}

/**
 * The searches of an index as the server prints it (`pg_get_indexdef`), after
 * `loadPostgresParser`; none when it does not parse as CREATE INDEX.
 * @example searchesOfIndexDefinition("CREATE INDEX i ON public.chunks USING hnsw (embedding vector_cosine_ops)")
 */
export function searchesOfIndexDefinition(definition: string): SearchDeclaration[] {
  const parsed = parsePostgres(definition);
  if ("error" in parsed) return [];
  return (parsed.stmts ?? []).flatMap((statement) => {
    const node = unwrap(statement.stmt);
    return node?.[0] === "IndexStmt" ? indexSearches(node[1], definition) : [];
  });
}

/**
 * The full-text search of a generated column from its expression as the server prints it
 * (`pg_get_expr`: `to_tsvector('english'::regconfig, body)`), after `loadPostgresParser`. The
 * expression is only parsed (as the one value of a SELECT), never run.
 */
export function searchOfGeneratedExpression(
  table: string,
  column: string,
  sqlType: string,
  expression: string,
): SearchDeclaration | undefined {
  const parsed = parsePostgres(`SELECT ${expression}`);
  if ("error" in parsed || parsed.stmts?.length !== 1) return undefined;
  const select = unwrap(parsed.stmts[0]?.stmt);
  if (select?.[0] !== "SelectStmt") return undefined;
  const targets = list(select[1].targetList);
  const value = targets.length === 1 ? unwrap(targets[0])?.[1].val : undefined;
  return value === undefined ? undefined : generatedColumnSearch(table, column, sqlType, value);
}
