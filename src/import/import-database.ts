/**
 * `import`: a PostgreSQL connection URL or a DDL file -> the draft workload and its record.
 * The edge that reads (the database through `read-postgres.ts`, a file through the caller) and
 * then hands plain data to the pure mapping.
 */
import { CosmosModelerError } from "../common/errors.js";
import { mapSnapshot, type ImportResult } from "./map-snapshot.js";
import { connectionKind, connectionUrlProblem, redactConnectionText } from "./postgres/connection-url.js";
import { readDdl } from "./ddl/read-ddl.js";
import type { SqlDialect } from "./snapshot/snapshot.js";
import { analyzePostgresStatement, loadPostgresParser } from "./sql/postgres-parser.js";

export interface ImportOptions {
  /** The dialect of a DDL file; default: the parser that reads the most of its statements. */
  readonly dialect?: SqlDialect;
  /** Reads a DDL file (bounded, from the caller's file edge). */
  readonly readFile: (path: string) => Promise<string>;
  /** The time of the import, ISO 8601 (DDL imports; a database reports its own). */
  readonly now: string;
}

/**
 * Refuses a connection that cannot be imported from, before anything connects or is read as a
 * file (so the text, which may hold a password, is never echoed as a file name): another
 * database's URL, a misspelt scheme, a libpq keyword/value string, a malformed `postgres://` URL.
 * The message shows the text with its password masked and says what would be valid.
 */
export function connectionRefusal(source: string): CosmosModelerError | undefined {
  const kind = connectionKind(source);
  const shown = redactConnectionText(source.trim());
  if (kind === "postgresUrl") {
    const problem = connectionUrlProblem(source);
    if (problem !== undefined)
      return new CosmosModelerError("import.badConnectionUrl", `${shown}: ${problem}`);
  } else if (kind === "otherUrl") {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(source.trim())?.[1]?.toLowerCase() ?? "";
    const hint = /^(mysql|mariadb|sqlserver|mssql|jdbc)$/.test(scheme)
      ? `a live import reads PostgreSQL only; for ${scheme === "mariadb" ? "MariaDB" : scheme === "mysql" ? "MySQL" : "SQL Server"}, export the schema (DDL) to a .sql file and import that file with --dialect ${scheme === "mysql" || scheme === "mariadb" ? "mysql" : "sqlserver"}`
      : /^postgre/.test(scheme)
        ? `the scheme ${scheme}:// is not PostgreSQL's: did you mean postgres://?`
        : `a live import reads PostgreSQL only: give postgres://user@host:port/database, or a DDL file`;
    return new CosmosModelerError("import.unsupportedConnection", `${shown}: ${hint}`);
  } else if (kind === "keywordValue") {
    return new CosmosModelerError(
      "import.unsupportedConnection",
      `${shown}: a libpq keyword/value string is not read here: give a URL, postgres://user@host:port/database, with the password in PGPASSWORD or ~/.pgpass`,
    );
  }
  return undefined;
}

/**
 * Imports `source`: a `postgres://` URL (structure, statistics and pg_stat_statements) or the
 * path of a DDL file (structure only).
 */
export async function importDatabase(source: string, options: ImportOptions): Promise<ImportResult> {
  const refusal = connectionRefusal(source);
  if (refusal !== undefined) throw refusal;
  await loadPostgresParser();
  if (connectionKind(source) === "postgresUrl") {
    if (options.dialect !== undefined && options.dialect !== "postgresql")
      throw new CosmosModelerError(
        "import.dialectMismatch",
        `--dialect ${options.dialect} applies to DDL files; a connection URL is always PostgreSQL`,
      );
    const { readPostgres } = await import("./postgres/read-postgres.js");
    return mapSnapshot(await readPostgres(source), analyzePostgresStatement);
  }
  const text = await options.readFile(source);
  const snapshot = readDdl(text, source, options.dialect, options.now);
  return mapSnapshot(snapshot, analyzePostgresStatement);
}
