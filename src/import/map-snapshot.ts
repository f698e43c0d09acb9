/**
 * A database snapshot -> the draft workload an interview continues from, and the record of
 * where every imported value came from and what could not be mapped. Pure: the SQL parser is
 * passed in (`AnalyzeSql`), the database and files stay at the edges.
 */
import type { DraftWorkload } from "../session/draft.js";
import type { ImportRecord, UnmappedItem } from "../session/import-record.js";
import { formatDecimal, formatInteger } from "../common/format-number.js";
import { mapStatements, type AnalyzeSql } from "./map-statements.js";
import { mapStructure } from "./map-structure.js";
import type { DatabaseSnapshot } from "./snapshot/snapshot.js";

export interface ImportResult {
  readonly draft: DraftWorkload;
  readonly record: ImportRecord;
  readonly summary: ImportSummary;
}

/** Counts for the command's report. */
export interface ImportSummary {
  readonly entities: number;
  readonly relationships: number;
  readonly accessPatterns: number;
  readonly statementsRead: number;
  readonly statementsIgnored: number;
  readonly unmapped: number;
}

/**
 * Maps a snapshot to a draft workload (named after the database or the file) and its record.
 * @example mapSnapshot(snapshot, analyzePostgresStatement).draft.entities.map((e) => e.name)
 */
export function mapSnapshot(given: DatabaseSnapshot, analyze: AnalyzeSql): ImportResult {
  const { snapshot, searchColumns } = withoutSearchColumns(given);
  const structure = mapStructure(snapshot);
  const source = snapshot.source;
  const window =
    source.kind === "postgresql" && source.windowSeconds !== undefined
      ? { seconds: source.windowSeconds, since: source.statementsSince ?? "the last reset" }
      : undefined;
  const statements = mapStatements(structure, snapshot.statements, window, analyze);
  const objects: UnmappedItem[] = snapshot.objects.map((object) => ({
    kind: object.kind,
    name: object.name,
    detail: object.detail,
    reason: objectReason(object.kind),
  }));
  const unread: UnmappedItem[] = snapshot.unread.map((statement) => ({
    kind: "statement",
    name: `line ${statement.line}`,
    detail: statement.text,
    reason: statement.reason,
  }));
  const notes: string[] = [];
  if (searchColumns.length > 0)
    notes.push(
      `Full-text search columns not imported as attributes (their terms are derived from other columns, and Cosmos DB indexes text itself): ${searchColumns.join(", ")}. The columns a generated tsvector or a to_tsvector index reads are marked fullText; the text columns a trigger-maintained tsvector indexes are named in the interview.`,
    );
  notes.push(...structure.notes);
  if (source.kind === "postgresql") {
    notes.push(
      `Read ${formatInteger(snapshot.tables.length)} tables of PostgreSQL ${source.serverVersion} database ${source.database} at ${source.capturedAt}: row counts, sizes, distinct values and skew are ANALYZE statistics (a sample of the rows), rates are pg_stat_statements counts.`,
    );
    if (source.statementsUnavailable !== undefined)
      notes.push(
        `No access patterns were imported: ${source.statementsUnavailable}. Describe them in the interview.`,
      );
    else if (window !== undefined) {
      if (source.statementsHidden !== undefined) {
        const hidden = source.statementsHidden;
        notes.push(
          `${formatInteger(hidden.count)} statements of other roles (${formatInteger(hidden.calls)} calls) were not imported: their text is hidden from role ${hidden.role}, which is not a member of pg_read_all_stats. To import the application's statements, run GRANT pg_read_all_stats TO ${quoteRole(hidden.role)}; (as a superuser or a role with ADMIN on pg_read_all_stats), then import again.`,
        );
      }
      notes.push(
        `Average rates are calls / ${formatDecimal(window.seconds)} s (pg_stat_statements counting since ${window.since}); ${formatInteger(snapshot.statements.length)} statements read, ${formatInteger(statements.ignored)} were not data access (transaction control, settings, catalog queries). Peaks are not in the statistics: the interview asks for each.`,
      );
    }
    const unanalyzed = snapshot.tables.filter(
      (t) => t.columns.length > 0 && t.columns.every((c) => c.statistics === undefined),
    );
    if (unanalyzed.length > 0)
      notes.push(
        `No pg_stats rows for ${unanalyzed.map((t) => t.name).join(", ")} (never analyzed, or the role may not SELECT from them): their sizes and distinct values are asked in the interview. Run ANALYZE, or import with a role that has SELECT on them.`,
      );
  } else {
    notes.push(
      `Structure read from ${source.file} (${source.dialect} DDL, ${source.dialectReason}): item counts, sizes, rates and the access patterns are asked in the interview.`,
    );
  }
  const draft: DraftWorkload = {
    version: 1,
    name:
      source.kind === "postgresql"
        ? source.database
        : source.file.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, ""),
    description: `Imported from ${source.kind === "postgresql" ? `the PostgreSQL database ${source.database}` : `${source.file} (${source.dialect})`}.`,
    scale: {},
    entities: structure.entities,
    relationships: structure.relationships,
    accessPatterns: statements.patterns,
  };
  return {
    draft,
    record: {
      source:
        source.kind === "postgresql"
          ? `PostgreSQL ${source.connection}`
          : `${source.dialect} DDL ${source.file}`,
      importedAt: source.kind === "postgresql" ? source.capturedAt : source.readAt,
      facts: [...structure.facts, ...statements.facts],
      unmapped: [...objects, ...unread, ...structure.unmapped, ...statements.unmapped],
      notes,
    },
    summary: {
      entities: structure.entities.length,
      relationships: structure.relationships.length,
      accessPatterns: statements.patterns.length,
      statementsRead: snapshot.statements.length,
      statementsIgnored: statements.ignored,
      unmapped: objects.length + unread.length + structure.unmapped.length + statements.unmapped.length,
    },
  };
}

function objectReason(kind: UnmappedItem["kind"]): string {
  switch (kind) {
    case "trigger":
      return "logic run by the database on a write: in Cosmos DB it becomes part of the write (a transactional batch), a pre-trigger in the same partition, or a change feed handler";
    case "function":
    case "procedure":
      return "logic kept in the database: in Cosmos DB it moves to the application, a stored procedure scoped to one partition key, or a change feed handler";
    case "view":
    case "materialized-view":
      return "a stored query: if the application reads it, describe that read as an access pattern (a materialized view can become a copy kept by the change feed)";
    case "sequence":
      return "Cosmos DB has no sequences: identifiers are usually GUIDs, or counters kept in an item";
    default:
      return "not expressible in the workload";
  }
}

/** A role name as GRANT takes it: bare when it is a lower-case identifier, else double-quoted. */
function quoteRole(role: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(role) ? role : `"${role.replaceAll('"', '""')}"`;
}

/** Column types that hold a search index's terms, derived from other columns, not data. */
const SEARCH_TYPE = /^(tsvector|tsquery)\b/i;

/**
 * The snapshot without the columns that hold PostgreSQL's full-text search terms (`tsvector`):
 * they are derived from other columns (a trigger or a generated column), so they are not an
 * attribute of the record and would inflate its item size; Cosmos DB indexes text for search
 * itself. Returns them for the import's notes.
 */
function withoutSearchColumns(snapshot: DatabaseSnapshot): {
  snapshot: DatabaseSnapshot;
  searchColumns: string[];
} {
  const searchColumns: string[] = [];
  const tables = snapshot.tables.map((table) => {
    const kept = table.columns.filter((column) => !SEARCH_TYPE.test(column.sqlType.trim()));
    for (const column of table.columns)
      if (!kept.includes(column)) searchColumns.push(`${table.name}.${column.name} (${column.sqlType})`);
    return kept.length === table.columns.length ? table : { ...table, columns: kept };
  });
  return { snapshot: { ...snapshot, tables }, searchColumns };
}
