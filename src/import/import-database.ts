/**
 * `import`: a PostgreSQL connection URL or a DDL file -> the draft workload and its record.
 * The edge that reads (the database through `read-postgres.ts`, a file through the caller) and
 * then hands plain data to the pure mapping.
 */
import { CosmosModelerError } from "../common/errors.js";
import { mapSnapshot, type ImportResult } from "./map-snapshot.js";
import { isConnectionUrl } from "./postgres/connection-url.js";
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
 * Imports `source`: a `postgres://` URL (structure, statistics and pg_stat_statements) or the
 * path of a DDL file (structure only).
 */
export async function importDatabase(source: string, options: ImportOptions): Promise<ImportResult> {
  await loadPostgresParser();
  if (isConnectionUrl(source)) {
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
