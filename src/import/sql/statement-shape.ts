/**
 * The shape of one SQL statement as far as an access pattern needs it: which tables it reads or
 * writes (by alias), how they are joined, which columns it filters with which operator, its
 * ORDER BY, LIMIT and aggregates, or the columns a write sets. Produced from the PostgreSQL
 * parser's tree by `analyze-statement.ts`; `map-statements.ts` maps it onto entities.
 */
import type { PredicateOperator } from "../../workload/types.js";

/** A column as the statement names it: `alias.column`, or only `column` (alias resolved later). */
export interface ColumnReference {
  readonly alias?: string;
  readonly column: string;
}

export interface TableReference {
  readonly schema?: string;
  readonly table: string;
  /** The alias, or the table's name when it has none. */
  readonly alias: string;
}

export interface Filter {
  readonly column: ColumnReference;
  readonly operator: PredicateOperator;
  /** What the filter was written as (`=`, `IN`, `= ANY`, `BETWEEN`, `LIKE`, ...). */
  readonly written: string;
}

/** `left = right` between columns of two tables (a join condition). */
export interface ColumnEquality {
  readonly left: ColumnReference;
  readonly right: ColumnReference;
}

export interface Aggregate {
  readonly fn: "count" | "sum" | "min" | "max" | "avg";
  /** The aggregated column; absent for count(*). */
  readonly column?: ColumnReference;
}

/**
 * A full-text match, `document @@ query` (either side first): the document is a `tsvector` column
 * (a generated one names the text it reads) or `to_tsvector([config,] text)` of columns; the
 * query is built by one of PostgreSQL's text search functions, or is a `tsquery` value.
 */
export interface TextMatch {
  readonly document:
    | { readonly kind: "tsvectorColumn"; readonly column: ColumnReference }
    | {
        readonly kind: "toTsvector";
        readonly columns: readonly ColumnReference[];
        /** The configuration, when the statement gives it as a constant (`'english'`). */
        readonly config?: string;
      };
  /** `to_tsquery`, `plainto_tsquery`, `websearch_to_tsquery`, `phraseto_tsquery`, or `a tsquery value`. */
  readonly query: string;
  /** Words of the query's text when the statement gives it as a constant (not after pg_stat_statements). */
  readonly words?: number;
}

/** A read: SELECT ... FROM ... WHERE ... ORDER BY ... LIMIT. */
export interface SelectShape {
  readonly kind: "select";
  readonly tables: readonly TableReference[];
  readonly joins: readonly ColumnEquality[];
  readonly filters: readonly Filter[];
  readonly orderBy: readonly { readonly column: ColumnReference; readonly direction: "asc" | "desc" }[];
  readonly limited: boolean;
  /** LIMIT's value when the statement gives a number (pg_stat_statements replaces it by $n). */
  readonly limitValue?: number;
  /**
   * A nearest-neighbour search: ORDER BY a column's distance to a value by one of pgvector's
   * operators (`embedding <=> $1`: cosine, `<->` euclidean, `<#>` negative inner product).
   */
  readonly nearest?: { readonly column: ColumnReference; readonly operator: string };
  /** Full-text matches of the WHERE (`search @@ websearch_to_tsquery('english', $1)`). */
  readonly textMatches?: readonly TextMatch[];
  /** ORDER BY a text search rank (`ts_rank(...) DESC`, `ts_rank_cd`): the function's name. */
  readonly rankedBy?: string;
  readonly aggregates: readonly Aggregate[];
  /** Columns returned; `all` lists the aliases whose every column is returned (`*`, `t.*`). */
  readonly selected: readonly ColumnReference[];
  readonly all: readonly string[];
  /** Filters that cannot be a workload predicate (`<>`, `IS NULL`, expressions), in words. */
  readonly residual: readonly string[];
  /** What was read by assumption (a LIKE pattern hidden behind a parameter), in words. */
  readonly notes: readonly string[];
}

export interface InsertShape {
  readonly kind: "insert";
  readonly table: TableReference;
  readonly columns: readonly string[];
  /** ON CONFLICT DO UPDATE makes an upsert; DO NOTHING stays a create. */
  readonly onConflict?: "update" | "nothing";
  /** INSERT ... SELECT copies rows from a query rather than the application's values. */
  readonly fromQuery: boolean;
}

export interface UpdateShape {
  readonly kind: "update";
  readonly table: TableReference;
  readonly set: readonly string[];
  readonly filters: readonly Filter[];
  /** Tables of UPDATE ... FROM (the statement then touches several tables). */
  readonly otherTables: readonly TableReference[];
}

export interface DeleteShape {
  readonly kind: "delete";
  readonly table: TableReference;
  readonly filters: readonly Filter[];
  /** Tables of DELETE ... USING. */
  readonly otherTables: readonly TableReference[];
}

/** Transaction control, SET, SHOW, DDL, maintenance: not an access pattern. */
export interface UtilityShape {
  readonly kind: "utility";
  readonly what: string;
}

/** A statement that is read or written data but has no access-pattern shape (why, in words). */
export interface UnsupportedShape {
  readonly kind: "unsupported";
  readonly reason: string;
  readonly tables: readonly TableReference[];
}

export type StatementShape =
  SelectShape | InsertShape | UpdateShape | DeleteShape | UtilityShape | UnsupportedShape;

/** Parses one normalized statement into its shape (the PostgreSQL parser, injected). */
export type AnalyzeSql = (sql: string) => StatementShape | { readonly error: string };
