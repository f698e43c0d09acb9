/**
 * The catalog and statistics queries an import of a live PostgreSQL database runs, and nothing
 * else: every one reads `pg_catalog` views or `pg_stat_statements`, none reads a table's rows.
 * They run in one READ ONLY transaction with a statement timeout (`read-postgres.ts`).
 * Each needs only what is listed in `REQUIRED_PRIVILEGES`.
 */

/** What the importing role needs, said to the user in the documentation and in errors. */
export const REQUIRED_PRIVILEGES = [
  "CONNECT on the database and USAGE on its schemas (the catalog is readable by every role)",
  "SELECT on the tables, or membership in pg_read_all_data, for their pg_stats rows (row widths, distinct values, skew); without it those numbers are left for the interview",
  "the pg_stat_statements extension (shared_preload_libraries = pg_stat_statements and CREATE EXTENSION pg_stat_statements in the database) for the access patterns",
  "membership in pg_read_all_stats to see the text of statements run by other roles (the application's); otherwise only your own statements are read",
] as const;

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

/** Database name, server version and the time of the import. */
export const SERVER_QUERY = `
SELECT current_database() AS database,
       current_user AS role,
       current_setting('server_version') AS server_version,
       current_setting('server_version_num')::int AS server_version_num,
       now() AS captured_at`;

/** Ordinary and partitioned tables of the user's schemas, with their row estimates. */
export const TABLES_QUERY = `
SELECT c.oid::int8::text AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind,
       c.reltuples::float8 AS reltuples,
       (SELECT sum(greatest(p.reltuples, 0))::float8 FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid
         WHERE i.inhparent = c.oid) AS partition_rows,
       s.n_live_tup::float8 AS live_rows,
       obj_description(c.oid, 'pg_class') AS comment
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
 WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${USER_SCHEMAS}
 ORDER BY n.nspname, c.relname`;

/**
 * Columns of the tables: declared type (`vector(1536)` as pgvector prints its modifier), the
 * type's category, not-null, the default or generation expression, and whether the column is
 * generated (`s`: GENERATED ALWAYS AS ... STORED, `v`: virtual, PostgreSQL 18;
 * `pg_attribute.attgenerated`, PostgreSQL 12 and later, so older servers read no generated column).
 */
export function columnsQuery(serverVersionNum: number): string {
  const generated = serverVersionNum >= 120000 ? "a.attgenerated::text" : "''::text";
  return `
SELECT a.attrelid::int8::text AS table_oid, a.attname AS name,
       format_type(a.atttypid, a.atttypmod) AS sql_type,
       coalesce(bt.typcategory, t.typcategory) AS category,
       a.attnotnull AS not_null,
       pg_get_expr(d.adbin, d.adrelid) AS default_expression,
       ${generated} AS generated
  FROM pg_attribute a
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
 WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
 ORDER BY a.attrelid, a.attnum`;
}

/**
 * The definitions of the tables' indexes that can serve a search (`pg_get_indexdef`): pgvector's
 * hnsw and ivfflat, and GIN and GiST (text search on `to_tsvector(...)`), in the order they were
 * created. `search-declarations.ts` reads them as the DDL import reads a CREATE INDEX.
 */
export const SEARCH_INDEXES_QUERY = `
SELECT i.indrelid::int8::text AS table_oid, pg_get_indexdef(i.indexrelid) AS definition
  FROM pg_index i
  JOIN pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_am am ON am.oid = ic.relam
 WHERE i.indrelid = ANY($1::oid[]) AND am.amname IN ('hnsw', 'ivfflat', 'gin', 'gist')
 ORDER BY i.indrelid, i.indexrelid`;

/** Primary keys, unique constraints and foreign keys, with their columns in key order. */
export const CONSTRAINTS_QUERY = `
SELECT DISTINCT ON (table_oid, type, columns, referenced_oid) *
  FROM (SELECT con.conname AS name, con.contype AS type, con.confdeltype AS on_delete,
               COALESCE(pg_partition_root(con.conrelid), con.conrelid)::int8::text AS table_oid,
               CASE WHEN con.contype = 'f'
                    THEN COALESCE(pg_partition_root(con.confrelid), con.confrelid)::int8::text
                    ELSE con.confrelid::int8::text END AS referenced_oid,
               ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
               ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                       JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS referenced_columns
          FROM pg_constraint con
         WHERE con.contype IN ('p', 'u', 'f')
           AND (con.conrelid = ANY($1::oid[])
                -- a foreign key declared on a partition (pg_dump of pagila) is its partitioned table's
                OR (con.contype = 'f' AND con.conparentid = 0
                    AND pg_partition_root(con.conrelid) = ANY($1::oid[])))) constraints
 ORDER BY table_oid, type, columns, referenced_oid, name`;

/** Unique indexes that are not constraints (plain columns, no predicate). */
export const UNIQUE_INDEXES_QUERY = `
SELECT i.indrelid::int8::text AS table_oid,
       ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
  FROM pg_index i
 WHERE i.indisunique AND NOT i.indisprimary AND i.indexprs IS NULL AND i.indpred IS NULL
   AND i.indrelid = ANY($1::oid[])
   AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`;

/**
 * Column statistics of ANALYZE (`pg_stats` shows only tables the role may SELECT from). For
 * date and timestamp columns the histogram bounds in milliseconds since 1970.
 */
export const STATISTICS_QUERY = `
SELECT s.schemaname AS schema, s.tablename AS table, s.attname AS column, s.inherited,
       s.null_frac::float8 AS null_fraction, s.avg_width::float8 AS average_width,
       s.n_distinct::float8 AS distinct,
       s.most_common_freqs::float8[] AS most_common_frequencies,
       CASE WHEN t.typcategory = 'D' AND t.typname IN ('date', 'timestamp', 'timestamptz') THEN
         ARRAY(SELECT (extract(epoch FROM b) * 1000)::float8
                 FROM unnest(s.histogram_bounds::text::timestamptz[]) AS b
                WHERE isfinite(b))
       END AS time_bounds
  FROM pg_stats s
  JOIN pg_namespace n ON n.nspname = s.schemaname
  JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = s.attname
  JOIN pg_type t ON t.oid = a.atttypid
 WHERE c.oid = ANY($1::oid[])`;

/** Triggers, functions and procedures of the user's schemas (not those of extensions), and views. */
export const OBJECTS_QUERY = `
SELECT 'trigger' AS kind, t.tgname AS name,
       regexp_replace(pg_get_triggerdef(t.oid), '^CREATE (CONSTRAINT )?TRIGGER \\S+ ', '') AS detail
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE NOT t.tgisinternal AND ${USER_SCHEMAS}
UNION ALL
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END, n.nspname || '.' || p.proname,
       p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') in ' || l.lanname
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
 WHERE p.prokind IN ('f', 'p') AND ${USER_SCHEMAS}
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
UNION ALL
SELECT CASE c.relkind WHEN 'm' THEN 'materialized-view' ELSE 'view' END, n.nspname || '.' || c.relname,
       left(regexp_replace(pg_get_viewdef(c.oid), '\\s+', ' ', 'g'), 200)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind IN ('v', 'm') AND ${USER_SCHEMAS}
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
 ORDER BY 1, 2`;

/** The schema pg_stat_statements is installed in, and its version (no row: not installed). */
export const STATEMENTS_EXTENSION_QUERY = `
SELECT n.nspname AS schema, e.extversion AS version
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'pg_stat_statements'`;

/**
 * The database's top-level statements; `schema` is the extension's schema, already quoted.
 * Works on every version since 1.4 (PostgreSQL 9.6): the columns that changed names are read
 * through `to_jsonb` so that a missing one is null rather than an error.
 */
export function statementsQuery(quotedSchema: string): string {
  return `
SELECT j->>'queryid' AS query_id, j->>'query' AS query,
       (j->>'calls')::float8 AS calls, (j->>'rows')::float8 AS rows,
       coalesce((j->>'mean_exec_time')::float8, (j->>'mean_time')::float8) AS mean_milliseconds
  FROM (SELECT to_jsonb(s) AS j FROM ${quotedSchema}.pg_stat_statements s
         WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())) q
 WHERE coalesce((j->>'toplevel')::boolean, true)
 ORDER BY (j->>'calls')::float8 DESC, j->>'queryid'`;
}

/** When pg_stat_statements was last reset (version 1.9, PostgreSQL 14, and later). */
export function statementsResetQuery(quotedSchema: string): string {
  return `SELECT stats_reset FROM ${quotedSchema}.pg_stat_statements_info`;
}

/** When the server started: the statistics window when the reset time is not recorded. */
export const SERVER_START_QUERY = `SELECT pg_postmaster_start_time() AS started`;
