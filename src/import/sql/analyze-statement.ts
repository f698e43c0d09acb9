/**
 * Reads the shape of a statement from the tree of PostgreSQL's own parser (libpg-query, the
 * parser of the server compiled to WebAssembly), so that every statement pg_stat_statements
 * records, `$1` parameters included, is read exactly as the server read it.
 */
import type { PredicateOperator } from "../../workload/types.js";
import type {
  Aggregate,
  ColumnEquality,
  ColumnReference,
  Filter,
  SelectShape,
  StatementShape,
  TableReference,
  TextMatch,
} from "./statement-shape.js";

type Tree = Readonly<Record<string, unknown>>;

/** The one key of a parser node (`{ SelectStmt: {...} }` -> ["SelectStmt", {...}]). */
function unwrap(value: unknown): [string, Tree] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const entries = Object.entries(value);
  const entry = entries[0];
  if (entries.length !== 1 || entry === undefined) return undefined;
  const [tag, body] = entry;
  return typeof body === "object" && body !== null ? [tag, body as Tree] : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  const node = unwrap(value);
  return node?.[0] === "String" && typeof node[1].sval === "string" ? node[1].sval : undefined;
}

function names(value: unknown): string[] {
  return list(value).flatMap((item) => {
    const s = str(item);
    return s === undefined ? [] : [s];
  });
}

/** A column reference, or undefined for anything else (`*`, expressions). */
function columnOf(value: unknown): ColumnReference | undefined {
  const node = unwrap(value);
  if (node === undefined) return undefined;
  const [tag, body] = node;
  if (tag === "TypeCast") return columnOf(body.arg);
  if (tag !== "ColumnRef") return undefined;
  const fields = list(body.fields);
  const parts = names(fields);
  if (parts.length !== fields.length || parts.length === 0) return undefined;
  const column = parts[parts.length - 1] ?? "";
  const alias = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  return alias === undefined ? { column } : { alias, column };
}

/** True when the expression names no column: a parameter, a constant or a function of them. */
function isValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.every(isValue);
  if (typeof value !== "object") return true;
  const node = unwrap(value);
  if (node !== undefined && (node[0] === "ColumnRef" || node[0] === "SubLink")) return false;
  return Object.values(value).every((child) => typeof child !== "object" || child === null || isValue(child));
}

const RANGE_OPERATORS = new Set(["<", ">", "<=", ">="]);

/** The text of a string constant (`'ab%'`), else undefined. */
function constantText(value: unknown): string | undefined {
  const node = unwrap(value);
  if (node?.[0] !== "A_Const") return undefined;
  const sval = (node[1].sval as Tree | undefined)?.sval;
  return typeof sval === "string" ? sval : undefined;
}

/** The operands of a `||` concatenation, left to right (the value itself when it is none). */
function concatenated(value: unknown): unknown[] {
  const node = unwrap(value);
  if (node?.[0] === "A_Expr" && node[1].kind === "AEXPR_OP" && names(node[1].name).join("") === "||")
    return [...concatenated(node[1].lexpr), ...concatenated(node[1].rexpr)];
  return [value];
}

/**
 * What a LIKE pattern searches for, from its constants: `contains` when it starts with a wildcard
 * (`'%term%'`, `'%' || $1 || '%'`), `prefix` when its wildcards come only after a first constant
 * or a parameter (`'ab%'`, `$1 || '%'`), `eq` for a constant without wildcards; `hidden` when the
 * whole pattern is a parameter (`LIKE $1`: pg_stat_statements keeps no value, so neither can be
 * told; it is read as a prefix search and said so).
 */
function likeKind(pattern: unknown): "contains" | "prefix" | "eq" | "hidden" {
  const parts = concatenated(pattern);
  const texts = parts.map(constantText);
  const first = texts[0];
  if (first !== undefined && /^[%_]/.test(first)) return "contains";
  if (parts.length === 1 && first !== undefined) return /[%_]/.test(first) ? "prefix" : "eq";
  if (texts.some((text) => text !== undefined && /[%_]/.test(text))) return "prefix";
  return "hidden";
}

interface WhereParts {
  filters: Filter[];
  /** Full-text matches (`document @@ query`). */
  textMatches: TextMatch[];
  /** Queries built in FROM (`FROM docs, websearch_to_tsquery($1) q`): alias -> function. */
  queryAliases: Map<string, string>;
  joins: ColumnEquality[];
  residual: string[];
  /** What was read by assumption (a LIKE pattern the statement does not show), in words. */
  notes: string[];
  problem?: string;
}

function emptyWhere(): WhereParts {
  return { filters: [], textMatches: [], queryAliases: new Map(), joins: [], residual: [], notes: [] };
}

/** Splits a WHERE (or JOIN ... ON) tree into filters, join conditions and the rest. */
function readWhere(value: unknown, parts: WhereParts): void {
  const node = unwrap(value);
  if (node === undefined) return;
  const [tag, body] = node;
  const filter = (column: ColumnReference | undefined, operator: PredicateOperator, written: string) => {
    if (column === undefined) parts.residual.push(`${written} on an expression`);
    else parts.filters.push({ column, operator, written });
  };
  switch (tag) {
    case "BoolExpr": {
      if (body.boolop === "AND_EXPR") for (const arg of list(body.args)) readWhere(arg, parts);
      else if (body.boolop === "OR_EXPR") parts.problem ??= "its WHERE combines conditions with OR";
      else if (list(body.args).some((arg) => unwrap(arg)?.[0] === "SubLink"))
        // NOT EXISTS (...), NOT IN (SELECT ...): a condition on other rows, not a filter
        parts.problem ??= "its WHERE has a NOT EXISTS or NOT IN subquery";
      else parts.residual.push("a NOT condition");
      return;
    }
    case "A_Expr": {
      const operator = names(body.name).join(" ");
      const left = columnOf(body.lexpr);
      const right = columnOf(body.rexpr);
      switch (body.kind) {
        case "AEXPR_OP":
          if (operator === "@@") {
            // tsvector @@ tsquery, or tsquery @@ tsvector: PostgreSQL's full-text match
            const match =
              textMatchOf(body.lexpr, body.rexpr, parts.queryAliases) ??
              textMatchOf(body.rexpr, body.lexpr, parts.queryAliases);
            if (match === undefined) parts.residual.push("a @@ condition that is not a text search");
            else parts.textMatches.push(match);
            return;
          }
          if (left !== undefined && right !== undefined) {
            if (operator === "=") parts.joins.push({ left, right });
            else parts.residual.push(`a comparison ${operator} between two columns`);
            return;
          }
          if (operator === "=" || RANGE_OPERATORS.has(operator)) {
            const column = left ?? right;
            const other = left === undefined ? body.lexpr : body.rexpr;
            if (column === undefined || !isValue(other)) {
              parts.residual.push(`a ${operator} condition on an expression`);
              return;
            }
            filter(column, operator === "=" ? "eq" : "range", operator);
            return;
          }
          parts.residual.push(`a ${operator} condition`);
          return;
        case "AEXPR_OP_ANY":
          if (operator === "=" && isValue(body.rexpr)) filter(left, "in", "= ANY");
          else parts.residual.push(`a ${operator} ANY condition`);
          return;
        case "AEXPR_IN":
          if (operator === "=" && isValue(body.rexpr)) filter(left, "in", "IN");
          else parts.residual.push("a NOT IN condition");
          return;
        case "AEXPR_BETWEEN":
        case "AEXPR_BETWEEN_SYM":
          filter(left, "range", "BETWEEN");
          return;
        case "AEXPR_LIKE":
        case "AEXPR_ILIKE":
          if (operator.startsWith("!")) {
            parts.residual.push(`a NOT ${body.kind === "AEXPR_LIKE" ? "LIKE" : "ILIKE"} condition`);
            return;
          }
          {
            const written = body.kind === "AEXPR_LIKE" ? "LIKE" : "ILIKE";
            const kind = likeKind(body.rexpr);
            if (kind === "hidden") {
              // pg_stat_statements hides the pattern ($1): a prefix search is the indexable reading
              filter(left, "prefix", `${written} $n`);
              parts.notes.push(
                `${left?.column ?? "an expression"} ${written} $n: the pattern is a parameter, so whether it searches from the start or inside the text is not known; read as prefix (change the filter to contains if the application searches inside the text, e.g. '%term%')`,
              );
            } else if (kind === "contains") filter(left, "contains", `${written} '%...'`);
            else filter(left, kind, written);
          }
          return;
        default:
          parts.residual.push(
            `a ${String(body.kind)
              .replace(/^AEXPR_/, "")
              .toLowerCase()} condition`,
          );
          return;
      }
    }
    case "ColumnRef": {
      // WHERE is_active: a boolean column compared with true
      filter(columnOf(value), "eq", "boolean column");
      return;
    }
    case "NullTest":
      parts.residual.push(
        `${columnOf(body.arg)?.column ?? "an expression"} IS ${body.nulltesttype === "IS_NULL" ? "" : "NOT "}NULL`,
      );
      return;
    case "SubLink":
      parts.problem ??= "its WHERE has a subquery";
      return;
    default:
      parts.residual.push(`a ${tag} condition`);
  }
}

/** PostgreSQL's functions that build a text search query from the user's text. */
const TSQUERY_FUNCTIONS = new Set([
  "to_tsquery",
  "plainto_tsquery",
  "websearch_to_tsquery",
  "phraseto_tsquery",
]);

/** PostgreSQL's text search ranking functions (ORDER BY ts_rank(document, query) DESC). */
const RANK_FUNCTIONS = new Set(["ts_rank", "ts_rank_cd"]);

function functionName(body: Tree): string {
  return names(body.funcname).at(-1)?.toLowerCase() ?? "";
}

/** Every call of one of `wanted` in an expression, outermost first. */
function callsOf(value: unknown, wanted: ReadonlySet<string>): Tree[] {
  if (typeof value !== "object" || value === null) return [];
  const node = unwrap(value);
  if (node?.[0] === "FuncCall" && wanted.has(functionName(node[1]))) return [node[1]];
  return Object.values(value).flatMap((child) => callsOf(child, wanted));
}

/** A string constant, also cast (`'english'::regconfig`). */
function castConstantText(value: unknown): string | undefined {
  const node = unwrap(value);
  return node?.[0] === "TypeCast" ? castConstantText(node[1].arg) : constantText(value);
}

const TO_TSVECTOR = new Set(["to_tsvector"]);

/**
 * `document @@ query` read as a full-text match when `query` is a value (a parameter, a constant,
 * a text search function of them) and `document` a column or `to_tsvector(...)` of columns.
 */
function textMatchOf(
  document: unknown,
  query: unknown,
  queryAliases: ReadonlyMap<string, string>,
): TextMatch | undefined {
  // `search @@ q` with q a query of FROM: the function that built it
  const named = columnOf(query);
  const aliased = named === undefined ? undefined : queryAliases.get(named.alias ?? named.column);
  if (aliased === undefined && !isValue(query)) return undefined;
  const column = columnOf(document);
  const vectors = column === undefined ? callsOf(document, TO_TSVECTOR) : [];
  if (column === undefined && vectors.length === 0) return undefined;
  const config = vectors
    .map((call) => list(call.args))
    .map((args) => (args.length >= 2 ? castConstantText(args[0]) : undefined))
    .find((c) => c !== undefined);
  const built = callsOf(query, TSQUERY_FUNCTIONS)[0];
  const text = built === undefined ? undefined : castConstantText(list(built.args).at(-1));
  const words = text?.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "").length;
  return {
    document:
      column !== undefined
        ? { kind: "tsvectorColumn", column }
        : {
            kind: "toTsvector",
            columns: vectors.flatMap((call) => columnsIn(list(call.args).at(-1))),
            ...(config === undefined ? {} : { config }),
          },
    query: aliased ?? (built === undefined ? "a tsquery value" : functionName(built)),
    ...(words === undefined || words === 0 ? {} : { words }),
  };
}

interface FromParts {
  tables: TableReference[];
  problem?: string;
}

function readFrom(value: unknown, parts: FromParts, where: WhereParts): void {
  const node = unwrap(value);
  if (node === undefined) return;
  const [tag, body] = node;
  switch (tag) {
    case "RangeVar":
      parts.tables.push(tableOf(body));
      return;
    case "JoinExpr":
      readFrom(body.larg, parts, where);
      readFrom(body.rarg, parts, where);
      if (list(body.usingClause).length > 0) {
        parts.problem ??= "it joins with USING";
        return;
      }
      readWhere(body.quals, where);
      return;
    case "RangeSubselect":
      parts.problem ??= "it reads from a subquery";
      return;
    case "RangeFunction": {
      // FROM docs, websearch_to_tsquery('english', $1) q: a text search query, not a table
      const call = unwrap(list(unwrap(list(body.functions)[0])?.[1].items)[0]);
      const alias = (body.alias as Tree | undefined)?.aliasname;
      if (
        call?.[0] === "FuncCall" &&
        TSQUERY_FUNCTIONS.has(functionName(call[1])) &&
        isValue(call[1].args) &&
        typeof alias === "string"
      )
        where.queryAliases.set(alias, functionName(call[1]));
      else parts.problem ??= "it reads from a function";
      return;
    }
    default:
      parts.problem ??= `it reads from a ${tag}`;
  }
}

function tableOf(body: Tree): TableReference {
  const table = typeof body.relname === "string" ? body.relname : "";
  const schema = typeof body.schemaname === "string" ? body.schemaname : undefined;
  const aliasNode = body.alias as Tree | undefined;
  const alias = typeof aliasNode?.aliasname === "string" ? aliasNode.aliasname : table;
  return schema === undefined ? { table, alias } : { schema, table, alias };
}

const AGGREGATES = new Set(["count", "sum", "min", "max", "avg"]);

function readSelect(body: Tree): StatementShape {
  if (body.op !== undefined && body.op !== "SETOP_NONE")
    return {
      kind: "unsupported",
      reason: `it combines queries with ${String(body.op).replace("SETOP_", "")}`,
      tables: tablesIn(body),
    };
  if (body.withClause !== undefined)
    return {
      kind: "unsupported",
      reason: "it has a WITH clause (common table expression)",
      tables: tablesIn(body),
    };
  const where = emptyWhere();
  const from: FromParts = { tables: [] };
  for (const item of list(body.fromClause)) readFrom(item, from, where);
  readWhere(body.whereClause, where);
  if (from.tables.length === 0)
    return { kind: "utility", what: "a SELECT without a table (a function call or a constant)" };
  const problem = from.problem ?? where.problem;
  if (problem !== undefined) return { kind: "unsupported", reason: problem, tables: tablesIn(body) };
  const selected: ColumnReference[] = [];
  const all: string[] = [];
  const aggregates: Aggregate[] = [];
  for (const target of list(body.targetList)) {
    const resTarget = unwrap(target);
    const val = resTarget?.[1].val;
    const valNode = unwrap(val);
    if (valNode === undefined) continue;
    const [tag, expr] = valNode;
    if (tag === "ColumnRef") {
      const fields = list(expr.fields);
      const last = unwrap(fields[fields.length - 1]);
      if (last?.[0] === "A_Star") {
        const alias = fields.length >= 2 ? str(fields[fields.length - 2]) : undefined;
        all.push(...(alias === undefined ? from.tables.map((t) => t.alias) : [alias]));
      } else {
        const column = columnOf(val);
        if (column !== undefined) selected.push(column);
      }
      continue;
    }
    // a text search rank or a vector distance is computed from its column, not a column returned
    if (tag === "FuncCall" && RANK_FUNCTIONS.has(functionName(expr))) continue;
    if (tag === "A_Expr" && DISTANCE_OPERATORS.has(names(expr.name).at(-1) ?? "")) continue;
    if (tag === "FuncCall") {
      const fn = names(expr.funcname).pop()?.toLowerCase() ?? "";
      if (AGGREGATES.has(fn)) {
        const args = list(expr.args);
        const column = args.length === 1 ? columnOf(args[0]) : undefined;
        aggregates.push({ fn: fn as Aggregate["fn"], ...(column === undefined ? {} : { column }) });
        continue;
      }
    }
    // any other expression returns the columns it reads
    selected.push(...columnsIn(val));
  }
  // ORDER BY rank: a name of the SELECT list is its expression (PostgreSQL's own rule)
  const outputs = new Map<string, unknown>();
  for (const target of list(body.targetList)) {
    const resTarget = unwrap(target)?.[1];
    if (typeof resTarget?.name === "string") outputs.set(resTarget.name, resTarget.val);
  }
  // (only a column, a rank or a distance: another expression keeps the order as it was read)
  const sortKey = (node: unknown): unknown => {
    const column = columnOf(node);
    const output = column?.alias === undefined ? outputs.get(column?.column ?? "") : undefined;
    const expression = unwrap(output);
    const understood =
      columnOf(output) !== undefined ||
      (expression?.[0] === "FuncCall" && RANK_FUNCTIONS.has(functionName(expression[1]))) ||
      (expression?.[0] === "A_Expr" && DISTANCE_OPERATORS.has(names(expression[1].name).at(-1) ?? ""));
    return understood ? output : node;
  };
  const sortKeys = list(body.sortClause).map((item) => sortKey(unwrap(item)?.[1].node));
  const firstKey = unwrap(sortKeys[0]);
  const rankedBy =
    firstKey?.[0] === "FuncCall" && RANK_FUNCTIONS.has(functionName(firstKey[1]))
      ? functionName(firstKey[1])
      : undefined;
  const orderBy = list(body.sortClause).flatMap((item, index) => {
    const sort = unwrap(item);
    if (sort === undefined) return [];
    const column = columnOf(sortKeys[index]);
    return column === undefined
      ? []
      : [{ column, direction: sort[1].sortby_dir === "SORTBY_DESC" ? ("desc" as const) : ("asc" as const) }];
  });
  const nearest = nearestOf(sortKeys[0]);
  const limitValue = (unwrap(body.limitCount)?.[1].ival as Tree | undefined)?.ival;
  return {
    kind: "select",
    tables: from.tables,
    joins: where.joins,
    filters: where.filters,
    orderBy,
    limited: body.limitCount !== undefined,
    ...(typeof limitValue === "number" ? { limitValue } : {}),
    ...(nearest === undefined ? {} : { nearest }),
    ...(where.textMatches.length === 0 ? {} : { textMatches: where.textMatches }),
    ...(rankedBy === undefined ? {} : { rankedBy }),
    aggregates,
    selected,
    all,
    residual: where.residual,
    notes: where.notes,
  };
}

/** pgvector's distance operators a nearest-neighbour search orders by. */
const DISTANCE_OPERATORS = new Set(["<=>", "<->", "<#>", "<+>", "<~>", "<%>"]);

/**
 * The first ORDER BY key when it is a column's distance to a value by a pgvector operator
 * (`embedding <=> $1`, either side), with the operator.
 */
function nearestOf(sortKey: unknown): SelectShape["nearest"] {
  const expr = unwrap(sortKey);
  if (expr?.[0] !== "A_Expr" || expr[1].kind !== "AEXPR_OP") return undefined;
  const operator = names(expr[1].name).at(-1) ?? "";
  if (!DISTANCE_OPERATORS.has(operator)) return undefined;
  const left = columnOf(expr[1].lexpr);
  const right = columnOf(expr[1].rexpr);
  const column =
    left !== undefined && isValue(expr[1].rexpr)
      ? left
      : right !== undefined && isValue(expr[1].lexpr)
        ? right
        : undefined;
  return column === undefined ? undefined : { column, operator };
}

/** Every table a statement names anywhere (FROM, JOIN, subqueries, WITH), for statements it cannot map. */
function tablesIn(value: unknown): TableReference[] {
  if (typeof value !== "object" || value === null) return [];
  const node = unwrap(value);
  if (node?.[0] === "RangeVar") return [tableOf(node[1])];
  return Object.values(value).flatMap((child) => tablesIn(child));
}

/** Every column an expression reads. */
function columnsIn(value: unknown): ColumnReference[] {
  if (typeof value !== "object" || value === null) return [];
  const column = columnOf(value);
  if (column !== undefined) return [column];
  return Object.values(value).flatMap((child) => columnsIn(child));
}

function readInsert(body: Tree): StatementShape {
  const table = tableOf((unwrap({ RangeVar: body.relation })?.[1] ?? {}) as Tree);
  const columns = list(body.cols).flatMap((col) => {
    const name = unwrap(col)?.[1].name;
    return typeof name === "string" ? [name] : [];
  });
  const select = unwrap(body.selectStmt);
  const fromQuery = select !== undefined && list(select[1].valuesLists).length === 0;
  const conflict = body.onConflictClause as Tree | undefined;
  const onConflict =
    conflict === undefined ? undefined : conflict.action === "ONCONFLICT_UPDATE" ? "update" : "nothing";
  return {
    kind: "insert",
    table,
    columns,
    fromQuery,
    ...(onConflict === undefined ? {} : { onConflict: onConflict as "update" | "nothing" }),
  };
}

function readUpdateOrDelete(tag: "UpdateStmt" | "DeleteStmt", body: Tree): StatementShape {
  const table = tableOf(body.relation as Tree);
  if (body.withClause !== undefined)
    return {
      kind: "unsupported",
      reason: "it has a WITH clause (common table expression)",
      tables: tablesIn(body),
    };
  const where = emptyWhere();
  const from: FromParts = { tables: [] };
  for (const item of list(tag === "UpdateStmt" ? body.fromClause : body.usingClause))
    readFrom(item, from, where);
  readWhere(body.whereClause, where);
  if (where.problem !== undefined || from.problem !== undefined)
    return { kind: "unsupported", reason: where.problem ?? from.problem ?? "", tables: tablesIn(body) };
  if (tag === "DeleteStmt")
    return { kind: "delete", table, filters: where.filters, otherTables: from.tables };
  const set = list(body.targetList).flatMap((target) => {
    const name = unwrap(target)?.[1].name;
    return typeof name === "string" ? [name] : [];
  });
  return { kind: "update", table, set, filters: where.filters, otherTables: from.tables };
}

/**
 * The shape of one parsed statement (a `stmt` of libpg-query's parse result).
 * @example analyzeStatement(parseSync("SELECT * FROM orders WHERE customer_id = $1").stmts[0].stmt)
 */
export function analyzeStatement(statement: unknown): StatementShape {
  const node = unwrap(statement);
  if (node === undefined) return { kind: "utility", what: "an empty statement" };
  const [tag, body] = node;
  switch (tag) {
    case "SelectStmt":
      return readSelect(body);
    case "InsertStmt":
      if (body.withClause !== undefined)
        return {
          kind: "unsupported",
          reason: "it has a WITH clause (common table expression)",
          tables: tablesIn(body),
        };
      return readInsert(body);
    case "UpdateStmt":
    case "DeleteStmt":
      return readUpdateOrDelete(tag, body);
    case "MergeStmt":
      return {
        kind: "unsupported",
        reason: "MERGE reads one table to write another",
        tables: tablesIn(body),
      };
    case "CallStmt":
      return { kind: "unsupported", reason: "it calls a stored procedure", tables: [] };
    case "CopyStmt":
      return { kind: "unsupported", reason: "COPY is a bulk load or export", tables: [] };
    default:
      return { kind: "utility", what: tag.replace(/Stmt$/, "") };
  }
}
