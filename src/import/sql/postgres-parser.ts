/**
 * PostgreSQL's own parser (libpg-query: the server's parser compiled to WebAssembly), loaded
 * once. It reads every statement pg_stat_statements records, `$1` parameters included, and
 * every statement pg_dump writes.
 */
import { loadModule, parseSync, type ParseResult } from "libpg-query";
import type { AnalyzeSql } from "./statement-shape.js";
import { analyzeStatement } from "./analyze-statement.js";

let loaded: Promise<void> | undefined;

/** Loads the parser (WebAssembly) once; later calls return at once. */
export async function loadPostgresParser(): Promise<void> {
  loaded ??= loadModule();
  await loaded;
}

/** Parses SQL text (after `loadPostgresParser`), or returns the parser's message. */
export function parsePostgres(sql: string): ParseResult | { readonly error: string } {
  try {
    return parseSync(sql);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The shape of one normalized statement, for `mapStatements` (after `loadPostgresParser`). */
export const analyzePostgresStatement: AnalyzeSql = (sql) => {
  const parsed = parsePostgres(sql);
  if ("error" in parsed) return parsed;
  const statements = parsed.stmts ?? [];
  if (statements.length !== 1 || statements[0] === undefined)
    return { kind: "unsupported", reason: `one call runs ${statements.length} statements`, tables: [] };
  return analyzeStatement(statements[0].stmt);
};
