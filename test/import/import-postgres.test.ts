/**
 * `cosmos-modeler import` against a real PostgreSQL server started here: the online-shop schema
 * of examples/online-shop, loaded with known rows, a replayed query workload with known call
 * counts, then the import through the built CLI. The imported entities, relationships, counts
 * and rates are checked against the database's own exact answers and the replayed calls; the
 * workload, once the peaks are given as the interview asks them, loads, designs and verifies.
 * Skips (saying why) only when the PostgreSQL server binaries are not installed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges } from "../../src/session/apply-changes.js";
import { checkReadiness } from "../../src/session/checklist.js";
import { openSession, saveSession } from "../../src/session-store/session-files.js";
import {
  createDatabase,
  postgresBinForTests,
  startPostgres,
  type PostgresServer,
} from "./postgres-server.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const bin = postgresBinForTests("import-postgres");

/** The replayed workload: each statement with its call count and what it must become. */
const REPLAY = [
  {
    sql: "SELECT * FROM customers WHERE customer_id = $1",
    calls: 300,
    args: (i: number) => [1 + (i % 2000)],
    expect: { type: "read", entity: "Customer", where: { customerId: "eq" } },
  },
  {
    sql: "SELECT o.order_id, o.status, o.total, o.placed_at FROM orders o WHERE o.customer_id = $1 ORDER BY o.placed_at DESC LIMIT 10",
    calls: 200,
    args: (i: number) => [1 + (i % 2000)],
    expect: { type: "read", entity: "Order", where: { customerId: "eq" }, orderBy: { placedAt: "desc" } },
  },
  {
    sql: "SELECT o.*, l.line_no, l.product_id, l.quantity, l.unit_price FROM orders o JOIN order_lines l ON l.order_id = o.order_id WHERE o.order_id = $1",
    calls: 150,
    args: (i: number) => [1 + (i % 10000)],
    expect: { type: "read", entity: "Order", where: { orderId: "eq" }, with: ["all(OrderLine)"] },
  },
  {
    sql: "SELECT p.product_id, p.name, p.price, c.name AS category FROM products p JOIN categories c ON c.category_id = p.category_id WHERE p.product_id = $1",
    calls: 400,
    args: (i: number) => [1 + (i % 500)],
    expect: { type: "read", entity: "Product", where: { productId: "eq" }, with: ["Category.name"] },
  },
  {
    sql: "SELECT count(*) FROM reviews WHERE product_id = $1",
    calls: 250,
    args: (i: number) => [1 + (i % 500)],
    expect: { type: "read", entity: "Product", where: { productId: "eq" }, with: ["count(Review)"] },
  },
  {
    sql: "SELECT * FROM reviews WHERE product_id = $1 ORDER BY created_at DESC LIMIT 5",
    calls: 100,
    args: (i: number) => [1 + (i % 500)],
    expect: { type: "read", entity: "Review", where: { productId: "eq" }, orderBy: { createdAt: "desc" } },
  },
  {
    sql: "SELECT * FROM products WHERE category_id = $1 AND price BETWEEN $2 AND $3 ORDER BY price LIMIT 20",
    calls: 80,
    args: (i: number) => [1 + (i % 20), 10, 50],
    expect: {
      type: "read",
      entity: "Product",
      where: { categoryId: "eq", price: "range" },
      orderBy: { price: "asc" },
    },
  },
  {
    sql: "SELECT t.label FROM tags t JOIN product_tags pt ON pt.tag_id = t.tag_id WHERE pt.product_id = $1",
    calls: 60,
    args: (i: number) => [1 + (i % 500)],
    expect: { type: "read", entity: "Product", where: { productId: "eq" }, with: ["Tag.label"] },
  },
  {
    // the other side of the same link table: a tag page with the names of its products
    sql: "SELECT p.name FROM products p JOIN product_tags pt ON pt.product_id = p.product_id WHERE pt.tag_id = $1",
    calls: 45,
    args: (i: number) => [1 + (i % 20)],
    expect: { type: "read", entity: "Tag", where: { tagId: "eq" }, with: ["Product.name"] },
  },
  {
    sql: "SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = $1",
    calls: 40,
    args: (i: number) => [1 + (i % 10000)],
    expect: { type: "read", entity: "Order", where: { orderId: "eq" }, with: ["sum(OrderLine.quantity)"] },
  },
  {
    sql: "SELECT * FROM products WHERE product_id = ANY($1)",
    calls: 30,
    args: (i: number) => [[1 + (i % 500), 2 + (i % 400)]],
    expect: { type: "read", entity: "Product", where: { productId: "in" } },
  },
  {
    sql: "UPDATE orders SET status = $1 WHERE order_id = $2",
    calls: 70,
    args: (i: number) => ["shipped", 1 + (i % 10000)],
    expect: { type: "write", entity: "Order", operation: "patch", changes: ["status"] },
  },
  {
    sql: "UPDATE products SET stock = stock - $1 WHERE product_id = $2",
    calls: 90,
    args: (i: number) => [1, 1 + (i % 500)],
    expect: { type: "write", entity: "Product", operation: "patch", changes: ["stock"] },
  },
  {
    sql: "INSERT INTO customers (email, full_name) VALUES ($1, $2) ON CONFLICT (email) DO UPDATE SET full_name = EXCLUDED.full_name",
    calls: 20,
    args: (i: number) => [`customer${1 + i}@example.com`, `Renamed ${i}`],
    expect: { type: "write", entity: "Customer", operation: "upsert" },
  },
  {
    sql: "DELETE FROM addresses WHERE address_id = $1",
    calls: 10,
    args: (i: number) => [1 + i * 3],
    expect: { type: "write", entity: "Address", operation: "delete" },
  },
  {
    sql: "INSERT INTO reviews (product_id, customer_id, rating, body) VALUES ($1, $2, $3, $4)",
    calls: 30,
    args: (i: number) => [1 + (i % 500), 1 + (i % 2000), 1 + (i % 5), "Fine"],
    expect: { type: "write", entity: "Review", operation: "create" },
  },
  // not expressible as one access pattern: listed for the user
  {
    sql: "UPDATE products p SET stock = p.stock + $1 FROM categories c WHERE c.category_id = p.category_id AND c.name = $2",
    calls: 5,
    args: () => [1, "category 3"],
    expect: undefined,
  },
  {
    sql: "SELECT * FROM orders WHERE status = $1 OR total > $2 LIMIT 5",
    calls: 7,
    args: () => ["placed", 250],
    expect: undefined,
  },
  {
    sql: "WITH recent AS (SELECT * FROM orders ORDER BY placed_at DESC LIMIT 100) SELECT count(*) FROM recent",
    calls: 3,
    args: () => [],
    expect: undefined,
  },
] as const;
/** Orders placed with their three lines in one transaction (create Order, create OrderLine x 3). */
const CHECKOUTS = 50;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

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
  summary: { entities: number; relationships: number; accessPatterns: number };
  unmapped: { kind: string; name: string; detail: string; reason: string }[];
  notes: string[];
  facts: { path: string[]; value: unknown; source: string }[];
}

describe.skipIf(bin === undefined)("import from a live PostgreSQL database", () => {
  let server: PostgresServer;
  let dir: string;
  let imported: ImportJson;
  let importOutput: { stdout: string; stderr: string };
  let exact: Record<string, number>;
  let windowBounds: { min: number; max: number };
  const appPassword = "app-secret-7431";
  const importerPassword = "importer-secret-9265";

  beforeAll(async () => {
    const built = join(root, "dist", "cli", "commands", "import.js");
    if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(root, "src")))
      spawnSync(
        process.execPath,
        [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
        { cwd: root },
      );
    server = await startPostgres(bin ?? "");
    const shop = await createDatabase(server, "shop", [
      readFileSync(join(root, "examples", "online-shop", "schema.sql"), "utf8"),
      readFileSync(join(root, "test", "import", "fixtures", "shop-data.sql"), "utf8"),
    ]);
    await shop.query(`CREATE ROLE app LOGIN PASSWORD '${appPassword}'`);
    await shop.query("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO app");
    // the importing role of the README: statistics of every role, SELECT for pg_stats
    await shop.query(`CREATE ROLE importer LOGIN PASSWORD '${importerPassword}'`);
    await shop.query("GRANT pg_read_all_stats TO importer");
    await shop.query("GRANT SELECT ON ALL TABLES IN SCHEMA public TO importer");
    // a role without pg_read_all_stats: the application's statements are hidden from it
    await shop.query(`CREATE ROLE limited LOGIN PASSWORD '${importerPassword}'`);
    await shop.query("GRANT SELECT ON ALL TABLES IN SCHEMA public TO limited");

    const beforeReset = Date.now();
    await shop.query("SELECT pg_stat_statements_reset()");
    const afterReset = Date.now();
    const app = new pg.Client({
      connectionString: `postgres://app:${appPassword}@127.0.0.1:${server.port}/shop`,
    });
    await app.connect();
    for (const statement of REPLAY)
      for (let i = 0; i < statement.calls; i++) await app.query(statement.sql, [...statement.args(i)]);
    for (let i = 0; i < CHECKOUTS; i++) {
      await app.query("BEGIN");
      const order = await app.query<{ order_id: string }>(
        "INSERT INTO orders (customer_id, status, total) VALUES ($1, 'placed', $2) RETURNING order_id",
        [1 + (i % 2000), 42],
      );
      const id = order.rows[0]?.order_id;
      await app.query(
        "INSERT INTO order_lines (order_id, line_no, product_id, quantity, unit_price) VALUES ($1, 1, $2, 1, 9.5), ($1, 2, $3, 1, 9.5), ($1, 3, $4, 2, 9.5)",
        [id, 1 + i, 2 + i, 3 + i],
      );
      await app.query("COMMIT");
    }
    await app.end();
    await shop.query("ANALYZE");
    dir = mkdtempSync(join(tmpdir(), "import-test-"));
    const beforeImport = Date.now();
    const result = run(
      ["import", `postgres://importer@127.0.0.1:${server.port}/shop`, "--out", dir, "--json"],
      { PGPASSWORD: importerPassword },
    );
    const afterImport = Date.now();
    importOutput = result;
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    imported = JSON.parse(result.stdout) as ImportJson;
    windowBounds = { min: (beforeImport - afterReset) / 1000, max: (afterImport - beforeReset) / 1000 };
    // the database's exact answers, asked after the import (so they are not among its statements)
    const count = async (sql: string) => Number((await shop.query<{ n: string }>(sql)).rows[0]?.n);
    exact = {};
    for (const table of [
      "customers",
      "addresses",
      "categories",
      "products",
      "tags",
      "product_tags",
      "orders",
      "order_lines",
      "reviews",
    ])
      exact[table] = await count(`SELECT count(*) AS n FROM ${table}`);
    exact.maxOrdersPerCustomer = await count(
      "SELECT max(n) AS n FROM (SELECT count(*) AS n FROM orders GROUP BY customer_id) x",
    );
    exact.maxLinesPerOrder = await count(
      "SELECT max(n) AS n FROM (SELECT count(*) AS n FROM order_lines GROUP BY order_id) x",
    );
    exact.maxReviewsPerProduct = await count(
      "SELECT max(n) AS n FROM (SELECT count(*) AS n FROM reviews GROUP BY product_id) x",
    );
    exact.maxTagsPerProduct = await count(
      "SELECT max(n) AS n FROM (SELECT count(*) AS n FROM product_tags GROUP BY product_id) x",
    );
    await shop.end();
  }, 600_000);

  afterAll(() => server?.stop());

  const fact = (...path: string[]) => imported.facts.find((f) => f.path.join("/") === path.join("/"));

  it("maps tables to entities with keys, counts and types, and the link table to a many-to-many relationship", async () => {
    const opened = await openSession(dir);
    const draft = opened.state.workload;
    const entities = Object.fromEntries(draft.entities.map((e) => [e.name, e]));
    expect(Object.keys(entities).sort()).toEqual([
      "Address",
      "Category",
      "Customer",
      "Order",
      "OrderLine",
      "Product",
      "Review",
      "Tag",
    ]);
    const tableOf: Record<string, string> = {
      Address: "addresses",
      Category: "categories",
      Customer: "customers",
      Order: "orders",
      OrderLine: "order_lines",
      Product: "products",
      Review: "reviews",
      Tag: "tags",
    };
    for (const [entity, table] of Object.entries(tableOf)) {
      // small tables are analyzed in full: reltuples is the exact count
      expect(entities[entity]?.count, entity).toBe(exact[table]);
      expect(fact("entities", entity, "count")?.source).toMatch(/pg_class\.reltuples/);
    }
    expect(entities.Order?.key).toEqual(["orderId"]);
    // PRIMARY KEY (order_id, line_no): a line is identified by its order and its number together
    expect(entities.OrderLine?.key).toEqual(["orderId", "lineNo"]);
    expect(fact("entities", "OrderLine", "key")).toMatchObject({
      value: "orderId, lineNo",
      source: expect.stringContaining("composite primary key (order_id, line_no)"),
    });
    expect(entities.Order?.attributes.find((a) => a.name === "placedAt")?.type).toBe("datetime");
    expect(entities.Order?.attributes.find((a) => a.name === "total")?.type).toBe("number");
    expect(entities.Customer?.attributes.find((a) => a.name === "email")?.unique).toBe(true);
    expect(entities.Order?.attributes.find((a) => a.name === "status")?.distinct).toBe(4);
    // 10,000 orders evenly over a year: 833 a month; 2,000 customers: 167 a month
    expect(entities.Order?.growthPerMonth).toBeGreaterThan(833 * 0.85);
    expect(entities.Order?.growthPerMonth).toBeLessThan(833 * 1.25);
    expect(entities.Customer?.growthPerMonth).toBeGreaterThan(167 * 0.85);
    expect(entities.Customer?.growthPerMonth).toBeLessThan(167 * 1.25);
    for (const entity of Object.values(entities)) expect(entity.avgBytes, entity.name).toBeGreaterThan(20);
  });

  it("maps foreign keys to relationships with averages and maxima that match the data", async () => {
    const draft = (await openSession(dir)).state.workload;
    const relationship = (parent: string, child: string) =>
      draft.relationships.find((r) => r.parent === parent && r.child === child);
    const ordersPerCustomer = relationship("Customer", "Order");
    expect(ordersPerCustomer?.via).toEqual(["customerId"]);
    expect(ordersPerCustomer?.avg).toBeCloseTo((exact.orders ?? 0) / (exact.customers ?? 1), 2);
    expect(ordersPerCustomer?.max).toBe(exact.maxOrdersPerCustomer);
    const lines = relationship("Order", "OrderLine");
    expect(lines?.avg).toBeCloseTo((exact.order_lines ?? 0) / (exact.orders ?? 1), 2);
    expect(lines?.max).toBe(exact.maxLinesPerOrder);
    expect(lines?.owned).toBe(true); // ON DELETE CASCADE
    expect(relationship("Product", "Review")?.max).toBe(exact.maxReviewsPerProduct);
    const tags = relationship("Product", "Tag");
    expect(tags?.kind).toBe("many-to-many");
    expect(tags?.avg).toBeCloseTo((exact.product_tags ?? 0) / (exact.products ?? 1), 2);
    expect(tags?.max).toBe(exact.maxTagsPerProduct);
    expect(relationship("Category", "Product")?.avg).toBeCloseTo(25, 5);
  });

  it("maps each replayed statement to its access pattern with calls / window as the average rate", async () => {
    const draft = (await openSession(dir)).state.workload;
    const expected = [
      ...REPLAY.filter((r) => r.expect !== undefined).map((r) => ({ calls: r.calls, expect: r.expect })),
      { calls: CHECKOUTS, expect: { type: "write", entity: "Order", operation: "create" } },
      { calls: CHECKOUTS, expect: { type: "write", entity: "OrderLine", operation: "create", batch: 3 } },
    ];
    for (const { calls, expect: shape } of expected) {
      const pattern = draft.accessPatterns.find((p) =>
        Object.entries(shape).every(
          ([k, v]) => JSON.stringify((p as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
      );
      expect(pattern, JSON.stringify(shape)).toBeDefined();
      if (pattern === undefined) continue;
      const avg = pattern.rps?.avg ?? 0;
      // calls over a window between the replay's bounds, to the 4 significant digits kept
      expect(avg).toBeGreaterThanOrEqual((calls / windowBounds.max) * 0.9995);
      expect(avg).toBeLessThanOrEqual((calls / windowBounds.min) * 1.0005);
      expect(pattern.rps?.peak).toBeUndefined(); // never invented
      expect(fact("accessPatterns", pattern.id, "rps", "avg")?.source).toContain(`${calls} calls`);
    }
    expect(draft.accessPatterns).toHaveLength(expected.length);
  });

  it("lists what it cannot map: the trigger, its function and the statements that touch several tables", () => {
    const kinds = imported.unmapped.map((u) => `${u.kind} ${u.name}`);
    expect(kinds).toContain("trigger order_lines_decrement_stock");
    expect(kinds).toContain("function public.decrement_stock");
    const statements = imported.unmapped.filter((u) => u.kind === "statement").map((u) => u.reason);
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/several tables/),
        expect.stringMatching(/OR/),
        expect.stringMatching(/WITH clause/),
      ]),
    );
    const requirements = readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8");
    expect(requirements).toContain("Not Imported: For You To Review");
    expect(requirements).toMatch(/order\\?_lines\\?_decrement\\?_stock/);
    expect(requirements).toMatch(/pg\\?_stat\\?_statements: 300 calls/);
  });

  it("explains, with the GRANT that fixes it, the statements a role without pg_read_all_stats cannot read (issue 28)", () => {
    const limitedDir = mkdtempSync(join(tmpdir(), "import-limited-"));
    const result = run(
      ["import", `postgres://limited@127.0.0.1:${server.port}/shop`, "--out", limitedDir, "--json"],
      { PGPASSWORD: importerPassword },
    );
    expect(result.status, result.stderr).toBe(0);
    const limited = JSON.parse(result.stdout) as ImportJson;
    expect(limited.notes.join("\n")).toMatch(
      /\d+ statements of other roles \([\d,]+ calls\) were not imported: their text is hidden from role limited.*GRANT pg_read_all_stats TO limited;/,
    );
    expect(JSON.stringify(limited.unmapped)).not.toMatch(/insufficient privilege|syntax error/);
  });

  it("imports a partitioned table as one entity with the foreign keys declared on its partitions (issue 28)", async () => {
    const parts = await createDatabase(server, "parts", [
      `CREATE TABLE customer (customer_id integer PRIMARY KEY, email text);
       CREATE TABLE payment (payment_id integer NOT NULL, customer_id integer NOT NULL, amount numeric(5,2),
         payment_date timestamptz NOT NULL, PRIMARY KEY (payment_date, payment_id)) PARTITION BY RANGE (payment_date);
       CREATE TABLE payment_p2022_01 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2022-02-01');
       CREATE TABLE payment_p2022_02 PARTITION OF payment FOR VALUES FROM ('2022-02-01') TO ('2022-03-01');
       ALTER TABLE payment_p2022_01 ADD FOREIGN KEY (customer_id) REFERENCES customer (customer_id);
       ALTER TABLE payment_p2022_02 ADD FOREIGN KEY (customer_id) REFERENCES customer (customer_id);
       INSERT INTO customer SELECT g, 'c' || g FROM generate_series(1, 50) g;
       INSERT INTO payment SELECT g, 1 + g % 50, 9.5, '2022-01-01'::timestamptz + (g || ' hours')::interval
         FROM generate_series(1, 1000) g;
       ANALYZE;`,
    ]);
    await parts.end();
    const partsDir = mkdtempSync(join(tmpdir(), "import-parts-"));
    const result = run(
      ["import", `postgres://postgres@127.0.0.1:${server.port}/parts`, "--out", partsDir, "--json"],
      { PGPASSWORD: server.password },
    );
    expect(result.status, result.stderr).toBe(0);
    const workload = parse(readFileSync(join(partsDir, "workload.yaml"), "utf8")) as {
      entities: Record<string, { count?: number }>;
      relationships?: { parent: string; child: string; via?: string }[];
    };
    expect(Object.keys(workload.entities).sort()).toEqual(["Customer", "Payment"]);
    // the partitions' rows are the table's: 1,000 payments of 50 customers
    expect(workload.entities.Payment?.count).toBe(1000);
    expect(workload.relationships).toEqual([
      expect.objectContaining({ parent: "Customer", child: "Payment", via: "customerId", avg: 20 }),
    ]);
  });

  it("never prints or writes a password", () => {
    for (const text of [
      importOutput.stdout,
      importOutput.stderr,
      readFileSync(join(dir, "workload.yaml"), "utf8"),
      readFileSync(join(dir, "cosmosdb_requirements.md"), "utf8"),
      readFileSync(join(dir, ".cosmos-modeler", "session.json"), "utf8"),
    ]) {
      expect(text).not.toContain(importerPassword);
      expect(text).not.toContain(appPassword);
    }
    const withPassword = run([
      "import",
      `postgres://importer:${importerPassword}@127.0.0.1:1/shop`,
      "--out",
      mkdtempSync(join(tmpdir(), "import-fail-")),
    ]);
    expect(withPassword.status).toBe(1);
    expect(withPassword.stderr).toMatch(/import\.connectionFailed/);
    expect(withPassword.stderr + withPassword.stdout).not.toContain(importerPassword);
  });

  it("gives a workload that, with the peaks the interview asks, loads, designs and passes verify (the many-to-many read included)", async () => {
    const opened = await openSession(dir);
    const before = checkReadiness(opened.state);
    expect(before.reasons.join("; ")).toMatch(/rate unknown/);
    // the interview asks each pattern's peak; answer 3x the imported average
    const changes = opened.state.workload.accessPatterns.map((p) => ({
      kind: "set-rate" as const,
      pattern: p.id,
      peak: (p.rps?.avg ?? 0) * 3,
    }));
    const applied = applyChanges(opened.state, changes);
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    await saveSession(dir, applied.value.state, opened.baseline);
    const workload = join(dir, "workload.yaml");
    const check = run(["check", workload]);
    expect(check.stderr).not.toMatch(/^error/m);
    expect(check.status).toBe(0);
    const out = join(dir, "design");
    const design = run(["design", workload, "--out", out]);
    expect(design.stderr).not.toMatch(/^error/m);
    expect(design.status).toBe(0);
    // The product page with its tag labels crosses the many-to-many product_tags join: the
    // product items carry the labels as an array of { tagId, label }, kept by Tag's change feed.
    const model = readFileSync(join(out, "model.yaml"), "utf8");
    expect(model).toMatch(/from: Tag\.label[\s\S]*as: tagLabels/);
    expect(model).toContain("/tagLabels/[]/tagId/?");
    const dataModel = readFileSync(join(out, "cosmosdb_data_model.md"), "utf8");
    expect(dataModel).toContain("Tag.label is copied into");
    const verify = run(["verify", workload, join(out, "model.yaml"), "--json"]);
    const report = JSON.parse(verify.stdout) as {
      load: { status: string; detail?: string };
      patterns: { patternId: string; status: string; detail?: string }[];
    };
    // Every pattern passes: item types that share a container get ids that cannot collide, and
    // the reads across product_tags (a product's tag labels, a tag's product names: arrays drawn
    // from the synthetic links) match the oracle's answers.
    expect(report.load.status).toBe("passed");
    expect(report.patterns.filter((p) => p.status !== "passed")).toEqual([]);
    const acrossLink = applied.value.state.workload.accessPatterns
      .filter(
        (p) => p.type === "read" && (p.with ?? []).some((w) => w === "Tag.label" || w === "Product.name"),
      )
      .map((p) => p.id);
    expect(acrossLink).toHaveLength(2);
    for (const id of acrossLink) expect(report.patterns.map((p) => p.patternId)).toContain(id);
    expect(model).toMatch(/from: Product\.name[\s\S]*as: productNames/);
  });
});
