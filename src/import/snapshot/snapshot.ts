/**
 * What an import reads from a relational database, as plain data: the tables with their
 * columns, keys and statistics, the foreign keys, the logic kept in the database, and the
 * statements the application ran with their call counts. Both sources produce it: a live
 * PostgreSQL server (catalog, `pg_stats`, `pg_stat_statements`) and a DDL file (structure only).
 * `mapSnapshot` turns it into a draft workload; nothing here touches a database or a file.
 */
import type { AttributeType } from "../../workload/types.js";

/** The SQL dialects a DDL file can be written in. */
export const SQL_DIALECTS = ["postgresql", "mysql", "sqlserver"] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** Statistics of one column from `pg_stats` (ANALYZE's sample), absent for a DDL import. */
export interface ColumnStatistics {
  /** Share of rows where the column is null (0..1). */
  readonly nullFraction: number;
  /** Average stored width in bytes of the non-null values. */
  readonly averageWidth: number;
  /** Distinct values: > 0 an estimate of the number, < 0 minus the share of rows (-1 = unique). */
  readonly distinct: number;
  /** Frequencies of the most common values, most common first (empty when none stands out). */
  readonly mostCommonFrequencies: readonly number[];
  /**
   * Histogram bounds of a date or timestamp column in milliseconds since 1970, ascending: each
   * bucket between two bounds holds the same share of the non-null rows.
   */
  readonly timeBounds?: readonly number[];
}

export interface ColumnInfo {
  readonly name: string;
  /** The declared type as the database prints it (`bigint`, `character varying(12)`, `text[]`). */
  readonly sqlType: string;
  /** The workload attribute type the SQL type maps to (`sql-types.ts`). */
  readonly type: AttributeType;
  readonly notNull: boolean;
  /** The column's default fills in the current time (`now()`, `CURRENT_TIMESTAMP`, ...). */
  readonly defaultsToNow: boolean;
  readonly statistics?: ColumnStatistics;
}

/** Where a number about a table comes from. */
export interface Measured {
  readonly value: number;
  /** The catalog view and column, or the statement, the value was read from. */
  readonly source: string;
}

export interface TableInfo {
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /** Columns of the primary key, in key order (empty: none). */
  readonly primaryKey: readonly string[];
  /** Column lists of unique constraints and unique indexes (other than the primary key). */
  readonly uniques: readonly (readonly string[])[];
  /** Rows, from the statistics (absent for a DDL import or a table never analyzed). */
  readonly rows?: Measured;
  /** Table comment, when the database has one. */
  readonly comment?: string;
  /** Vector and full-text search declared on the table (pgvector indexes, text search). */
  readonly search?: readonly SearchDeclaration[];
}

/**
 * A search the database declares on a table: a pgvector index (`USING hnsw (embedding
 * vector_cosine_ops)`, its operator class names the distance), or text search over columns (a
 * GIN or GiST index on `to_tsvector('english', body)`, a generated `tsvector` column).
 */
export type SearchDeclaration =
  | {
      readonly kind: "vector";
      readonly column: string;
      /** The index access method: hnsw or ivfflat. */
      readonly method: string;
      /** The operator class (`vector_cosine_ops`); absent: the method's default (l2). */
      readonly operatorClass?: string;
      /** The index, as a person reads it (`index items_embedding_idx USING hnsw (...)`). */
      readonly source: string;
    }
  | {
      readonly kind: "fullText";
      /** The columns whose text the search indexes. */
      readonly columns: readonly string[];
      /** The text search configuration (`english`); absent: the server's default, unknown here. */
      readonly config?: string;
      /** The generated `tsvector` column holding the terms, when the search is one (not an index). */
      readonly generatedColumn?: string;
      readonly source: string;
    };

export interface ForeignKey {
  readonly name: string;
  readonly schema: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly referencedSchema: string;
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
  /** ON DELETE CASCADE: the child does not outlive its parent. */
  readonly cascadeDelete: boolean;
}

/** Something in the database that an import cannot map to the workload, kept for the user. */
export interface DatabaseObject {
  readonly kind: "trigger" | "function" | "procedure" | "view" | "materialized-view" | "sequence" | "other";
  readonly name: string;
  /** What it is attached to or does, in a few words (`AFTER INSERT ON order_lines`). */
  readonly detail: string;
}

/** One normalized statement of `pg_stat_statements` (constants replaced by `$1`, `$2`, ...). */
export interface StatementStatistics {
  readonly queryId: string;
  readonly query: string;
  readonly calls: number;
  /** Rows returned or affected, summed over all calls. */
  readonly rows: number;
  readonly meanMilliseconds: number;
}

/** A statement of a DDL file that the parser could not read, kept for the user. */
export interface UnreadStatement {
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

export type SnapshotSource =
  | {
      readonly kind: "postgresql";
      /** `postgres://user@host:port/db`, never with the password. */
      readonly connection: string;
      readonly database: string;
      readonly serverVersion: string;
      readonly capturedAt: string;
      /** When `pg_stat_statements` started counting (its last reset), and the window in seconds. */
      readonly statementsSince?: string;
      readonly windowSeconds?: number;
      /** Why there are no statements, when there are none (extension missing, no privilege). */
      readonly statementsUnavailable?: string;
      /**
       * Statements of other roles whose text this role may not read (`<insufficient privilege>`
       * in pg_stat_statements without pg_read_all_stats): how many, their calls, and the role.
       */
      readonly statementsHidden?: { readonly count: number; readonly calls: number; readonly role: string };
    }
  | {
      readonly kind: "ddl";
      readonly file: string;
      readonly dialect: SqlDialect;
      /** Why this dialect (given, or the parser that read the most statements). */
      readonly dialectReason: string;
      readonly readAt: string;
    };

export interface DatabaseSnapshot {
  readonly source: SnapshotSource;
  readonly tables: readonly TableInfo[];
  readonly foreignKeys: readonly ForeignKey[];
  readonly objects: readonly DatabaseObject[];
  readonly statements: readonly StatementStatistics[];
  readonly unread: readonly UnreadStatement[];
}

/** `schema.table` as a person reads it (the schema left out for `public` and `dbo`). */
export function tableLabel(table: { readonly schema: string; readonly name: string }): string {
  return table.schema === "" || table.schema === "public" || table.schema === "dbo"
    ? table.name
    : `${table.schema}.${table.name}`;
}
