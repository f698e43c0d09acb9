/**
 * pg_stat_statements -> access patterns. Each normalized statement becomes a read or a write
 * pattern on the entity of its table: filters with eq / range / in / prefix, ORDER BY, joins
 * along foreign keys as `with` entries (`Parent.attribute`, `all(Child)`), aggregates as
 * `count(Child)` / `sum(Child.attribute)`; its average rate is its calls over the statistics
 * window. Peaks are never derived: the interview asks them. Statements that touch tables no
 * foreign key joins, use subqueries, OR, CTEs or set operations are listed, not dropped.
 */
import { compact, type DraftAccessPattern } from "../session/draft.js";
import type { ImportedFact, UnmappedItem } from "../session/import-record.js";
import { formatDecimal, formatInteger } from "../common/format-number.js";
import type { PredicateOperator } from "../workload/types.js";
import { DISTANCE_OF_OPERATOR } from "./map-search.js";
import { mapTextSearch, type TextSearchOfRead } from "./map-text-search.js";
import { significant, tableKey, type MappedStructure, type MappedTable } from "./map-structure.js";
import type { StatementStatistics } from "./snapshot/snapshot.js";
import type {
  ColumnReference,
  Filter,
  SelectShape,
  StatementShape,
  TableReference,
} from "./sql/statement-shape.js";
import type { AnalyzeSql } from "./sql/statement-shape.js";

export type { AnalyzeSql } from "./sql/statement-shape.js";

export interface StatementWindow {
  readonly seconds: number;
  readonly since: string;
}

export interface MappedStatements {
  readonly patterns: readonly DraftAccessPattern[];
  readonly facts: readonly ImportedFact[];
  readonly unmapped: readonly UnmappedItem[];
  /** Statements that are not data access (transaction control, SET, catalog reads), counted. */
  readonly ignored: number;
}

/** A pattern before it gets an id, with the statements it came from. */
interface Candidate {
  readonly pattern: Omit<DraftAccessPattern, "id" | "rps">;
  readonly statements: StatementStatistics[];
  /** Per-call rows mean items returned (plain reads) or items written (batch). */
  readonly rowsMeaning: "returned" | "written" | "none";
  readonly notes: readonly string[];
}

class Unmappable extends Error {}

const SHORT_SQL = 300;

function shortSql(sql: string): string {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > SHORT_SQL ? `${flat.slice(0, SHORT_SQL - 1)}…` : flat;
}

export function mapStatements(
  structure: MappedStructure,
  statements: readonly StatementStatistics[],
  window: StatementWindow | undefined,
  analyze: AnalyzeSql,
): MappedStatements {
  const { candidates, unmapped, ignored } = collectCandidates(structure, statements, analyze);
  const facts: ImportedFact[] = [];
  const counters = { read: 0, write: 0 };
  const ordered = [...candidates].sort(
    (a, b) => calls(b) - calls(a) || (a.pattern.name < b.pattern.name ? -1 : 1),
  );
  const patterns = ordered.map((candidate) => {
    const type = candidate.pattern.type;
    counters[type]++;
    return candidatePattern(candidate, `${type === "read" ? "Q" : "C"}${counters[type]}`, window, facts);
  });
  return { patterns, facts, unmapped, ignored };
}

/**
 * The statements as candidate access patterns (statements of the same shape merged into one),
 * the statements that cannot be mapped with the reason, and how many were not the application's.
 */
function collectCandidates(
  structure: MappedStructure,
  statements: readonly StatementStatistics[],
  analyze: AnalyzeSql,
): { candidates: Iterable<Candidate>; unmapped: UnmappedItem[]; ignored: number } {
  const candidates = new Map<string, Candidate>();
  const unmapped: UnmappedItem[] = [];
  let ignored = 0;
  for (const statement of statements) {
    if (statement.calls <= 0) continue;
    const shape = analyze(statement.query);
    const describe = `${formatInteger(statement.calls)} calls: ${shortSql(statement.query)}`;
    if ("error" in shape) {
      unmapped.push({
        kind: "statement",
        name: `queryid ${statement.queryId}`,
        detail: describe,
        reason: `the PostgreSQL parser cannot read it (${shape.error})`,
      });
      continue;
    }
    if (shape.kind === "utility") {
      ignored++;
      continue;
    }
    const tables = tablesOf(shape);
    const known = tables.filter((t) => resolveTable(structure, t) !== undefined);
    if (known.length === 0 && !(shape.kind === "unsupported" && tables.length === 0)) {
      // catalog queries, other databases' objects: not the application's data
      ignored++;
      continue;
    }
    try {
      if (shape.kind === "unsupported") throw new Unmappable(shape.reason);
      if (known.length < tables.length)
        throw new Unmappable(
          `it reads ${tables
            .filter((t) => !known.includes(t))
            .map((t) => t.table)
            .join(", ")}, which is not an imported table`,
        );
      const candidate = mapShape(structure, shape, statement);
      // Statements of one pattern merge (their calls add up); conditions the pattern cannot
      // hold (IS NULL, NOT LIKE) keep statements apart: they are different questions.
      const key = JSON.stringify([candidate.pattern, shape.kind === "select" ? shape.residual : []]);
      const existing = candidates.get(key);
      if (existing === undefined) candidates.set(key, candidate);
      else existing.statements.push(statement);
    } catch (error) {
      if (!(error instanceof Unmappable)) throw error;
      unmapped.push({
        kind: "statement",
        name: `queryid ${statement.queryId}`,
        detail: describe,
        reason: error.message,
      });
    }
  }
  return { candidates: candidates.values(), unmapped, ignored };
}

/**
 * A candidate as the access pattern `id`: its entity, the average rate over the statistics'
 * window, the items a call returns or writes, each recorded in `facts` with its source.
 */
function candidatePattern(
  candidate: Candidate,
  id: string,
  window: StatementWindow | undefined,
  facts: ImportedFact[],
): DraftAccessPattern {
  const total = calls(candidate);
  const rows = candidate.statements.reduce((sum, s) => sum + s.rows, 0);
  const ids = candidate.statements.map((s) => s.queryId).join(", ");
  const sql = candidate.statements.map((s) => shortSql(s.query)).join(" | ");
  facts.push({
    path: ["accessPatterns", id, "entity"],
    value: candidate.pattern.entity,
    source: `pg_stat_statements queryid ${ids}: ${sql}`,
  });
  for (const note of candidate.notes)
    facts.push({ path: ["accessPatterns", id, "name"], value: candidate.pattern.name, source: note });
  let avg: number | undefined;
  if (window !== undefined) {
    avg = significant(total / window.seconds, 4);
    facts.push({
      path: ["accessPatterns", id, "rps", "avg"],
      value: avg,
      source: `pg_stat_statements: ${formatInteger(total)} calls / ${formatDecimal(window.seconds)} s since ${window.since}; the peak is asked in the interview`,
    });
  }
  const perCall = rows / total;
  let extra: Partial<DraftAccessPattern> = {};
  if (candidate.rowsMeaning === "returned") {
    const returned = significant(perCall);
    extra = { returns: { avg: returned } };
    facts.push({
      path: ["accessPatterns", id, "returns", "avg"],
      value: returned,
      source: `pg_stat_statements: ${formatInteger(rows)} rows returned / ${formatInteger(total)} calls`,
    });
  } else if (candidate.rowsMeaning === "written" && perCall >= 1.5) {
    const batch = Math.round(perCall);
    extra = { batch };
    facts.push({
      path: ["accessPatterns", id, "batch"],
      value: batch,
      source: `pg_stat_statements: ${formatInteger(rows)} rows written / ${formatInteger(total)} calls`,
    });
  }
  return compact({
    id,
    ...candidate.pattern,
    ...extra,
    rps: avg === undefined ? undefined : { avg },
  }) as DraftAccessPattern;
}

function calls(candidate: Candidate): number {
  return candidate.statements.reduce((sum, s) => sum + s.calls, 0);
}

function tablesOf(shape: StatementShape): readonly TableReference[] {
  switch (shape.kind) {
    case "select":
    case "unsupported":
      return shape.tables;
    case "insert":
      return [shape.table];
    case "update":
    case "delete":
      return [shape.table, ...shape.otherTables];
    case "utility":
      return [];
    default:
      return shape satisfies never;
  }
}

/** The imported table a reference names (unqualified names: the only table of that name, `public` first). */
function resolveTable(structure: MappedStructure, reference: TableReference): MappedTable | undefined {
  if (reference.schema !== undefined)
    return structure.tables.get(tableKey(reference.schema, reference.table));
  return (
    structure.tables.get(tableKey("public", reference.table)) ??
    structure.tables.get(tableKey("dbo", reference.table)) ??
    [...structure.tables.values()].find((t) => t.table.name === reference.table)
  );
}

function mapShape(
  structure: MappedStructure,
  shape: StatementShape,
  statement: StatementStatistics,
): Candidate {
  switch (shape.kind) {
    case "select":
      return mapSelect(structure, shape, statement);
    case "insert": {
      const table = entityTable(structure, shape.table);
      if (shape.fromQuery) throw new Unmappable("INSERT ... SELECT copies rows from a query");
      return {
        pattern: compact({
          name: `${shape.onConflict === "update" ? "Upsert" : "Create"} ${table.entity ?? ""}`,
          type: "write" as const,
          entity: table.entity ?? "",
          operation: shape.onConflict === "update" ? ("upsert" as const) : ("create" as const),
        }),
        statements: [statement],
        rowsMeaning: "written",
        notes:
          shape.onConflict === "nothing" ? ["ON CONFLICT DO NOTHING: a create that skips existing rows"] : [],
      };
    }
    case "update":
    case "delete": {
      if (shape.otherTables.length > 0)
        throw new Unmappable(
          `it ${shape.kind === "update" ? "updates" : "deletes from"} ${shape.table.table} using ${shape.otherTables.map((t) => t.table).join(", ")} (several tables)`,
        );
      const table = entityTable(structure, shape.table);
      const attribute = (column: string) => attributeOf(table, column);
      const changes = shape.kind === "update" ? [...new Set(shape.set.map(attribute))] : [];
      // By the whole key: an equality on every key column.
      const key = keyOf(structure, table);
      const keyed =
        key.length > 0 &&
        key.every((name) =>
          shape.filters.some((f) => f.operator === "eq" && attribute(f.column.column) === name),
        );
      const by = filterWords(table, shape.filters);
      return {
        pattern: compact({
          name:
            shape.kind === "update"
              ? `Update ${changes.join(", ")} of ${table.entity ?? ""}${by}`
              : `Delete ${table.entity ?? ""}${by}`,
          type: "write" as const,
          entity: table.entity ?? "",
          operation: shape.kind === "update" ? ("patch" as const) : ("delete" as const),
          changes: shape.kind === "update" ? changes : undefined,
        }),
        statements: [statement],
        rowsMeaning: "written",
        notes: keyed
          ? []
          : [
              `${shape.kind === "update" ? "updates" : "deletes"} every row that matches${by}: the batch is the rows per call`,
            ],
      };
    }
    case "utility":
    case "unsupported":
      throw new Unmappable(shape.kind === "unsupported" ? shape.reason : shape.what);
    default:
      return shape satisfies never;
  }
}

function entityTable(structure: MappedStructure, reference: TableReference): MappedTable {
  const table = resolveTable(structure, reference);
  if (table === undefined) throw new Unmappable(`${reference.table} is not an imported table`);
  if (table.entity === undefined) {
    const link = table.linkOf;
    throw new Unmappable(
      `it writes ${reference.table}, the link table of the many-to-many relationship ${link?.parent ?? ""} - ${link?.child ?? ""}: in the model this is a write of ${link?.parent ?? ""} or ${link?.child ?? ""}`,
    );
  }
  return table;
}

function attributeOf(table: MappedTable, column: string): string {
  const attribute = table.attributes.get(column);
  if (attribute === undefined) throw new Unmappable(`${table.table.name} has no column ${column}`);
  return attribute;
}

/** The key attributes of the table's entity (several for a composite primary key); empty when unknown. */
function keyOf(structure: MappedStructure, table: MappedTable): readonly string[] {
  return structure.entities.find((e) => e.name === table.entity)?.key ?? [];
}

function filterWords(table: MappedTable, filters: readonly Filter[]): string {
  if (filters.length === 0) return "";
  return ` by ${filters.map((f) => `${table.attributes.get(f.column.column) ?? f.column.column}${f.operator === "eq" ? "" : ` (${f.operator})`}`).join(", ")}`;
}

interface Bound {
  readonly alias: string;
  readonly table: MappedTable;
}

function mapSelect(
  structure: MappedStructure,
  shape: SelectShape,
  statement: StatementStatistics,
): Candidate {
  const bound: Bound[] = shape.tables.map((reference) => {
    const table = resolveTable(structure, reference);
    if (table === undefined) throw new Unmappable(`${reference.table} is not an imported table`);
    return { alias: reference.alias, table };
  });
  const aliasOf = (column: ColumnReference): Bound => {
    if (column.alias !== undefined) {
      const found = bound.find((b) => b.alias === column.alias);
      if (found === undefined) throw new Unmappable(`it names an unknown table alias ${column.alias}`);
      return found;
    }
    const owners = bound.filter((b) => b.table.table.columns.some((c) => c.name === column.column));
    if (owners.length !== 1 || owners[0] === undefined)
      throw new Unmappable(
        owners.length === 0
          ? `no imported table has a column ${column.column}`
          : `the column ${column.column} is ambiguous`,
      );
    return owners[0];
  };
  const notes: string[] = [];
  if (shape.residual.length > 0)
    notes.push(
      `conditions kept out of the pattern (no workload predicate for them): ${shape.residual.join(", ")}`,
    );
  notes.push(...shape.notes);
  if (shape.limited && shape.nearest === undefined && shape.textMatches === undefined)
    notes.push("LIMIT $n: pg_stat_statements does not keep the value; set limit if the page size is fixed");

  // a link table in the join is the many-to-many relationship it stands for
  const links = bound.filter((b) => b.table.linkOf !== undefined);
  const entities = bound.filter((b) => b.table.entity !== undefined);
  if (links.length > 1 || entities.length === 0)
    throw new Unmappable(`it joins ${bound.map((b) => b.table.table.name).join(", ")}`);
  if (entities.length > 2 || (entities.length === 2 && links.length > 0))
    return mapWideSelect(structure, shape, statement, bound, aliasOf, notes);

  if (links.length === 0 && entities.length === 1)
    return mapSingleSelect(structure, shape, statement, entities[0] as Bound, aliasOf, notes);
  if (shape.textMatches !== undefined)
    notes.push(
      "its full-text match (@@) is over a join of two tables: drafted as the join's read without the search (a Cosmos DB search reads one container's items)",
    );
  if (links.length === 1) return mapLinkSelect(structure, shape, statement, bound, aliasOf, notes);
  return mapJoinSelect(structure, shape, statement, entities as [Bound, Bound], aliasOf, notes);
}

type AliasOf = (column: ColumnReference) => Bound;

/**
 * A join over more than two tables (a customer's rentals with their films, through inventory):
 * the read of the one table its filters select (the entity it returns), with its filters and
 * order, and the joined tables followed along the foreign keys from it: a parent's returned
 * columns become `Parent.attribute`, a child's `all(Child)`, the far side of a link table the
 * many-to-many `Other.attribute`. Columns of tables further away (two relationships or more) have
 * no `with` entry: the notes name them for the interview. Filters on several tables, or none,
 * cannot say which table the read is about: listed for the user.
 */
function mapWideSelect(
  structure: MappedStructure,
  shape: SelectShape,
  statement: StatementStatistics,
  bound: readonly Bound[],
  aliasOf: AliasOf,
  notes: string[],
): Candidate {
  const tables = bound.map((b) => b.table.table.name).join(", ");
  const filtered = [...new Set(shape.filters.map((f) => aliasOf(f.column)))];
  const [owner] = filtered;
  if (filtered.length !== 1 || owner === undefined || owner.table.entity === undefined)
    throw new Unmappable(
      `it touches ${bound.length} tables (${tables}) and ${filtered.length === 0 ? "filters none of them" : "filters several of them"}, so which one it reads is not known`,
    );
  const others = bound.filter((b) => b !== owner).map((b) => b.table.table.name);
  const ordered = shape.orderBy.every((o) => aliasOf(o.column) === owner);
  const ownShape: SelectShape = {
    ...shape,
    tables: shape.tables.filter((t) => t.alias === owner.alias),
    joins: [],
    orderBy: ordered ? shape.orderBy : [],
    selected: shape.selected.filter((column) => aliasOf(column) === owner),
    all: shape.all.filter((alias) => alias === owner.alias),
  };
  const related = followJoins(structure, shape, bound, owner, aliasOf);
  const mapped = mapSingleSelect(structure, ownShape, statement, owner, aliasOf, [
    ...notes,
    `joins ${others.join(", ")} to ${owner.table.table.name} (${bound.length} tables): drafted as the read of ${owner.table.entity} its filters select${related.with.length === 0 ? "" : `, with ${related.with.join(", ")}`}${ordered ? "" : "; its ORDER BY is on a joined table and is left out"}`,
    ...related.notes,
  ]);
  // an aggregate of the owner's rows per parent is its parent's read: the joins stay in the notes
  if (related.with.length === 0 || mapped.pattern.entity !== owner.table.entity) return mapped;
  const pattern = mapped.pattern;
  return {
    ...mapped,
    pattern: compact({
      ...pattern,
      name: readName(pattern.entity, pattern.where, pattern.orderBy, related.with),
      with: related.with,
    }),
    // one row per related child: the rows no longer count the items returned
    rowsMeaning: related.children ? "none" : mapped.rowsMeaning,
  };
}

/**
 * The joined tables of a wide select seen from `owner` along its join conditions: the `with`
 * entries one relationship reaches, whether a child multiplies the rows, and notes naming the
 * returned columns no `with` entry can reach (farther tables, tables joined on other columns).
 */
function followJoins(
  structure: MappedStructure,
  shape: SelectShape,
  bound: readonly Bound[],
  owner: Bound,
  aliasOf: AliasOf,
): { with: string[]; children: boolean; notes: string[] } {
  const returned = (b: Bound): string[] =>
    shape.all.includes(b.alias)
      ? b.table.table.columns.map((c) => c.name)
      : [...new Set(shape.selected.filter((c) => aliasOf(c) === b).map((c) => c.column))];
  const neighbours = (b: Bound): Bound[] =>
    shape.joins.flatMap((j) => {
      const [left, right] = [aliasOf(j.left), aliasOf(j.right)];
      return left === b && right !== b ? [right] : right === b && left !== b ? [left] : [];
    });
  // breadth first from the owner: each table's distance and the path that reaches it
  const path = new Map<Bound, readonly Bound[]>([[owner, []]]);
  for (let queue = [owner]; queue.length > 0;) {
    const next: Bound[] = [];
    for (const from of queue)
      for (const to of neighbours(from))
        if (!path.has(to)) {
          path.set(to, [...(path.get(from) ?? []), to]);
          next.push(to);
        }
    queue = next;
  }
  const entries: string[] = [];
  const notes: string[] = [];
  const reached = new Set<Bound>([owner]);
  let children = false;
  const entity = owner.table.entity ?? "";
  for (const first of bound.filter((b) => path.get(b)?.length === 1)) {
    const direction = joinDirection(structure, shape, owner, first, aliasOf);
    const link = first.table.linkOf;
    if (link !== undefined) {
      // owner -> link -> other: the other side's columns across the many-to-many relationship
      const across = bound.filter((b) => path.get(b)?.[0] === first && path.get(b)?.length === 2);
      for (const other of across) {
        const sides = [link.parent, link.child];
        if (
          !sides.includes(entity) ||
          other.table.entity === undefined ||
          !sides.includes(other.table.entity)
        )
          continue;
        const key = keyOf(structure, other.table);
        for (const column of returned(other)) {
          const attribute = attributeOf(other.table, column);
          if (!key.includes(attribute)) entries.push(`${other.table.entity}.${attribute}`);
        }
        reached.add(other);
      }
      reached.add(first);
    } else if (direction?.parent === first && first.table.entity !== undefined) {
      const key = keyOf(structure, first.table);
      for (const column of returned(first)) {
        const attribute = attributeOf(first.table, column);
        if (!key.includes(attribute)) entries.push(`${first.table.entity}.${attribute}`);
      }
      reached.add(first);
    } else if (direction?.child === first && first.table.entity !== undefined) {
      // the child's rows, or the rows of tables reached through it
      const through = bound.filter((b) => path.get(b)?.[0] === first);
      if (through.some((b) => returned(b).length > 0)) {
        entries.push(`all(${first.table.entity})`);
        children = true;
      }
      reached.add(first);
    }
  }
  for (const b of bound.filter((b) => !reached.has(b) && returned(b).length > 0)) {
    const route = path.get(b);
    const columns = returned(b)
      .map((c) => `${b.table.table.name}.${c}`)
      .join(", ");
    notes.push(
      route === undefined
        ? `${columns}: ${b.table.table.name} is not joined to ${owner.table.table.name} by a column equality, so no with entry holds it; add it in the interview`
        : route.length === 1
          ? `${columns}: ${b.table.table.name} is joined to ${owner.table.table.name} on columns that are not a foreign key, so no with entry holds it; add it in the interview`
          : `${columns}: ${b.table.table.name} is ${route.length} relationships away from ${entity} (through ${route
              .slice(0, -1)
              .map((r) => r.table.table.name)
              .join(
                ", ",
              )}); a with entry reaches one relationship, so the interview asks how ${entity} gets it (a copy in ${route[0]?.table.entity ?? route[0]?.table.table.name ?? ""}, or a read of its own)`,
    );
  }
  return { with: [...new Set(entries)], children, notes };
}

function where(
  filters: readonly Filter[],
  table: MappedTable,
): Record<string, PredicateOperator> | undefined {
  if (filters.length === 0) return undefined;
  const result: Record<string, PredicateOperator> = {};
  for (const filter of filters) {
    const attribute = attributeOf(table, filter.column.column);
    const previous = result[attribute];
    // a <= x and x < b on one column is one range
    result[attribute] =
      previous === undefined || previous === filter.operator
        ? filter.operator
        : previous === "eq" || filter.operator === "eq"
          ? "eq"
          : "range";
  }
  return result;
}

function orderBy(
  shape: SelectShape,
  owner: Bound,
  aliasOf: AliasOf,
  notes: string[],
): Record<string, "asc" | "desc"> | undefined {
  const entries = shape.orderBy.filter((o) => aliasOf(o.column) === owner);
  if (entries.length < shape.orderBy.length)
    notes.push(
      "the order of the joined table's rows is not part of the pattern (related items keep their own order)",
    );
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map((o) => [attributeOf(owner.table, o.column.column), o.direction]));
}

function select(shape: SelectShape, owner: Bound, aliasOf: AliasOf): string[] | undefined {
  if (shape.all.includes(owner.alias)) return undefined;
  const own = shape.selected
    .filter((c) => aliasOf(c) === owner)
    .map((c) => attributeOf(owner.table, c.column));
  return own.length === 0 ? undefined : [...new Set(own)];
}

function readName(
  entity: string,
  whereClause: Record<string, PredicateOperator> | undefined,
  order: Record<string, "asc" | "desc"> | undefined,
  withEntries: readonly string[],
): string {
  const by =
    whereClause === undefined
      ? " (all items)"
      : ` by ${Object.entries(whereClause)
          .map(([a, op]) => (op === "eq" ? a : `${a} (${op})`))
          .join(", ")}`;
  const sorted =
    order === undefined
      ? ""
      : `, ordered by ${Object.entries(order)
          .map(([a, d]) => `${a} ${d}`)
          .join(", ")}`;
  const related = withEntries.length === 0 ? "" : `, with ${withEntries.join(", ")}`;
  return `Read ${entity}${by}${sorted}${related}`;
}

function mapSingleSelect(
  structure: MappedStructure,
  shape: SelectShape,
  statement: StatementStatistics,
  owner: Bound,
  aliasOf: AliasOf,
  notes: string[],
): Candidate {
  const entity = owner.table.entity ?? "";
  const filters = shape.filters.map((f) => ({ ...f, column: { column: f.column.column } }));
  // count / sum of the rows of one parent: the parent's pattern with count(Child) / sum(Child.x)
  const parentFilter =
    shape.aggregates.length > 0 && shape.selected.length === 0
      ? aggregateParent(structure, owner, filters)
      : undefined;
  if (parentFilter !== undefined) {
    const withEntries = shape.aggregates.map((a) =>
      aggregateEntry(
        a.fn,
        entity,
        a.column === undefined ? undefined : attributeOf(owner.table, a.column.column),
      ),
    );
    const key = parentFilter.key;
    return {
      pattern: compact({
        name: readName(parentFilter.parent, { [key]: "eq" }, undefined, withEntries),
        type: "read" as const,
        entity: parentFilter.parent,
        where: { [key]: "eq" as const },
        select: [key],
        with: withEntries,
      }),
      statements: [statement],
      rowsMeaning: "none",
      notes: [
        ...notes,
        `aggregates the ${entity} rows of one ${parentFilter.parent}, as ${withEntries.join(", ")} on ${parentFilter.parent}`,
      ],
    };
  }
  if (shape.aggregates.length > 0)
    notes.push(
      `aggregates (${shape.aggregates.map((a) => a.fn).join(", ")}) are computed over the items read`,
    );
  const whereClause = where(filters, owner.table);
  const search = searchOf(structure, shape, owner, aliasOf, notes);
  if (search !== undefined && shape.orderBy.length > 0)
    notes.push(
      `ORDER BY ${shape.orderBy.map((o) => o.column.column).join(", ")}: a search read returns its results by distance or rank, so the statement's other order is not part of the pattern`,
    );
  const order = search === undefined ? orderBy(shape, owner, aliasOf, notes) : undefined;
  return {
    pattern: compact({
      name: search === undefined ? readName(entity, whereClause, order, []) : searchName(entity, search),
      type: "read" as const,
      entity,
      where: whereClause,
      orderBy: order,
      search,
      select: shape.aggregates.length > 0 ? undefined : select(shape, owner, aliasOf),
    }),
    statements: [statement],
    rowsMeaning: shape.aggregates.length > 0 ? "none" : "returned",
    notes,
  };
}

/** k of a search whose LIMIT pg_stat_statements replaced by $n: asked in the interview. */
const ASSUMED_K = 10;

/** A read's search as the draft spells it (`search:` of the workload file). */
interface ImportedSearch {
  readonly nearest?: string;
  readonly fullText?: string;
  readonly k: number;
  readonly terms?: number;
}

function searchName(entity: string, search: ImportedSearch): string {
  if (search.nearest !== undefined && search.fullText !== undefined)
    return `Hybrid search of ${entity} by ${search.nearest} and ${search.fullText}`;
  return search.nearest !== undefined
    ? `Nearest ${entity} by ${search.nearest}`
    : `Full-text search of ${entity} by ${search.fullText ?? ""}`;
}

/**
 * The search of a read: nearest neighbours when it orders by a pgvector distance, full text when
 * its WHERE matches text (`@@`), hybrid when it does both (the two rankings fused by reciprocal
 * rank in Cosmos DB). k is the LIMIT (10 when the LIMIT is a parameter, said so).
 */
function searchOf(
  structure: MappedStructure,
  shape: SelectShape,
  owner: Bound,
  aliasOf: AliasOf,
  notes: string[],
): ImportedSearch | undefined {
  const nearest = nearestSearch(structure, shape, owner, aliasOf, notes);
  const text = fullTextSearch(structure, shape, owner, aliasOf, notes);
  if (nearest === undefined && text === undefined) return undefined;
  if (nearest !== undefined && text !== undefined)
    notes.push(
      `ordered by ${nearest} distance and filtered by a full-text match of ${text.fullText}: a hybrid search (Cosmos DB fuses the vector and the BM25 rankings by reciprocal rank, RRF, where PostgreSQL keeps the text matches and orders them by distance)`,
    );
  const k = shape.limitValue;
  if (k === undefined)
    notes.push(
      shape.limited
        ? `LIMIT $n: pg_stat_statements does not keep the value; k = ${ASSUMED_K} is assumed: set the k the application asks for`
        : `no LIMIT: k = ${ASSUMED_K} is assumed: set the k the application asks for`,
    );
  return {
    ...(nearest === undefined ? {} : { nearest }),
    ...(text === undefined ? {} : text),
    k: k !== undefined && k >= 1 ? k : ASSUMED_K,
  };
}

/**
 * Whether `column` is the owner's. A tsvector column is not imported (its terms are derived), so
 * no table has it: without an alias it is the owner's (where its declaration, if any, says what
 * it holds).
 */
function ownsColumn(owner: Bound, aliasOf: AliasOf, column: ColumnReference): boolean {
  try {
    return aliasOf(column) === owner;
  } catch (error) {
    if (error instanceof Unmappable && column.alias === undefined) return true;
    throw error;
  }
}

/** The full-text search of a read whose WHERE matches text (`@@`), on the owner's table. */
function fullTextSearch(
  structure: MappedStructure,
  shape: SelectShape,
  owner: Bound,
  aliasOf: AliasOf,
  notes: string[],
): TextSearchOfRead | undefined {
  if (shape.textMatches === undefined) return undefined;
  const attributes = structure.entities.find((e) => e.name === owner.table.entity)?.attributes ?? [];
  return mapTextSearch(
    shape.textMatches,
    shape.rankedBy,
    { table: owner.table, attributes, owns: (column) => ownsColumn(owner, aliasOf, column) },
    notes,
  );
}

/**
 * The vector attribute of a read ordered by a pgvector distance (`ORDER BY embedding <=> $1
 * LIMIT 5`). The operator's distance is compared with the attribute's; `recall` is left to the
 * interview (PostgreSQL does not say what the application needs).
 */
function nearestSearch(
  structure: MappedStructure,
  shape: SelectShape,
  owner: Bound,
  aliasOf: AliasOf,
  notes: string[],
): string | undefined {
  const nearest = shape.nearest;
  if (nearest === undefined || aliasOf(nearest.column) !== owner) return undefined;
  const attribute = attributeOf(owner.table, nearest.column.column);
  const vector = structure.entities
    .find((e) => e.name === owner.table.entity)
    ?.attributes.find((a) => a.name === attribute)?.vector;
  const distance = DISTANCE_OF_OPERATOR[nearest.operator];
  if (vector === undefined || distance === undefined) {
    notes.push(
      `ORDER BY ${nearest.column.column} ${nearest.operator} ...: ${vector === undefined ? `${attribute} is not a vector attribute` : `the operator ${nearest.operator} (L1, Hamming or Jaccard distance) has no Cosmos DB distance function`}; drafted as an ordinary read`,
    );
    return undefined;
  }
  notes.push(
    `ORDER BY ${nearest.column.column} ${nearest.operator} $n: a nearest-neighbour search by ${distance} distance`,
  );
  if (vector.distance !== undefined && vector.distance !== distance)
    notes.push(
      `the query orders by ${distance} distance (${nearest.operator}) but ${attribute}'s distance is ${vector.distance}: choose one in the interview (a Cosmos DB vector path has one distance function)`,
    );
  notes.push(
    "recall is not in the statistics: the interview asks the share of the true nearest neighbours the application needs",
  );
  return attribute;
}

/** When every filter is `foreignKey = value` to one parent: that parent and its key. */
function aggregateParent(
  structure: MappedStructure,
  owner: Bound,
  filters: readonly Filter[],
): { parent: string; key: string } | undefined {
  if (filters.length !== 1 || filters[0]?.operator !== "eq") return undefined;
  const column = filters[0].column.column;
  const fk = structure.foreignKeys.find(
    (f) =>
      f.schema === owner.table.table.schema &&
      f.table === owner.table.table.name &&
      f.columns.length === 1 &&
      f.columns[0] === column,
  );
  if (fk === undefined) return undefined;
  const parent = structure.tables.get(tableKey(fk.referencedSchema, fk.referencedTable));
  const entity = structure.entities.find((e) => e.name === parent?.entity);
  // One filter column holds a single key (a composite parent key needs all its columns).
  const key = entity?.key?.length === 1 ? entity.key[0] : undefined;
  if (entity === undefined || key === undefined) return undefined;
  return { parent: entity.name, key };
}

function aggregateEntry(
  fn: "count" | "sum" | "min" | "max" | "avg",
  entity: string,
  attribute: string | undefined,
): string {
  if (fn === "count" || attribute === undefined) return `count(${entity})`;
  // an average is a sum and a count
  return `${fn === "avg" ? "sum" : fn}(${entity}.${attribute})`;
}

/** `child JOIN parent ON child.fk = parent.key`: which side is which, or undefined. */
function joinDirection(
  structure: MappedStructure,
  shape: SelectShape,
  a: Bound,
  b: Bound,
  aliasOf: AliasOf,
): { parent: Bound; child: Bound; via: string } | undefined {
  for (const join of shape.joins) {
    const left = aliasOf(join.left);
    const right = aliasOf(join.right);
    for (const [child, childColumn, parent, parentColumn] of [
      [left, join.left.column, right, join.right.column],
      [right, join.right.column, left, join.left.column],
    ] as const) {
      if (child === parent || ![a, b].includes(child) || ![a, b].includes(parent)) continue;
      const fk = structure.foreignKeys.find(
        (f) =>
          f.schema === child.table.table.schema &&
          f.table === child.table.table.name &&
          f.referencedSchema === parent.table.table.schema &&
          f.referencedTable === parent.table.table.name &&
          f.columns.includes(childColumn) &&
          f.referencedColumns[f.columns.indexOf(childColumn)] === parentColumn,
      );
      if (fk !== undefined) return { parent, child, via: attributeOf(child.table, childColumn) };
    }
  }
  return undefined;
}

function mapJoinSelect(
  structure: MappedStructure,
  shape: SelectShape,
  statement: StatementStatistics,
  [a, b]: [Bound, Bound],
  aliasOf: AliasOf,
  notes: string[],
): Candidate {
  const direction = joinDirection(structure, shape, a, b, aliasOf);
  if (direction === undefined)
    throw new Unmappable(
      `it joins ${a.table.table.name} and ${b.table.table.name} on columns that are not a foreign key`,
    );
  const { parent, child } = direction;
  const parentEntity = parent.table.entity ?? "";
  const childEntity = child.table.entity ?? "";
  const onParent = shape.filters.filter((f) => aliasOf(f.column) === parent);
  const onChild = shape.filters.filter((f) => aliasOf(f.column) === child);
  const childAggregates = shape.aggregates.filter(
    (agg) => agg.column === undefined || aliasOf(agg.column) === child,
  );
  if (onChild.length > 0 && onParent.length > 0)
    throw new Unmappable(`it filters both ${a.table.table.name} and ${b.table.table.name}`);
  if (onChild.length > 0 || (onParent.length === 0 && childAggregates.length === 0)) {
    // the child is read, with attributes of its parent
    const parentColumns = shape.all.includes(parent.alias)
      ? parent.table.table.columns.map((c) => c.name)
      : shape.selected.filter((c) => aliasOf(c) === parent).map((c) => c.column);
    const parentKey = keyOf(structure, parent.table);
    const withEntries = [
      ...new Set(
        parentColumns.map((c) => attributeOf(parent.table, c)).filter((attr) => !parentKey.includes(attr)),
      ),
    ].map((attr) => `${parentEntity}.${attr}`);
    const whereClause = where(
      onChild.map((f) => ({ ...f, column: { column: f.column.column } })),
      child.table,
    );
    const order = orderBy(shape, child, aliasOf, notes);
    if (shape.aggregates.length > 0) throw new Unmappable("it aggregates rows of a joined parent");
    return {
      pattern: compact({
        name: readName(childEntity, whereClause, order, withEntries),
        type: "read" as const,
        entity: childEntity,
        where: whereClause,
        orderBy: order,
        select: select(shape, child, aliasOf),
        with: withEntries.length === 0 ? undefined : withEntries,
      }),
      statements: [statement],
      rowsMeaning: "returned",
      notes,
    };
  }
  // the parent is read, with all its children or an aggregate of them
  const withEntries =
    childAggregates.length > 0
      ? childAggregates.map((agg) =>
          aggregateEntry(
            agg.fn,
            childEntity,
            agg.column === undefined ? undefined : attributeOf(child.table, agg.column.column),
          ),
        )
      : [`all(${childEntity})`];
  const whereClause = where(
    onParent.map((f) => ({ ...f, column: { column: f.column.column } })),
    parent.table,
  );
  const order = orderBy(shape, parent, aliasOf, notes);
  return {
    pattern: compact({
      name: readName(parentEntity, whereClause, order, withEntries),
      type: "read" as const,
      entity: parentEntity,
      where: whereClause,
      orderBy: order,
      select: select(shape, parent, aliasOf),
      with: withEntries,
    }),
    statements: [statement],
    rowsMeaning: "none",
    notes,
  };
}

/**
 * `A JOIN link JOIN B WHERE link.a = $1`: a read of A with B's columns as `with` entries across
 * the many-to-many relationship, from either side (a product's tag labels, or a tag's products).
 */
function mapLinkSelect(
  structure: MappedStructure,
  shape: SelectShape,
  statement: StatementStatistics,
  bound: readonly Bound[],
  aliasOf: AliasOf,
  notes: string[],
): Candidate {
  const link = bound.find((b) => b.table.linkOf !== undefined);
  const linkOf = link?.table.linkOf;
  if (link === undefined || linkOf === undefined) throw new Unmappable("no link table");
  const others = bound.filter((b) => b !== link);
  const linkFks = structure.foreignKeys.filter(
    (f) => f.schema === link.table.table.schema && f.table === link.table.table.name,
  );
  const entityOfFk = (fk: (typeof linkFks)[number]) =>
    structure.tables.get(tableKey(fk.referencedSchema, fk.referencedTable))?.entity;
  // The side the statement returns: the one the filter does not name (either side of the link).
  const returned = others.find((o) => o.table.entity === linkOf.child) ?? others[0];
  if (returned === undefined || others.length !== 1)
    throw new Unmappable(`it touches ${bound.length} tables`);
  // the filter names the other side: on the link table's column to it, or on its own key
  const filters = shape.filters.map((f) => ({ filter: f, owner: aliasOf(f.column) }));
  if (filters.some((f) => f.owner === returned))
    throw new Unmappable(
      `it filters ${returned.table.table.name} through the link table ${link.table.table.name}`,
    );
  const fromFk = linkFks.find(
    (fk) => entityOfFk(fk) !== returned.table.entity || linkOf.parent === linkOf.child,
  );
  const fromEntity = fromFk === undefined ? undefined : entityOfFk(fromFk);
  const sides = [linkOf.parent, linkOf.child];
  if (
    fromEntity === undefined ||
    returned.table.entity === undefined ||
    !sides.includes(fromEntity) ||
    !sides.includes(returned.table.entity)
  )
    throw new Unmappable(
      `it reads the many-to-many relationship ${linkOf.parent} - ${linkOf.child} through another table`,
    );
  const returnedEntity = returned.table.entity;
  const parent = structure.entities.find((e) => e.name === fromEntity);
  const parentKey = parent?.key?.length === 1 ? parent.key[0] : undefined;
  if (
    parent === undefined ||
    parentKey === undefined ||
    filters.length !== 1 ||
    filters[0]?.filter.operator !== "eq"
  )
    throw new Unmappable(
      `it reads ${returned.table.table.name} through ${link.table.table.name} without one ${fromEntity ?? ""} to start from`,
    );
  // the returned side's columns travel with the item (tag labels in the product): `Tag.label`
  const childKey = keyOf(structure, returned.table);
  const columns = shape.all.includes(returned.alias)
    ? returned.table.table.columns.map((c) => c.name)
    : shape.selected.filter((c) => aliasOf(c) === returned).map((c) => c.column);
  const attributes = [...new Set(columns.map((c) => attributeOf(returned.table, c)))];
  const shown = attributes.filter((a) => !childKey.includes(a));
  const withEntries = (shown.length > 0 ? shown : attributes.length > 0 ? attributes : [...childKey]).map(
    (a) => `${returnedEntity}.${a}`,
  );
  return {
    pattern: compact({
      name: readName(parent.name, { [parentKey]: "eq" }, undefined, withEntries),
      type: "read" as const,
      entity: parent.name,
      where: { [parentKey]: "eq" as const },
      select: [parentKey],
      with: withEntries,
    }),
    statements: [statement],
    rowsMeaning: "none",
    notes,
  };
}
