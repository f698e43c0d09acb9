/**
 * Drafting a workload from the database an application already has (the `cosmos-modeler/import`
 * subpath export; loads the PostgreSQL client and the SQL parsers): `importDatabase` reads a
 * PostgreSQL catalog, its statistics and `pg_stat_statements` through a read-only connection, or
 * a DDL file (PostgreSQL, MySQL, SQL Server), and returns the draft workload with where each
 * number came from and what could not be mapped.
 */
export { importDatabase, type ImportOptions } from "./import-database.js";
export type { ImportResult } from "./map-snapshot.js";
