/**
 * A DDL file -> a snapshot with structure only. The dialect is the one given, or else the one
 * whose parser reads the most statements of the file (PostgreSQL first on a tie).
 */
import { CosmosModelerError } from "../../common/errors.js";
import type { DatabaseSnapshot, SqlDialect } from "../snapshot/snapshot.js";
import type { DdlContent } from "./ddl-content.js";
import { readPostgresDdl } from "./postgres-ddl.js";
import { readSqlParserDdl } from "./sql-parser-ddl.js";

function readAs(text: string, dialect: SqlDialect): DdlContent {
  return dialect === "postgresql" ? readPostgresDdl(text) : readSqlParserDdl(text, dialect);
}

/** Reads `text` (the content of `file`) as DDL; call after `loadPostgresParser`. */
export function readDdl(
  text: string,
  file: string,
  dialect: SqlDialect | undefined,
  readAt: string,
): DatabaseSnapshot {
  let chosen: SqlDialect;
  let content: DdlContent;
  let reason: string;
  if (dialect !== undefined) {
    chosen = dialect;
    content = readAs(text, dialect);
    reason = "as given";
  } else {
    const tries = (["postgresql", "mysql", "sqlserver"] as const).map((d) => ({
      dialect: d,
      content: readAs(text, d),
    }));
    const best = tries.reduce((a, b) => (score(b.content) > score(a.content) ? b : a));
    chosen = best.dialect;
    content = best.content;
    reason = `its parser read ${best.content.parsedStatements} of ${best.content.parsedStatements + best.content.unread.length} statements, the most of the three dialects; use --dialect to choose`;
  }
  if (content.tables.length === 0) {
    const unread = content.unread[0];
    throw new CosmosModelerError(
      "import.noTables",
      `${file}: no CREATE TABLE could be read as ${chosen} DDL${unread === undefined ? "" : ` (line ${unread.line}: ${unread.reason})`}. ` +
        `Give a schema file of CREATE TABLE statements (pg_dump --schema-only, mysqldump --no-data, or SQL Server's Generate Scripts), and --dialect postgresql, mysql or sqlserver if it is not recognised.`,
    );
  }
  return {
    source: { kind: "ddl", file, dialect: chosen, dialectReason: reason, readAt },
    tables: content.tables,
    foreignKeys: content.foreignKeys,
    objects: content.objects,
    statements: [],
    unread: content.unread,
  };
}

/** Tables read count most, then statements read. */
function score(content: DdlContent): number {
  return content.tables.filter((t) => t.columns.length > 0).length * 1_000_000 + content.parsedStatements;
}
