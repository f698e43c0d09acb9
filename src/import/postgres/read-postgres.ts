/**
 * The PostgreSQL edge of an import: connects with the user's connection URL, runs the catalog
 * and statistics queries of `catalog-queries.ts` in one READ ONLY transaction with a statement
 * timeout, and returns a `DatabaseSnapshot`. It never reads table rows and never prints the
 * password (errors and the snapshot carry the URL without it).
 */
import pg from "pg";
import { CosmosModelerError } from "../../common/errors.js";
import type { AttributeType } from "../../workload/types.js";
import { attributeTypeOf } from "../snapshot/sql-types.js";
import type {
  ColumnInfo,
  ColumnStatistics,
  DatabaseObject,
  DatabaseSnapshot,
  ForeignKey,
  SearchDeclaration,
  StatementStatistics,
  TableInfo,
} from "../snapshot/snapshot.js";
import { loadPostgresParser } from "../sql/postgres-parser.js";
import { searchOfGeneratedExpression, searchesOfIndexDefinition } from "../sql/search-declarations.js";
import {
  CONSTRAINTS_QUERY,
  OBJECTS_QUERY,
  REQUIRED_PRIVILEGES,
  SEARCH_INDEXES_QUERY,
  SERVER_QUERY,
  SERVER_START_QUERY,
  STATEMENTS_EXTENSION_QUERY,
  STATISTICS_QUERY,
  TABLES_QUERY,
  UNIQUE_INDEXES_QUERY,
  columnsQuery,
  statementsQuery,
  statementsResetQuery,
} from "./catalog-queries.js";
import { redactConnectionUrl } from "./connection-url.js";

/** Longest a single catalog query may run (the importer never scans tables). */
const STATEMENT_TIMEOUT_MS = 30_000;
/** Longest the connection may take to open. */
const CONNECT_TIMEOUT_MS = 15_000;

type Row = Record<string, unknown>;

/**
 * Reads the structure, statistics and statement statistics of the database at `url`.
 * @example await readPostgres("postgres://app@db.example.com:5432/shop")
 */
export async function readPostgres(url: string): Promise<DatabaseSnapshot> {
  const shown = redactConnectionUrl(url);
  // index definitions and generation expressions are read by PostgreSQL's parser, as in a DDL file
  await loadPostgresParser();
  const client = new pg.Client({
    connectionString: url,
    application_name: "cosmos-modeler import",
    statement_timeout: STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A server that drops the connection later emits 'error'; the query in flight reports it.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (cause) {
    throw new CosmosModelerError(
      "import.connectionFailed",
      `cannot connect to ${shown}: ${describe(cause)}. Check the host, port, database and user; ` +
        `give the password in PGPASSWORD or ~/.pgpass rather than in the URL.`,
      { cause },
    );
  }
  try {
    await client.query("BEGIN TRANSACTION READ ONLY");
    const snapshot = await readCatalog(client, shown);
    await client.query("ROLLBACK");
    return snapshot;
  } catch (cause) {
    if (cause instanceof CosmosModelerError) throw cause;
    throw new CosmosModelerError(
      "import.queryFailed",
      `reading the catalog of ${shown} failed: ${describe(cause)}. The import needs: ${REQUIRED_PRIVILEGES.join("; ")}.`,
      { cause },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function readCatalog(client: pg.Client, shown: string): Promise<DatabaseSnapshot> {
  const server = first(await rows(client, SERVER_QUERY));
  const tableRows = await rows(client, TABLES_QUERY);
  const oids = tableRows.map((row) => text(row.oid));
  const [columnRows, constraintRows, uniqueRows, searchIndexRows, statisticsRows, objectRows] = [
    await rows(client, columnsQuery(number(server.server_version_num)), [oids]),
    await rows(client, CONSTRAINTS_QUERY, [oids]),
    await rows(client, UNIQUE_INDEXES_QUERY, [oids]),
    await rows(client, SEARCH_INDEXES_QUERY, [oids]),
    await rows(client, STATISTICS_QUERY, [oids]),
    await rows(client, OBJECTS_QUERY),
  ];
  const statements = await readStatements(client, text(server.role));
  const byOid = new Map(tableRows.map((row) => [text(row.oid), row]));
  const statistics = new Map<string, ColumnStatistics>();
  // inherited = true (the whole partitioned table) wins over the parent's own rows
  for (const row of [...statisticsRows].sort((a, b) => Number(a.inherited) - Number(b.inherited))) {
    statistics.set(`${text(row.schema)}.${text(row.table)}.${text(row.column)}`, toStatistics(row));
  }
  const tables: TableInfo[] = tableRows.map((row) => {
    const oid = text(row.oid);
    const schema = text(row.schema);
    const name = text(row.name);
    const ownColumns = columnRows.filter((column) => text(column.table_oid) === oid);
    const columns: ColumnInfo[] = ownColumns.map((column) => {
      const stats = statistics.get(`${schema}.${name}.${text(column.name)}`);
      const sqlType = text(column.sql_type);
      return {
        name: text(column.name),
        sqlType,
        type: typeOfCategory(text(column.category), sqlType),
        notNull: column.not_null === true,
        defaultsToNow: isNowDefault(column.default_expression),
        ...(stats === undefined ? {} : { statistics: stats }),
      };
    });
    const search = searchDeclarations(
      name,
      ownColumns,
      searchIndexRows.filter((index) => text(index.table_oid) === oid),
    );
    const constraints = constraintRows.filter((c) => text(c.table_oid) === oid);
    const primary = constraints.find((c) => c.type === "p");
    const uniques = [
      ...constraints.filter((c) => c.type === "u").map((c) => strings(c.columns)),
      ...uniqueRows.filter((u) => text(u.table_oid) === oid).map((u) => strings(u.columns)),
    ];
    const rowCount = tableRowCount(row, schema, name);
    const comment = row.comment;
    return {
      schema,
      name,
      columns,
      primaryKey: primary === undefined ? [] : strings(primary.columns),
      uniques,
      ...(rowCount === undefined ? {} : { rows: rowCount }),
      ...(typeof comment === "string" && comment !== "" ? { comment } : {}),
      ...(search.length > 0 ? { search } : {}),
    };
  });
  const foreignKeys: ForeignKey[] = constraintRows
    .filter((c) => c.type === "f" && byOid.has(text(c.referenced_oid)))
    .map((c) => {
      const child = byOid.get(text(c.table_oid));
      const parent = byOid.get(text(c.referenced_oid));
      return {
        name: text(c.name),
        schema: text(child?.schema),
        table: text(child?.name),
        columns: strings(c.columns),
        referencedSchema: text(parent?.schema),
        referencedTable: text(parent?.name),
        referencedColumns: strings(c.referenced_columns),
        cascadeDelete: c.on_delete === "c",
      };
    });
  const objects: DatabaseObject[] = objectRows.map((row) => ({
    kind: text(row.kind) as DatabaseObject["kind"],
    name: text(row.name),
    detail: text(row.detail),
  }));
  return {
    source: {
      kind: "postgresql",
      connection: shown,
      database: text(server.database),
      serverVersion: text(server.server_version),
      capturedAt: toDate(server.captured_at).toISOString(),
      ...statements.window,
    },
    tables,
    foreignKeys,
    objects,
    statements: statements.list,
    unread: [],
  };
}

/**
 * The searches a table declares, read as the DDL import reads them: its generated columns'
 * expressions first (a CREATE TABLE comes before its indexes), then its search indexes.
 */
function searchDeclarations(
  table: string,
  columns: readonly Row[],
  indexes: readonly Row[],
): SearchDeclaration[] {
  const generated = columns.flatMap((column) => {
    const expression = column.default_expression;
    // s: GENERATED ... STORED; v: virtual (PostgreSQL 18); both read the same expression
    if ((column.generated !== "s" && column.generated !== "v") || typeof expression !== "string") return [];
    const found = searchOfGeneratedExpression(table, text(column.name), text(column.sql_type), expression);
    return found === undefined ? [] : [found];
  });
  return [...generated, ...indexes.flatMap((index) => searchesOfIndexDefinition(text(index.definition)))];
}

/** The text pg_stat_statements shows for a statement the role may not read. */
const INSUFFICIENT_PRIVILEGE = "<insufficient privilege>";

async function readStatements(
  client: pg.Client,
  role: string,
): Promise<{
  list: StatementStatistics[];
  window: {
    statementsSince?: string;
    windowSeconds?: number;
    statementsUnavailable?: string;
    statementsHidden?: { count: number; calls: number; role: string };
  };
}> {
  const extension = (await rows(client, STATEMENTS_EXTENSION_QUERY))[0];
  if (extension === undefined) {
    return {
      list: [],
      window: {
        statementsUnavailable:
          "the pg_stat_statements extension is not installed in this database (CREATE EXTENSION pg_stat_statements, with pg_stat_statements in shared_preload_libraries)",
      },
    };
  }
  const schema = client.escapeIdentifier(text(extension.schema));
  await client.query("SAVEPOINT statements");
  let statementRows: Row[];
  try {
    statementRows = await rows(client, statementsQuery(schema));
  } catch (cause) {
    await client.query("ROLLBACK TO SAVEPOINT statements");
    return {
      list: [],
      window: {
        statementsUnavailable: `pg_stat_statements cannot be read (${describe(cause)}); it must be in shared_preload_libraries`,
      },
    };
  }
  let since: Date | undefined;
  let sinceSource = "pg_stat_statements_info.stats_reset";
  await client.query("SAVEPOINT reset");
  try {
    const reset = (await rows(client, statementsResetQuery(schema)))[0]?.stats_reset;
    if (reset !== undefined && reset !== null) since = toDate(reset);
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT reset");
  }
  if (since === undefined) {
    since = toDate(first(await rows(client, SERVER_START_QUERY)).started);
    sinceSource = "pg_postmaster_start_time()";
  }
  const now = toDate(first(await rows(client, SERVER_QUERY)).captured_at);
  const all = statementRows.map((row) => ({
    queryId: text(row.query_id),
    query: text(row.query),
    calls: number(row.calls),
    rows: number(row.rows),
    meanMilliseconds: number(row.mean_milliseconds),
  }));
  // Without pg_read_all_stats, other roles' statements come with this text instead of theirs.
  const hidden = all.filter((statement) => statement.query === INSUFFICIENT_PRIVILEGE);
  return {
    list: all.filter((statement) => statement.query !== INSUFFICIENT_PRIVILEGE),
    window: {
      statementsSince: `${since.toISOString()} (${sinceSource})`,
      windowSeconds: Math.max(0.001, (now.getTime() - since.getTime()) / 1000),
      ...(hidden.length === 0
        ? {}
        : {
            statementsHidden: {
              count: hidden.length,
              calls: hidden.reduce((sum, statement) => sum + statement.calls, 0),
              role,
            },
          }),
    },
  };
}

function tableRowCount(row: Row, schema: string, name: string) {
  const label = `${schema}.${name}`;
  if (row.kind === "p" && typeof row.partition_rows === "number")
    return { value: row.partition_rows, source: `sum of pg_class.reltuples of the partitions of ${label}` };
  if (typeof row.reltuples === "number" && row.reltuples >= 0)
    return { value: row.reltuples, source: `pg_class.reltuples of ${label} (ANALYZE estimate)` };
  if (typeof row.live_rows === "number" && row.live_rows > 0)
    return { value: row.live_rows, source: `pg_stat_user_tables.n_live_tup of ${label} (never analyzed)` };
  return undefined;
}

function toStatistics(row: Row): ColumnStatistics {
  const frequencies = Array.isArray(row.most_common_frequencies)
    ? row.most_common_frequencies.filter((f): f is number => typeof f === "number")
    : [];
  const bounds = Array.isArray(row.time_bounds)
    ? row.time_bounds.filter((b): b is number => typeof b === "number" && Number.isFinite(b))
    : [];
  return {
    nullFraction: number(row.null_fraction),
    averageWidth: number(row.average_width),
    distinct: number(row.distinct),
    mostCommonFrequencies: [...frequencies].sort((a, b) => b - a),
    ...(bounds.length >= 2 ? { timeBounds: bounds } : {}),
  };
}

/** PostgreSQL's type categories (pg_type.typcategory) first, the type's name for the rest. */
function typeOfCategory(category: string, sqlType: string): AttributeType {
  switch (category) {
    case "A":
      return "array";
    case "B":
      return "boolean";
    case "N":
      return "number";
    case "D":
      return sqlType.startsWith("time ") || sqlType === "time" ? "string" : "datetime";
    default:
      return attributeTypeOf(sqlType);
  }
}

function isNowDefault(expression: unknown): boolean {
  return (
    typeof expression === "string" &&
    /\b(now\(\)|current_timestamp\b|clock_timestamp\(\)|statement_timestamp\(\)|transaction_timestamp\(\)|localtimestamp\b|current_date\b)/i.test(
      expression,
    )
  );
}

async function rows(client: pg.Client, sql: string, values: unknown[] = []): Promise<Row[]> {
  return (await client.query<Row>(sql, values)).rows;
}

function first(list: readonly Row[]): Row {
  const row = list[0];
  if (row === undefined) throw new Error("the catalog query returned no row");
  return row;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);
}

function number(value: unknown): number {
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(text) : [];
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(text(value));
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
