/**
 * Issue 28: `cosmos-modeler import` on three public sample databases (pagila, chinook, northwind:
 * test/import/fixtures/samples, each with its licence and SOURCE.md), loaded with their data into
 * a real PostgreSQL 15 with pg_stat_statements and driven by an application-like query mix with
 * known call counts (multi-table joins, a link table read, a NOT EXISTS subquery, a count with IS
 * NULL, LIKE searches, writes). The draft is compared with what the database itself reports
 * (catalog, count(*), GROUP BY) and with the replayed calls: entities and their keys (composite
 * ones included), a partitioned table as one entity, link tables (pure or with an audit column)
 * as many-to-many relationships, relationships with their averages and maxima, each statement's
 * rate counted once, what cannot be mapped listed. The draft, completed as the interview would
 * (peaks, the key the catalog does not give), designs and passes verify on the embedded endpoint.
 * Chinook's MySQL script imports to the same structure. Skips only without PostgreSQL binaries.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges } from "../../src/session/apply-changes.js";
import type { Change } from "../../src/session/changes.js";
import { checkReadiness } from "../../src/session/checklist.js";
import type { DraftAccessPattern, DraftWorkload } from "../../src/session/draft.js";
import { openSession, saveSession } from "../../src/session-store/session-files.js";
import {
  createDatabase,
  postgresBinForTests,
  startPostgres,
  type PostgresServer,
} from "./postgres-server.js";
import { isLinkTable, largestGroup, readCatalog, rowsWith, type Catalog } from "./sample-catalog.js";
import { sampleFile, sampleSql, type SampleName } from "./sample-databases.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const bin = postgresBinForTests("sample-databases");

/** Values the replay takes from the loaded data (existing keys, the next free ids). */
type Context = Readonly<Record<string, readonly (string | number)[]>>;

interface Replayed {
  readonly sql: string;
  readonly calls: number;
  readonly args: (i: number, context: Context) => readonly unknown[];
  /** The access pattern it must become (fields compared exactly; `with` in any order). */
  readonly expect?: Readonly<Record<string, unknown>>;
  /** What the pattern's notes must say (what the pattern could not hold). */
  readonly notes?: RegExp;
  /** Why it is listed instead of mapped. */
  readonly unmapped?: RegExp;
}

interface Sample {
  readonly name: SampleName;
  /** Queries whose answers the replay's arguments use. */
  readonly context: Readonly<Record<string, string>>;
  readonly replay: readonly Replayed[];
  /** The interview's answers beyond the peaks: what neither the catalog nor the statistics say. */
  readonly answers: readonly Change[];
  /** The entity an expert partitions by the most frequent read's filter, and that attribute. */
  readonly partitionedBy?: { readonly entity: string; readonly attribute: string };
}

const pick = (values: readonly (string | number)[] | undefined, i: number) =>
  values === undefined || values.length === 0 ? undefined : values[i % values.length];
const next = (context: Context, name: string, i: number) => Number(context[name]?.[0] ?? 0) + 1 + i;

const SAMPLES: readonly Sample[] = [
  {
    name: "pagila",
    context: {
      customers: "SELECT customer_id AS v FROM customer ORDER BY 1",
      films: "SELECT film_id AS v FROM film ORDER BY 1",
      inventory: "SELECT inventory_id AS v FROM inventory ORDER BY 1",
      rentals: "SELECT rental_id AS v FROM rental ORDER BY 1",
    },
    replay: [
      {
        // a customer's rentals with the film of each: rental -> inventory -> film
        sql: "SELECT r.rental_id, r.rental_period, i.film_id, f.title FROM rental r JOIN inventory i ON i.inventory_id = r.inventory_id JOIN film f ON f.film_id = i.film_id WHERE r.customer_id = $1",
        calls: 400,
        args: (i, c) => [pick(c.customers, i)],
        expect: { type: "read", entity: "Rental", where: { customerId: "eq" }, with: ["Inventory.filmId"] },
        notes: /title/,
      },
      {
        sql: "SELECT c.customer_id, c.first_name, c.last_name, c.email, a.address, a.phone FROM customer c JOIN address a ON a.address_id = c.address_id WHERE c.customer_id = $1",
        calls: 300,
        args: (i, c) => [pick(c.customers, i * 7)],
        expect: {
          type: "read",
          entity: "Customer",
          where: { customerId: "eq" },
          with: ["Address.address", "Address.phone"],
        },
      },
      {
        // film_actor has a last_update column: still the link of a many-to-many relationship
        sql: "SELECT a.first_name, a.last_name FROM actor a JOIN film_actor fa ON fa.actor_id = a.actor_id WHERE fa.film_id = $1",
        calls: 250,
        args: (i, c) => [pick(c.films, i * 3)],
        expect: {
          type: "read",
          entity: "Film",
          where: { filmId: "eq" },
          with: ["Actor.firstName", "Actor.lastName"],
        },
      },
      {
        sql: "SELECT * FROM film WHERE film_id = $1",
        calls: 200,
        args: (i, c) => [pick(c.films, i * 11)],
        expect: { type: "read", entity: "Film", where: { filmId: "eq" } },
      },
      {
        // the films a customer has not returned: a count that keeps its IS NULL apart
        sql: "SELECT count(*) FROM rental WHERE customer_id = $1 AND upper(rental_period) IS NULL",
        calls: 150,
        args: (i, c) => [pick(c.customers, i * 5)],
        expect: { type: "read", entity: "Customer", where: { customerId: "eq" }, with: ["count(Rental)"] },
        notes: /IS NULL/,
      },
      {
        // the partitioned table, read by the foreign key declared on its partitions
        sql: "SELECT payment_id, amount, payment_date FROM payment WHERE customer_id = $1 ORDER BY payment_date DESC",
        calls: 120,
        args: (i, c) => [pick(c.customers, i * 13)],
        expect: {
          type: "read",
          entity: "Payment",
          where: { customerId: "eq" },
          orderBy: { paymentDate: "desc" },
        },
      },
      {
        // pg_stat_statements keeps '%LOVE%' as $1: read as prefix, and the notes say so
        sql: "SELECT film_id, title FROM film WHERE title LIKE '%LOVE%'",
        calls: 90,
        args: () => [],
        expect: { type: "read", entity: "Film", where: { title: "prefix" } },
        notes: /read as prefix/,
      },
      {
        sql: "INSERT INTO rental (inventory_id, customer_id, staff_id) VALUES ($1, $2, 1)",
        calls: 80,
        args: (i, c) => [pick(c.inventory, i * 17), pick(c.customers, i)],
        expect: { type: "write", entity: "Rental", operation: "create" },
      },
      {
        sql: "INSERT INTO payment (customer_id, staff_id, rental_id, amount, payment_date) VALUES ($1, 1, $2, 4.99, now())",
        calls: 80,
        args: (i, c) => [pick(c.customers, i), pick(c.rentals, i * 19)],
        expect: { type: "write", entity: "Payment", operation: "create" },
      },
      {
        sql: "SELECT f.film_id, f.title FROM film f WHERE f.language_id = $1 AND NOT EXISTS (SELECT 1 FROM inventory i WHERE i.film_id = f.film_id)",
        calls: 60,
        args: () => [1],
        unmapped: /NOT EXISTS/,
      },
      {
        sql: "UPDATE rental SET rental_period = tsrange(lower(rental_period), now()::timestamp) WHERE rental_id = $1",
        calls: 40,
        args: (i, c) => [pick(c.rentals, i * 23)],
        expect: { type: "write", entity: "Rental", operation: "patch", changes: ["rentalPeriod"] },
      },
      {
        sql: "UPDATE customer SET email = $1 WHERE customer_id = $2",
        calls: 30,
        args: (i, c) => [`customer${i}@example.org`, pick(c.customers, i * 29)],
        expect: { type: "write", entity: "Customer", operation: "patch", changes: ["email"] },
      },
    ],
    // payment is partitioned without a primary key of its own (each partition declares one on
    // payment_id): the interview asks its key. film.original_language_id is NULL in every row: no
    // average to import (the format wants a positive one); the second Language -> Film is
    // addressed by its via (`of`), beside the first (languageId)
    answers: [
      { kind: "update-entity", name: "Payment", key: ["paymentId"] },
      { kind: "update-relationship", parent: "Language", child: "Film", of: "originalLanguageId", avg: 1 },
    ],
    // the most frequent read is a customer's rentals: rentals are kept by customer
    partitionedBy: { entity: "Rental", attribute: "customerId" },
  },
  {
    name: "chinook",
    context: {
      albums: "SELECT album_id AS v FROM album ORDER BY 1",
      customers: "SELECT customer_id AS v FROM customer ORDER BY 1",
      invoices: "SELECT invoice_id AS v FROM invoice ORDER BY 1",
      playlists: "SELECT playlist_id AS v FROM playlist ORDER BY 1",
      tracks: "SELECT track_id AS v FROM track ORDER BY 1",
      lastInvoice: "SELECT max(invoice_id) AS v FROM invoice",
      lastInvoiceLine: "SELECT max(invoice_line_id) AS v FROM invoice_line",
    },
    replay: [
      {
        // an album's tracks with their genre and media type: two parents of track
        sql: "SELECT t.track_id, t.name, t.milliseconds, g.name AS genre, m.name AS media_type FROM track t JOIN genre g ON g.genre_id = t.genre_id JOIN media_type m ON m.media_type_id = t.media_type_id WHERE t.album_id = $1",
        calls: 350,
        args: (i, c) => [pick(c.albums, i)],
        expect: {
          type: "read",
          entity: "Track",
          where: { albumId: "eq" },
          with: ["Genre.name", "MediaType.name"],
        },
      },
      {
        sql: "SELECT * FROM invoice WHERE customer_id = $1 ORDER BY invoice_date DESC",
        calls: 300,
        args: (i, c) => [pick(c.customers, i)],
        expect: {
          type: "read",
          entity: "Invoice",
          where: { customerId: "eq" },
          orderBy: { invoiceDate: "desc" },
        },
      },
      {
        sql: "SELECT il.invoice_line_id, il.quantity, il.unit_price, t.name FROM invoice_line il JOIN track t ON t.track_id = il.track_id WHERE il.invoice_id = $1",
        calls: 250,
        args: (i, c) => [pick(c.invoices, i * 3)],
        expect: { type: "read", entity: "InvoiceLine", where: { invoiceId: "eq" }, with: ["Track.name"] },
      },
      {
        // playlist_track is a pure link table: a many-to-many read
        sql: "SELECT t.track_id, t.name FROM track t JOIN playlist_track pt ON pt.track_id = t.track_id WHERE pt.playlist_id = $1",
        calls: 120,
        args: (i, c) => [pick(c.playlists, i)],
        expect: { type: "read", entity: "Playlist", where: { playlistId: "eq" }, with: ["Track.name"] },
      },
      {
        sql: "SELECT count(*) FROM invoice WHERE customer_id = $1 AND billing_state IS NULL",
        calls: 80,
        args: (i, c) => [pick(c.customers, i * 7)],
        expect: { type: "read", entity: "Customer", where: { customerId: "eq" }, with: ["count(Invoice)"] },
        notes: /billing_state IS NULL/,
      },
      {
        sql: "SELECT artist_id, name FROM artist WHERE name LIKE '%' || $1 || '%'",
        calls: 60,
        args: () => ["Black"],
        expect: { type: "read", entity: "Artist", where: { name: "prefix" } },
        notes: /read as prefix/,
      },
      {
        sql: "INSERT INTO invoice (invoice_id, customer_id, invoice_date, total) VALUES ($1, $2, now(), $3)",
        calls: 50,
        args: (i, c) => [next(c, "lastInvoice", i), pick(c.customers, i), 1.98],
        expect: { type: "write", entity: "Invoice", operation: "create" },
      },
      {
        sql: "INSERT INTO invoice_line (invoice_line_id, invoice_id, track_id, unit_price, quantity) VALUES ($1, $2, $3, 0.99, 1), ($4, $2, $5, 0.99, 1)",
        calls: 50,
        args: (i, c) => [
          next(c, "lastInvoiceLine", 2 * i),
          next(c, "lastInvoice", i),
          pick(c.tracks, i),
          next(c, "lastInvoiceLine", 2 * i + 1),
          pick(c.tracks, i + 100),
        ],
        expect: { type: "write", entity: "InvoiceLine", operation: "create", batch: 2 },
      },
      {
        sql: "SELECT t.track_id, t.name FROM track t WHERE t.album_id = $1 AND NOT EXISTS (SELECT 1 FROM invoice_line il WHERE il.track_id = t.track_id)",
        calls: 40,
        args: (i, c) => [pick(c.albums, i)],
        unmapped: /NOT EXISTS/,
      },
      {
        sql: "UPDATE customer SET email = $1 WHERE customer_id = $2",
        calls: 30,
        args: (i, c) => [`customer${i}@example.org`, pick(c.customers, i)],
        expect: { type: "write", entity: "Customer", operation: "patch", changes: ["email"] },
      },
    ],
    answers: [],
  },
  {
    name: "northwind",
    context: {
      customers: "SELECT customer_id AS v FROM customers ORDER BY 1",
      orders: "SELECT order_id AS v FROM orders ORDER BY 1",
      categories: "SELECT category_id AS v FROM categories ORDER BY 1",
      employees: "SELECT employee_id AS v FROM employees ORDER BY 1",
      products: "SELECT product_id AS v FROM products ORDER BY 1",
      lastOrder: "SELECT max(order_id) AS v FROM orders",
    },
    replay: [
      {
        // an order with its lines and their product names: orders -> order_details -> products
        sql: "SELECT o.order_id, o.order_date, d.product_id, d.quantity, d.unit_price, p.product_name FROM orders o JOIN order_details d ON d.order_id = o.order_id JOIN products p ON p.product_id = d.product_id WHERE o.order_id = $1",
        calls: 350,
        args: (i, c) => [pick(c.orders, i)],
        expect: { type: "read", entity: "Order", where: { orderId: "eq" }, with: ["all(OrderDetail)"] },
        notes: /product_name/,
      },
      {
        sql: "SELECT order_id, order_date, shipped_date FROM orders WHERE customer_id = $1 ORDER BY order_date DESC",
        calls: 300,
        args: (i, c) => [pick(c.customers, i)],
        expect: {
          type: "read",
          entity: "Order",
          where: { customerId: "eq" },
          orderBy: { orderDate: "desc" },
          select: ["orderId", "orderDate", "shippedDate"],
        },
      },
      {
        sql: "SELECT p.product_id, p.product_name, p.unit_price, s.company_name FROM products p JOIN suppliers s ON s.supplier_id = p.supplier_id WHERE p.category_id = $1",
        calls: 200,
        args: (i, c) => [pick(c.categories, i)],
        expect: {
          type: "read",
          entity: "Product",
          where: { categoryId: "eq" },
          with: ["Supplier.companyName"],
        },
      },
      {
        sql: "SELECT count(*) FROM orders WHERE customer_id = $1 AND shipped_date IS NULL",
        calls: 150,
        args: (i, c) => [pick(c.customers, i * 3)],
        expect: { type: "read", entity: "Customer", where: { customerId: "eq" }, with: ["count(Order)"] },
        notes: /shipped_date IS NULL/,
      },
      {
        sql: "UPDATE products SET units_in_stock = units_in_stock - $1 WHERE product_id = $2",
        calls: 100,
        args: (i, c) => [1, pick(c.products, i)],
        expect: { type: "write", entity: "Product", operation: "patch", changes: ["unitsInStock"] },
      },
      {
        sql: "SELECT product_id, product_name FROM products WHERE product_name LIKE '%Chef%'",
        calls: 60,
        args: () => [],
        expect: { type: "read", entity: "Product", where: { productName: "prefix" } },
        notes: /read as prefix/,
      },
      {
        // employee_territories is a pure link table
        sql: "SELECT t.territory_description FROM territories t JOIN employee_territories et ON et.territory_id = t.territory_id WHERE et.employee_id = $1",
        calls: 50,
        args: (i, c) => [pick(c.employees, i)],
        expect: {
          type: "read",
          entity: "Employee",
          where: { employeeId: "eq" },
          with: ["Territory.territoryDescription"],
        },
      },
      {
        sql: "INSERT INTO orders (order_id, customer_id, employee_id, order_date) VALUES ($1, $2, $3, current_date)",
        calls: 50,
        args: (i, c) => [next(c, "lastOrder", i), pick(c.customers, i), pick(c.employees, i)],
        expect: { type: "write", entity: "Order", operation: "create" },
      },
      {
        sql: "INSERT INTO order_details (order_id, product_id, unit_price, quantity, discount) VALUES ($1, $2, 10, 1, 0), ($1, $3, 12, 2, 0), ($1, $4, 9, 1, 0)",
        calls: 50,
        args: (i, c) => [
          next(c, "lastOrder", i),
          pick(c.products, i),
          pick(c.products, i + 20),
          pick(c.products, i + 40),
        ],
        expect: { type: "write", entity: "OrderDetail", operation: "create", batch: 3 },
      },
      {
        sql: "UPDATE orders SET shipped_date = current_date WHERE order_id = $1",
        calls: 40,
        args: (i, c) => [next(c, "lastOrder", i)],
        expect: { type: "write", entity: "Order", operation: "patch", changes: ["shippedDate"] },
      },
      {
        sql: "SELECT c.customer_id, c.company_name FROM customers c WHERE c.country = $1 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
        calls: 20,
        args: () => ["France"],
        unmapped: /NOT EXISTS/,
      },
    ],
    // customer_demographics and its link table customer_customer_demo are empty: the interview
    // asks their volumes
    answers: [
      { kind: "update-entity", name: "CustomerDemographic", count: 10, avgBytes: 120 },
      { kind: "update-relationship", parent: "Customer", child: "CustomerDemographic", avg: 1 },
    ],
  },
];

function run(args: readonly string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface ImportJson {
  notes: string[];
  unmapped: { kind: string; name: string; detail: string; reason: string }[];
  facts: { path: string[]; value: unknown; source: string }[];
  openItems: string[];
}

interface Imported {
  readonly dir: string;
  readonly json: ImportJson;
  readonly draft: DraftWorkload;
  readonly catalog: Catalog;
  readonly client: pg.Client;
  readonly window: { readonly min: number; readonly max: number };
  /** entity -> table, and per table column -> attribute, from each attribute's recorded source. */
  readonly tableOf: ReadonlyMap<string, string>;
  readonly attributeOf: (table: string, column: string) => string | undefined;
}

/** The imported facts' provenance: `entities/E/attributes/a/type` comes from `table.column type`. */
function provenance(json: ImportJson) {
  const tableOf = new Map<string, string>();
  const attributes = new Map<string, string>();
  for (const fact of json.facts) {
    const [head, entity, section, attribute, field] = fact.path;
    if (head !== "entities" || section !== "attributes" || field !== "type") continue;
    const match = /^(\w+)\.(\w+) /.exec(fact.source);
    if (entity === undefined || attribute === undefined || match === null) continue;
    tableOf.set(entity, match[1] ?? "");
    attributes.set(`${match[1] ?? ""}.${match[2] ?? ""}`, attribute);
  }
  return { tableOf, attributeOf: (table: string, column: string) => attributes.get(`${table}.${column}`) };
}

/** Fields a pattern must have exactly as expected: one the expectation leaves out is absent. */
const SHAPE_FIELDS = ["type", "entity", "operation", "where", "orderBy", "with", "changes", "batch"];

/** A draft pattern has the expected shape (`with` compared as a set; `select` when expected). */
function matches(pattern: DraftAccessPattern, shape: Readonly<Record<string, unknown>>): boolean {
  const fields = pattern as unknown as Record<string, unknown>;
  const normal = (key: string, value: unknown) =>
    JSON.stringify(key === "with" && Array.isArray(value) ? [...(value as string[])].sort() : value);
  return [...new Set([...SHAPE_FIELDS, ...Object.keys(shape)])].every(
    (key) => normal(key, fields[key]) === normal(key, shape[key]),
  );
}

describe.skipIf(bin === undefined)("import of public sample databases (issue 28)", () => {
  let server: PostgresServer;

  beforeAll(async () => {
    if (
      !existsSync(cli) ||
      statSync(cli).mtimeMs < statSync(join(root, "src", "import", "map-statements.ts")).mtimeMs
    )
      spawnSync(
        process.execPath,
        [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json", "--noCheck"],
        { cwd: root },
      );
    server = await startPostgres(bin ?? "");
  }, 120_000);

  afterAll(() => server?.stop());

  describe.each(SAMPLES)("$name", (sample) => {
    let imported: Imported;

    beforeAll(async () => {
      const client = await createDatabase(server, sample.name, sampleSql(sample.name));
      await client.query("ANALYZE");
      const context: Record<string, (string | number)[]> = {};
      for (const [name, sql] of Object.entries(sample.context))
        context[name] = (await client.query<{ v: string | number }>(sql)).rows.map((r) => r.v);
      const beforeReset = Date.now();
      await client.query("SELECT pg_stat_statements_reset()");
      const afterReset = Date.now();
      for (const statement of sample.replay)
        for (let i = 0; i < statement.calls; i++)
          await client.query(statement.sql, [...statement.args(i, context)]);
      await client.query("ANALYZE");
      const dir = mkdtempSync(join(tmpdir(), `import-${sample.name}-`));
      const beforeImport = Date.now();
      const result = run(["import", server.adminUrl(sample.name), "--out", dir, "--json"]);
      const afterImport = Date.now();
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const json = JSON.parse(result.stdout) as ImportJson;
      // the database's own answers, asked after the import (so not among its statements)
      const catalog = await readCatalog(client);
      imported = {
        dir,
        json,
        draft: (await openSession(dir)).state.workload,
        catalog,
        client,
        window: { min: (beforeImport - afterReset) / 1000, max: (afterImport - beforeReset) / 1000 },
        ...provenance(json),
      };
    }, 300_000);

    afterAll(async () => imported?.client.end());

    it("makes every table but the link tables an entity, with its key (composite ones included) and row count", () => {
      const { catalog, draft, tableOf, attributeOf } = imported;
      const tables = [...catalog.tables.values()];
      const entityTables = tables.filter((t) => !isLinkTable(catalog, t)).map((t) => t.name);
      expect([...tableOf.values()].sort()).toEqual(entityTables.sort());
      expect(draft.entities).toHaveLength(entityTables.length);
      for (const entity of draft.entities) {
        const table = catalog.tables.get(tableOf.get(entity.name) ?? "");
        expect(table, entity.name).toBeDefined();
        if (table === undefined) continue;
        const key = table.primaryKey.map((column) => attributeOf(table.name, column));
        if (key.length > 0) expect(entity.key, entity.name).toEqual(key);
        else {
          // no key in the catalog (a partitioned table keyed only on its partitions): asked
          expect(entity.key, entity.name).toBeUndefined();
          expect(imported.json.openItems.join("\n")).toMatch(
            new RegExp(`no key: [^\\n]*\\b${entity.name}\\b`),
          );
        }
        // small tables are analyzed in full: reltuples is the exact count (an empty table: asked)
        expect(entity.count, entity.name).toBe(table.rows > 0 ? table.rows : undefined);
      }
      // at least one composite key among the entities or link tables of every sample
      expect(tables.some((t) => t.primaryKey.length > 1)).toBe(true);
    });

    it("imports a partitioned table as one entity with its partitions' rows and the foreign keys declared on them", async () => {
      const partitioned = [...imported.catalog.tables.values()].filter((t) => t.partitioned);
      if (sample.name !== "pagila") {
        expect(partitioned).toEqual([]);
        return;
      }
      expect(partitioned.map((t) => t.name)).toEqual(["payment"]);
      const partitions = await imported.client.query<{ name: string }>(
        "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'public.payment'::regclass",
      );
      expect(partitions.rows.length).toBeGreaterThan(1);
      const names = [...imported.tableOf.values()];
      for (const { name } of partitions.rows) expect(names).not.toContain(name);
      const payment = imported.draft.entities.find((e) => imported.tableOf.get(e.name) === "payment");
      expect(payment?.count).toBe(imported.catalog.tables.get("payment")?.rows);
      // pagila declares payment's foreign keys on the partitions only
      const declaredOnParent = await imported.client.query(
        "SELECT 1 FROM pg_constraint WHERE contype = 'f' AND conrelid = 'public.payment'::regclass",
      );
      expect(declaredOnParent.rows).toEqual([]);
      const fromCatalog = imported.catalog.foreignKeys.filter((fk) => fk.table === "payment");
      expect(fromCatalog.length).toBeGreaterThan(0);
      const children = imported.draft.relationships.filter((r) => r.child === payment?.name);
      expect(children).toHaveLength(fromCatalog.length);
    });

    it("maps each foreign key to a relationship, and each link table (audit column or not) to a many-to-many one, with averages and maxima from the rows", async () => {
      const { catalog, draft, tableOf, attributeOf, client } = imported;
      const entityOf = (table: string) => [...tableOf].find(([, t]) => t === table)?.[0];
      const close = (actual: number | undefined, exact: number) => {
        if (exact === 0) return expect(actual).toBeUndefined();
        expect(actual).toBeDefined();
        // three significant digits
        expect(Math.abs((actual ?? 0) - exact) / exact).toBeLessThan(0.006);
      };
      let expected = 0;
      for (const fk of catalog.foreignKeys) {
        const child = catalog.tables.get(fk.table);
        const parent = catalog.tables.get(fk.referenced);
        if (child === undefined || parent === undefined || isLinkTable(catalog, child)) continue;
        expected++;
        // the via lists the child's columns in the order of the parent's key
        const via = parent.primaryKey.map((key) =>
          attributeOf(child.name, fk.columns[fk.referencedColumns.indexOf(key)] ?? ""),
        );
        const label = `${fk.table}(${fk.columns.join(", ")}) -> ${fk.referenced}`;
        const relationship = draft.relationships.find(
          (r) =>
            r.parent === entityOf(parent.name) &&
            r.child === entityOf(child.name) &&
            JSON.stringify(r.via) === JSON.stringify(via),
        );
        expect(relationship, label).toBeDefined();
        const unique = [child.primaryKey, ...child.uniques].some(
          (key) => key.length === fk.columns.length && key.every((c) => fk.columns.includes(c)),
        );
        expect(relationship?.kind ?? "one-to-many", label).toBe(unique ? "one-to-one" : "one-to-many");
        close(relationship?.avg, (await rowsWith(client, child.name, fk.columns)) / parent.rows);
        if (typeof relationship?.max === "number")
          expect(
            Math.abs(relationship.max - (await largestGroup(client, child.name, fk.columns))),
            label,
          ).toBeLessThanOrEqual(1);
      }
      const links = [...catalog.tables.values()].filter((t) => isLinkTable(catalog, t));
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        expected++;
        const sides = catalog.foreignKeys.filter((fk) => fk.table === link.name);
        const entities = sides.map((fk) => entityOf(fk.referenced));
        const relationship = draft.relationships.find(
          (r) =>
            r.kind === "many-to-many" && [r.parent, r.child].sort().join() === [...entities].sort().join(),
        );
        expect(relationship, link.name).toBeDefined();
        const parentSide = sides.find((fk) => entityOf(fk.referenced) === relationship?.parent);
        const parentRows = catalog.tables.get(parentSide?.referenced ?? "")?.rows ?? 0;
        close(relationship?.avg, link.rows / parentRows);
        if (typeof relationship?.max === "number")
          expect(relationship.max).toBe(await largestGroup(client, link.name, parentSide?.columns ?? []));
      }
      expect(draft.relationships).toHaveLength(expected);
    });

    it("drafts each replayed statement once with calls / window as its rate, the most frequent first; what it cannot map is listed with why", () => {
      const { draft, json, window } = imported;
      const fact = (...path: string[]) => json.facts.filter((f) => f.path.join("/") === path.join("/"));
      let mapped = 0;
      for (const statement of sample.replay) {
        if (statement.unmapped !== undefined) {
          const listed = json.unmapped.find(
            (u) => u.kind === "statement" && u.detail.startsWith(`${statement.calls} calls:`),
          );
          expect(listed?.reason, statement.sql).toMatch(statement.unmapped);
          continue;
        }
        const shape = statement.expect ?? {};
        const pattern = draft.accessPatterns.find((p) => matches(p, shape));
        expect(pattern, `${statement.sql}\n${JSON.stringify(shape)}`).toBeDefined();
        if (pattern === undefined) continue;
        mapped++;
        // counted once: this statement's calls over the window, nothing else's
        expect(pattern.rps?.avg).toBeGreaterThanOrEqual((statement.calls / window.max) * 0.9995);
        expect(pattern.rps?.avg).toBeLessThanOrEqual((statement.calls / window.min) * 1.0005);
        expect(pattern.rps?.peak).toBeUndefined();
        expect(fact("accessPatterns", pattern.id, "rps", "avg")[0]?.source).toContain(
          `${statement.calls} calls`,
        );
        if (statement.notes !== undefined)
          expect(
            fact("accessPatterns", pattern.id, "name")
              .map((f) => f.source)
              .join("\n"),
            pattern.id,
          ).toMatch(statement.notes);
      }
      expect(draft.accessPatterns).toHaveLength(mapped);
      // the most frequent first: Q1 is the read called most, and so on
      const reads = sample.replay
        .filter((r) => r.expect?.["type"] === "read")
        .sort((a, b) => b.calls - a.calls)
        .map((r) => draft.accessPatterns.find((p) => matches(p, r.expect ?? {}))?.id);
      expect(reads).toEqual(reads.map((_, i) => `Q${i + 1}`));
      // the three most frequent statements are all drafted (none of them is only listed)
      const frequent = [...sample.replay].sort((a, b) => b.calls - a.calls).slice(0, 3);
      for (const statement of frequent) expect(statement.expect, statement.sql).toBeDefined();
    });

    it("completed as the interview asks (peaks, what the catalog does not say), designs and passes verify on the embedded endpoint", async () => {
      expect(checkReadiness((await openSession(imported.dir)).state).reasons.join("; ")).toMatch(
        /rate unknown/,
      );
      const opened = await openSession(imported.dir);
      const changes: Change[] = [
        ...sample.answers,
        ...opened.state.workload.accessPatterns.map((p) => ({
          kind: "set-rate" as const,
          pattern: p.id,
          peak: (p.rps?.avg ?? 0) * 3,
        })),
      ];
      const applied = applyChanges(opened.state, changes);
      expect(applied.ok, JSON.stringify(applied)).toBe(true);
      if (!applied.ok) return;
      const reasons = checkReadiness(applied.value.state).reasons.join("\n");
      expect(reasons).not.toMatch(/does not load|no key|rate unknown/);
      await saveSession(imported.dir, applied.value.state, opened.baseline);
      const workload = join(imported.dir, "workload.yaml");
      const check = run(["check", workload]);
      expect(check.stderr).not.toMatch(/^error/m);
      expect(check.status).toBe(0);
      const out = join(imported.dir, "design");
      const design = run(["design", workload, "--out", out]);
      expect(design.stderr).not.toMatch(/^error/m);
      expect(design.status).toBe(0);
      const verify = run(["verify", workload, join(out, "model.yaml"), "--json"]);
      const report = JSON.parse(verify.stdout) as {
        load: { status: string; detail?: string };
        patterns: { patternId: string; status: string; detail?: string }[];
      };
      if (sample.partitionedBy !== undefined) {
        const model = parse(readFileSync(join(out, "model.yaml"), "utf8")) as {
          containers: { items: { entity: string; partitionKey: string[] }[] }[];
        };
        const items = model.containers.flatMap((c) => c.items);
        const { entity, attribute } = sample.partitionedBy;
        expect(items.find((item) => item.entity === entity)?.partitionKey).toEqual([`{${attribute}}`]);
      }
      expect(report.load.status).toBe("passed");
      expect(report.patterns.filter((p) => p.status !== "passed")).toEqual([]);
      expect(report.patterns.map((p) => p.patternId).sort()).toEqual(
        applied.value.state.workload.accessPatterns.map((p) => p.id).sort(),
      );
    }, 300_000);

    it.runIf(sample.name === "chinook")(
      "reads the MySQL script of the same database to the same structure, recognised or named",
      async () => {
        const live = imported.draft;
        const structure = (workload: DraftWorkload) => ({
          entities: workload.entities.map((e) => [e.name, e.key]).sort(),
          relationships: workload.relationships
            .map((r) => [r.parent, r.child, r.kind ?? "one-to-many", r.via])
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        });
        const file = sampleFile("chinook", "Chinook_MySql.sql");
        for (const dialect of [[], ["--dialect", "mysql"]]) {
          const dir = mkdtempSync(join(tmpdir(), "import-chinook-mysql-"));
          const result = run(["import", file, "--out", dir, "--json", ...dialect]);
          expect(result.status, result.stderr).toBe(0);
          const json = JSON.parse(result.stdout) as ImportJson;
          expect(json.notes.join("\n")).toMatch(/\(mysql DDL/);
          expect(structure((await openSession(dir)).state.workload)).toEqual(structure(live));
        }
        expect(readFileSync(file, "utf8")).toMatch(/ENGINE|AUTO_INCREMENT|`/);
      },
    );
  });
});
