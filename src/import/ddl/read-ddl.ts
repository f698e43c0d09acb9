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
    // The dialect is chosen on the file's start (its schema, in every dump), then only its parser
    // reads the whole file: three parsers over a 10 MB dump of INSERTs took minutes.
    const sample = sampleOf(text);
    const tries = (["postgresql", "mysql", "sqlserver"] as const).map((d) => ({
      dialect: d,
      content: readAs(sample, d),
    }));
    const best = tries.reduce((a, b) => (score(b.content) > score(a.content) ? b : a));
    chosen = best.dialect;
    content = sample.length === text.length ? best.content : readAs(text, chosen);
    const read = `${best.content.parsedStatements} of ${best.content.parsedStatements + best.content.unread.length} statements`;
    reason = `its parser read ${read}${sample.length === text.length ? "" : ` of the file's first ${Math.round(sample.length / 1024)} KB`}, the most of the three dialects; use --dialect to choose`;
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

/** Bytes of a file's start the three parsers read to recognise its dialect. */
const SAMPLE_BYTES = 256 * 1024;

/** The start of `text` up to `SAMPLE_BYTES`, cut after a line that ends a statement. */
function sampleOf(text: string): string {
  if (text.length <= SAMPLE_BYTES) return text;
  const head = text.slice(0, SAMPLE_BYTES);
  const end = Math.max(head.lastIndexOf(";\n"), head.lastIndexOf("\nGO\n"));
  return end > 0 ? head.slice(0, end + 2) : head;
}

/** Tables read count most, then statements read. */
function score(content: DdlContent): number {
  return content.tables.filter((t) => t.columns.length > 0).length * 1_000_000 + content.parsedStatements;
}
