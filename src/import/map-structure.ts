/**
 * Tables -> entities and foreign keys -> relationships, with the numbers the statistics give
 * (rows, JSON size, distinct values, skew, growth, children per parent), each recorded with its
 * source. Pure: works on a `DatabaseSnapshot`.
 */
import { compact, type DraftAttribute, type DraftEntity, type DraftRelationship } from "../session/draft.js";
import type { ImportedFact, UnmappedItem } from "../session/import-record.js";
import { formatDecimal, formatInteger } from "../common/format-number.js";
import { mapSearchColumn } from "./map-search.js";
import { attributeNameOf, entityNames, uniqueNames } from "./names.js";
import {
  averageItemBytes,
  distinctValues,
  growthPerMonth,
  zipfExponent,
  type Derived,
} from "./statistics.js";
import {
  tableLabel,
  type ColumnStatistics,
  type DatabaseSnapshot,
  type ForeignKey,
  type SqlDialect,
  type TableInfo,
} from "./snapshot/snapshot.js";

/** An imported table: its entity (or the many-to-many relationship it links) and its names. */
export interface MappedTable {
  readonly table: TableInfo;
  /** The entity name; for a pure link table, the relationship it became instead. */
  readonly entity?: string;
  readonly linkOf?: { readonly parent: string; readonly child: string };
  /** Attribute name of each column, by column name. */
  readonly attributes: ReadonlyMap<string, string>;
}

export interface MappedStructure {
  readonly entities: readonly DraftEntity[];
  readonly relationships: readonly DraftRelationship[];
  /** Every table by `schema.name`. */
  readonly tables: ReadonlyMap<string, MappedTable>;
  readonly foreignKeys: readonly ForeignKey[];
  readonly facts: readonly ImportedFact[];
  readonly unmapped: readonly UnmappedItem[];
  /** Decisions of the mapping in words (vector and full-text search), for the record's notes. */
  readonly notes: readonly string[];
}

/** Skew below this is reported as uniform (not written). */
const MIN_SKEW = 0.1;

export function tableKey(schema: string, name: string): string {
  return `${schema}.${name}`;
}

/** Rounds to `digits` significant digits (statistics are estimates; more digits would mislead). */
export function significant(value: number, digits = 3): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}

/**
 * A column the database fills itself and the application never sets: a timestamp defaulting to
 * the time of the write (`last_update timestamptz DEFAULT now()`), kept for auditing.
 */
function isAuditColumn(column: TableInfo["columns"][number]): boolean {
  return column.defaultsToNow && column.type === "datetime";
}

/**
 * A link table: its primary key (or a unique constraint) is exactly two foreign keys' columns
 * and its other columns, if any, are audit timestamps the database fills, so it only says which
 * rows of two tables belong together.
 */
function linkForeignKeys(
  table: TableInfo,
  foreignKeys: readonly ForeignKey[],
): readonly [ForeignKey, ForeignKey] | undefined {
  const own = foreignKeys.filter((fk) => fk.schema === table.schema && fk.table === table.name);
  if (own.length !== 2) return undefined;
  const [first, second] = own as [ForeignKey, ForeignKey];
  const keyColumns = new Set([...first.columns, ...second.columns]);
  const linking = table.columns.filter((c) => !isAuditColumn(c));
  if (linking.length !== keyColumns.size || !linking.every((c) => keyColumns.has(c.name))) return undefined;
  const covered = [table.primaryKey, ...table.uniques].some(
    (key) => key.length === keyColumns.size && key.every((column) => keyColumns.has(column)),
  );
  if (!covered) return undefined;
  // the first key column's table is the parent, as the key reads (product_id, tag_id): products -> tags
  const firstColumn = table.primaryKey[0] ?? table.uniques[0]?.[0];
  return second.columns.includes(firstColumn ?? "") ? [second, first] : [first, second];
}

/**
 * The columns that identify a row, when some do: the primary key (several columns for a
 * composite primary key, which becomes a composite key: `key: [filmId, actorId]`), else a unique
 * column that is never null.
 */
export function keyColumns(table: TableInfo): { columns: readonly string[]; note?: string } | undefined {
  if (table.primaryKey.length === 1) return { columns: table.primaryKey };
  if (table.primaryKey.length > 1) {
    return {
      columns: table.primaryKey,
      note: `composite primary key (${table.primaryKey.join(", ")}) of ${tableLabel(table)}: a row is identified by all its columns together`,
    };
  }
  const unique = table.uniques.find(
    (key) => key.length === 1 && table.columns.some((c) => c.name === key[0] && c.notNull),
  );
  return unique === undefined
    ? undefined
    : { columns: unique, note: `no primary key: the unique column ${unique[0] ?? ""}` };
}

/** The column the database fills with the time of the insert (for growth), when there is one. */
function creationColumn(table: TableInfo) {
  const candidates = table.columns.filter(
    (c) => c.type === "datetime" && c.defaultsToNow && (c.statistics?.timeBounds?.length ?? 0) >= 3,
  );
  // an update-time column also defaults to now(); the creation time is the one that starts earliest
  return [...candidates].sort(
    (a, b) => (a.statistics?.timeBounds?.[0] ?? 0) - (b.statistics?.timeBounds?.[0] ?? 0),
  )[0];
}

/** What the mapping of one table or foreign key reads and records into. */
interface MappingContext {
  readonly snapshot: DatabaseSnapshot;
  /** Every mapped table by `schema.name` (entities first, then link tables). */
  readonly tables: Map<string, MappedTable>;
  /** Records a fact with its source. */
  readonly fact: (path: readonly string[], value: number | string | boolean, source: string) => void;
  readonly unmapped: UnmappedItem[];
  readonly notes: string[];
  /** When the statistics were read (ms since 1970; NaN when unknown: no growth is derived). */
  readonly capturedAt: number;
}

/**
 * Tables -> entities (a pure link table -> a many-to-many relationship) and foreign keys ->
 * relationships, every number with its source.
 */
export function mapStructure(snapshot: DatabaseSnapshot): MappedStructure {
  const facts: ImportedFact[] = [];
  const context: MappingContext = {
    snapshot,
    tables: new Map<string, MappedTable>(),
    fact: (path, value, source) => {
      facts.push({ path, value, source });
    },
    unmapped: [],
    notes: [],
    capturedAt: snapshot.source.kind === "postgresql" ? Date.parse(snapshot.source.capturedAt) : Number.NaN,
  };
  const links = new Map<string, readonly [ForeignKey, ForeignKey]>();
  for (const table of snapshot.tables) {
    const link = linkForeignKeys(table, snapshot.foreignKeys);
    if (link !== undefined) links.set(tableKey(table.schema, table.name), link);
  }
  const entityTables = snapshot.tables.filter((t) => !links.has(tableKey(t.schema, t.name)));
  const names = entityNames(
    entityTables.map((t) => (t.schema === "public" || t.schema === "dbo" ? t.name : `${t.schema}_${t.name}`)),
  );
  const entities = entityTables.map((table, index) => mapEntity(table, names[index] ?? table.name, context));
  const relationships = [...foreignKeyRelationships(context), ...linkRelationships(links, context)];
  return {
    entities,
    relationships,
    tables: context.tables,
    foreignKeys: snapshot.foreignKeys,
    facts,
    unmapped: context.unmapped,
    notes: context.notes,
  };
}

/** A table as the entity `name`: key, count, size, growth and attributes, each fact recorded. */
function mapEntity(table: TableInfo, name: string, context: MappingContext): DraftEntity {
  const { fact } = context;
  const label = tableLabel(table);
  const key = keyColumns(table);
  // `id` is the item's id property: only a single-column key keeps the name (workload format).
  const idAllowed = (column: string) => key?.columns.length === 1 && key.columns[0] === column;
  const attributeNames = uniqueNames(
    table.columns.map((c) => c.name),
    (column) => {
      const attribute = attributeNameOf(column);
      return attribute === "id" && !idAllowed(column) ? "idValue" : attribute;
    },
  );
  const attributes = new Map(table.columns.map((c, i) => [c.name, attributeNames[i] ?? c.name]));
  context.tables.set(tableKey(table.schema, table.name), { table, entity: name, attributes });
  const keyAttributes = key?.columns.map((column) => attributes.get(column) ?? column);
  const rows = table.rows?.value;
  const at = (...field: string[]) => ["entities", name, ...field];
  if (key !== undefined && keyAttributes !== undefined)
    fact(at("key"), keyAttributes.join(", "), key.note ?? `primary key of ${label}`);
  let count: number | undefined;
  if (rows !== undefined && rows >= 1 && table.rows !== undefined) {
    count = Math.round(rows);
    fact(at("count"), count, table.rows.source);
  } else if (rows !== undefined) {
    context.unmapped.push({
      kind: "table",
      name: label,
      detail: "no rows",
      reason: "the table is empty (or was never analyzed): its item count is asked in the interview",
    });
  }
  const size = averageItemBytes(table.columns, attributeNames, rows ?? 0);
  if (size !== undefined) fact(at("avgBytes"), size.value, `${size.how} (${label})`);
  const growthValue = entityGrowth(table, rows, at, context);
  const draftAttributes = table.columns.map((column) =>
    mapAttribute(table, column, {
      attribute: attributes.get(column.name) ?? column.name,
      // Only a single key column has one value per row (a composite key's columns repeat).
      isKey: key?.columns.length === 1 && key.columns[0] === column.name,
      rows,
      at,
      fact,
      notes: context.notes,
      dialect: context.snapshot.source.kind === "ddl" ? context.snapshot.source.dialect : "postgresql",
    }),
  );
  return compact({
    name,
    key: keyAttributes,
    count,
    growthPerMonth: growthValue,
    avgBytes: size?.value,
    attributes: draftAttributes,
  });
}

/** Items added per month, from the column filled with the insert time (recorded as a fact). */
function entityGrowth(
  table: TableInfo,
  rows: number | undefined,
  at: (...field: string[]) => string[],
  context: MappingContext,
): number | undefined {
  const created = creationColumn(table);
  const growth =
    created?.statistics !== undefined && rows !== undefined && Number.isFinite(context.capturedAt)
      ? growthPerMonth(created.statistics, rows, context.capturedAt)
      : undefined;
  const growthValue = growth === undefined ? undefined : significant(growth.value);
  if (growth !== undefined && growthValue !== undefined && created !== undefined)
    context.fact(
      at("growthPerMonth"),
      growthValue,
      `${growth.how}: ${tableLabel(table)}.${created.name} (filled with the current time on insert)`,
    );
  return growthValue;
}

/** A column as an attribute: type, distinct values, skew and uniqueness, each fact recorded. */
function mapAttribute(
  table: TableInfo,
  column: TableInfo["columns"][number],
  where: {
    readonly attribute: string;
    readonly isKey: boolean;
    readonly rows: number | undefined;
    readonly at: (...field: string[]) => string[];
    readonly fact: MappingContext["fact"];
    readonly notes: string[];
    /** The database's dialect: which vector types it has. */
    readonly dialect: SqlDialect;
  },
): DraftAttribute {
  const { attribute, isKey, rows, at, fact } = where;
  const search = mapSearchColumn(table, column, where.dialect);
  where.notes.push(...(search?.notes ?? []));
  const label = tableLabel(table);
  const stats = column.statistics;
  const singleUnique = table.uniques.some((u) => u.length === 1 && u[0] === column.name);
  let distinct: Derived | undefined;
  let skew: Derived | undefined;
  if (stats !== undefined && rows !== undefined && !isKey && !singleUnique) {
    const value = distinctValues(stats, rows);
    if (value !== undefined && value >= 1) {
      distinct = {
        value: Math.max(1, Math.round(value)),
        how: `pg_stats.n_distinct of ${label}.${column.name} (${stats.distinct < 0 ? `${formatDecimal(-stats.distinct * 100)}% of ${formatInteger(rows)} rows` : "an estimate"})`,
      };
      const top = stats.mostCommonFrequencies[0];
      if (top !== undefined && distinct.value > 1) {
        const exponent =
          Math.round(zipfExponent(top / (1 - stats.nullFraction || 1), distinct.value) * 100) / 100;
        if (exponent >= MIN_SKEW)
          skew = {
            value: exponent,
            how: `Zipf exponent whose top value has the share of ${label}.${column.name}'s most common value (${formatDecimal(top * 100)}% in pg_stats.most_common_freqs) among ${formatInteger(distinct.value)} values`,
          };
      }
    }
  }
  const attrPath = (field: string) => at("attributes", attribute, field);
  fact(attrPath("type"), column.type, `${label}.${column.name} ${column.sqlType}`);
  if (distinct !== undefined) fact(attrPath("distinct"), distinct.value, distinct.how);
  if (skew !== undefined) fact(attrPath("skew"), skew.value, skew.how);
  if (singleUnique) fact(attrPath("unique"), true, `unique constraint or index on ${label}.${column.name}`);
  for (const found of search?.facts ?? [])
    fact(at("attributes", attribute, ...found.field), found.value, found.source);
  return compact({
    name: attribute,
    // a pgvector column without dimensions stays an array; a sparse vector travels as a string
    type: search?.vector !== undefined ? "array" : column.type,
    vector: search?.vector,
    fullText: search?.fullText,
    distinct: distinct?.value,
    skew: skew?.value,
    unique: singleUnique ? true : undefined,
  });
}

function rowsOf(snapshot: DatabaseSnapshot, schema: string, table: string): number | undefined {
  return snapshot.tables.find((t) => t.schema === schema && t.name === table)?.rows?.value;
}

/** Each foreign key between two entities as a one-to-many (or one-to-one) relationship. */
function foreignKeyRelationships(context: MappingContext): DraftRelationship[] {
  const { snapshot, fact } = context;
  const entityOf = (schema: string, table: string) => context.tables.get(tableKey(schema, table));
  const relationships: DraftRelationship[] = [];
  for (const fk of snapshot.foreignKeys) {
    const childTable = entityOf(fk.schema, fk.table);
    const parentTable = entityOf(fk.referencedSchema, fk.referencedTable);
    if (childTable?.entity === undefined || parentTable?.entity === undefined) continue;
    const viaColumns = viaColumnsOf(fk, keyColumns(parentTable.table)?.columns);
    if (viaColumns === undefined) {
      context.unmapped.push({
        kind: "constraint",
        name: fk.name,
        detail: `${tableLabel(childTable.table)} (${fk.columns.join(", ")}) references ${tableLabel(parentTable.table)} (${fk.referencedColumns.join(", ")})`,
        reason: `the referenced columns are not the key of ${tableLabel(parentTable.table)} (${(keyColumns(parentTable.table)?.columns ?? []).join(", ")}): a relationship's via holds the parent's whole key`,
      });
      continue;
    }
    const viaColumn = viaColumns[0] ?? "";
    const via = viaColumns.map((column) => childTable.attributes.get(column) ?? column);
    const path = (field: string) => [
      "relationships",
      parentTable.entity ?? "",
      childTable.entity ?? "",
      via.join(","),
      field,
    ];
    const column = childTable.table.columns.find((c) => c.name === viaColumn);
    const counts = childrenPerParent(
      column?.statistics,
      rowsOf(snapshot, fk.schema, fk.table),
      rowsOf(snapshot, fk.referencedSchema, fk.referencedTable),
      `${tableLabel(childTable.table)}.${viaColumn}`,
      tableLabel(parentTable.table),
    );
    // One child per parent: the via columns are a unique key or the primary key of the child.
    const sameColumns = (columns: readonly string[]): boolean =>
      columns.length === viaColumns.length && columns.every((column) => viaColumns.includes(column));
    const oneToOne = childTable.table.uniques.some(sameColumns) || sameColumns(childTable.table.primaryKey);
    if (oneToOne)
      fact(
        path("kind"),
        "one-to-one",
        `unique foreign key ${fk.name} on ${tableLabel(childTable.table)}.${viaColumns.join(", ")}`,
      );
    if (counts.avg !== undefined) fact(path("avg"), counts.avg.value, counts.avg.how);
    if (counts.max !== undefined) fact(path("max"), counts.max.value, counts.max.how);
    if (fk.cascadeDelete) fact(path("owned"), true, `foreign key ${fk.name} is ON DELETE CASCADE`);
    relationships.push(
      compact({
        parent: parentTable.entity,
        child: childTable.entity,
        kind: oneToOne ? ("one-to-one" as const) : undefined,
        via,
        avg:
          counts.avg === undefined ? undefined : oneToOne ? Math.min(1, counts.avg.value) : counts.avg.value,
        max: oneToOne ? 1 : counts.max?.value,
        owned: fk.cascadeDelete ? true : undefined,
      }),
    );
  }
  return relationships;
}

/**
 * The child columns of a foreign key that hold the parent's key, in the key's order: each key
 * column's referencing column. A single-column key referenced by another single column (a unique
 * column of the parent) keeps that column; undefined when the foreign key does not give every
 * column of a composite key.
 */
function viaColumnsOf(
  fk: ForeignKey,
  parentKey: readonly string[] | undefined,
): readonly string[] | undefined {
  if (parentKey === undefined || parentKey.length <= 1) {
    const position = Math.max(0, fk.referencedColumns.indexOf(parentKey?.[0] ?? ""));
    const column = fk.columns[position] ?? fk.columns[0];
    return column === undefined ? undefined : [column];
  }
  const columns = parentKey.map((key) => fk.columns[fk.referencedColumns.indexOf(key)]);
  return columns.every((column): column is string => column !== undefined) ? columns : undefined;
}

/** Each pure link table as a many-to-many relationship between the entities it links. */
function linkRelationships(
  links: ReadonlyMap<string, readonly [ForeignKey, ForeignKey]>,
  context: MappingContext,
): DraftRelationship[] {
  const { snapshot, fact } = context;
  const entityOf = (schema: string, table: string) => context.tables.get(tableKey(schema, table));
  const relationships: DraftRelationship[] = [];
  for (const [key, [toParent, toChild]] of links) {
    const table = snapshot.tables.find((t) => tableKey(t.schema, t.name) === key);
    const parent = entityOf(toParent.referencedSchema, toParent.referencedTable);
    const child = entityOf(toChild.referencedSchema, toChild.referencedTable);
    if (table === undefined || parent?.entity === undefined || child?.entity === undefined) continue;
    context.tables.set(key, {
      table,
      linkOf: { parent: parent.entity, child: child.entity },
      attributes: new Map(),
    });
    const column = table.columns.find((c) => c.name === toParent.columns[0]);
    const counts = childrenPerParent(
      column?.statistics,
      table.rows?.value,
      rowsOf(snapshot, toParent.referencedSchema, toParent.referencedTable),
      `${tableLabel(table)}.${toParent.columns[0] ?? ""}`,
      tableLabel(parent.table),
    );
    const path = (field: string) => ["relationships", parent.entity ?? "", child.entity ?? "", "", field];
    fact(
      path("kind"),
      "many-to-many",
      `${tableLabel(table)} holds only the foreign keys ${toParent.name} and ${toChild.name}`,
    );
    if (counts.avg !== undefined) fact(path("avg"), counts.avg.value, counts.avg.how);
    if (counts.max !== undefined) fact(path("max"), counts.max.value, counts.max.how);
    relationships.push(
      compact({
        parent: parent.entity,
        child: child.entity,
        kind: "many-to-many" as const,
        avg: counts.avg?.value,
        max: counts.max?.value,
      }),
    );
  }
  return relationships;
}

/**
 * Children per parent from the statistics of the child's foreign-key column: the average is the
 * child rows that have a parent over the parent rows; the maximum is the share of the most
 * common value (pg_stats.most_common_freqs, the most frequent parent) times the child rows.
 * Without a most-common list no parent stands out, and the maximum is left to the interview.
 */
function childrenPerParent(
  statistics: ColumnStatistics | undefined,
  childRows: number | undefined,
  parentRows: number | undefined,
  column: string,
  parentLabel: string,
): { avg?: Derived; max?: Derived } {
  if (statistics === undefined || childRows === undefined || parentRows === undefined || parentRows < 1)
    return {};
  const withParent = childRows * (1 - statistics.nullFraction);
  if (withParent <= 0) return {};
  const avg = {
    value: significant(withParent / parentRows),
    how: `${formatInteger(withParent)} rows of ${column} with a parent (pg_class.reltuples${statistics.nullFraction > 0 ? `, ${formatDecimal(statistics.nullFraction * 100)}% null in pg_stats` : ""}) / ${formatInteger(parentRows)} rows of ${parentLabel}`,
  };
  const top = statistics.mostCommonFrequencies[0];
  if (top === undefined) return { avg };
  const max = Math.max(1, Math.round(top * childRows));
  return {
    avg,
    max: {
      value: Math.max(max, Math.ceil(avg.value)),
      how: `the most frequent parent in ${column} holds ${formatDecimal(top * 100)}% of ${formatInteger(childRows)} rows (pg_stats.most_common_freqs)`,
    },
  };
}
