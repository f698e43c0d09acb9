/**
 * A PostgreSQL DDL file (hand-written or `pg_dump --schema-only`) read with PostgreSQL's own
 * parser: tables, columns, keys, unique constraints and indexes, foreign keys (also those added
 * by ALTER TABLE, as pg_dump writes them), triggers, functions, procedures and views.
 * psql commands (`\connect`, `\restrict`) and COPY data blocks are skipped.
 */
import { attributeTypeOf } from "../snapshot/sql-types.js";
import { list, strings, unwrap, type Tree } from "../sql/parse-tree.js";
import { parsePostgres } from "../sql/postgres-parser.js";
import { generatedColumnSearch, indexSearches } from "../sql/search-declarations.js";
import type { DdlContent } from "./ddl-content.js";
import { DdlCollector } from "./ddl-content.js";

/** psql meta-commands and COPY ... FROM stdin data become blank lines (line numbers kept). */
export function withoutPsqlCommands(text: string): string {
  const lines = text.split("\n");
  let copying = false;
  return lines
    .map((line) => {
      if (copying) {
        if (line.trimEnd() === "\\.") copying = false;
        return "";
      }
      if (/^\s*COPY\s.+\sFROM\s+stdin/i.test(line)) {
        copying = true;
        return "";
      }
      return line.startsWith("\\") ? "" : line;
    })
    .join("\n");
}

/** Line of a character offset (1-based). */
/**
 * The 1-based line of an offset of `text`, from the offsets of its line breaks found once (a
 * binary search per statement: a count from the start for each of 80,000 INSERTs of a 10 MB dump
 * made the import quadratic, minutes instead of seconds).
 */
function lineIndex(text: string): (offset: number) => number {
  const breaks: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) breaks.push(i);
  return (offset) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((breaks[middle] ?? Infinity) < offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
}

/**
 * The statements of `text` with their offsets: the whole file at once when it parses, else one
 * statement at a time (split at the `;` the parser's scanner finds outside strings and bodies).
 */
function parsePieces(text: string): { offset: number; stmt?: unknown; error?: string; sql: string }[] {
  const whole = parsePostgres(text);
  if (!("error" in whole)) {
    return (whole.stmts ?? []).map((s) => {
      const offset = s.stmt_location ?? 0;
      return { offset, stmt: s.stmt, sql: text.slice(offset, offset + (s.stmt_len ?? text.length)) };
    });
  }
  const pieces: { offset: number; stmt?: unknown; error?: string; sql: string }[] = [];
  for (const { offset, sql } of splitAtSemicolons(text)) {
    if (sql.trim() === "") continue;
    const parsed = parsePostgres(sql);
    if ("error" in parsed) pieces.push({ offset, error: parsed.error, sql });
    else for (const s of parsed.stmts ?? []) pieces.push({ offset, stmt: s.stmt, sql });
  }
  return pieces;
}

/** Splits at `;` outside quotes, comments and dollar-quoted bodies. */
function splitAtSemicolons(text: string): { offset: number; sql: string }[] {
  const pieces: { offset: number; sql: string }[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))?.[0];
      if (tag === undefined) i++;
      else {
        const end = text.indexOf(tag, i + tag.length);
        i = end < 0 ? text.length : end + tag.length;
      }
    } else if (c === ";") {
      pieces.push({ offset: start, sql: text.slice(start, i + 1) });
      start = i + 1;
      i++;
    } else i++;
  }
  pieces.push({ offset: start, sql: text.slice(start) });
  return pieces;
}

/** A DEFAULT of the time of the write: now(), CURRENT_TIMESTAMP, clock_timestamp(), ... */
function isNowDefault(constraint: Tree | undefined): boolean {
  if (constraint?.contype !== "CONSTR_DEFAULT") return false;
  const [tag, body] = unwrap(constraint.raw_expr) ?? ["", {}];
  if (tag === "SQLValueFunction") return /CURRENT_TIMESTAMP|LOCALTIMESTAMP/.test(String(body.op));
  if (tag === "FuncCall")
    return ["now", "clock_timestamp", "statement_timestamp", "transaction_timestamp"].includes(
      strings(body.funcname).at(-1) ?? "",
    );
  return false;
}

/** pgvector's types whose modifier is the number of dimensions (`vector(1536)`). */
const VECTOR_TYPES = new Set(["vector", "halfvec", "sparsevec"]);

function typeOf(typeName: Tree | undefined): string {
  const names = strings(typeName?.names).filter((name) => name !== "pg_catalog");
  const array = list(typeName?.arrayBounds).length > 0;
  // the dimensions of a pgvector column are its type modifier, kept as the server prints it
  const dimensions = VECTOR_TYPES.has(names.at(-1)?.toLowerCase() ?? "")
    ? integerOf(list(typeName?.typmods)[0])
    : undefined;
  return `${names.join(".")}${dimensions === undefined ? "" : `(${dimensions})`}${array ? "[]" : ""}`;
}

function integerOf(value: unknown): number | undefined {
  const node = unwrap(value);
  const ival = node?.[0] === "A_Const" ? (node[1].ival as Tree | undefined)?.ival : undefined;
  return typeof ival === "number" ? ival : undefined;
}

function relationOf(value: unknown): { schema: string; name: string } {
  const relation = (unwrap(value)?.[0] === "RangeVar" ? unwrap(value)?.[1] : value) as Tree | undefined;
  return {
    schema: typeof relation?.schemaname === "string" ? relation.schemaname : "public",
    name: typeof relation?.relname === "string" ? relation.relname : "",
  };
}

function readConstraint(
  collector: DdlCollector,
  table: { schema: string; name: string },
  constraint: Tree,
  column?: string,
): void {
  const keys = column === undefined ? strings(constraint.keys) : [column];
  switch (constraint.contype) {
    case "CONSTR_PRIMARY":
      collector.primaryKey(table, keys);
      return;
    case "CONSTR_UNIQUE":
      collector.unique(table, keys);
      return;
    case "CONSTR_NOTNULL":
      if (column !== undefined) collector.notNull(table, column);
      return;
    case "CONSTR_FOREIGN": {
      const referenced = relationOf(constraint.pktable);
      collector.foreignKey({
        name:
          typeof constraint.conname === "string"
            ? constraint.conname
            : `${table.name}_${keys.join("_")}_fkey`,
        schema: table.schema,
        table: table.name,
        columns: column === undefined ? strings(constraint.fk_attrs) : [column],
        referencedSchema: referenced.schema,
        referencedTable: referenced.name,
        referencedColumns: strings(constraint.pk_attrs),
        cascadeDelete: constraint.fk_del_action === "c",
      });
      return;
    }
    default:
      return;
  }
}

/** Reads a PostgreSQL DDL script. */
export function readPostgresDdl(source: string): DdlContent {
  const text = withoutPsqlCommands(source);
  const collector = new DdlCollector();
  const lineAt = lineIndex(text);
  // CREATE DOMAIN year AS integer: a column of the domain is typed by its base type.
  const domains = new Map<string, string>();
  const typed = (sqlType: string) =>
    attributeTypeOf(domains.get(sqlType.split(".").at(-1)?.toLowerCase() ?? "") ?? sqlType);
  for (const piece of parsePieces(text)) {
    const line = lineAt(piece.offset + (piece.sql.length - piece.sql.trimStart().length));
    if (piece.error !== undefined) {
      collector.unread(line, piece.sql, `the PostgreSQL parser cannot read it: ${piece.error}`);
      continue;
    }
    collector.parsed();
    const node = unwrap(piece.stmt);
    if (node === undefined) continue;
    const [tag, body] = node;
    switch (tag) {
      case "CreateDomainStmt": {
        const name = strings(body.domainname).at(-1);
        if (name !== undefined) domains.set(name.toLowerCase(), typeOf(body.typeName as Tree | undefined));
        break;
      }
      case "CreateStmt": {
        if (body.partbound !== undefined) break; // a partition: its rows belong to the parent table
        const table = relationOf(body.relation);
        collector.table(table);
        for (const element of list(body.tableElts)) {
          const [kind, item] = unwrap(element) ?? ["", {}];
          if (kind === "ColumnDef" && typeof item.colname === "string") {
            const sqlType = typeOf(item.typeName as Tree | undefined);
            collector.column(table, {
              name: item.colname,
              sqlType,
              type: typed(sqlType),
              defaultsToNow: list(item.constraints).some((c) => isNowDefault(unwrap(c)?.[1])),
            });
            for (const c of list(item.constraints)) {
              const constraint = unwrap(c)?.[1];
              if (constraint !== undefined) readConstraint(collector, table, constraint, item.colname);
              // tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED: body is searched
              const search =
                constraint?.contype === "CONSTR_GENERATED"
                  ? generatedColumnSearch(table.name, item.colname, sqlType, constraint.raw_expr)
                  : undefined;
              if (search !== undefined) collector.search(table, search);
            }
          } else if (kind === "Constraint") readConstraint(collector, table, item);
        }
        break;
      }
      case "AlterTableStmt": {
        const table = relationOf(body.relation);
        for (const command of list(body.cmds)) {
          const cmd = unwrap(command)?.[1];
          const def = unwrap(cmd?.def);
          if (cmd?.subtype === "AT_AddConstraint" && def?.[0] === "Constraint")
            readConstraint(collector, table, def[1]);
          if (cmd?.subtype === "AT_AttachPartition" && def?.[0] === "PartitionCmd")
            collector.partitionOf(relationOf(def[1].name), table);
          if (
            cmd?.subtype === "AT_AddColumn" &&
            def?.[0] === "ColumnDef" &&
            typeof def[1].colname === "string"
          ) {
            const sqlType = typeOf(def[1].typeName as Tree | undefined);
            collector.column(table, { name: def[1].colname, sqlType, type: typed(sqlType) });
          }
        }
        break;
      }
      case "IndexStmt": {
        const columns = list(body.indexParams).map((p) => unwrap(p)?.[1].name);
        if (
          body.unique === true &&
          body.whereClause === undefined &&
          columns.every((c): c is string => typeof c === "string")
        )
          collector.unique(relationOf(body.relation), columns);
        for (const search of indexSearches(body, piece.sql))
          collector.search(relationOf(body.relation), search);
        break;
      }
      case "CreateTrigStmt": {
        const table = relationOf(body.relation);
        collector.object({
          kind: "trigger",
          name: String(body.trigname ?? ""),
          detail: `on ${table.name}: ${piece.sql.trim().replace(/\s+/g, " ").slice(0, 200)}`,
        });
        break;
      }
      case "CreateFunctionStmt":
        collector.object({
          kind: body.is_procedure === true ? "procedure" : "function",
          name: strings(body.funcname).join("."),
          detail: piece.sql.trim().split("\n")[0]?.slice(0, 200) ?? "",
        });
        break;
      case "ViewStmt":
        collector.object({
          kind: "view",
          name: relationOf(body.view).name,
          detail: piece.sql.trim().replace(/\s+/g, " ").slice(0, 200),
        });
        break;
      case "CreateTableAsStmt":
        collector.object({
          kind: body.objtype === "OBJECT_MATVIEW" ? "materialized-view" : "other",
          name: relationOf((body.into as Tree | undefined)?.rel).name,
          detail: piece.sql.trim().replace(/\s+/g, " ").slice(0, 200),
        });
        break;
      default:
        break;
    }
  }
  return collector.content();
}
