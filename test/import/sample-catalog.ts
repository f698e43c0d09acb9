/**
 * What a sample database says about itself, asked of PostgreSQL's catalog and of the rows
 * (`count(*)`, `GROUP BY`), for the import tests to compare the draft with: its tables (a
 * partitioned table once, its partitions' rows counted through it), primary keys in key order
 * (INCLUDE columns left out), unique keys, columns with their types and defaults, and foreign
 * keys, those declared on partitions read as their partitioned table's.
 */
import type pg from "pg";

export interface CatalogTable {
  readonly name: string;
  readonly partitioned: boolean;
  readonly primaryKey: readonly string[];
  readonly uniques: readonly (readonly string[])[];
  readonly columns: readonly { readonly name: string; readonly type: string; readonly default?: string }[];
  readonly rows: number;
}

export interface CatalogForeignKey {
  readonly table: string;
  readonly columns: readonly string[];
  readonly referenced: string;
  readonly referencedColumns: readonly string[];
}

export interface Catalog {
  readonly tables: ReadonlyMap<string, CatalogTable>;
  readonly foreignKeys: readonly CatalogForeignKey[];
}

const PUBLIC = "c.relnamespace = 'public'::regnamespace";

/** The tables and foreign keys of schema public, with exact row counts. */
export async function readCatalog(client: pg.Client): Promise<Catalog> {
  const tables = await client.query<{ name: string; partitioned: boolean }>(
    `SELECT c.relname::text AS name, c.relkind = 'p' AS partitioned FROM pg_class c
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${PUBLIC} ORDER BY 1`,
  );
  const keys = await client.query<{ table: string; primary: boolean; columns: string[] }>(
    `SELECT c.relname::text AS table, i.indisprimary AS primary,
            array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
      WHERE i.indisunique AND k.ord <= i.indnkeyatts AND i.indpred IS NULL AND ${PUBLIC}
      GROUP BY c.relname, i.indexrelid, i.indisprimary`,
  );
  const columns = await client.query<{ table: string; name: string; type: string; default: string | null }>(
    `SELECT c.relname::text AS table, a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type,
            pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND ${PUBLIC}
      ORDER BY a.attnum`,
  );
  const foreignKeys = await client.query<CatalogForeignKey>(
    `SELECT DISTINCT
            COALESCE(pg_partition_root(con.conrelid), con.conrelid)::regclass::text AS table,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
            COALESCE(pg_partition_root(con.confrelid), con.confrelid)::regclass::text AS referenced,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS "referencedColumns"
       FROM pg_constraint con
      WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace`,
  );
  const result = new Map<string, CatalogTable>();
  for (const { name, partitioned } of tables.rows) {
    const rows = await client.query<{ n: string }>(`SELECT count(*) AS n FROM public.${name}`);
    const own = keys.rows.filter((k) => k.table === name);
    result.set(name, {
      name,
      partitioned,
      primaryKey: own.find((k) => k.primary)?.columns ?? [],
      uniques: own.filter((k) => !k.primary).map((k) => k.columns),
      columns: columns.rows
        .filter((c) => c.table === name)
        .map((c) => ({ name: c.name, type: c.type, ...(c.default === null ? {} : { default: c.default }) })),
      rows: Number(rows.rows[0]?.n),
    });
  }
  return { tables: result, foreignKeys: foreignKeys.rows };
}

/**
 * Link tables as the README defines them: the primary key is exactly the columns of two foreign
 * keys, and every other column is a timestamp the database fills (`DEFAULT now()`).
 */
export function isLinkTable(catalog: Catalog, table: CatalogTable): boolean {
  const own = catalog.foreignKeys.filter((fk) => fk.table === table.name);
  if (own.length !== 2) return false;
  const linking = new Set(own.flatMap((fk) => fk.columns));
  if (table.primaryKey.length !== linking.size || !table.primaryKey.every((c) => linking.has(c)))
    return false;
  return table.columns
    .filter((c) => !linking.has(c.name))
    .every((c) => c.type.startsWith("timestamp") && /now\(\)|CURRENT_TIMESTAMP/i.test(c.default ?? ""));
}

/** The largest number of rows of `table` that share one value of `columns` (NULLs left out). */
export async function largestGroup(
  client: pg.Client,
  table: string,
  columns: readonly string[],
): Promise<number> {
  const list = columns.join(", ");
  const notNull = columns.map((c) => `${c} IS NOT NULL`).join(" AND ");
  const result = await client.query<{ n: string | null }>(
    `SELECT max(n) AS n FROM (SELECT count(*) AS n FROM public.${table} WHERE ${notNull} GROUP BY ${list}) groups`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** Rows of `table` whose `columns` are all set (the children that have a parent). */
export async function rowsWith(
  client: pg.Client,
  table: string,
  columns: readonly string[],
): Promise<number> {
  const notNull = columns.map((c) => `${c} IS NOT NULL`).join(" AND ");
  const result = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM public.${table} WHERE ${notNull}`,
  );
  return Number(result.rows[0]?.n);
}
