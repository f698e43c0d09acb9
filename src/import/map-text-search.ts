/**
 * PostgreSQL's full-text match in a statement (`WHERE search @@ websearch_to_tsquery('english',
 * $1) ORDER BY ts_rank(search, ...) DESC LIMIT 10`) -> the full-text part of a read's `search:`
 * (issue 31): the attribute searched, and the terms a query sends when the statement shows them.
 * Recognises the operator and the text search functions, never column names: the searched text
 * is the columns `to_tsvector(...)` reads, or those a generated `tsvector` column is computed from.
 * Pure: every decision is a note for the import record.
 */
import type { DraftAttribute } from "../session/draft.js";
import { MAX_SEARCH_TERMS } from "../workload/raw-schema.js";
import { DEFAULT_SEARCH_TERMS } from "../workload/load-workload.js";
import type { MappedTable } from "./map-structure.js";
import type { ColumnReference, TextMatch } from "./sql/statement-shape.js";

/** The full-text part of a search read. */
export interface TextSearchOfRead {
  readonly fullText: string;
  /** The terms a query sends at most, when the statement's query text is a constant. */
  readonly terms?: number;
}

/** What the mapping knows of the table the read is about. */
export interface SearchedTable {
  readonly table: MappedTable;
  /** The attributes of its entity (those with `fullText` can be searched). */
  readonly attributes: readonly DraftAttribute[];
  /** Whether a column the statement names is one of this table's (not a joined table's). */
  readonly owns: (column: ColumnReference) => boolean;
}

/** The condition as a person reads it, for the notes. */
function written(match: TextMatch): string {
  const document =
    match.document.kind === "tsvectorColumn"
      ? match.document.column.column
      : `to_tsvector(${match.document.config === undefined ? "" : `'${match.document.config}', `}${match.document.columns.map((c) => c.column).join(" || ")})`;
  return `${document} @@ ${match.query === "a tsquery value" ? "$n" : `${match.query}(...)`}`;
}

/** The columns of the table whose text a match searches, or why they are not known. */
function searchedColumns(match: TextMatch, searched: SearchedTable): string[] | string {
  const document = match.document;
  if (document.kind === "toTsvector") {
    const own = document.columns.filter(searched.owns);
    return own.length > 0 ? own.map((c) => c.column) : "it searches the text of a joined table";
  }
  if (!searched.owns(document.column)) return "it searches a tsvector of a joined table";
  const declaration = (searched.table.table.search ?? []).find(
    (s) => s.kind === "fullText" && s.generatedColumn === document.column.column,
  );
  if (declaration?.kind !== "fullText")
    return `${document.column.column} is not a generated tsvector column, so the text it holds (kept by a trigger or the application) is not known: name the searched attribute in the interview`;
  return [...declaration.columns];
}

/**
 * The full-text search of a read whose WHERE matches text, or undefined (no match, or none of
 * the searched columns is a full-text attribute: then an ordinary read, said in `notes`).
 */
export function mapTextSearch(
  matches: readonly TextMatch[],
  rankedBy: string | undefined,
  searched: SearchedTable,
  notes: string[],
): TextSearchOfRead | undefined {
  const found: { match: TextMatch; attribute: string }[] = [];
  for (const match of matches) {
    const columns = searchedColumns(match, searched);
    if (typeof columns === "string") {
      notes.push(`WHERE ${written(match)}: ${columns}; the condition is kept out of the pattern`);
      continue;
    }
    for (const column of columns) {
      const name = searched.table.attributes.get(column);
      const attribute = searched.attributes.find((a) => a.name === name);
      if (attribute?.fullText !== undefined) found.push({ match, attribute: attribute.name });
      else
        notes.push(
          `WHERE ${written(match)} searches ${column}, but no GIN or GiST index on to_tsvector and no generated tsvector column declares its text search: ${name ?? column} is not marked fullText (mark it, with its language, in the interview to make this read a full-text search)`,
        );
    }
  }
  const [chosen] = found;
  if (chosen === undefined) {
    if (matches.length > 0) notes.push("no full-text attribute is searched: drafted as an ordinary read");
    return undefined;
  }
  const attributes = [...new Set(found.map((f) => f.attribute))];
  notes.push(
    `WHERE ${written(chosen.match)}: a full-text search of ${chosen.attribute}${chosen.match.query === "a tsquery value" ? "" : ` (${chosen.match.query} builds the query from the user's text)`}`,
  );
  if (attributes.length > 1)
    notes.push(
      `the text searched is ${attributes.join(", ")} together; a search read names one full-text attribute: ${chosen.attribute} is kept (change it in the interview, or keep the text in one attribute)`,
    );
  notes.push(
    rankedBy !== undefined
      ? `ORDER BY ${rankedBy}(...): the matches ranked by relevance, as Cosmos DB ranks them by BM25 (ORDER BY RANK FullTextScore)`
      : "the statement keeps the matches without ranking them (no ORDER BY ts_rank): drafted as a search for the k best matches by BM25; if the application needs every match, change the read in the interview",
  );
  const words = chosen.match.words;
  if (words === undefined) {
    notes.push(
      `terms: the query's text is a parameter, so how many terms it sends is not known; the workload's default, ${DEFAULT_SEARCH_TERMS}, applies: set the most terms a query sends`,
    );
    return { fullText: chosen.attribute };
  }
  const terms = Math.min(words, MAX_SEARCH_TERMS);
  notes.push(
    `terms = ${terms}: the words of the query's text in the statement${words > terms ? ` (${words}, more than the ${MAX_SEARCH_TERMS} this tool reads)` : ""}`,
  );
  return { fullText: chosen.attribute, terms };
}
