import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { mapSnapshot } from "../map-snapshot.js";
import { analyzePostgresStatement, loadPostgresParser } from "../sql/postgres-parser.js";
import { readDdl } from "./read-ddl.js";

const NOW = "2026-01-01T00:00:00.000Z";
const shop = readFileSync(new URL("../../../examples/online-shop/schema.sql", import.meta.url), "utf8");

const mysql = `
CREATE TABLE customers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  email VARCHAR(255) NOT NULL UNIQUE,
  created_at DATETIME DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id BIGINT UNSIGNED NOT NULL,
  total DECIMAL(10,2),
  CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
);
DELIMITER ;;
CREATE TRIGGER orders_ai AFTER INSERT ON orders FOR EACH ROW BEGIN UPDATE customers SET email = email WHERE id = NEW.customer_id; END;;
DELIMITER ;
`;

const sqlserver = `
SET ANSI_NULLS ON
GO
CREATE TABLE [dbo].[Customers](
  [CustomerId] [int] IDENTITY(1,1) NOT NULL,
  [Email] [nvarchar](255) NOT NULL,
  [IsActive] [bit] NOT NULL,
  CONSTRAINT [PK_Customers] PRIMARY KEY CLUSTERED ([CustomerId] ASC)
) ON [PRIMARY]
GO
CREATE TABLE [dbo].[Orders](
  [OrderId] [uniqueidentifier] NOT NULL PRIMARY KEY,
  [CustomerId] [int] NOT NULL,
  [PlacedAt] [datetime2](7) NOT NULL
)
GO
ALTER TABLE [dbo].[Orders] ADD CONSTRAINT [FK_Orders_Customers] FOREIGN KEY([CustomerId]) REFERENCES [dbo].[Customers] ([CustomerId])
GO
CREATE PROCEDURE dbo.PlaceOrder @CustomerId int AS
BEGIN
  INSERT INTO dbo.Orders (OrderId, CustomerId, PlacedAt) VALUES (NEWID(), @CustomerId, SYSUTCDATETIME());
END
GO
`;

beforeAll(async () => {
  await loadPostgresParser();
});

/** pg_dump's way with a partitioned table (pagila 2.x), a domain type and a search column. */
const partitioned = `
CREATE DOMAIN public.year AS integer CONSTRAINT year_check CHECK (VALUE >= 1901 AND VALUE <= 2155);
CREATE TABLE public.customer (customer_id integer NOT NULL, email text);
CREATE TABLE public.film (film_id integer NOT NULL, title text NOT NULL, release_year public.year, fulltext tsvector NOT NULL);
CREATE TABLE public.payment (payment_id integer NOT NULL, customer_id integer NOT NULL, amount numeric(5,2) NOT NULL, payment_date timestamp with time zone NOT NULL) PARTITION BY RANGE (payment_date);
CREATE TABLE public.payment_p2022_01 (payment_id integer NOT NULL, customer_id integer NOT NULL, amount numeric(5,2) NOT NULL, payment_date timestamp with time zone NOT NULL);
CREATE TABLE public.payment_p2022_02 (payment_id integer NOT NULL, customer_id integer NOT NULL, amount numeric(5,2) NOT NULL, payment_date timestamp with time zone NOT NULL);
ALTER TABLE ONLY public.payment ATTACH PARTITION public.payment_p2022_01 FOR VALUES FROM ('2022-01-01 00:00:00+00') TO ('2022-02-01 00:00:00+00');
ALTER TABLE ONLY public.payment ATTACH PARTITION public.payment_p2022_02 FOR VALUES FROM ('2022-02-01 00:00:00+00') TO ('2022-03-01 00:00:00+00');
ALTER TABLE ONLY public.customer ADD CONSTRAINT customer_pkey PRIMARY KEY (customer_id);
ALTER TABLE ONLY public.film ADD CONSTRAINT film_pkey PRIMARY KEY (film_id);
ALTER TABLE ONLY public.payment ADD CONSTRAINT payment_pkey PRIMARY KEY (payment_date, payment_id);
ALTER TABLE ONLY public.payment_p2022_01 ADD CONSTRAINT payment_p2022_01_pkey PRIMARY KEY (payment_date, payment_id);
ALTER TABLE ONLY public.payment_p2022_01 ADD CONSTRAINT payment_p2022_01_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customer(customer_id);
ALTER TABLE ONLY public.payment_p2022_02 ADD CONSTRAINT payment_p2022_02_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customer(customer_id);
CREATE TABLE public.actor (actor_id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE public.film_actor (actor_id integer NOT NULL REFERENCES public.actor, film_id integer NOT NULL REFERENCES public.film,
  last_update timestamp with time zone DEFAULT now() NOT NULL, PRIMARY KEY (actor_id, film_id));
CREATE TABLE public.rating (actor_id integer NOT NULL REFERENCES public.actor, film_id integer NOT NULL REFERENCES public.film,
  stars integer NOT NULL, PRIMARY KEY (actor_id, film_id));
CREATE MATERIALIZED VIEW public.rental_by_category AS SELECT 1 AS category, 2 AS total_sales WITH NO DATA;
CREATE UNIQUE INDEX rental_category ON public.rental_by_category USING btree (category);
`;

describe("readDdl", () => {
  it("recognises the dialect on a large dump's start and reads the rest with that parser only (issue 28)", () => {
    const rows = Array.from(
      { length: 6000 },
      (_, i) => `INSERT INTO orders VALUES (${i}, ${i % 50}, 'a; b');`,
    );
    const text = `${mysql}\n${rows.join("\n")}\n`;
    expect(text.length).toBeGreaterThan(256 * 1024);
    const snapshot = readDdl(text, "dump.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "mysql" });
    expect(snapshot.source.kind === "ddl" ? snapshot.source.dialectReason : "").toMatch(
      /of the file's first \d+ KB/,
    );
    expect(snapshot.tables.map((t) => t.name).sort()).toEqual(["customers", "orders"]);
    expect(snapshot.unread).toEqual([]);
  });

  it("reads a partitioned table as one entity with its partitions' foreign keys, a domain by its base type, and leaves search columns out (issue 28)", () => {
    const snapshot = readDdl(partitioned, "pagila.sql", undefined, NOW);
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    // film_actor links actors and films (its last_update is the database's audit timestamp);
    // rating carries a value of its own, so it is an entity
    expect(draft.entities.map((e) => e.name).sort()).toEqual([
      "Actor",
      "Customer",
      "Film",
      "Payment",
      "Rating",
    ]);
    expect(draft.relationships).toContainEqual(
      expect.objectContaining({ parent: "Customer", child: "Payment", via: ["customerId"] }),
    );
    expect(draft.relationships).toContainEqual({ parent: "Actor", child: "Film", kind: "many-to-many" });
    expect(draft.relationships.filter((r) => r.child === "Payment")).toHaveLength(1);
    const film = draft.entities.find((e) => e.name === "Film");
    expect(film?.attributes?.find((a) => a.name === "releaseYear")?.type).toBe("number");
    expect(film?.attributes?.map((a) => a.name)).not.toContain("fulltext");
    expect(record.notes.join("\n")).toContain("film.fulltext (tsvector)");
  });

  it("reads the PostgreSQL example: entities, keys, types, foreign keys, the link table and the trigger", () => {
    const snapshot = readDdl(shop, "schema.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ kind: "ddl", dialect: "postgresql" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.map((e) => e.name).sort()).toEqual([
      "Address",
      "Category",
      "Customer",
      "Order",
      "OrderLine",
      "Product",
      "Review",
      "Tag",
    ]);
    expect(draft.entities.find((e) => e.name === "Order")).toMatchObject({ key: ["orderId"] });
    expect(draft.entities.find((e) => e.name === "Order")?.count).toBeUndefined(); // volumes are asked
    expect(draft.relationships).toContainEqual({
      parent: "Order",
      child: "OrderLine",
      via: ["orderId"],
      owned: true,
    });
    expect(draft.relationships).toContainEqual({ parent: "Product", child: "Tag", kind: "many-to-many" });
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toEqual(
      expect.arrayContaining(["trigger order_lines_decrement_stock", "function decrement_stock"]),
    );
    expect(draft.accessPatterns).toEqual([]);
  });

  it("reads MySQL's national character types (NVARCHAR, NCHAR, NATIONAL VARCHAR) as strings, and columns named like them (issue 28)", () => {
    const text = `CREATE TABLE \`address\` (
  address_id SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT,
  phone NVARCHAR(20) NOT NULL,
  code NCHAR(3),
  district NATIONAL VARCHAR(20),
  national INT,
  location GEOMETRY NOT NULL /*!80003 SRID 0 */,
  PRIMARY KEY (address_id),
  SPATIAL KEY \`idx_location\` (location)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`;
    const snapshot = readDdl(text, "sakila.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "mysql" });
    expect(snapshot.unread).toEqual([]);
    const columns = snapshot.tables[0]?.columns.map((c) => [c.name, c.type]);
    expect(columns).toEqual([
      ["address_id", "number"],
      ["phone", "string"],
      ["code", "string"],
      ["district", "string"],
      ["national", "number"],
      ["location", "string"],
    ]);
  });

  it("recognises MySQL and reads its keys, foreign keys (ON DELETE CASCADE) and triggers", () => {
    const snapshot = readDdl(mysql, "shop.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "mysql" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.find((e) => e.name === "Customer")).toMatchObject({ key: ["id"] });
    expect(draft.entities.find((e) => e.name === "Customer")?.attributes).toContainEqual({
      name: "email",
      type: "string",
      unique: true,
    });
    expect(draft.relationships).toEqual([
      { parent: "Customer", child: "Order", via: ["customerId"], owned: true },
    ]);
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toContain("trigger orders_ai");
  });

  it("recognises SQL Server scripts (GO, [names], ALTER TABLE foreign keys) and lists procedures", () => {
    const snapshot = readDdl(sqlserver, "shop.sql", undefined, NOW);
    expect(snapshot.source).toMatchObject({ dialect: "sqlserver" });
    const { draft, record } = mapSnapshot(snapshot, analyzePostgresStatement);
    expect(draft.entities.find((e) => e.name === "Customer")).toMatchObject({ key: ["customerId"] });
    expect(draft.entities.find((e) => e.name === "Customer")?.attributes).toContainEqual({
      name: "isActive",
      type: "boolean",
    });
    expect(draft.entities.find((e) => e.name === "Order")?.attributes).toContainEqual({
      name: "placedAt",
      type: "datetime",
    });
    expect(draft.relationships).toEqual([{ parent: "Customer", child: "Order", via: ["customerId"] }]);
    expect(record.unmapped.map((u) => `${u.kind} ${u.name}`)).toContain("procedure dbo.PlaceOrder");
  });

  it("lists a statement the parser cannot read and still imports the rest", () => {
    const snapshot = readDdl(
      `${shop}\nCREATE TABLE broken (id int PRIMARY KEY,,);\n`,
      "schema.sql",
      "postgresql",
      NOW,
    );
    expect(snapshot.tables.map((t) => t.name)).toContain("orders");
    expect(snapshot.unread).toHaveLength(1);
    expect(snapshot.unread[0]?.reason).toMatch(/PostgreSQL parser/);
  });

  it("keeps the name id only for a single-column primary key: another id column becomes idValue", () => {
    const ddl = `
CREATE TABLE lines (order_id int, line_no int, id text, PRIMARY KEY (order_id, line_no));
CREATE TABLE vehicles (vehicle_id int PRIMARY KEY, id text NOT NULL, "type" text);
CREATE TABLE people (id int PRIMARY KEY, name text);`;
    const { draft } = mapSnapshot(readDdl(ddl, "x.sql", "postgresql", NOW), analyzePostgresStatement);
    const names = (entity: string) =>
      draft.entities.find((e) => e.name === entity)?.attributes?.map((a) => a.name);
    expect(names("Line")).toEqual(["orderId", "lineNo", "idValue"]);
    expect(names("Vehicle")).toEqual(["vehicleId", "idValue", "typeValue"]);
    expect(names("Person")).toEqual(["id", "name"]);
    expect(draft.entities.find((e) => e.name === "Person")).toMatchObject({ key: ["id"] });
  });

  it("refuses a file without tables, saying what would be valid", () => {
    expect(() => readDdl("SELECT 1;", "x.sql", undefined, NOW)).toThrow(/no CREATE TABLE/);
  });
});
