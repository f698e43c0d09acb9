/**
 * A MySQL or SQL Server DDL script read with node-sql-parser (its MySQL and TransactSQL
 * grammars), one statement at a time: CREATE TABLE (columns, keys, inline and table
 * references), ALTER TABLE ... ADD CONSTRAINT, CREATE UNIQUE INDEX. Triggers, procedures,
 * functions and views are recognised by their first words and listed; a statement the grammar
 * rejects is listed with the parser's message.
 */
import { createRequire } from "node:module";
import { attributeTypeOf } from "../snapshot/sql-types.js";
import { DdlCollector, type DdlContent } from "./ddl-content.js";
import {
  leadingWords,
  splitStatements,
  statementText,
  type SplitStatement,
  type Token,
} from "./split-statements.js";

type Tree = Readonly<Record<string, unknown>>;

interface SqlParser {
  astify(sql: string, options: { database: string }): unknown;
}

// Each dialect's grammar is its own build; loading one keeps the others (80 MB) out of memory.
const require = createRequire(import.meta.url);
const parsers = new Map<string, SqlParser>();
function parserFor(dialect: "mysql" | "sqlserver"): SqlParser {
  let parser = parsers.get(dialect);
  if (parser === undefined) {
    const build = require(
      dialect === "mysql" ? "node-sql-parser/build/mysql.js" : "node-sql-parser/build/transactsql.js",
    ) as {
      Parser: new () => SqlParser;
    };
    parser = new build.Parser();
    parsers.set(dialect, parser);
  }
  return parser;
}

const list = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
const tree = (value: unknown): Tree => (typeof value === "object" && value !== null ? (value as Tree) : {});

/** A column name from node-sql-parser's column_ref (a string, or `{ expr: { value } }`). */
function columnName(value: unknown): string {
  const ref = tree(value);
  const column = ref.column ?? value;
  if (typeof column === "string") return column;
  const expr = tree(tree(column).expr);
  return typeof expr.value === "string" ? expr.value : "";
}

function tableName(value: unknown, defaultSchema: string): { schema: string; name: string } {
  const ref = tree(list(value)[0]);
  const name = typeof ref.table === "string" ? ref.table : "";
  const schema =
    typeof ref.schema === "string" && ref.schema !== ""
      ? ref.schema
      : typeof ref.db === "string" && ref.db !== ""
        ? ref.db
        : defaultSchema;
  return { schema, name };
}

function dataType(definition: Tree): string {
  const type = typeof definition.dataType === "string" ? definition.dataType.toLowerCase() : "";
  const length =
    typeof definition.length === "number"
      ? `(${definition.length}${typeof definition.scale === "number" ? `,${definition.scale}` : ""})`
      : "";
  return `${type}${length}`;
}

/**
 * node-sql-parser 5.4's TransactSQL grammar rejects `REFERENCES t (c)` unless the column has an
 * ASC/DESC (fixed upstream in taozhi8833998/node-sql-parser#2648, not yet released): the
 * referenced columns get an explicit ASC, which changes nothing a foreign key means.
 */
function withReferenceOrder(tokens: readonly Token[]): string {
  const out: string[] = [];
  let state: "none" | "name" | "columns" = "none";
  let pendingColumn = false;
  for (const token of tokens) {
    const upper = token.text.toUpperCase();
    if (state === "columns" && token.kind === "symbol" && (token.text === "," || token.text === ")")) {
      if (pendingColumn) out.push(" ASC");
      pendingColumn = false;
      if (token.text === ")") state = "none";
    } else if (state === "columns" && (token.kind === "word" || token.kind === "quoted")) {
      pendingColumn = !(upper === "ASC" || upper === "DESC");
    } else if (state === "name" && token.kind === "symbol" && token.text === "(") {
      state = "columns";
    } else if (
      state === "name" &&
      token.kind !== "space" &&
      !(token.kind === "symbol" && token.text === ".") &&
      token.kind !== "word" &&
      token.kind !== "quoted"
    ) {
      state = "none";
    } else if (state === "name" && token.kind === "word" && ["ON", "MATCH", "NOT"].includes(upper)) {
      state = "none";
    }
    if (token.kind === "word" && upper === "REFERENCES") state = "name";
    out.push(token.text);
  }
  return out.join("");
}

/** Column name -> declared type, for the types a grammar cannot read and a stand-in replaced. */
type DeclaredTypes = ReadonlyMap<string, string>;

const unquoted = (name: string): string => name.replace(/^[[`"]|[\]`"]$/g, "");

/**
 * SQL Server 2025's `VECTOR(n)` and `VECTOR(n, float16)` (a column's type, after its name in
 * CREATE TABLE or ALTER TABLE ... ADD), which node-sql-parser's TransactSQL grammar rejects: each becomes `VARBINARY(8000)` for the grammar, and the declared type is kept
 * by column name for the column read (`vector(1536)`, `vector(768, float16)`).
 */
function withVectorStandIns(tokens: readonly Token[]): { tokens: Token[]; declared: DeclaredTypes } {
  const out: Token[] = [];
  const declared = new Map<string, string>();
  const meaningful = (from: number, step: 1 | -1, count: number): { token: Token; index: number }[] => {
    const found: { token: Token; index: number }[] = [];
    for (let i = from + step; i >= 0 && i < tokens.length && found.length < count; i += step) {
      const token = tokens[i];
      if (token !== undefined && token.kind !== "space") found.push({ token, index: i });
    }
    return found;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    const [name, before] = meaningful(i, -1, 2);
    const after = meaningful(i, 1, 5);
    const inTypePosition =
      token.kind === "word" &&
      token.text.toUpperCase() === "VECTOR" &&
      (name?.token.kind === "word" || name?.token.kind === "quoted") &&
      (before?.token.text === "(" ||
        before?.token.text === "," ||
        before?.token.text.toUpperCase() === "ADD");
    const dimensions = after[1]?.token;
    if (!inTypePosition || after[0]?.token.text !== "(" || dimensions?.kind !== "number") {
      out.push(token);
      continue;
    }
    // VECTOR ( n ) or VECTOR ( n , base type )
    const closeAt =
      after[2]?.token.text === ")"
        ? 2
        : after[2]?.token.text === "," && after[4]?.token.text === ")"
          ? 4
          : -1;
    const close = after[closeAt];
    if (close === undefined) {
      out.push(token);
      continue;
    }
    const base = closeAt === 4 ? after[3]?.token.text.toLowerCase() : undefined;
    declared.set(
      unquoted(name?.token.text ?? ""),
      `vector(${dimensions.text}${base === undefined ? "" : `, ${base}`})`,
    );
    out.push({ kind: "word", text: "VARBINARY(8000)" });
    i = close.index;
  }
  return { tokens: out, declared };
}

const OBJECT_KINDS: Readonly<Record<string, "trigger" | "procedure" | "function" | "view">> = {
  TRIGGER: "trigger",
  PROCEDURE: "procedure",
  PROC: "procedure",
  FUNCTION: "function",
  VIEW: "view",
};

/** A CREATE [OR REPLACE | OR ALTER] [DEFINER = x] TRIGGER/PROCEDURE/FUNCTION/VIEW, by its first words. */
function objectOf(
  statement: SplitStatement,
): { kind: "trigger" | "procedure" | "function" | "view"; name: string } | undefined {
  const words = leadingWords(statement, 12);
  if (words[0] !== "CREATE" && !(words[0] === "ALTER" && words.length > 1)) return undefined;
  const index = words.findIndex((w) => OBJECT_KINDS[w] !== undefined);
  if (index < 0 || index > 6) return undefined;
  const kind = OBJECT_KINDS[words[index] ?? ""];
  if (kind === undefined) return undefined;
  const text = statementText(statement);
  const name =
    new RegExp(`\\b${words[index] ?? ""}\\s+((?:[\\w$\`"\\[\\]]+\\.)*[\\w$\`"\\[\\]]+)`, "i").exec(
      text,
    )?.[1] ?? "";
  return { kind, name: name.replace(/[`"[\]]/g, "") };
}

function readCreateTable(
  collector: DdlCollector,
  ast: Tree,
  defaultSchema: string,
  declared: DeclaredTypes,
): void {
  const table = tableName(ast.table, defaultSchema);
  collector.table(table);
  for (const item of list(ast.create_definitions)) {
    const definition = tree(item);
    if (definition.resource === "column") {
      const name = columnName(definition.column);
      const sqlType = declared.get(name) ?? dataType(tree(definition.definition));
      const notNull = tree(definition.nullable).type === "not null";
      collector.column(table, { name, sqlType, type: attributeTypeOf(sqlType), notNull });
      if (definition.primary_key !== undefined && definition.primary_key !== null)
        collector.primaryKey(table, [name]);
      if (definition.unique !== undefined && definition.unique !== null) collector.unique(table, [name]);
      if (definition.reference_definition !== undefined && definition.reference_definition !== null)
        readReference(
          collector,
          table,
          [name],
          tree(definition.reference_definition),
          undefined,
          defaultSchema,
        );
    } else if (definition.resource === "constraint") {
      readConstraint(collector, table, definition, defaultSchema);
    } else if (
      definition.resource === "index" &&
      /unique/i.test(String(definition.index_type ?? definition.keyword ?? ""))
    ) {
      collector.unique(table, list(definition.definition).map(columnName));
    }
  }
}

function readConstraint(
  collector: DdlCollector,
  table: { schema: string; name: string },
  definition: Tree,
  defaultSchema: string,
): void {
  const type = String(definition.constraint_type ?? "").toLowerCase();
  const columns = list(definition.definition).map(columnName);
  if (type === "primary key") collector.primaryKey(table, columns);
  else if (type.startsWith("unique")) collector.unique(table, columns);
  else if (type === "foreign key")
    readReference(
      collector,
      table,
      columns,
      tree(definition.reference_definition),
      typeof definition.constraint === "string" ? definition.constraint : undefined,
      defaultSchema,
    );
}

function readReference(
  collector: DdlCollector,
  table: { schema: string; name: string },
  columns: readonly string[],
  reference: Tree,
  name: string | undefined,
  defaultSchema: string,
): void {
  const referenced = tableName(reference.table, defaultSchema);
  const cascade = list(reference.on_action).some((action) => {
    const a = tree(action);
    return a.type === "on delete" && /cascade/i.test(String(tree(a.value).value ?? ""));
  });
  collector.foreignKey({
    name: name ?? `${table.name}_${columns.join("_")}_fkey`,
    schema: table.schema,
    table: table.name,
    columns: [...columns],
    referencedSchema: referenced.schema,
    referencedTable: referenced.name,
    referencedColumns: list(reference.definition).map(columnName),
    cascadeDelete: cascade,
  });
}

function readStatement(
  collector: DdlCollector,
  ast: Tree,
  defaultSchema: string,
  declared: DeclaredTypes,
): void {
  if (ast.type === "create" && ast.keyword === "table")
    readCreateTable(collector, ast, defaultSchema, declared);
  else if (ast.type === "create" && ast.keyword === "index" && /unique/i.test(String(ast.index_type ?? ""))) {
    collector.unique(tableName(ast.table, defaultSchema), list(ast.index_columns).map(columnName));
  } else if (ast.type === "alter") {
    const table = tableName(ast.table, defaultSchema);
    for (const expression of list(ast.expr)) {
      const e = tree(expression);
      if (e.action !== "add") continue;
      const definition = tree(e.create_definitions);
      if (e.resource === "constraint") readConstraint(collector, table, definition, defaultSchema);
      if (e.resource === "column") {
        const name = columnName(e.column);
        const sqlType = declared.get(name) ?? dataType(tree(e.definition));
        collector.column(table, { name, sqlType, type: attributeTypeOf(sqlType) });
      }
    }
  }
}

/**
 * MySQL's national character types, which its grammar in node-sql-parser refuses, written as the
 * types they are synonyms of (NVARCHAR(20) is VARCHAR(20) CHARACTER SET utf8): a string either way.
 */
const MYSQL_SYNONYMS: Readonly<Record<string, string>> = {
  NVARCHAR: "VARCHAR",
  NCHAR: "CHAR",
  NATIONAL: "",
};

function withMysqlSynonyms(tokens: readonly Token[]): string {
  const meaningful = tokens.map((token, index) => ({ token, index })).filter((t) => t.token.kind !== "space");
  const typePosition = (at: number): boolean => {
    // `( name TYPE` or `, name TYPE`: the word after a column's name
    const name = meaningful[at - 1]?.token;
    const before = meaningful[at - 2]?.token.text;
    return (name?.kind === "word" || name?.kind === "quoted") && (before === "(" || before === ",");
  };
  const replaced = new Map<number, string>();
  meaningful.forEach(({ token, index }, at) => {
    const synonym = token.kind === "word" ? MYSQL_SYNONYMS[token.text.toUpperCase()] : undefined;
    if (synonym !== undefined && typePosition(at)) replaced.set(index, synonym);
  });
  return tokens
    .map((token, index) => replaced.get(index) ?? token.text)
    .join("")
    .trim();
}

/** Statements that write rows, not structure. */
const DATA_STATEMENTS = new Set(["INSERT", "REPLACE"]);

/** Reads a MySQL or SQL Server DDL script. */
export function readSqlParserDdl(text: string, dialect: "mysql" | "sqlserver"): DdlContent {
  const parser = parserFor(dialect);
  const defaultSchema = dialect === "sqlserver" ? "dbo" : "";
  const collector = new DdlCollector();
  for (const statement of splitStatements(text, dialect)) {
    const object = objectOf(statement);
    if (object !== undefined) {
      collector.parsed();
      collector.object({ ...object, detail: statementText(statement).replace(/\s+/g, " ").slice(0, 200) });
      continue;
    }
    // Rows of a dump (mysqldump without --no-data) say nothing of the structure: not parsed,
    // which keeps a 10 MB dump in seconds (the parser takes about 3 ms per INSERT of 50 rows).
    if (DATA_STATEMENTS.has(leadingWords(statement, 1)[0] ?? "")) {
      collector.parsed();
      continue;
    }
    const standIns =
      dialect === "sqlserver"
        ? withVectorStandIns(statement.tokens)
        : { tokens: statement.tokens, declared: new Map() };
    const sql =
      dialect === "sqlserver" ? withReferenceOrder(standIns.tokens) : withMysqlSynonyms(statement.tokens);
    let ast: unknown;
    try {
      ast = parser.astify(sql, { database: dialect === "mysql" ? "MySQL" : "TransactSQL" });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      collector.unread(
        statement.line,
        statementText(statement),
        `the ${dialect === "mysql" ? "MySQL" : "SQL Server"} parser cannot read it: ${message.slice(0, 200)}`,
      );
      continue;
    }
    collector.parsed();
    for (const item of list(ast)) readStatement(collector, tree(item), defaultSchema, standIns.declared);
  }
  return collector.content();
}
