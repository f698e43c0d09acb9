/**
 * What a DDL script declares, collected statement by statement in the order the script runs
 * (a constraint added by ALTER TABLE after its CREATE TABLE), for every dialect.
 */
import type { AttributeType } from "../../workload/types.js";
import type {
  ColumnInfo,
  DatabaseObject,
  ForeignKey,
  SearchDeclaration,
  TableInfo,
  UnreadStatement,
} from "../snapshot/snapshot.js";

export interface DdlContent {
  readonly tables: readonly TableInfo[];
  readonly foreignKeys: readonly ForeignKey[];
  readonly objects: readonly DatabaseObject[];
  readonly unread: readonly UnreadStatement[];
  /** Statements the parser read (for choosing the dialect). */
  readonly parsedStatements: number;
}

interface MutableTable {
  schema: string;
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  uniques: string[][];
  notNull: Set<string>;
  search: SearchDeclaration[];
}

type TableName = { readonly schema: string; readonly name: string };

/** Longest statement text kept in the list of statements that could not be read. */
const UNREAD_TEXT = 300;

export class DdlCollector {
  private readonly tables = new Map<string, MutableTable>();
  private readonly foreignKeys: ForeignKey[] = [];
  private readonly objects: DatabaseObject[] = [];
  private readonly unreadStatements: UnreadStatement[] = [];
  private parsedCount = 0;
  /** Partitions attached to a partitioned table (`ALTER TABLE p ATTACH PARTITION c`): c -> p. */
  private readonly partitions = new Map<string, string>();

  private static key(table: TableName): string {
    return `${table.schema.toLowerCase()}.${table.name.toLowerCase()}`;
  }

  private find(table: TableName): MutableTable {
    const key = DdlCollector.key(table);
    let found = this.tables.get(key);
    if (found === undefined) {
      found = {
        schema: table.schema,
        name: table.name,
        columns: [],
        primaryKey: [],
        uniques: [],
        notNull: new Set(),
        search: [],
      };
      this.tables.set(key, found);
    }
    return found;
  }

  parsed(): void {
    this.parsedCount++;
  }

  table(table: TableName): void {
    this.find(table);
  }

  column(
    table: TableName,
    column: {
      name: string;
      sqlType: string;
      type: AttributeType;
      notNull?: boolean;
      defaultsToNow?: boolean;
    },
  ): void {
    const found = this.find(table);
    if (found.columns.some((c) => c.name === column.name)) return;
    found.columns.push({
      name: column.name,
      sqlType: column.sqlType,
      type: column.type,
      notNull: column.notNull === true,
      defaultsToNow: column.defaultsToNow === true,
    });
  }

  notNull(table: TableName, column: string): void {
    this.find(table).notNull.add(column);
  }

  primaryKey(table: TableName, columns: readonly string[]): void {
    const found = this.find(table);
    found.primaryKey = [...columns];
    for (const column of columns) found.notNull.add(column);
  }

  unique(table: TableName, columns: readonly string[]): void {
    // a unique index of something other than a table (a materialized view) makes no entity
    if (!this.tables.has(DdlCollector.key(table))) return;
    const found = this.find(table);
    if (!found.uniques.some((u) => u.join(",") === columns.join(","))) found.uniques.push([...columns]);
  }

  /** A pgvector index or a text search over columns of `table` (a table declared before it). */
  search(table: TableName, declaration: SearchDeclaration): void {
    if (!this.tables.has(DdlCollector.key(table))) return;
    this.find(table).search.push(declaration);
  }

  foreignKey(foreignKey: ForeignKey): void {
    this.foreignKeys.push(foreignKey);
  }

  /**
   * `partition` holds rows of `parent` (pg_dump's `ALTER TABLE ONLY parent ATTACH PARTITION
   * partition`): it is no entity of its own, and its foreign keys are the parent's.
   */
  partitionOf(partition: TableName, parent: TableName): void {
    this.partitions.set(DdlCollector.key(partition), DdlCollector.key(parent));
  }

  object(object: DatabaseObject): void {
    this.objects.push(object);
  }

  unread(line: number, text: string, reason: string): void {
    const flat = text.replace(/\s+/g, " ").trim();
    this.unreadStatements.push({
      line,
      text: flat.length > UNREAD_TEXT ? `${flat.slice(0, UNREAD_TEXT - 1)}…` : flat,
      reason,
    });
  }

  content(): DdlContent {
    // The table a partition's rows belong to (a partition of a partition: the root).
    const root = (key: string): string => {
      let current = key;
      for (let depth = 0; depth < 100 && this.partitions.has(current); depth++)
        current = this.partitions.get(current) ?? current;
      return current;
    };
    const tables: TableInfo[] = [...this.tables.entries()]
      .filter(([key]) => !this.partitions.has(key))
      .map(([, t]) => ({
        schema: t.schema,
        name: t.name,
        columns: t.columns.map((c) => ({ ...c, notNull: c.notNull || t.notNull.has(c.name) })),
        primaryKey: t.primaryKey,
        uniques: t.uniques,
        ...(t.search.length > 0 ? { search: t.search } : {}),
      }));
    const known = (schema: string, name: string) =>
      this.tables.has(root(`${schema.toLowerCase()}.${name.toLowerCase()}`));
    const canonical = (schema: string, name: string) =>
      this.tables.get(root(`${schema.toLowerCase()}.${name.toLowerCase()}`));
    // a foreign key names a table before or after its CREATE TABLE, in any letter case; one
    // declared on a partition (or referencing one) is the partitioned table's, kept once
    const seen = new Set<string>();
    const foreignKeys = this.foreignKeys
      .filter((fk) => {
        const key = [
          canonical(fk.schema, fk.table)?.name ?? fk.table,
          fk.columns.join(","),
          canonical(fk.referencedSchema, fk.referencedTable)?.name ?? fk.referencedTable,
        ].join("|");
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .filter((fk) => known(fk.schema, fk.table) && known(fk.referencedSchema, fk.referencedTable))
      .map((fk) => {
        const child = canonical(fk.schema, fk.table);
        const parent = canonical(fk.referencedSchema, fk.referencedTable);
        return {
          ...fk,
          schema: child?.schema ?? fk.schema,
          table: child?.name ?? fk.table,
          referencedSchema: parent?.schema ?? fk.referencedSchema,
          referencedTable: parent?.name ?? fk.referencedTable,
          // REFERENCES t without columns means t's primary key
          referencedColumns:
            fk.referencedColumns.length > 0 ? fk.referencedColumns : (parent?.primaryKey ?? []),
        };
      });
    return {
      tables,
      foreignKeys,
      objects: this.objects,
      unread: this.unreadStatements,
      parsedStatements: this.parsedCount,
    };
  }
}
