/**
 * The public sample databases of the import tests (test/import/fixtures/samples/<name>, each with
 * its licence and SOURCE.md), read as the SQL texts `createDatabase` runs. The files are kept as
 * published; the few statements the PostgreSQL 15 server of the tests cannot run (a setting and a
 * view syntax of PostgreSQL 17, psql's `\c`) are cut here, each one required to be found exactly
 * once so that a changed file fails loudly instead of loading something else. `COPY ... FROM
 * stdin` blocks (pg_dump's data format, which the pg client cannot stream) become INSERTs of the
 * same rows.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const samples = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "samples");

function read(sample: string, file: string): string {
  return readFileSync(join(samples, sample, file), "utf8");
}

/** `sql` without `statement`, which must occur in it exactly once. */
export function cutOnce(sql: string, statement: string): string {
  const at = sql.indexOf(statement);
  if (at < 0 || sql.indexOf(statement, at + 1) >= 0)
    throw new Error(`expected exactly one ${JSON.stringify(statement.slice(0, 60))} in the sample`);
  return sql.slice(0, at) + sql.slice(at + statement.length);
}

/** `sql` without the text from `start` up to and including `end` (each found exactly once). */
function cutBetween(sql: string, start: string, end: string): string {
  const from = sql.indexOf(start);
  const to = sql.indexOf(end, from);
  if (from < 0 || to < 0 || sql.indexOf(start, from + 1) >= 0)
    throw new Error(`expected exactly one ${JSON.stringify(start)} in the sample`);
  return sql.slice(0, from) + sql.slice(to + end.length);
}

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** One field of COPY's text format as the value it stands for (undefined for \N, NULL). */
export function copyField(field: string): string | undefined {
  if (field === "\\N") return undefined;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, escape: string) => {
    if (escape.startsWith("x") && escape.length > 1)
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]+$/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return ESCAPES[escape] ?? escape;
  });
}

function literal(value: string | undefined): string {
  return value === undefined ? "NULL" : `'${value.replaceAll("'", "''")}'`;
}

const ROWS_PER_INSERT = 500;

/**
 * `sql` with every `COPY table (columns) FROM stdin;` block (rows up to `\.`) replaced by
 * INSERT statements of the same rows, 500 rows a statement.
 */
export function copyAsInserts(sql: string): string {
  const lines = sql.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const copy = /^COPY (\S+) \(([^)]*)\) FROM stdin;$/.exec(line);
    if (copy === null) {
      out.push(line);
      continue;
    }
    const rows: string[] = [];
    for (i++; i < lines.length && lines[i] !== "\\."; i++)
      rows.push(`(${(lines[i] ?? "").split("\t").map(copyField).map(literal).join(", ")})`);
    if (i >= lines.length) throw new Error(`COPY ${copy[1]} has no end marker`);
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT)
      out.push(
        `INSERT INTO ${copy[1]} (${copy[2]}) VALUES\n${rows.slice(at, at + ROWS_PER_INSERT).join(",\n")};`,
      );
  }
  return out.join("\n");
}

export type SampleName = "pagila" | "chinook" | "northwind";

/** The SQL texts that create and fill sample `name`, in order. */
export function sampleSql(name: SampleName): readonly string[] {
  switch (name) {
    case "pagila": {
      let schema = read("pagila", "pagila-schema.sql");
      // PostgreSQL 17's setting and JSON_TABLE view (the server here is 15); nothing imports views
      schema = cutOnce(schema, "SET transaction_timeout = 0;");
      schema = cutBetween(
        schema,
        "CREATE VIEW public.films_per_customer_rental AS",
        "ALTER VIEW public.films_per_customer_rental OWNER TO postgres;",
      );
      return [schema, copyAsInserts(read("pagila", "pagila-data.sql"))];
    }
    case "chinook": {
      // the script creates its database and connects with psql's \c: the test created it
      let sql = read("chinook", "Chinook_PostgreSql.sql");
      sql = cutOnce(sql, "DROP DATABASE IF EXISTS chinook;");
      sql = cutOnce(sql, "CREATE DATABASE chinook;");
      sql = cutOnce(sql, "\\c chinook;");
      return [sql];
    }
    case "northwind":
      return [read("northwind", "northwind.sql")];
    default:
      return name satisfies never;
  }
}

/** Path of a sample's file, for the tests that import a DDL file. */
export function sampleFile(name: SampleName, file: string): string {
  return join(samples, name, file);
}
